"""Payment links: a reusable amount charged through ``paymentLinkId``, with attempt limits."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.common import state_error
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_bool,
    as_currency,
    as_int,
    as_metadata,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.testcards import (
    MAX_AMOUNT,
)
from cashier.sandbox.chargeapi.wire import invalid


def count_attempt(req: Req, link: dict[str, Any], succeeded: bool) -> None:
    if succeeded:
        link["successfulCharges"] += 1
    else:
        link["failedAttempts"] += 1
    reason = _link_limit_reached(link)
    if reason and link["active"]:
        link["active"] = False
        link["deactivationReason"] = reason
        req.emit("PAYMENT_LINK_DEACTIVATED", link)


def _link_limit_reached(link: dict[str, Any]) -> str | None:
    cap = link.get("maxSuccessfulCharges")
    if cap is not None and link["successfulCharges"] >= cap:
        return "successful_charges_limit"
    cap = link.get("maxFailedAttempts")
    if cap is not None and link["failedAttempts"] >= cap:
        return "failed_attempts_limit"
    return None


def create_payment_link(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"amount", "currency", "name", "description", "maxSuccessfulCharges", "maxFailedAttempts",
              "metadata"})
    link: dict[str, Any] = {
        "amount": as_int(p, "amount", required=True, minimum=1, maximum=MAX_AMOUNT),
        "currency": as_currency(p), "name": as_str(p, "name", max_len=200),
        "description": as_str(p, "description", max_len=1000),
        "maxSuccessfulCharges": as_int(p, "maxSuccessfulCharges", minimum=1, maximum=1_000_000),
        "maxFailedAttempts": as_int(p, "maxFailedAttempts", minimum=1, maximum=1_000_000),
        "successfulCharges": 0, "failedAttempts": 0, "active": True, "metadata": as_metadata(p),
    }
    req.add("paymentLink", link)
    link["url"] = f"{req.base_url}/pay/{link['id']}"
    req.emit("PAYMENT_LINK_CREATED", link)
    return render(link)


def list_payment_links(req: Req) -> dict[str, Any]:
    active = as_bool(req.query, "active")
    filters = {"active": active} if active is not None else None
    return req.page("paymentLink", filters, frozenset({"active"}))


def get_payment_link(req: Req, link_id: str) -> dict[str, Any]:
    return render(req.get("paymentLink", link_id))


def update_payment_link(req: Req, link_id: str) -> dict[str, Any]:
    link = req.get("paymentLink", link_id)
    p = req.params
    if "maxFailedAttempts" in p:
        raise invalid("maxFailedAttempts: can be set only when the payment link is created")
    allow(p, {"name", "description", "maxSuccessfulCharges", "metadata"})
    for name, limit in (("name", 200), ("description", 1000)):
        value = as_str(p, name, max_len=limit)
        if value is not None:
            link[name] = value
    cap = as_int(p, "maxSuccessfulCharges", minimum=1, maximum=1_000_000)
    if cap is not None:
        link["maxSuccessfulCharges"] = cap
    if "metadata" in p:
        link["metadata"] = as_metadata(p)
    reason = _link_limit_reached(link)
    if reason and link["active"]:
        link.update(active=False, deactivationReason=reason)
    return render(link)


def deactivate_payment_link(req: Req, link_id: str) -> dict[str, Any]:
    link = req.get("paymentLink", link_id)
    allow(req.params, set())
    if link["active"]:
        link.update(active=False, deactivationReason="manual")
        req.emit("PAYMENT_LINK_DEACTIVATED", link)
    return render(link)


def reactivate_payment_link(req: Req, link_id: str) -> dict[str, Any]:
    link = req.get("paymentLink", link_id)
    allow(req.params, set())
    reason = _link_limit_reached(link)
    if reason == "successful_charges_limit":
        raise state_error(f"payment link '{link_id}' reached its limit of {link['maxSuccessfulCharges']} "
                          "successful charges: it cannot be reactivated", )
    if reason == "failed_attempts_limit":
        raise state_error(f"payment link '{link_id}' reached its limit of {link['maxFailedAttempts']} "
                          "failed attempts: it cannot be reactivated")
    if not link["active"]:
        link["active"] = True
        link.pop("deactivationReason", None)
        req.emit("PAYMENT_LINK_REACTIVATED", link)
    return render(link)


def payment_link_charges(req: Req, link_id: str) -> dict[str, Any]:
    req.get("paymentLink", link_id)
    return req.page("charge", {"paymentLinkId": link_id})
