"""The Host API client's wire: one shared ``httpx.AsyncClient``, settings, typed errors, and the
body helpers every family of operations (the sibling modules, one per ``host/models`` family)
builds on."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo
from decimal import Decimal
from typing import Any, Literal, Self, TypeVar

import httpx

from cashier.config import ProcessingOption, TillProfile, hmac_secret_for
from cashier.errors import ValidationError
from cashier.host import codec, signing
from cashier.host.errors import HostError, HostProtocolError, HostTimeout, HostUnavailable
from cashier.host.models.base import HostModel
from cashier.host.models.common import Amount, Card, Customer, TipOptions, Ui
from cashier.host.validation import validate_invoice, validate_request

log = logging.getLogger(__name__)
M = TypeVar("M", bound=HostModel)
TimeoutClass = Literal["host", "device"]

Body = Mapping[str, Any] | HostModel
_BUSINESS_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

#: ``ReversalReason`` values: 01 timeout, 02 POS lost connection, 03 merchant cancel, 04 customer
#: cancel, 05 card removed, 06 card declined, 07 PIN pad unavailable, 08 chip error, 09 fraud.
REVERSAL_REASONS = frozenset(f"0{i}" for i in range(1, 10))
#: The embedded sandbox's PIN pads: what a profile without its own ids (training) talks to.
SANDBOX_TERMINAL_ID = "1742"
SANDBOX_DCC_SERIAL = "1170301234"


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
    def from_profile(cls, profile: TillProfile, *, base_url: str | None = None) -> HostSettings:
        """The one way a till's profile becomes client settings (``base_url`` overrides it,
        e.g. training's in-process sandbox). A profile without a terminal id or DCC serial (a
        training profile) gets the sandbox's PIN pad; the HMAC secret comes from the keyring."""
        url = base_url or profile.host_url
        if url is None:
            raise ValidationError("host_url", "is required outside training mode")
        dcc = profile.processing_option == "DCC"
        t = profile.timeouts
        return cls(base_url=url, processing_option=profile.processing_option,
                   interface_name=profile.interface_name,
                   interface_version=profile.interface_version,
                   company_name=profile.company_name,
                   terminal_id=profile.terminal_id or (None if dcc else SANDBOX_TERMINAL_ID),
                   device_manufacturer=profile.device_manufacturer,
                   device_serial_number=profile.device_serial_number or (
                       SANDBOX_DCC_SERIAL if dcc else None),
                   clerk_id=profile.clerk_id, connect_timeout_s=t.connect_s,
                   host_timeout_s=t.host_s, device_timeout_s=t.device_s,
                   hmac_key_id=profile.hmac_key_id, hmac_secret=hmac_secret_for(profile))


class HostClientBase:
    """The wire and the body helpers every family of operations shares (one instance per till
    through ``HostClient``)."""

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
    async def __aenter__(self) -> Self:
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
            # given, the store's postal code is sent (docs/decisions/001-host-api.md).
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


_zone_cache: tuple[float, tzinfo] | None = None


def _local_zone() -> tzinfo:
    """The local UTC offset, looked up at most once a minute (it is costly; DST moves it)."""
    global _zone_cache
    now = time.monotonic()
    if _zone_cache is None or now - _zone_cache[0] > 60.0:
        offset = datetime.now().astimezone().utcoffset() or timedelta(0)
        _zone_cache = (now, timezone(offset))
    return _zone_cache[1]


def api_options_header(options: Sequence[str]) -> str:
    """The header form: comma-separated, no spaces, at most 255 characters."""
    value = ",".join(o.strip() for o in options)
    if len(value) > 255:
        raise ValidationError("ApiOptions", "must be at most 255 characters")
    return value


def checked_business_date(value: date | str, field: str) -> str:
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
