"""The wire of the Charge API client: Basic auth with the secret key, form bodies, idempotency.

Every POST carries an ``Idempotency-Key``, made once per logical operation and reused on
every retry, so a retry after a lost answer can never move money twice; a replayed answer is
flagged (``result.replayed``). Retries (with backoff) happen only where safe: nothing sent,
429, 409 (same key still running) and 5xx, always with the same key. A read timeout that
outlives the retries raises ``ChargeApiTimeout`` carrying the key, for recovery to re-send.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import re
import uuid
from collections.abc import AsyncIterator, Mapping
from typing import Any, Self
from urllib.parse import urlsplit

import httpx
from pydantic import ValidationError as ModelError

from cashier import __version__ as VERSION
from cashier.chargeapi.encoding import encode_form, flatten
from cashier.chargeapi.errors import (
    ChargeApiError,
    ChargeApiNoDecision,
    ChargeApiServerError,
    ChargeApiTimeout,
    ChargeApiUnavailable,
    error_from_response,
)
from cashier.chargeapi.models import ApiModel
from cashier.chargeapi.transport import LeanTransport
from cashier.errors import ValidationError
from cashier.journal.card_guard import contains_pan
from cashier.net import is_loopback_host

log = logging.getLogger(__name__)

_CURRENCY = re.compile(r"^[A-Za-z]{3}$")
_NEVER_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
_MAYBE_SENT = (httpx.ReadTimeout, httpx.WriteTimeout, httpx.ReadError, httpx.WriteError,
               httpx.RemoteProtocolError)


class ChargeApiObject(dict[str, Any]):
    """A JSON object from the API, plus what the client knows about the call that got it."""

    replayed: bool = False
    idempotency_key: str | None = None

    @property
    def id(self) -> str:
        return str(self.get("id", ""))


class ChargeApiList(ChargeApiObject):
    """One page: ``{"list": [...], "hasMore": bool}``."""

    @property
    def objects(self) -> list[ChargeApiObject]:
        return [_wrap(item) for item in self.get("list", [])]

    @property
    def has_more(self) -> bool:
        return bool(self.get("hasMore"))

    @property
    def total_count(self) -> int | None:
        """Present when the list was asked with ``includeTotalCount``."""
        value = self.get("totalCount")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class Record[M: ApiModel](ChargeApiObject):
    """An object of a family the till reads: the wire's JSON (for what it passes on as is) and
    ``model``, its typed view."""

    model_type: type[M]

    @property
    def model(self) -> M:
        return read_model(self.model_type, self)


class RecordList[M: ApiModel](ChargeApiList):
    """A page of a typed family: ``models`` reads every item."""

    model_type: type[M]

    @property
    def records(self) -> list[Record[M]]:
        return [as_record(item, self.model_type) for item in self.objects]

    @property
    def models(self) -> list[M]:
        return [read_model(self.model_type, item) for item in self.get("list", [])]


def read_model[M: ApiModel](model_type: type[M], data: Any) -> M:
    """A wrong kind of value in an answer is the server's fault: an unknown outcome, never a refusal."""
    try:
        return model_type.model_validate(data if isinstance(data, dict) else {})
    except ModelError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ChargeApiServerError(f"the Charge API's {model_type.__name__} has a bad {where}: "
                                   f"{first['msg']}", status=200) from None


def as_record[M: ApiModel](obj: ChargeApiObject, model_type: type[M]) -> Record[M]:
    record: Record[M] = Record(obj)
    record.model_type = model_type
    record.replayed, record.idempotency_key = obj.replayed, obj.idempotency_key
    return record


def as_record_list[M: ApiModel](page: ChargeApiList, model_type: type[M]) -> RecordList[M]:
    records: RecordList[M] = RecordList(page)
    records.model_type = model_type
    records.replayed, records.idempotency_key = page.replayed, page.idempotency_key
    return records


def _wrap(data: Any, cls: type[ChargeApiObject] = ChargeApiObject) -> ChargeApiObject:
    obj = cls(data if isinstance(data, dict) else {})
    return obj


def new_idempotency_key() -> str:
    """A random key the journal can keep: a UUID's dashes can join its digit groups into a
    Luhn-valid 13-19 digit run, which the journal refuses as a card number (about one key in a
    few hundred), so such a key is drawn again."""
    while True:
        key = str(uuid.uuid4())
        if not contains_pan(key):
            return key


def check_url(url: str, *, field: str = "charge_api_url", in_process: bool = False) -> str:
    """HTTPS only, except a loopback sandbox (or one served in-process)."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ValidationError(field, f"must be an https:// URL (got {url[:60]!r})")
    if parts.scheme == "http" and not in_process and not is_loopback_host(parts.hostname):
        raise ValidationError(field, "must use https: plain http is refused except for a loopback "
                                     f"sandbox (host {parts.hostname})")
    return url.rstrip("/")


def check_amount(amount: int, field: str = "amount") -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ValidationError(field, "must be an integer of minor units (e.g. 1234 for 12.34)")
    if amount < 1:
        raise ValidationError(field, "must be at least 1 minor unit")
    return amount


def check_currency(currency: str, field: str = "currency") -> str:
    if not isinstance(currency, str) or not _CURRENCY.match(currency):
        raise ValidationError(field, "must be a 3-letter ISO 4217 code such as USD")
    return currency.upper()


def check_metadata(metadata: Mapping[str, str] | None, field: str = "metadata") -> dict[str, str] | None:
    """The spec's limits, checked before anything is sent."""
    if metadata is None:
        return None
    if len(metadata) > 20:
        raise ValidationError(field, f"at most 20 keys (got {len(metadata)})")
    out: dict[str, str] = {}
    for key, value in metadata.items():
        if not isinstance(key, str) or not 1 <= len(key) <= 40:
            raise ValidationError(f"{field}[{str(key)[:40]}]", "keys must be 1 to 40 characters")
        if not isinstance(value, str):
            raise ValidationError(f"{field}[{key}]", "values must be strings")
        if len(value) > 500:
            raise ValidationError(f"{field}[{key}]", "values must be at most 500 characters")
        out[key] = value
    return out


def _clean(params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if v is not None}


class ChargeApiClientBase:
    """The wire every family of operations shares: one client per secret key; share it (it keeps
    connections alive)."""

    def __init__(self, secret_key: str, base_url: str, *, public_key: str | None = None,
                 uploads_url: str | None = None, transport: httpx.AsyncBaseTransport | None = None,
                 timeout_s: float = 30.0, connect_timeout_s: float = 5.0, max_retries: int = 2,
                 backoff_s: float = 0.25, max_connections: int = 20) -> None:
        if not re.match(r"^(sk|pr)_(test|live)_[A-Za-z0-9]+$", secret_key or ""):
            raise ValidationError("secret_key", "must be a secret key (sk_test_..., sk_live_...)")
        if public_key is not None and not re.match(r"^(pk|pu)_(test|live)_[A-Za-z0-9]+$", public_key):
            raise ValidationError("public_key", "must be a public key (pk_test_..., pk_live_...)")
        in_process = isinstance(transport, httpx.ASGITransport)
        self.base_url = check_url(base_url, in_process=in_process)
        self.uploads_url = check_url(uploads_url, field="uploads_url", in_process=in_process) \
            if uploads_url else self.base_url
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        # the Basic header made once (an httpx auth flow per call costs more than the call's body)
        self._secret = _basic(secret_key)
        self._public = _basic(public_key) if public_key else None
        self.live = "_live_" in secret_key
        if transport is None:
            transport = LeanTransport(max_connections=max_connections, connect_timeout_s=connect_timeout_s,
                                      read_timeout_s=timeout_s)
        self._http = httpx.AsyncClient(
            transport=transport, timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections),
            headers={"User-Agent": f"Cashier/{VERSION}", "Accept": "application/json"})

    def __repr__(self) -> str:  # never the key
        return f"ChargeApiClient({self.base_url!r}, live={self.live})"

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ---- transport -----------------------------------------------------------------------------
    async def request(self, method: str, path: str, params: Mapping[str, Any] | None = None, *,
                      idempotency_key: str | None = None, public: bool = False,
                      files: dict[str, tuple[str, bytes, str]] | None = None,
                      uploads: bool = False) -> ChargeApiObject:
        """Send one call; POSTs get one idempotency key for all their attempts."""
        method = method.upper()
        params = _clean(params or {})
        headers: dict[str, str] = {}
        key = None
        if method == "POST":
            key = idempotency_key or new_idempotency_key()
            headers["Idempotency-Key"] = key
        url = (self.uploads_url if uploads else self.base_url) + path
        headers["Authorization"] = self._public if public and self._public is not None else self._secret
        content: str | None = None
        data: dict[str, str] | None = None
        query: list[tuple[str, str]] | None = None
        if method in ("GET", "DELETE"):
            query = flatten(params)
        elif files:
            data = dict(flatten(params))
        else:
            content = encode_form(params)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        attempt = 0
        while True:
            try:
                response = await self._http.request(
                    method, url, params=query, content=content, data=data,  # type: ignore[arg-type]
                    files=files, headers=headers)
            except _NEVER_SENT as exc:
                if attempt < self.max_retries:
                    attempt += 1
                    await asyncio.sleep(self._delay(attempt, None))
                    continue
                raise ChargeApiUnavailable(f"{method} {path}: could not reach the Charge API "
                                         f"({type(exc).__name__})", idempotency_key=key) from None
            except _MAYBE_SENT as exc:
                if attempt < self.max_retries:  # same key: a replay at worst
                    attempt += 1
                    await asyncio.sleep(self._delay(attempt, None))
                    continue
                raise ChargeApiTimeout(f"{method} {path}: no answer ({type(exc).__name__}); the outcome "
                                     "is unknown until it is re-sent with the same idempotency key",
                                     idempotency_key=key) from None
            if response.status_code == 200:
                try:
                    body = response.json()
                except ValueError:
                    raise ChargeApiServerError(f"{method} {path}: the answer is not JSON", status=200,
                                             idempotency_key=key) from None
                listed = isinstance(body, dict) and "list" in body
                obj = _wrap(body, ChargeApiList if listed else ChargeApiObject)
                obj.replayed = response.headers.get("idempotent-replayed", "").lower() == "true"
                obj.idempotency_key = key
                return obj
            error = self._error(response, key)
            retryable = isinstance(error, ChargeApiNoDecision)  # 409, 429, 5xx: not refused
            if retryable and attempt < self.max_retries:
                attempt += 1
                log.info("Charge API %s %s answered %s; retry %d with the same key", method, path,
                         response.status_code, attempt)
                await asyncio.sleep(self._delay(attempt, error.retry_after_s))
                continue
            raise error

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), 30.0)
        return float(min(self.backoff_s * (2 ** (attempt - 1)), 8.0))

    @staticmethod
    def _error(response: httpx.Response, key: str | None) -> ChargeApiError:
        try:
            body = response.json()
        except ValueError:
            body = None
        retry_after = None
        header = response.headers.get("retry-after")
        if header:
            try:
                retry_after = float(header)
            except ValueError:
                retry_after = None
        return error_from_response(response.status_code, body, idempotency_key=key,
                                   retry_after_s=retry_after)

    async def _post(self, path: str, params: Mapping[str, Any] | None = None,
                    idempotency_key: str | None = None) -> ChargeApiObject:
        return await self.request("POST", path, params, idempotency_key=idempotency_key)

    async def _get(self, path: str, params: Mapping[str, Any] | None = None) -> ChargeApiObject:
        return await self.request("GET", path, params)

    async def _list(self, path: str, params: Mapping[str, Any] | None = None) -> ChargeApiList:
        result = await self.request("GET", path, params)
        assert isinstance(result, ChargeApiList)
        return result

    async def _delete(self, path: str) -> ChargeApiObject:
        return await self.request("DELETE", path)

    # ---- pagination ----------------------------------------------------------------------------
    async def iterate(self, path: str, *, limit: int = 100, created_gte: int | None = None,
                      created_lte: int | None = None, starting_after_id: str | None = None,
                      **filters: Any) -> AsyncIterator[ChargeApiObject]:
        """Every object of a list, newest first, page after page (``startingAfterId`` cursor)."""
        if not 1 <= limit <= 100:
            raise ValidationError("limit", "must be 1 to 100")
        cursor = starting_after_id
        while True:
            page = await self._list(path, {**filters, "limit": limit, "startingAfterId": cursor,
                                           "created": {"gte": created_gte, "lte": created_lte}})
            items = page.objects
            for item in items:
                yield item
            if not page.has_more or not items:
                return
            cursor = items[-1].id

    async def iterate_models[M: ApiModel](self, path: str, model_type: type[M],
                                          **options: Any) -> AsyncIterator[M]:
        """``iterate``, each object read as its typed view."""
        async for item in self.iterate(path, **options):
            yield read_model(model_type, item)

    @staticmethod
    def page_params(limit: int | None = None, starting_after_id: str | None = None,
                    ending_before_id: str | None = None, created_gte: int | None = None,
                    created_lte: int | None = None, created_gt: int | None = None,
                    created_lt: int | None = None, include_total_count: bool | None = None,
                    **filters: Any) -> dict[str, Any]:
        """The list parameters every list of the vendor's SDKs takes, plus the list's own filters."""
        if limit is not None and not 1 <= limit <= 100:
            raise ValidationError("limit", "must be 1 to 100")
        if starting_after_id and ending_before_id:
            raise ValidationError("starting_after_id", "give either starting_after_id or ending_before_id")
        return {**filters, "limit": limit, "startingAfterId": starting_after_id,
                "endingBeforeId": ending_before_id, "includeTotalCount": include_total_count,
                "created": {"gte": created_gte, "lte": created_lte, "gt": created_gt, "lt": created_lt}}

def _basic(key: str) -> str:
    return "Basic " + base64.b64encode(f"{key}:".encode()).decode("ascii")


def _id(value: str) -> str:
    """An object id goes into a path: refuse anything that could change the path."""
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_\-]{1,100}", value):
        raise ValidationError("id", f"is not an object id: {str(value)[:40]!r}")
    return value
