"""Async client of the Charge API: Basic auth with the secret key, form bodies, idempotency.

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
from typing import Any
from urllib.parse import urlsplit

import httpx

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


class ChargeApiClient:
    """One client per secret key; share it (it keeps connections alive)."""

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

    async def __aenter__(self) -> ChargeApiClient:
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

    @staticmethod
    def page_params(limit: int | None = None, starting_after_id: str | None = None,
                    ending_before_id: str | None = None, created_gte: int | None = None,
                    created_lte: int | None = None, **filters: Any) -> dict[str, Any]:
        if limit is not None and not 1 <= limit <= 100:
            raise ValidationError("limit", "must be 1 to 100")
        if starting_after_id and ending_before_id:
            raise ValidationError("starting_after_id", "give either starting_after_id or ending_before_id")
        return {**filters, "limit": limit, "startingAfterId": starting_after_id,
                "endingBeforeId": ending_before_id,
                "created": {"gte": created_gte, "lte": created_lte}}

    # ---- charges -------------------------------------------------------------------------------
    async def create_charge(self, amount: int, currency: str, *, card: str | None = None,
                            customer_id: str | None = None, captured: bool = True,
                            authorization_type: str | None = None, description: str | None = None,
                            metadata: Mapping[str, str] | None = None, payment_method: str | None = None,
                            payment_link_id: str | None = None, idempotency_key: str | None = None,
                            **extra: Any) -> ChargeApiObject:
        """Charge a token (``tok_``), a customer's card (``card_``) or default card; never raw card data."""
        if card is not None and not isinstance(card, str):
            raise ValidationError("card", "must be a token or card id: card data only goes to create_token")
        if card is None and customer_id is None and payment_method is None:
            raise ValidationError("card", "give a card token, a customer_id or a payment_method")
        if authorization_type not in (None, "pre", "final"):
            raise ValidationError("authorization_type", "must be pre or final")
        if authorization_type == "pre" and captured:
            raise ValidationError("authorization_type", "pre needs captured=False")
        params = {"amount": check_amount(amount), "currency": check_currency(currency), "card": card,
                  "customerId": customer_id, "captured": captured, "description": description,
                  "metadata": check_metadata(metadata), "paymentMethod": payment_method,
                  "paymentLinkId": payment_link_id,
                  "options": {"authorizationType": authorization_type} if authorization_type else None,
                  **extra}
        return await self._post("/charges", params, idempotency_key)

    async def list_charges(self, **page: Any) -> ChargeApiList:
        return await self._list("/charges", self.page_params(**page))

    async def get_charge(self, charge_id: str) -> ChargeApiObject:
        return await self._get(f"/charges/{_id(charge_id)}")

    async def update_charge(self, charge_id: str, *, description: str | None = None,
                            metadata: Mapping[str, str] | None = None, idempotency_key: str | None = None,
                            **extra: Any) -> ChargeApiObject:
        return await self._post(f"/charges/{_id(charge_id)}", {"description": description,
                                "metadata": check_metadata(metadata), **extra}, idempotency_key)

    async def capture_charge(self, charge_id: str, *, idempotency_key: str | None = None) -> ChargeApiObject:
        return await self._post(f"/charges/{_id(charge_id)}/capture", None, idempotency_key)

    async def incremental_authorization(self, charge_id: str, amount: int, *,
                                        idempotency_key: str | None = None) -> ChargeApiObject:
        return await self._post(f"/charges/{_id(charge_id)}/incremental-authorization",
                                {"amount": check_amount(amount)}, idempotency_key)

    async def resolve_pending_charge(self, client_charge_id: str, status: str, *,
                                     failure_code: str | None = None) -> ChargeApiObject:
        """Testing operation: settle a pending charge as ``successful`` or ``failed``."""
        if status not in ("successful", "failed"):
            raise ValidationError("status", "must be successful or failed")
        return await self._post(f"/charges/{_id(client_charge_id)}",
                                {"status": status, "failureCode": failure_code})

    # ---- refunds -------------------------------------------------------------------------------
    async def create_refund(self, charge_id: str, amount: int | None = None, *, reason: str | None = None,
                            metadata: Mapping[str, str] | None = None,
                            idempotency_key: str | None = None) -> ChargeApiObject:
        """Full refund without ``amount``; partial ones only for a captured charge."""
        params = {"chargeId": _id(charge_id), "amount": None if amount is None else check_amount(amount),
                  "reason": reason, "metadata": check_metadata(metadata)}
        return await self._post("/refunds", params, idempotency_key)

    async def list_refunds(self, charge_id: str, **page: Any) -> ChargeApiList:
        return await self._list("/refunds", self.page_params(chargeId=_id(charge_id), **page))

    async def get_refund(self, refund_id: str) -> ChargeApiObject:
        return await self._get(f"/refunds/{_id(refund_id)}")

    async def update_refund(self, refund_id: str, *, metadata: Mapping[str, str]) -> ChargeApiObject:
        return await self._post(f"/refunds/{_id(refund_id)}", {"metadata": check_metadata(metadata)})

    # ---- customers and cards -------------------------------------------------------------------
    async def create_customer(self, email: str, *, description: str | None = None, card: str | None = None,
                              metadata: Mapping[str, str] | None = None,
                              idempotency_key: str | None = None) -> ChargeApiObject:
        if not isinstance(email, str) or "@" not in email:
            raise ValidationError("email", "must be an e-mail address")
        return await self._post("/customers", {"email": email, "description": description, "card": card,
                                               "metadata": check_metadata(metadata)}, idempotency_key)

    async def list_customers(self, *, email: str | None = None, deleted: bool | None = None,
                             **page: Any) -> ChargeApiList:
        return await self._list("/customers", self.page_params(email=email, deleted=deleted, **page))

    async def get_customer(self, customer_id: str) -> ChargeApiObject:
        return await self._get(f"/customers/{_id(customer_id)}")

    async def update_customer(self, customer_id: str, *, email: str | None = None,
                              description: str | None = None, default_card_id: str | None = None,
                              card: str | None = None, metadata: Mapping[str, str] | None = None,
                              idempotency_key: str | None = None) -> ChargeApiObject:
        return await self._post(f"/customers/{_id(customer_id)}", {
            "email": email, "description": description, "defaultCardId": default_card_id, "card": card,
            "metadata": check_metadata(metadata)}, idempotency_key)

    async def delete_customer(self, customer_id: str) -> ChargeApiObject:
        return await self._delete(f"/customers/{_id(customer_id)}")

    async def create_card(self, customer_id: str, *, token: str | None = None, charge_id: str | None = None,
                          idempotency_key: str | None = None) -> ChargeApiObject:
        """Save a card from a token or from a charge (card data goes to ``create_token`` first)."""
        if (token is None) == (charge_id is None):
            raise ValidationError("token", "give exactly one of token and charge_id")
        params = {"card": token} if token else {"chargeId": charge_id}
        return await self._post(f"/customers/{_id(customer_id)}/cards", params, idempotency_key)

    async def list_cards(self, customer_id: str, **page: Any) -> ChargeApiList:
        return await self._list(f"/customers/{_id(customer_id)}/cards", self.page_params(**page))

    async def get_card(self, customer_id: str, card_id: str) -> ChargeApiObject:
        return await self._get(f"/customers/{_id(customer_id)}/cards/{_id(card_id)}")

    async def update_card(self, customer_id: str, card_id: str, **fields: Any) -> ChargeApiObject:
        return await self._post(f"/customers/{_id(customer_id)}/cards/{_id(card_id)}", fields)

    async def delete_card(self, customer_id: str, card_id: str) -> ChargeApiObject:
        return await self._delete(f"/customers/{_id(customer_id)}/cards/{_id(card_id)}")

    # ---- tokens and 3D Secure ------------------------------------------------------------------
    async def create_token(self, number: str, exp_month: str, exp_year: str, *, cvc: str | None = None,
                           cardholder_name: str | None = None, address_zip: str | None = None,
                           use_public_key: bool = True) -> ChargeApiObject:
        """The only call that carries card data; the answer holds first 6 / last 4 only."""
        params = {"number": number, "expMonth": exp_month, "expYear": exp_year, "cvc": cvc,
                  "cardholderName": cardholder_name, "addressZip": address_zip}
        return await self.request("POST", "/tokens", params, public=use_public_key)

    async def get_token(self, token_id: str) -> ChargeApiObject:
        return await self._get(f"/tokens/{_id(token_id)}")

    async def create_3d_secure(self, amount: int, currency: str, card: str) -> ChargeApiObject:
        return await self._post("/3d-secure", {"amount": check_amount(amount),
                                               "currency": check_currency(currency), "card": card})

    # ---- payment methods -----------------------------------------------------------------------
    async def create_payment_method(self, type_: str, **params: Any) -> ChargeApiObject:
        return await self._post("/payment-methods", {"type": type_, **params})

    async def list_payment_methods(self, **page: Any) -> ChargeApiList:
        return await self._list("/payment-methods", self.page_params(**page))

    async def get_payment_method(self, method_id: str) -> ChargeApiObject:
        return await self._get(f"/payment-methods/{_id(method_id)}")

    async def delete_payment_method(self, method_id: str) -> ChargeApiObject:
        return await self._delete(f"/payment-methods/{_id(method_id)}")

    # ---- plans and subscriptions ---------------------------------------------------------------
    async def create_plan(self, amount: int, currency: str, interval: str, name: str, *,
                          interval_count: int | None = None,
                          metadata: Mapping[str, str] | None = None) -> ChargeApiObject:
        return await self._post("/plans", {
            "amount": check_amount(amount), "currency": check_currency(currency), "interval": interval,
            "name": name, "intervalCount": interval_count, "metadata": check_metadata(metadata)})

    async def list_plans(self, **page: Any) -> ChargeApiList:
        return await self._list("/plans", self.page_params(**page))

    async def get_plan(self, plan_id: str) -> ChargeApiObject:
        return await self._get(f"/plans/{_id(plan_id)}")

    async def update_plan(self, plan_id: str, **params: Any) -> ChargeApiObject:
        return await self._post(f"/plans/{_id(plan_id)}", params)

    async def delete_plan(self, plan_id: str) -> ChargeApiObject:
        return await self._delete(f"/plans/{_id(plan_id)}")

    async def create_subscription(self, customer_id: str, plan_id: str, *, card: str | None = None,
                                  metadata: Mapping[str, str] | None = None,
                                  idempotency_key: str | None = None) -> ChargeApiObject:
        return await self._post("/subscriptions", {"customerId": customer_id, "planId": plan_id, "card": card,
                                                   "metadata": check_metadata(metadata)}, idempotency_key)

    async def list_subscriptions(self, **page: Any) -> ChargeApiList:
        return await self._list("/subscriptions", self.page_params(**page))

    async def get_subscription(self, subscription_id: str) -> ChargeApiObject:
        return await self._get(f"/subscriptions/{_id(subscription_id)}")

    async def update_subscription(self, subscription_id: str, **params: Any) -> ChargeApiObject:
        return await self._post(f"/subscriptions/{_id(subscription_id)}", params)

    async def cancel_subscription(self, subscription_id: str) -> ChargeApiObject:
        return await self._delete(f"/subscriptions/{_id(subscription_id)}")

    async def list_subscription_charges(self, subscription_id: str, **page: Any) -> ChargeApiList:
        return await self._list(f"/subscriptions/{_id(subscription_id)}/charges", self.page_params(**page))

    # ---- events --------------------------------------------------------------------------------
    async def list_events(self, **page: Any) -> ChargeApiList:
        return await self._list("/events", self.page_params(**page))

    async def get_event(self, event_id: str) -> ChargeApiObject:
        return await self._get(f"/events/{_id(event_id)}")

    # ---- blacklist -----------------------------------------------------------------------------
    async def create_blacklist_rule(self, rule_type: str, **condition: Any) -> ChargeApiObject:
        return await self._post("/blacklist", {"ruleType": rule_type, **condition})

    async def list_blacklist_rules(self, **page: Any) -> ChargeApiList:
        return await self._list("/blacklist", self.page_params(**page))

    async def get_blacklist_rule(self, rule_id: str) -> ChargeApiObject:
        return await self._get(f"/blacklist/{_id(rule_id)}")

    async def delete_blacklist_rule(self, rule_id: str) -> ChargeApiObject:
        return await self._delete(f"/blacklist/{_id(rule_id)}")

    # ---- credits -------------------------------------------------------------------------------
    async def create_credit(self, amount: int, currency: str, *, card: str | None = None,
                            customer_id: str | None = None, description: str | None = None,
                            metadata: Mapping[str, str] | None = None,
                            idempotency_key: str | None = None) -> ChargeApiObject:
        if card is None and customer_id is None:
            raise ValidationError("customer_id", "either customer_id or card must be given")
        return await self._post("/credits", {"amount": check_amount(amount),
                                             "currency": check_currency(currency), "card": card,
                                             "customerId": customer_id, "description": description,
                                             "metadata": check_metadata(metadata)}, idempotency_key)

    async def list_credits(self, **page: Any) -> ChargeApiList:
        return await self._list("/credits", self.page_params(**page))

    async def get_credit(self, credit_id: str) -> ChargeApiObject:
        return await self._get(f"/credits/{_id(credit_id)}")

    async def update_credit(self, credit_id: str, **params: Any) -> ChargeApiObject:
        return await self._post(f"/credits/{_id(credit_id)}", params)

    # ---- disputes and fraud warnings -----------------------------------------------------------
    async def list_disputes(self, **page: Any) -> ChargeApiList:
        return await self._list("/disputes", self.page_params(**page))

    async def get_dispute(self, dispute_id: str) -> ChargeApiObject:
        return await self._get(f"/disputes/{_id(dispute_id)}")

    async def update_dispute(self, dispute_id: str, *, evidence: Mapping[str, Any] | None = None,
                             metadata: Mapping[str, str] | None = None) -> ChargeApiObject:
        return await self._post(f"/disputes/{_id(dispute_id)}", {"evidence": evidence,
                                                                 "metadata": check_metadata(metadata)})

    async def close_dispute(self, dispute_id: str) -> ChargeApiObject:
        return await self._post(f"/disputes/{_id(dispute_id)}/close")

    async def list_fraud_warnings(self, **page: Any) -> ChargeApiList:
        return await self._list("/fraud-warnings", self.page_params(**page))

    async def get_fraud_warning(self, warning_id: str) -> ChargeApiObject:
        return await self._get(f"/fraud-warnings/{_id(warning_id)}")

    # ---- files ---------------------------------------------------------------------------------
    async def upload_file(self, filename: str, content: bytes, purpose: str,
                          content_type: str = "application/octet-stream") -> ChargeApiObject:
        return await self.request("POST", "/files", {"purpose": purpose}, uploads=True,
                                  files={"file": (filename, content, content_type)})

    async def list_files(self, **page: Any) -> ChargeApiList:
        result = await self.request("GET", "/files", self.page_params(**page), uploads=True)
        assert isinstance(result, ChargeApiList)
        return result

    async def get_file(self, file_id: str) -> ChargeApiObject:
        return await self.request("GET", f"/files/{_id(file_id)}", uploads=True)

    # ---- payouts -------------------------------------------------------------------------------
    async def create_payout(self) -> ChargeApiObject:
        """Test mode only: pays out the test-mode movements since the last payout."""
        if self.live:
            raise ValidationError("secret_key", "a payout can be created only with a test key")
        return await self._post("/payouts")

    async def list_payouts(self, **page: Any) -> ChargeApiList:
        return await self._list("/payouts", self.page_params(**page))

    async def get_payout(self, payout_id: str) -> ChargeApiObject:
        return await self._get(f"/payouts/{_id(payout_id)}")

    async def list_payout_transactions(self, *, payout: str | None = None, source: str | None = None,
                                       **page: Any) -> ChargeApiList:
        if payout is None and source is None:
            raise ValidationError("payout", "give payout or source")
        return await self._list("/payout-transactions",
                                self.page_params(payout=payout, source=source, **page))

    # ---- checkout sessions ---------------------------------------------------------------------
    async def create_checkout_session(self, currency: str, *, amount: int | None = None,
                                      line_items: list[Mapping[str, Any]] | None = None,
                                      **params: Any) -> ChargeApiObject:
        if (amount is None) == (line_items is None):
            raise ValidationError("amount", "give amount or line_items")
        return await self._post("/checkout-sessions", {
            "currency": check_currency(currency), "lineItems": line_items,
            "amount": None if amount is None else check_amount(amount), **params})

    async def list_checkout_sessions(self, **page: Any) -> ChargeApiList:
        return await self._list("/checkout-sessions", self.page_params(**page))

    async def get_checkout_session(self, session_id: str) -> ChargeApiObject:
        return await self._get(f"/checkout-sessions/{_id(session_id)}")

    # ---- payment links -------------------------------------------------------------------------
    async def create_payment_link(self, amount: int, currency: str, *, name: str | None = None,
                                  description: str | None = None, max_successful_charges: int | None = None,
                                  max_failed_attempts: int | None = None,
                                  metadata: Mapping[str, str] | None = None,
                                  idempotency_key: str | None = None) -> ChargeApiObject:
        for field, value in (("max_successful_charges", max_successful_charges),
                             ("max_failed_attempts", max_failed_attempts)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValidationError(field, "must be a whole number of at least 1")
        return await self._post("/payment-links", {
            "amount": check_amount(amount), "currency": check_currency(currency), "name": name,
            "description": description, "maxSuccessfulCharges": max_successful_charges,
            "maxFailedAttempts": max_failed_attempts, "metadata": check_metadata(metadata)},
            idempotency_key)

    async def list_payment_links(self, **page: Any) -> ChargeApiList:
        return await self._list("/payment-links", self.page_params(**page))

    async def get_payment_link(self, link_id: str) -> ChargeApiObject:
        return await self._get(f"/payment-links/{_id(link_id)}")

    async def update_payment_link(self, link_id: str, **params: Any) -> ChargeApiObject:
        return await self._post(f"/payment-links/{_id(link_id)}", params)

    async def deactivate_payment_link(self, link_id: str) -> ChargeApiObject:
        return await self._post(f"/payment-links/{_id(link_id)}/deactivate")

    async def reactivate_payment_link(self, link_id: str) -> ChargeApiObject:
        return await self._post(f"/payment-links/{_id(link_id)}/reactivate")

    async def list_payment_link_charges(self, link_id: str, **page: Any) -> ChargeApiList:
        return await self._list(f"/payment-links/{_id(link_id)}/charges", self.page_params(**page))


def _basic(key: str) -> str:
    return "Basic " + base64.b64encode(f"{key}:".encode()).decode("ascii")


def _id(value: str) -> str:
    """An object id goes into a path: refuse anything that could change the path."""
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_\-]{1,100}", value):
        raise ValidationError("id", f"is not an object id: {str(value)[:40]!r}")
    return value
