"""Checkout sessions: create, list (filtered by status) and retrieve; HD only.

Our spec's Options column says "not stated"; the vendor lists Host Direct only (on the host of
its payment links), so the sandbox serves HD and refuses LG, DCP and DCC (docs/decisions/002-sandbox.md).
Our spec names POST for all three operations; the vendor's GET list and retrieve (filters in the
``Status``, ``Limit``, ``StartingAfterId`` and ``CheckoutSessionId`` headers) answer too.

A session is ``active`` until paid, failed (three failed payment attempts) or expired (its
``expiresInMinutes`` of SANDBOX time ran out). The customer pays on a hosted page the till never
sees, so the sandbox offers ``attempt_payment`` for its controls and tests; a completed session
is POSTed to ``config.checkout_notification_url`` in the background.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any

from cashier.sandbox.core import Family, HostCall, HostFault, invalid_field
from cashier.sandbox.longtail import (
    amount,
    notify,
    text,
)
from cashier.sandbox.shared import get

FAMILY = Family("checkout")

STATUSES = ("active", "paid", "expired", "failed")
MAX_FAILURES = 3
DEFAULT_MINUTES = 60
MAX_MINUTES = 7 * 24 * 60
MAX_LIMIT = 100
PAGE_URL = "https://checkout.sandbox.invalid/"


def _sessions(state: Any) -> dict[str, dict[str, Any]]:
    sessions: dict[str, dict[str, Any]] = state.family("checkout").setdefault("sessions", {})
    return sessions


def _iso(state: Any, seconds: float) -> str:
    return datetime.fromtimestamp(seconds).astimezone().isoformat(timespec="milliseconds")


def _status(state: Any, session: dict[str, Any]) -> str:
    if session["status"] == "active" and state.clock.now() >= session["expiresAt"]:
        session["status"] = "expired"
    return str(session["status"])


def _public(state: Any, session: dict[str, Any]) -> dict[str, Any]:
    """One result item in the vendor's list/retrieve shape, plus status, page and amount."""
    view: dict[str, Any] = {
        "id": session["id"], "status": _status(state, session), "url": PAGE_URL + session["id"],
        "expiresAt": _iso(state, session["expiresAt"]),
        "amount": {"total": Decimal(session["total"]), "tax": Decimal(session["tax"])},
        "currencyCode": session["currencyCode"], "invoice": session["invoice"],
        "staticFields": session["staticFields"], "customFields": session["customFields"],
    }
    if session.get("customFieldsTitle"):
        view["customFieldsTitle"] = session["customFieldsTitle"]
    if session.get("lastTransaction"):
        view["lastTransaction"] = session["lastTransaction"]
    item: dict[str, Any] = {"dateTime": _iso(state, session["created"]), "checkoutSession": view}
    if session.get("paymentLinkId"):
        item["paymentLink"] = {"id": session["paymentLinkId"]}
    return item


def _custom_fields(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    fields = get(body, "checkoutSession.customFields")
    if fields is None:
        return []
    if not isinstance(fields, list) or len(fields) > 3:
        raise invalid_field("checkoutSession.customFields", "must be a list of at most 3 fields")
    out = []
    for i, field in enumerate(fields):
        if not isinstance(field, dict):
            raise invalid_field(f"checkoutSession.customFields[{i}]", "must be an object")
        where = f"checkoutSession.customFields[{i}]"
        key, label = field.get("key"), field.get("label")
        if not isinstance(key, str) or not 1 <= len(key) <= 255:
            raise invalid_field(f"{where}.key", "is required, 1 to 255 characters")
        if not isinstance(label, str) or not 1 <= len(label) <= 20:
            raise invalid_field(f"{where}.label", "is required, 1 to 20 characters")
        optional = field.get("optional", False)
        if not isinstance(optional, bool):
            raise invalid_field(f"checkoutSession.customFields[{i}].optional", "must be true or false")
        out.append({"key": key, "label": label, "optional": optional})
    return out


@FAMILY.route("POST", "/checkoutsessions/create", "HD")
async def create(call: HostCall) -> dict[str, Any]:
    body = call.body
    total = amount(body)
    tax = amount(body, "amount.tax", required=False, positive=False) or Decimal(0)
    invoice = text(body, "transaction.invoice", max_len=10)
    currency = text(body, "currencyCode", max_len=3, min_len=3, required=False) or "USD"
    minutes = get(body, "checkoutSession.expiresInMinutes")
    if minutes is None:
        minutes = DEFAULT_MINUTES
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
        raise invalid_field("checkoutSession.expiresInMinutes",
                            f"must be a whole number of minutes from 1 to {MAX_MINUTES}")
    static = get(body, "checkoutSession.staticFields") or {}
    if not isinstance(static, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                               for k, v in static.items()):
        raise invalid_field("checkoutSession.staticFields", "must map texts to texts")
    title = text(body, "checkoutSession.customFieldsTitle", max_len=32, required=False)
    link_id = text(body, "paymentLink.id", max_len=64, required=False)
    session_id = "chse_" + "".join(secrets.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
                                                  "0123456789") for _ in range(24))
    now = call.state.clock.now()
    session = {"id": session_id, "status": "active", "created": now,
               "expiresAt": now + minutes * 60, "total": str(total), "tax": str(tax),
               "currencyCode": currency, "invoice": invoice, "staticFields": static,
               "customFieldsTitle": title, "customFields": _custom_fields(body),
               "paymentLinkId": link_id, "failures": 0}
    _sessions(call.state)[session_id] = session
    return _public(call.state, session)


def _list(call: HostCall, status: str | None, limit: int, after: str | None) -> dict[str, Any]:
    if status is not None and status not in STATUSES:
        raise invalid_field("status", f"must be one of {', '.join(STATUSES)}")
    if not 1 <= limit <= MAX_LIMIT:
        raise invalid_field("limit", f"must be from 1 to {MAX_LIMIT}")
    sessions = sorted(_sessions(call.state).values(), key=lambda s: (s["created"], s["id"]))
    if after is not None:
        ids = [s["id"] for s in sessions]
        if after not in ids:
            raise invalid_field("startingAfterId", f"{after} is not a checkout session")
        sessions = sessions[ids.index(after) + 1:]
    chosen = [s for s in sessions if status is None or _status(call.state, s) == status]
    page = chosen[:limit]
    return {"hasMore": len(chosen) > limit,
            "result": [{**_public(call.state, s), "server": {"name": "SANDBOX01"}} for s in page]}


@FAMILY.route("POST", "/checkoutsessions/list", "HD")
async def list_sessions(call: HostCall) -> dict[str, Any]:
    status = text(call.body, "checkoutSession.status", max_len=10, required=False)
    limit = call.body.get("limit", MAX_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise invalid_field("limit", "must be a whole number")
    after = text(call.body, "startingAfterId", max_len=64, required=False)
    return _list(call, status, limit, after)


@FAMILY.route("GET", "/checkoutsessions/list", "HD")
async def list_sessions_get(call: HostCall) -> dict[str, Any]:
    raw_limit = call.header("Limit") or str(MAX_LIMIT)
    if not raw_limit.isdigit():
        raise invalid_field("Limit", "must be a whole number")
    return _list(call, call.header("Status"), int(raw_limit), call.header("StartingAfterId"))


def _retrieve(call: HostCall, session_id: str | None, field: str) -> dict[str, Any]:
    if not session_id:
        raise invalid_field(field, "is required")
    session = _sessions(call.state).get(session_id)
    if session is None:
        raise HostFault(9000, "NOT FOUND", f"{field}: no checkout session {session_id}", code=40104)
    return _public(call.state, session)


@FAMILY.route("POST", "/checkoutsessions/retrieve", "HD")
async def retrieve(call: HostCall) -> dict[str, Any]:
    return _retrieve(call, text(call.body, "checkoutSession.id", max_len=64), "checkoutSession.id")


@FAMILY.route("GET", "/checkoutsessions/retrieve", "HD")
async def retrieve_get(call: HostCall) -> dict[str, Any]:
    return _retrieve(call, call.header("CheckoutSessionId"), "CheckoutSessionId")


def attempt_payment(sandbox: Any, session_id: str, *, approved: bool = True) -> dict[str, Any]:
    """The customer pays on the hosted page (sandbox control and tests; needs a running loop).

    Approved: the session is paid, ``lastTransaction`` holds a sale answer and the notification
    is sent. Declined: one more failure; the third makes the session failed.
    """
    state, config = sandbox.state, sandbox.config
    session = _sessions(state).get(session_id)
    if session is None:
        raise KeyError(session_id)
    if _status(state, session) != "active":
        raise ValueError(f"checkout session {session_id} is {session['status']}")
    code = "A" if approved else "D"
    sale: dict[str, Any] = {"dateTime": _iso(state, state.clock.now()),
                            "amount": {"total": session["total"], "tax": session["tax"]},
                            "transaction": {"invoice": session["invoice"], "responseCode": code}}
    if approved:
        sale["transaction"].update(authorizationCode=f"CS{state.next_sequence('checkout'):04d}",
                                   saleFlag="S")
        session["status"] = "paid"
    else:
        session["failures"] += 1
        if session["failures"] >= MAX_FAILURES:
            session["status"] = "failed"
    session["lastTransaction"] = {"result": [sale]}
    public = _public(state, session)
    if approved:
        payload = {"event": {"type": "checkout_session_completed"}, **public}
        notify(config.checkout_notification_url, payload)
    return public
