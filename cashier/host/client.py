"""The asynchronous Host API client: one shared ``httpx.AsyncClient``, typed calls, typed errors.

Every body is built here (never in flows or the window), picks the variant the processing
option needs (LG ``*_utgdevice``, DCP ``*_comengdevice``, DCC ``*_comengcloud``, HD card or
token bodies), is validated against our spec's limits before anything is sent, and is written
with amounts as JSON numbers.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import httpx

from cashier.errors import ValidationError
from cashier.host import codec, signing
from cashier.host.endpoints import BY_METHOD, RULE_VERIFY_FALLBACK
from cashier.host.errors import HostError, HostProtocolError, HostTimeout, HostUnavailable
from cashier.host.models.base import HostModel
from cashier.host.models.batches import BatchResult, ModeResult
from cashier.host.models.cards import CardIdentifyResult, CardVerifyResult
from cashier.host.models.common import (
    Amount,
    Card,
    Customer,
    NextStep,
    TipOptions,
    Ui,
)
from cashier.host.models.credentials import AccessTokenResult, CredentialIn
from cashier.host.models.devices import (
    CardReadResult,
    ChargeApiForm,
    ControllerForm,
    DeviceInfo,
    DeviceResult,
    DeviceStatus,
    PrintLine,
    PromptInput,
    StructuredPrint,
    TermsAndConditions,
    TipAmount,
    TipResult,
)
from cashier.host.models.extended import (
    AchResult,
    BankAggregatorResult,
    CheckoutSessionResult,
    DccRateResult,
    HostResult,
    OctResult,
    RiskAssessResult,
    RiskRuleResult,
    RuleVerifyResult,
    ThreeDSecureResult,
    UpdaterResult,
    WalletResult,
)
from cashier.host.models.giftcards import AmountGC, GiftCardResult
from cashier.host.models.qr import QrCancelResult, QrCodeResult, QrDetailsResult, QrStatusResult
from cashier.host.models.tokens import MerchantResult, TokenResult
from cashier.host.models.transactions import SignatureResult, TransactionResult, VoidResult
from cashier.host.validation import validate_invoice, validate_request

if TYPE_CHECKING:
    from cashier.config import TillProfile

log = logging.getLogger(__name__)
M = TypeVar("M", bound=HostModel)
ProcessingOption = Literal["HD", "LG", "DCP", "DCC"]
TimeoutClass = Literal["host", "device"]

Body = Mapping[str, Any] | HostModel
_BUSINESS_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

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

    @classmethod
    def from_profile(cls, profile: TillProfile, *, base_url: str | None = None,
                     hmac_secret: bytes | None = None) -> HostSettings:
        """The client's settings from a till profile (``base_url`` overrides, e.g. training)."""
        url = base_url or profile.host_url
        if url is None:
            raise ValidationError("host_url", "is required outside training mode")
        return cls(base_url=url, processing_option=profile.processing_option,
                   interface_name=profile.interface_name,
                   interface_version=profile.interface_version,
                   company_name=profile.company_name, terminal_id=profile.terminal_id,
                   device_manufacturer=profile.device_manufacturer,
                   device_serial_number=profile.device_serial_number, clerk_id=profile.clerk_id,
                   connect_timeout_s=profile.timeouts.connect_s,
                   host_timeout_s=profile.timeouts.host_s, device_timeout_s=profile.timeouts.device_s,
                   hmac_key_id=profile.hmac_key_id, hmac_secret=hmac_secret)


class HostClient:
    """Talks to the host (HD) or to an LG, DCP or DCC endpoint; one instance per till."""

    def __init__(self, settings: HostSettings, *, access_token: str | None = None,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.settings = settings
        self._access_token = access_token
        self._rule_path: str | None = None
        # built once: a Timeout per class of call (constructing one per request is measurable)
        self._timeouts: dict[str, httpx.Timeout] = {
            "host": httpx.Timeout(settings.host_timeout_s, connect=settings.connect_timeout_s),
            "device": httpx.Timeout(settings.device_timeout_s, connect=settings.connect_timeout_s),
        }
        #: Absolute URL per fixed path: httpx otherwise re-parses and re-joins the base URL on
        #: every request; a path with a query (an invoice lookup) is joined each time, uncached.
        self._urls: dict[str, httpx.URL] = {}
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
        return datetime.now(_local_zone()).isoformat(timespec="milliseconds")

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
            validate_request(path, body)
            content = codec.dumps(body).encode("utf-8")
            send_headers["Content-Type"] = "application/json"
        if auth:
            if self._access_token:
                send_headers["AccessToken"] = self._access_token
            if self.settings.hmac_key_id and self.settings.hmac_secret:
                send_headers["Authorization"] = signing.authorization_header(
                    self.settings.hmac_key_id, self.settings.hmac_secret, content)
        try:
            response = await self._http.request(
                method, self._url(path), content=content or None, headers=send_headers,
                timeout=self._timeouts[timeout_class])
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

    def _url(self, path: str) -> httpx.URL | str:
        url = self._urls.get(path)
        if url is None:
            if "?" in path or len(self._urls) >= 256:
                return path
            # the URL httpx itself would build for this path on this client, built once
            url = self._urls[path] = self._http.build_request("GET", path).url
        return url

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
            # a 504 is a timeout whatever the envelope says (OCT, ACH, updater carry no 9951)
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
        item = await self.call_raw(method, path, body, **kwargs)
        try:
            return model.model_validate(item)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            raise HostProtocolError(f"{method} {path}: answer does not fit {model.__name__} "
                                    f"({_first_problem(exc)})") from None

    async def cancel_device_prompt(self) -> DeviceResult:
        """Free the PIN pad from a pending prompt (``/devices/reset``): the waiting call then
        ends with the host's cancelled answer. Uses the short host timeout on purpose."""
        return await self.device_reset()

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

    def _device_part(self, **extra: Any) -> dict[str, Any] | None:
        """``device`` for a device operation: the option's object plus the prompt's fields."""
        fields = {k: v for k, v in extra.items() if v is not None}
        base = self.device()
        if base is None and not fields:
            return None
        out = dict(base or {})
        out.update(fields)
        return out

    @property
    def _controller(self) -> bool:
        """True on the device controllers (DCP, DCC), whose bodies carry ui, nextStep, tip."""
        return self.option in ("DCP", "DCC")

    def _timeout_for(self, card: Card | None) -> TimeoutClass:
        return "device" if card is None and self.option != "HD" else "host"

    def _purchase_card(self, invoice: str, customer: Customer | None) -> dict[str, Any]:
        postal = (customer.postal_code if customer and customer.postal_code
                  else self.settings.store_postal_code)
        # the wire shape of ``PurchaseCard``, built directly (hot path; the limits are checked
        # by validate_request like every other field)
        return {"customerReference": invoice, "destinationPostalCode": postal,
                "productDescriptors": [self.settings.product_descriptor]}

    def _card_part(self, card: Card | None, *, present: bool = True) -> dict[str, Any] | None:
        if card is not None:
            wire = card.wire()
            exp = wire.get("expirationDate")
            if isinstance(exp, str) and exp.isdigit():
                wire["expirationDate"] = int(exp)  # the vendor types MMYY as an integer
            if card.number is not None and card.token is None:
                # the unencrypted-card bodies require entry mode and a security code object
                wire.setdefault("entryMode", "M")
                code = dict(wire.get("securityCode") or {})
                code.setdefault("indicator", "1" if code.get("value") else "0")
                code.setdefault("value", "")
                wire["securityCode"] = code
            return wire
        if self.option == "HD":
            raise ValidationError("card", "HD needs a keyed card or a token: there is no PIN pad")
        return {"present": "Y" if present else "N"}

    def _customer_part(self, card: Card | None, customer: Customer | None) -> dict[str, Any] | None:
        if customer is not None:
            return customer.wire()
        if card is not None and card.number is not None and card.token is None:
            # Decision: the unencrypted-card body requires customer.postalCode; with no customer
            # given, the store's postal code is sent (docs/decisions.md).
            return {"postalCode": self.settings.store_postal_code}
        return None

    def _payment_body(self, invoice: str, amount: Amount, card: Card | None,
                      customer: Customer | None, api_options: Sequence[str],
                      tip: TipOptions | None, clerk_id: int | None,
                      extra_transaction: Mapping[str, Any] | None = None,
                      purchase_card: bool = True, ui: Ui | None = None,
                      extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
        validate_invoice(invoice)
        transaction: dict[str, Any] = {"invoice": invoice}
        if purchase_card:
            transaction["purchaseCard"] = self._purchase_card(invoice, customer)
        transaction.update(extra_transaction or {})
        amount_wire = amount.wire()
        if "tax" not in amount_wire:
            amount_wire["tax"] = Decimal(0)  # tax is required; 0 when there is none
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
        customer_part = self._customer_part(card, customer)
        if customer_part is not None:
            body["customer"] = customer_part
        if card is None and self._controller:
            if tip is not None:
                body["tip"] = tip.wire()
            if ui is not None:
                body["ui"] = ui.wire()
        if api_options:
            body["apiOptions"] = list(api_options)
        if extra:
            body.update(extra)
        return body

    @staticmethod
    def _wire(value: Body | None) -> dict[str, Any]:
        if value is None:
            return {}
        if isinstance(value, HostModel):
            return value.wire()
        return dict(value)

    # ---- credentials -----------------------------------------------------------------------
    async def exchange_access_token(self, *, client_guid: str, auth_token: str) -> AccessTokenResult:
        """Trade the analyst's client GUID and auth token for the access token. No
        ``AccessToken`` header is sent on this call; the caller stores the answer securely."""
        for name, value in (("credential.clientGuid", client_guid), ("credential.authToken", auth_token)):
            if not value or len(value) > 51:
                raise ValidationError(name, "must be 1 to 51 characters")
        credential = CredentialIn(client_guid=client_guid, auth_token=auth_token)
        return await self.call(AccessTokenResult, "POST", "/credentials/accesstoken",
                               {"credential": credential.wire()}, auth=False)

    # ---- transactions ----------------------------------------------------------------------
    async def sale(self, *, invoice: str, amount: Amount, card: Card | None = None,
                   customer: Customer | None = None, tip: TipOptions | None = None,
                   api_options: Sequence[str] = ("ALLOWPARTIALAUTH",),
                   clerk_id: int | None = None, ui: Ui | None = None,
                   extra: Mapping[str, Any] | None = None) -> TransactionResult:
        """Authorize and capture. With no card, the PIN pad of the option reads it."""
        body = self._payment_body(invoice, amount, card, customer, api_options, tip, clerk_id,
                                  ui=ui, extra=extra)
        return await self.call(TransactionResult, "POST", "/transactions/sale", body,
                               timeout_class=self._timeout_for(card))

    async def authorization(self, *, invoice: str, amount: Amount, card: Card | None = None,
                            customer: Customer | None = None, tip: TipOptions | None = None,
                            api_options: Sequence[str] = ("ALLOWPARTIALAUTH",),
                            clerk_id: int | None = None, ui: Ui | None = None,
                            extra: Mapping[str, Any] | None = None) -> TransactionResult:
        body = self._payment_body(invoice, amount, card, customer, api_options, tip, clerk_id,
                                  ui=ui, extra=extra)
        return await self.call(TransactionResult, "POST", "/transactions/authorization", body,
                               timeout_class=self._timeout_for(card))

    async def incremental_authorization(self, *, invoice: str, amount: Amount, token: str,
                                        clerk_id: int | None = None) -> TransactionResult:
        """Raise an open authorization (``transactions_authorization_incremental``).

        ``amount.total`` is the NEW authorized total: the host compares it with the amount on
        file for the invoice and seeks approval only for the difference (our spec). The vendor
        body has no marker for "incremental" (``authType`` is only 1 final / 2 pre-auth), so
        none is sent; a token body on an open invoice is what makes it one.
        """
        validate_invoice(invoice)
        wire = amount.wire()
        wire.setdefault("tax", Decimal(0))
        body = {"amount": wire, "clerk": {"numericId": clerk_id or self.settings.clerk_id},
                "transaction": {"invoice": invoice}, "card": {"token": {"value": token}}}
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
        if card is not None and "present" not in body["card"]:
            body["card"]["present"] = "N"  # a keyed or token refund: the card is not here
        return await self.call(TransactionResult, "POST", "/transactions/refund", body,
                               timeout_class=self._timeout_for(card))

    async def invoice_status(self, invoice: str, *, token: str | None = None,
                             api_options: Sequence[str] = ()) -> TransactionResult:
        """``GET /transactions/invoice``: what really happened after a timeout."""
        validate_invoice(invoice)
        headers = {"Invoice": invoice}
        if token:
            headers["Token"] = token
        if api_options:
            headers["ApiOptions"] = _api_options_header(api_options)
        return await self.call(TransactionResult, "GET", "/transactions/invoice", headers=headers)

    async def void(self, invoice: str, *, reversal_reason: str = "03",
                   token: str | None = None) -> VoidResult:
        """``DELETE /transactions/invoice``: void and reverse, not yet batched."""
        validate_invoice(invoice)
        if reversal_reason not in REVERSAL_REASONS:
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
                               body, timeout_class=self._timeout_for(card))

    async def manual_sale(self, *, invoice: str, amount: Amount, authorization_code: str,
                          card: Card | None = None, clerk_id: int | None = None) -> TransactionResult:
        body = self._payment_body(invoice, amount, card, None, (), None, clerk_id,
                                  extra_transaction={"authorizationCode": authorization_code})
        return await self.call(TransactionResult, "POST", "/transactions/manualsale", body,
                               timeout_class=self._timeout_for(card))

    async def upload_signature(self, *, invoice: str, data: str,
                               format: str = "P") -> SignatureResult:
        """Attach a signature to an invoice; the vendor's only format value is ``P`` (PNG)."""
        validate_invoice(invoice)
        if format.upper() == "PNG":
            format = "P"
        body = {"transaction": {"invoice": invoice}, "signature": {"data": data, "format": format}}
        return await self.call(SignatureResult, "POST", "/transactions/signature", body)

    # ---- tokens and merchant ---------------------------------------------------------------
    async def token_add(self, *, card: Card | None = None, customer: Customer | None = None,
                        api_options: Sequence[str] = ()) -> TokenResult:
        """Store card data and get a token; with no card the option's PIN pad reads it."""
        body: dict[str, Any] = {}
        if card is not None:
            body["card"] = self._card_part(card)
        else:
            dev = self._device_part()
            if dev is None and self.option == "HD":
                raise ValidationError("card", "HD needs a keyed card: there is no PIN pad")
            if dev is not None:
                body["device"] = dev
        customer_part = self._customer_part(card, customer)
        if customer_part is not None:
            body["customer"] = customer_part
        if api_options:
            body["apiOptions"] = list(api_options)
        return await self.call(TokenResult, "POST", "/tokens/add", body,
                               timeout_class=self._timeout_for(card))

    async def token_duplicate(self, token: str, *, api_options: Sequence[str] = ()) -> TokenResult:
        body: dict[str, Any] = {"card": {"token": {"value": token}}}
        if api_options:
            body["apiOptions"] = list(api_options)
        return await self.call(TokenResult, "POST", "/tokens/duplicate", body)

    async def token_delete(self, token: str) -> TokenResult:
        """Irreversible."""
        return await self.call(TokenResult, "POST", "/tokens/delete",
                               {"card": {"token": {"value": token}}})

    async def universal_token(self, *, token: str | None = None,
                              card_number: str | None = None) -> TokenResult:
        """The existing universal token of a card, asked for by token (or keyed number)."""
        headers: dict[str, str] = {}
        if token:
            headers["Token"] = token
        if card_number:
            headers["CardNumber"] = card_number
        if not headers:
            raise ValidationError("Token", "a token or a card number is required")
        return await self.call(TokenResult, "GET", "/tokens/universaltoken", headers=headers)

    async def token_four_words(self, token: str) -> TokenResult:
        """Four-word reference; legacy-style tokens only."""
        return await self.call(TokenResult, "POST", "/tokens/4words",
                               {"card": {"token": {"value": token}}})

    async def merchant_info(self, *, api_options: Sequence[str] = ()) -> MerchantResult:
        """``RETURNPROCESSORS`` adds the card ranges per processor."""
        headers = {"ApiOptions": _api_options_header(api_options)} if api_options else None
        return await self.call(MerchantResult, "GET", "/merchants/merchant", headers=headers)

    # ---- gift cards ------------------------------------------------------------------------
    def _giftcard_body(self, invoice: str, card: Card | None, *,
                       amount: Decimal | AmountGC | None = None,
                       deactivation_reason: str | None = None,
                       api_options: Sequence[str] = ()) -> dict[str, Any]:
        validate_invoice(invoice)
        body: dict[str, Any] = {"transaction": {"invoice": invoice}}
        if amount is not None:
            gc = amount if isinstance(amount, AmountGC) else AmountGC(total=amount)
            body["amount"] = gc.wire()
        card_part = self._card_part(card) or {}
        if card is not None:
            # gift card bodies carry only number, expiry and code value
            card_part.pop("entryMode", None)
            code = card_part.get("securityCode")
            if isinstance(code, dict):
                if code.get("value"):
                    card_part["securityCode"] = {"value": code["value"]}
                else:
                    card_part.pop("securityCode")
        card_part.setdefault("present", "Y" if card is None else "N")
        if deactivation_reason is not None:
            card_part["deactivationReason"] = deactivation_reason
        body["card"] = card_part
        if card is None:
            dev = self.device()
            if dev is not None:
                body["device"] = dev
        if api_options:
            body["apiOptions"] = list(api_options)
        return body

    async def _giftcard(self, op: str, body: dict[str, Any], card: Card | None) -> GiftCardResult:
        return await self.call(GiftCardResult, "POST", f"/giftcards/{op}", body,
                               timeout_class=self._timeout_for(card))

    async def giftcard_activate(self, *, invoice: str, amount: Decimal | AmountGC | None = None,
                                card: Card | None = None) -> GiftCardResult:
        """Activate a card, loading ``amount`` when given."""
        body = self._giftcard_body(invoice, card, amount=amount if amount is not None else Decimal(0))
        if amount is None:
            body.pop("amount")
        return await self._giftcard("activate", body, card)

    async def giftcard_allocate(self, *, invoice: str, amount: Decimal | AmountGC,
                                program_id: str | None = None) -> GiftCardResult:
        """A new card generated under a Program ID (no card read)."""
        validate_invoice(invoice)
        gc = amount if isinstance(amount, AmountGC) else AmountGC(total=amount)
        body: dict[str, Any] = {"amount": gc.wire(), "transaction": {"invoice": invoice}}
        if program_id is not None:
            body["programId"] = program_id
        return await self.call(GiftCardResult, "POST", "/giftcards/allocate", body)

    async def giftcard_reload(self, *, invoice: str, amount: Decimal | AmountGC,
                              card: Card | None = None) -> GiftCardResult:
        return await self._giftcard("reload", self._giftcard_body(invoice, card, amount=amount), card)

    async def giftcard_balance(self, *, invoice: str, card: Card | None = None,
                               history: bool = False) -> GiftCardResult:
        """Balance; ``history`` sends RETURNHIST and fills ``history[]``. A fee may apply."""
        body = self._giftcard_body(invoice, card, api_options=("RETURNHIST",) if history else ())
        return await self._giftcard("balance", body, card)

    async def giftcard_deactivate(self, *, invoice: str, reason: str = "Customer request",
                                  card: Card | None = None) -> GiftCardResult:
        body = self._giftcard_body(invoice, card, deactivation_reason=reason)
        return await self._giftcard("deactivate", body, card)

    async def giftcard_reactivate(self, *, invoice: str, card: Card | None = None) -> GiftCardResult:
        return await self._giftcard("reactivate", self._giftcard_body(invoice, card), card)

    async def giftcard_cashback(self, *, invoice: str, reason: str = "Cash out",
                                card: Card | None = None) -> GiftCardResult:
        """Deactivate and remove the balance, to return it as cash."""
        body = self._giftcard_body(invoice, card, deactivation_reason=reason)
        return await self._giftcard("cashback", body, card)

    async def giftcard_cashout(self, *, invoice: str, reason: str = "Cash out",
                               card: Card | None = None) -> GiftCardResult:
        """Deprecated twin of ``giftcard_cashback``, kept for hosts that only know it."""
        body = self._giftcard_body(invoice, card, deactivation_reason=reason)
        return await self._giftcard("cashout", body, card)

    async def giftcard_cancel(self, *, invoice: str, token: str) -> GiftCardResult:
        """Undo the last gift card request; token bodies only (keep it from the answer)."""
        validate_invoice(invoice)
        body = {"transaction": {"invoice": invoice}, "card": {"token": {"value": token}}}
        return await self.call(GiftCardResult, "POST", "/giftcards/cancel", body)

    # ---- cards -----------------------------------------------------------------------------
    async def card_verify(self, *, card: Card | None = None, customer: Customer | None = None,
                          api_options: Sequence[str] = ()) -> CardVerifyResult:
        """Validate with the processor (AVS and CSC when sent); with no card the pad reads one."""
        body: dict[str, Any] = {}
        if card is not None:
            body["card"] = self._card_part(card)
        else:
            dev = self._device_part()
            if dev is None:
                raise ValidationError("card", "HD needs a keyed card or a token: there is no PIN pad")
            body["device"] = dev
        if customer is not None:
            body["customer"] = customer.wire()
        if api_options:
            body["apiOptions"] = list(api_options)
        return await self.call(CardVerifyResult, "POST", "/cards/verify", body,
                               timeout_class=self._timeout_for(card))

    async def card_identify(self, *, card: Card | None = None) -> CardIdentifyResult:
        body: dict[str, Any] = {}
        if card is not None:
            body["card"] = self._card_part(card)
        else:
            dev = self._device_part()
            if dev is None:
                raise ValidationError("card", "HD needs a keyed card or a token: there is no PIN pad")
            body["device"] = dev
        return await self.call(CardIdentifyResult, "POST", "/cards/identify", body,
                               timeout_class=self._timeout_for(card))

    # ---- devices ---------------------------------------------------------------------------
    def _controller_extras(self, body: dict[str, Any], ui: Ui | None,
                           next_step: NextStep | None) -> None:
        """ui and nextStep exist only on the device controllers; LG bodies never carry them."""
        if not self._controller:
            return
        if ui is not None:
            body["ui"] = ui.wire()
        if next_step is not None:
            body.setdefault("device", {})["nextStep"] = next_step.wire()

    async def _device_call(self, model: type[M], path: str, body: dict[str, Any], *,
                           timeout_class: TimeoutClass = "device") -> M:
        return await self.call(model, "POST", path, body, timeout_class=timeout_class)

    async def device_prompt_signature(self, *, display_text: str | None = None,
                                      next_step: NextStep | None = None,
                                      ui: Ui | None = None) -> DeviceResult:
        """Signature on the pad; ``display_text`` (≤72) shows on the device controllers only."""
        dev = self._device_part(displayText=display_text if self._controller else None)
        body: dict[str, Any] = {"device": dev} if dev is not None else {}
        self._controller_extras(body, ui, next_step)
        return await self._device_call(DeviceResult, "/devices/promptsignature", body)

    async def device_prompt_confirmation(self, question: str) -> DeviceResult:
        """Yes/no question on the pad (LG)."""
        dev = self._device_part(promptConfirmation={"question": question})
        return await self._device_call(DeviceResult, "/devices/promptconfirmation", {"device": dev})

    async def device_terms_and_conditions(self, terms: TermsAndConditions | str, *,
                                          next_step: NextStep | None = None,
                                          ui: Ui | None = None) -> DeviceResult:
        """Terms to accept (A) or decline (D); header and ack text are for the controllers."""
        t = terms if isinstance(terms, TermsAndConditions) else TermsAndConditions(value=terms)
        wire = t.wire()
        if not self._controller:
            wire = {k: v for k, v in wire.items() if k in ("value",)}
        body: dict[str, Any] = {"device": self._device_part(promptTermsAndConditions=wire)}
        self._controller_extras(body, ui, next_step)
        return await self._device_call(DeviceResult, "/devices/termsandconditions", body)

    async def device_line_items(self, items: Sequence[str], *, append: bool = False) -> DeviceResult:
        """Show up to 10 line items (LG); ``append`` keeps those already shown."""
        body: dict[str, Any] = {"device": self._device_part(lineItems=list(items))}
        if append:
            body["apiOptions"] = ["APPENDLINEITEM"]
        return await self._device_call(DeviceResult, "/devices/lineitems", body, timeout_class="host")

    async def device_clear_line_items(self) -> DeviceResult:
        return await self.call(DeviceResult, "DELETE", "/devices/lineitems",
                               headers=self._terminal_header(required=True))

    async def device_info(self) -> DeviceInfo:
        """Device status and information; ``TerminalID`` is required on LG."""
        return await self.call(DeviceInfo, "GET", "/devices/info",
                               headers=self._terminal_header(required=self.option == "LG"))

    def _terminal_header(self, *, required: bool) -> dict[str, str]:
        tid = self.settings.terminal_id
        if not tid:
            if required:
                raise ValidationError("TerminalID", "is required: set terminal_id in the till profile")
            return {}
        return {"TerminalID": tid}

    async def device_initialize_readers(self) -> DeviceResult:
        """Ask for the card before the amount is known (LG); the sale then uses the read."""
        return await self._device_call(DeviceResult, "/devices/initializereaders",
                                       {"device": self._device_part()}, timeout_class="host")

    async def device_reset(self) -> DeviceResult:
        """Back to idle; a pending prompt is cancelled. Short timeout: it must not queue."""
        dev = self._device_part()
        body: dict[str, Any] = {"device": dev} if dev is not None else {}
        return await self._device_call(DeviceResult, "/devices/reset", body, timeout_class="host")

    async def device_prompt_card_read(self, *, display_text: str | None = None,
                                      timeout_s: int | None = None, suppress_beeper: bool | None = None,
                                      api_options: Sequence[str] = (),
                                      ui: Ui | None = None) -> CardReadResult:
        """Pass-through card read (unvalidated). On DCP ``timeout_s`` 0 waits until a reset."""
        body: dict[str, Any] = {}
        dev = self._device_part(displayText=display_text if self._controller else None)
        if dev is not None:
            body["device"] = dev
        if self._controller:
            if timeout_s is not None:
                body["timeout"] = timeout_s
            if suppress_beeper is not None:
                body["volume"] = {"suppressBeeper": suppress_beeper}
        if api_options:
            body["apiOptions"] = list(api_options)
        self._controller_extras(body, ui, None)
        return await self._device_call(CardReadResult, "/devices/promptcardread", body)

    async def device_prompt_input(self, index: str | PromptInput, *,
                                  next_step: NextStep | None = None,
                                  ui: Ui | None = None) -> DeviceResult:
        """One value from the consumer, by the index of a prompt configured on the pad."""
        prompt = index if isinstance(index, PromptInput) else PromptInput(index=index)
        body: dict[str, Any] = {"device": self._device_part(promptInput=prompt.wire())}
        self._controller_extras(body, ui, next_step)
        return await self._device_call(DeviceResult, "/devices/promptinput", body)

    async def device_process_form(self, form: ControllerForm | ChargeApiForm, *,
                                  next_step: NextStep | None = None,
                                  ui: Ui | None = None) -> DeviceResult:
        """A custom form: by name on LG (``ChargeApiForm``), described in full on DCP/DCC."""
        body: dict[str, Any] = {}
        if isinstance(form, ChargeApiForm):
            body["device"] = self._device_part(form=form.wire())
        else:
            body["form"] = form.wire()
            dev = self._device_part()
            if dev is not None:
                body["device"] = dev
        self._controller_extras(body, ui, next_step)
        return await self._device_call(DeviceResult, "/devices/processform", body)

    async def device_print(self, receipt: Sequence[PrintLine] | StructuredPrint) -> DeviceResult:
        """Print on the pad's printer: receipt lines, or structured printing (DCP/DCC)."""
        body: dict[str, Any] = {}
        if isinstance(receipt, StructuredPrint):
            body["print"] = receipt.wire()
        else:
            body["receipt"] = [line.wire() for line in receipt]
        dev = self._device_part()
        if dev is not None:
            body["device"] = dev
        return await self._device_call(DeviceResult, "/devices/print", body)

    async def device_get_status(self) -> DeviceStatus:
        """Registered, connected and offline state of the pad (DCP, DCC)."""
        body: dict[str, Any] = {}
        if self.option == "DCC":
            body["device"] = self.device()
        return await self._device_call(DeviceStatus, "/devices/getstatus", body, timeout_class="host")

    async def device_prompt_tip(self, *, total: Decimal, tip: TipOptions,
                                tip_basis: Decimal | None = None, ui: Ui | None = None) -> TipResult:
        """Ask for a tip outside a payment (DCP, DCC); the answer has the tip and the option."""
        body: dict[str, Any] = {
            "amount": TipAmount(total=total, tip_basis=tip_basis).wire(),
            "tip": tip.wire(),
        }
        dev = self._device_part()
        if dev is not None:
            body["device"] = dev
        if ui is not None:
            body["ui"] = ui.wire()
        return await self._device_call(TipResult, "/devices/prompttip", body)

    # ---- batches ---------------------------------------------------------------------------
    async def batch_totals(self, business_date: date | str, *,
                           inclusive: bool = True) -> BatchResult:
        """Totals up to (``inclusive``) or for exactly ``business_date``."""
        day = _business_date(business_date, "BusinessDate")
        headers = {"BusinessDate": day, "Inclusive": "Y" if inclusive else "N"}
        return await self.call(BatchResult, "GET", "/reports/batchtotals", headers=headers)

    async def batch_submit(self, business_date: date | str, *, inclusive: bool = True,
                           net_amount: Decimal | None = None,
                           net_count: int | None = None) -> BatchResult:
        """Close the batch; a net amount or count that does not match gives 9300/2."""
        batch: dict[str, Any] = {"inclusive": "Y" if inclusive else "N"}
        if net_amount is not None:
            batch["netAmount"] = net_amount
        if net_count is not None:
            batch["netCount"] = net_count
        body = {"transaction": {"businessDate": _business_date(business_date,
                                                               "transaction.businessDate")},
                "batch": batch}
        return await self.call(BatchResult, "POST", "/batches/submit", body)

    # ---- QR payments -----------------------------------------------------------------------
    async def qr_get_code(self, *, invoice: str, amount: Amount, sale: bool = True,
                          vendor_reference: str | None = None) -> QrCodeResult:
        """A transaction QR code for ``amount``; ``sale`` False makes it an authorization."""
        validate_invoice(invoice)
        wire = {k: v for k, v in amount.wire().items() if k in ("total", "tax", "tip", "cashback")}
        wire.setdefault("tax", Decimal(0))
        transaction: dict[str, Any] = {"invoice": invoice, "saleFlag": "S" if sale else "A"}
        if vendor_reference is not None:
            transaction["vendorReference"] = vendor_reference
        return await self.call(QrCodeResult, "POST", "/qrpayments/getqrcode",
                               {"amount": wire, "transaction": transaction})

    async def qr_get_details(self, qr_code: str) -> QrDetailsResult:
        return await self.call(QrDetailsResult, "POST", "/qrpayments/getqrdetails",
                               {"qrCode": {"value": qr_code}})

    async def qr_payment_status(self, qr_code: str) -> QrStatusResult:
        """Poll: A approved, C cancelled, T cancelled and reversed; the sale shape otherwise."""
        return await self.call(QrStatusResult, "POST", "/qrpayments/getqrpaymentstatus",
                               {"qrCode": {"value": qr_code}})

    async def qr_cancel(self, qr_code: str) -> QrCancelResult:
        return await self.call(QrCancelResult, "POST", "/qrpayments/cancelqrpayment",
                               {"qrCode": {"value": qr_code}})

    # ---- mode ------------------------------------------------------------------------------
    async def mode_offline(self) -> ModeResult:
        """LG (3080 or later, feature on) or DCP goes offline for a configured maximum."""
        return await self.call(ModeResult, "POST", "/mode/offline", {})

    async def mode_online(self) -> ModeResult:
        return await self.call(ModeResult, "POST", "/mode/online", {})

    # ---- risk, wallet, 3-D Secure, OCT, ACH, updater, DCC, rules, checkout ------------------
    async def risk_assess(self, body: Body) -> RiskAssessResult:
        return await self.call(RiskAssessResult, "POST", "/risk/assess", self._wire(body))

    async def risk_rule_status(self, body: Body) -> RiskRuleResult:
        return await self.call(RiskRuleResult, "POST", "/risk/rulestatus", self._wire(body))

    async def risk_rule_update(self, body: Body) -> RiskRuleResult:
        return await self.call(RiskRuleResult, "POST", "/risk/ruleupdate", self._wire(body))

    async def wallet_initiate(self, body: Body) -> WalletResult:
        return await self.call(WalletResult, "POST", "/wallet/initiate", self._wire(body))

    async def wallet_sale(self, body: Body) -> WalletResult:
        return await self.call(WalletResult, "POST", "/wallet/sale", self._wire(body))

    async def wallet_refund(self, body: Body) -> WalletResult:
        return await self.call(WalletResult, "POST", "/wallet/refund", self._wire(body))

    async def three_d_secure_standalone(self, body: Body) -> ThreeDSecureResult:
        return await self.call(ThreeDSecureResult, "POST", "/3dsecure/standalone", self._wire(body))

    async def three_d_secure_completion(self, body: Body) -> ThreeDSecureResult:
        return await self.call(ThreeDSecureResult, "POST", "/3dsecure/completion", self._wire(body))

    async def oct_payout(self, body: Body) -> OctResult:
        return await self.call(OctResult, "POST", "/oct/payout", self._wire(body))

    async def oct_update_recipient(self, body: Body) -> OctResult:
        return await self.call(OctResult, "POST", "/oct/updaterecipient", self._wire(body))

    async def ach_verify(self, body: Body) -> AchResult:
        return await self.call(AchResult, "POST", "/ach/verify", self._wire(body))

    async def ach_sale(self, body: Body) -> AchResult:
        return await self.call(AchResult, "POST", "/ach/sale", self._wire(body))

    async def ach_refund(self, body: Body) -> AchResult:
        """``transaction.originalInvoice`` is required here (checked before sending)."""
        return await self.call(AchResult, "POST", "/ach/refund", self._wire(body))

    async def ach_status(self, body: Body) -> AchResult:
        return await self.call(AchResult, "POST", "/ach/status", self._wire(body))

    async def ach_link_token_create(self, body: Body) -> BankAggregatorResult:
        return await self.call(BankAggregatorResult, "POST", "/ach/bankaggregator/link_token/create",
                               self._wire(body))

    async def ach_public_token_exchange(self, body: Body) -> BankAggregatorResult:
        return await self.call(BankAggregatorResult, "POST",
                               "/ach/bankaggregator/public_token/exchange", self._wire(body))

    async def updater_request(self, body: Body) -> UpdaterResult:
        return await self.call(UpdaterResult, "POST", "/updater/request", self._wire(body))

    async def updater_status(self, body: Body) -> UpdaterResult:
        return await self.call(UpdaterResult, "POST", "/updater/status", self._wire(body))

    async def dcc_rate_lookup(self, body: Body) -> DccRateResult:
        return await self.call(DccRateResult, "POST", "/dcc/ratelookup", self._wire(body))

    async def rules_verify(self, body: Body) -> RuleVerifyResult:
        """Our spec says ``/rules/verify``, a later correction ``/rule/verify``: send the first,
        fall back to the second on a 404, and remember which one the server took."""
        wire = self._wire(body)
        if self._rule_path is not None:
            return await self.call(RuleVerifyResult, "POST", self._rule_path, wire)
        primary = BY_METHOD["rules_verify"].path
        try:
            result = await self.call(RuleVerifyResult, "POST", primary, wire)
        except HostError as exc:
            if exc.http_status != 404:
                raise
            result = await self.call(RuleVerifyResult, "POST", RULE_VERIFY_FALLBACK, wire)
            self._rule_path = RULE_VERIFY_FALLBACK
            return result
        self._rule_path = primary
        return result

    @property
    def rule_verify_path(self) -> str | None:
        """The rules path the server accepted, once known."""
        return self._rule_path

    async def checkout_session_create(self, body: Body) -> CheckoutSessionResult:
        return await self.call(CheckoutSessionResult, "POST", "/checkoutsessions/create",
                               self._wire(body))

    async def checkout_session_list(self, body: Body | None = None, *,
                                    status: str | None = None) -> CheckoutSessionResult:
        """List sessions, filtered by ``status`` when given."""
        wire = self._wire(body)
        if status is not None:
            wire["status"] = status
        return await self.call(CheckoutSessionResult, "POST", "/checkoutsessions/list", wire)

    async def checkout_session_retrieve(self, body: Body) -> CheckoutSessionResult:
        return await self.call(CheckoutSessionResult, "POST", "/checkoutsessions/retrieve",
                               self._wire(body))

    async def call_operation(self, method: str, path: str, body: Body | None = None,
                             **kwargs: Any) -> HostResult:
        """Any operation by path, for tools and tests; the answer keeps every field."""
        return await self.call(HostResult, method, path, None if body is None else self._wire(body),
                               **kwargs)


_zone_cache: tuple[float, tzinfo] | None = None


def _local_zone() -> tzinfo:
    """The local UTC offset, looked up at most once a minute (it is costly; DST moves it)."""
    global _zone_cache
    now = time.monotonic()
    if _zone_cache is None or now - _zone_cache[0] > 60.0:
        offset = datetime.now().astimezone().utcoffset() or timedelta(0)
        _zone_cache = (now, timezone(offset))
    return _zone_cache[1]


def _api_options_header(options: Sequence[str]) -> str:
    """The header form: comma-separated, no spaces, at most 255 characters."""
    value = ",".join(o.strip() for o in options)
    if len(value) > 255:
        raise ValidationError("ApiOptions", "must be at most 255 characters")
    return value


def _business_date(value: date | str, field: str) -> str:
    text = value.isoformat() if isinstance(value, date) else value
    if not isinstance(text, str) or not _BUSINESS_DATE.match(text):
        raise ValidationError(field, "must be a date as yyyy-mm-dd")
    try:
        date.fromisoformat(text)
    except ValueError:
        raise ValidationError(field, "must be a real calendar date (yyyy-mm-dd)") from None
    return text


def _first_problem(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            loc = ".".join(str(p) for p in first.get("loc", ()))
            return f"{loc}: {first.get('msg', '')}"
        except Exception:
            pass
    return type(exc).__name__
