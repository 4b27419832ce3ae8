"""What several Charge API resources share: the state-error shape, UTC time, a live customer."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from cashier.sandbox.chargeapi.store import Req
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
