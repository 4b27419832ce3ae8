"""What several Charge API resources share: the state-error shape, UTC time, a live customer,
a payment method by id."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from cashier.sandbox.chargeapi.state import Req
from cashier.sandbox.chargeapi.wire import ChargeApiFault, invalid


def state_error(message: str) -> ChargeApiFault:
    return invalid(message)


def utc(ts: int) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


def customer_of(req: Req, customer_id: str) -> dict[str, Any]:
    customer = req.get("customer", customer_id)
    if customer.get("deleted"):
        raise state_error(f"customer '{customer_id}' was deleted")
    return customer


def payment_method_id(req: Req, raw: Any, label: str) -> str | None:
    """A payment method given as its id or as the vendor SDKs' ``{"id": ...}``; it must exist."""
    if isinstance(raw, dict):
        if set(raw) != {"id"}:
            raise invalid(f"{label}: give the payment method's id (create it with POST /payment-methods)")
        raw = raw["id"]
    if raw in (None, ""):
        return None
    if not isinstance(raw, str) or len(raw) > 64:
        raise invalid(f"{label}: must be a payment method id")
    method = req.find("paymentMethod", raw, label)
    if method.get("deleted"):
        raise invalid(f"{label}: payment method '{raw}' was deleted")
    return raw
