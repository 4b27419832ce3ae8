"""The asynchronous Host API client: one shared ``httpx.AsyncClient``, typed calls, typed errors.

Every body is built here (never in flows or the window), picks the variant the processing
option needs (LG ``*_utgdevice``, DCP ``*_comengdevice``, DCC ``*_comengcloud``, HD card or
token bodies), is validated against our spec's limits before anything is sent, and is written
with amounts as JSON numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, Literal, TypeVar

import httpx

from cashier.host import codec, signing
from cashier.host.errors import HostError, HostProtocolError, HostTimeout, HostUnavailable
from cashier.host.models.base import HostModel
from cashier.host.models.common import Amount, Card, Customer, PurchaseCard, TipOptions
from cashier.host.models.transactions import SignatureResult, TransactionResult, VoidResult
from cashier.host.validation import validate_body, validate_invoice

log = logging.getLogger(__name__)
M = TypeVar("M", bound=HostModel)
ProcessingOption = Literal["HD", "LG", "DCP", "DCC"]
TimeoutClass = Literal["host", "device"]

#: ``ReversalReason`` values: 01 timeout, 02 POS lost connection, 03 merchant cancel, 04 customer
#: cancel, 05 card removed, 06 card declined, 07 PIN pad unavailable, 08 chip error, 09 fraud.
REVERSAL_REASONS = frozenset(f"0{i}" for i in range(1, 10))


@dataclass(slots=True)
class HostSettings:
    """What the client needs from the till profile; kept small so tests can build one."""

    base_url: str
    processing_option: ProcessingOption = "LG"
    interface_name: str = "Cashier"
    interface_version: str = "0.1"
    company_name: str = "Cashier"
    terminal_id: str | None = "1"
    device_manufacturer: str = "PAX"
    device_serial_number: str | None = None
    clerk_id: int = 1
    store_postal_code: str = "00000"
    product_descriptor: str = "Retail"
    connect_timeout_s: float = 5.0
    host_timeout_s: float = 40.0
    device_timeout_s: float = 180.0
    hmac_key_id: str | None = None
    hmac_secret: bytes | None = field(default=None, repr=False)


class HostClient:
    """Talks to the host (HD) or to an LG, DCP or DCC endpoint; one instance per till."""

    def __init__(self, settings: HostSettings, *, access_token: str | None = None,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.settings = settings
        self._access_token = access_token
        self._rule_path: str | None = None
        base = settings.base_url.rstrip("/")
        self._http = httpx.AsyncClient(
            base_url=base, transport=transport,
            timeout=httpx.Timeout(settings.host_timeout_s, connect=settings.connect_timeout_s),
            headers={"InterfaceVersion": settings.interface_version,
                     "InterfaceName": settings.interface_name,
                     "CompanyName": settings.company_name},
        )

    # ---- life cycle ------------------------------------------------------------------------
    async def __aenter__(self) -> HostClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def set_access_token(self, token: str | None) -> None:
        self._access_token = token

    async def warm_up(self) -> bool:
        """Open the connection before the first customer (the first request costs ~100 ms)."""
        try:
            await self._http.request("HEAD", "/", timeout=self.settings.connect_timeout_s)
        except httpx.HTTPError:
            return False
        return True

    # ---- the wire --------------------------------------------------------------------------
    @property
    def option(self) -> ProcessingOption:
        return self.settings.processing_option

    def now(self) -> str:
        """Merchant-local time with milliseconds and offset, as ``dateTime`` wants it."""
        return datetime.now().astimezone().isoformat(timespec="milliseconds")

    async def call_raw(self, method: str, path: str, body: Mapping[str, Any] | None = None, *,
                       headers: Mapping[str, str] | None = None,
                       timeout_class: TimeoutClass = "host", auth: bool = True) -> dict[str, Any]:
        """Send one request and return ``result[0]``, or raise the typed error."""
        content = b""
        send_headers: dict[str, str] = dict(headers or {})
        if body is not None:
            if method in ("GET", "DELETE"):
                raise ValueError("GET and DELETE carry no body in the Host API")
            body = dict(body)
            body.setdefault("dateTime", self.now())
            validate_body(path, body)
            content = codec.dumps(body).encode("utf-8")
            send_headers["Content-Type"] = "application/json"
        if auth:
            if self._access_token:
                send_headers["AccessToken"] = self._access_token
            if self.settings.hmac_key_id and self.settings.hmac_secret:
                send_headers["Authorization"] = signing.authorization_header(
                    self.settings.hmac_key_id, self.settings.hmac_secret, content)
        timeout = (self.settings.device_timeout_s if timeout_class == "device"
                   else self.settings.host_timeout_s)
        try:
            response = await self._http.request(
                method, path, content=content or None, headers=send_headers,
                timeout=httpx.Timeout(timeout, connect=self.settings.connect_timeout_s))
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
            raise HostUnavailable(f"{method} {path}: host not reachable ({type(exc).__name__})") from None
        except (httpx.ReadTimeout, httpx.WriteTimeout) as exc:
            raise HostTimeout(primary_code=9951, short_text="RESPONSE TIMEOUT",
                              long_text=f"no answer to {method} {path} ({type(exc).__name__})") from None
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
            raise HostTimeout(primary_code=9951, short_text="CONNECTION LOST",
                              long_text=f"connection lost during {method} {path} "
                                        f"({type(exc).__name__})") from None
        return self._unwrap(method, path, response)

    def _unwrap(self, method: str, path: str, response: httpx.Response) -> dict[str, Any]:
        status = response.status_code
        try:
            data = codec.loads(response.content) if response.content else None
        except ValueError:
            data = None
        item: Any = None
        if isinstance(data, dict) and isinstance(data.get("result"), list) and data["result"]:
            item = data["result"][0]
        if isinstance(item, dict) and isinstance(item.get("error"), dict):
            raise HostError.from_envelope(item["error"], status)
        if status == 504:
            raise HostTimeout(primary_code=9951, short_text="RESPONSE TIMEOUT",
                              long_text="HTTP 504 from the host", http_status=504)
        if status >= 400:
            raise HostError(short_text=f"HTTP {status}", long_text=f"{method} {path}",
                            http_status=status)
        if not isinstance(item, dict):
            raise HostProtocolError(f"{method} {path}: answer is not a Host API result (HTTP {status})")
        return item

    async def call(self, model: type[M], method: str, path: str,
                   body: Mapping[str, Any] | None = None, **kwargs: Any) -> M:
        return model.model_validate(await self.call_raw(method, path, body, **kwargs))

    # ---- body helpers ----------------------------------------------------------------------
    def device(self) -> dict[str, Any] | None:
        """The device object the processing option needs (None on HD)."""
        s = self.settings
        if s.processing_option == "LG":
            return {"terminalId": s.terminal_id or "1"}
        if s.processing_option == "DCP":
            return {"terminalId": s.terminal_id} if s.terminal_id else None
        if s.processing_option == "DCC":
            return {"cloud": True, "manufacturer": s.device_manufacturer,
                    "serialNumber": s.device_serial_number or s.terminal_id or "1"}
        return None

    def _purchase_card(self, invoice: str, customer: Customer | None) -> dict[str, Any]:
        postal = (customer.postal_code if customer and customer.postal_code
                  else self.settings.store_postal_code)
        return PurchaseCard(customer_reference=invoice, destination_postal_code=postal,
                            product_descriptors=[self.settings.product_descriptor]).wire()

    def _card_part(self, card: Card | None, *, present: bool = True) -> dict[str, Any] | None:
        if card is not None:
            return card.wire()
        if self.option == "HD":
            raise ValueError("HD needs a keyed card or a token: there is no PIN pad")
        return {"present": "Y" if present else "N"}

    def _payment_body(self, invoice: str, amount: Amount, card: Card | None,
                      customer: Customer | None, api_options: Sequence[str],
                      tip: TipOptions | None, clerk_id: int | None,
                      extra_transaction: Mapping[str, Any] | None = None,
                      purchase_card: bool = True) -> dict[str, Any]:
        validate_invoice(invoice)
        transaction: dict[str, Any] = {"invoice": invoice}
        if purchase_card:
            transaction["purchaseCard"] = self._purchase_card(invoice, customer)
        transaction.update(extra_transaction or {})
        amount_wire = amount.wire()
        if self.option in ("LG", "HD") or card is not None:
            amount_wire.pop("tipBasis", None)
        body: dict[str, Any] = {
            "amount": amount_wire,
            "clerk": {"numericId": clerk_id or self.settings.clerk_id},
            "transaction": transaction,
        }
        card_part = self._card_part(card)
        if card_part is not None:
            body["card"] = card_part
        if card is None:
            dev = self.device()
            if dev is not None:
                body["device"] = dev
        if customer is not None:
            body["customer"] = customer.wire()
        elif card is not None and card.number is not None:
            body["customer"] = {}
        if tip is not None and self.option in ("DCP", "DCC") and card is None:
            body["tip"] = tip.wire()
        if api_options:
            body["apiOptions"] = list(api_options)
        return body

    # ---- transactions ----------------------------------------------------------------------
    async def sale(self, *, invoice: str, amount: Amount, card: Card | None = None,
                   customer: Customer | None = None, tip: TipOptions | None = None,
                   api_options: Sequence[str] = ("ALLOWPARTIALAUTH",),
                   clerk_id: int | None = None) -> TransactionResult:
        """Authorize and capture. With no card, the PIN pad of the option reads it."""
        body = self._payment_body(invoice, amount, card, customer, api_options, tip, clerk_id)
        return await self.call(TransactionResult, "POST", "/transactions/sale", body,
                               timeout_class="device" if card is None else "host")

    async def authorization(self, *, invoice: str, amount: Amount, card: Card | None = None,
                            customer: Customer | None = None, tip: TipOptions | None = None,
                            api_options: Sequence[str] = ("ALLOWPARTIALAUTH",),
                            clerk_id: int | None = None) -> TransactionResult:
        body = self._payment_body(invoice, amount, card, customer, api_options, tip, clerk_id)
        return await self.call(TransactionResult, "POST", "/transactions/authorization", body,
                               timeout_class="device" if card is None else "host")

    async def incremental_authorization(self, *, invoice: str, amount: Amount, token: str,
                                        clerk_id: int | None = None) -> TransactionResult:
        """Raise an open authorization (``transactions_authorization_incremental``)."""
        validate_invoice(invoice)
        body = {"amount": amount.wire(), "clerk": {"numericId": clerk_id or self.settings.clerk_id},
                "transaction": {"invoice": invoice, "authType": "I"},
                "card": {"token": {"value": token}}}
        return await self.call(TransactionResult, "POST", "/transactions/authorization", body)

    async def capture(self, *, invoice: str, amount: Amount, token: str,
                      clerk_id: int | None = None) -> TransactionResult:
        """Close an authorization; ``amount.total`` 0 voids it, more seeks only the difference."""
        validate_invoice(invoice)
        body = {"amount": amount.wire(), "clerk": {"numericId": clerk_id or self.settings.clerk_id},
                "transaction": {"invoice": invoice}, "card": {"token": {"value": token}}}
        return await self.call(TransactionResult, "POST", "/transactions/capture", body)

    async def refund(self, *, invoice: str, amount: Amount, card: Card | None = None,
                     original_invoice: str | None = None, customer: Customer | None = None,
                     clerk_id: int | None = None) -> TransactionResult:
        """Linked when ``original_invoice`` is given; with no card the PIN pad reads one."""
        extra = {"originalInvoice": original_invoice} if original_invoice else None
        if original_invoice:
            validate_invoice(original_invoice, "transaction.originalInvoice")
        if amount.tax is None:
            amount = amount.model_copy(update={"tax": Decimal(0)})
        body = self._payment_body(invoice, amount, card, customer, (), None, clerk_id,
                                  extra_transaction=extra, purchase_card=False)
        return await self.call(TransactionResult, "POST", "/transactions/refund", body,
                               timeout_class="device" if card is None else "host")

    async def invoice_status(self, invoice: str, *, token: str | None = None,
                             api_options: Sequence[str] = ()) -> TransactionResult:
        """``GET /transactions/invoice``: what really happened after a timeout."""
        validate_invoice(invoice)
        headers = {"Invoice": invoice}
        if token:
            headers["Token"] = token
        if api_options:
            headers["ApiOptions"] = ",".join(api_options)
        return await self.call(TransactionResult, "GET", "/transactions/invoice", headers=headers)

    async def void(self, invoice: str, *, reversal_reason: str = "03",
                   token: str | None = None) -> VoidResult:
        """``DELETE /transactions/invoice``: void and reverse, not yet batched."""
        validate_invoice(invoice)
        if reversal_reason not in REVERSAL_REASONS:
            from cashier.errors import ValidationError

            raise ValidationError("ReversalReason", "must be 01 to 09")
        headers = {"Invoice": invoice, "ReversalReason": reversal_reason}
        if token:
            headers["Token"] = token
        return await self.call(VoidResult, "DELETE", "/transactions/invoice", headers=headers)

    async def manual_authorization(self, *, invoice: str, amount: Amount, authorization_code: str,
                                   card: Card | None = None,
                                   clerk_id: int | None = None) -> TransactionResult:
        body = self._payment_body(invoice, amount, card, None, (), None, clerk_id,
                                  extra_transaction={"authorizationCode": authorization_code})
        return await self.call(TransactionResult, "POST", "/transactions/manualauthorization",
                               body, timeout_class="device" if card is None else "host")

    async def manual_sale(self, *, invoice: str, amount: Amount, authorization_code: str,
                          card: Card | None = None, clerk_id: int | None = None) -> TransactionResult:
        body = self._payment_body(invoice, amount, card, None, (), None, clerk_id,
                                  extra_transaction={"authorizationCode": authorization_code})
        return await self.call(TransactionResult, "POST", "/transactions/manualsale", body,
                               timeout_class="device" if card is None else "host")

    async def upload_signature(self, *, invoice: str, data: str,
                               format: str = "PNG") -> SignatureResult:
        validate_invoice(invoice)
        body = {"transaction": {"invoice": invoice}, "signature": {"data": data, "format": format}}
        return await self.call(SignatureResult, "POST", "/transactions/signature", body)
