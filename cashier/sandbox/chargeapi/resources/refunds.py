"""Refunds: of a charge, whole or in parts, by ``/refunds`` or ``/charges/{id}/refund``."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.common import state_error
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_int,
    as_metadata,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.wire import invalid


def refund(req: Req, charge: dict[str, Any], amount: int | None, reason: str | None,
           metadata: dict[str, str] | None) -> dict[str, Any]:
    if charge["status"] != "successful":
        raise state_error(f"chargeId: charge '{charge['id']}' is {charge['status']}: nothing to refund")
    remaining = charge["amount"] - charge["amountRefunded"]
    if remaining <= 0:
        raise state_error(f"chargeId: charge '{charge['id']}' is already fully refunded")
    if amount is None:
        amount = remaining
    if amount > remaining:
        raise invalid(f"amount: {amount} is more than the {remaining} left to refund")
    if not charge["captured"] and amount != charge["amount"]:
        raise state_error("amount: partial refunds are possible only for a captured charge")
    item: dict[str, Any] = {"amount": amount, "currency": charge["currency"], "charge": charge["id"],
                            "status": "successful", "reason": reason, "metadata": metadata}
    req.add("refund", item, (f"refunds:{charge['id']}",))
    charge["amountRefunded"] += amount
    charge["refunded"] = True
    req.emit("CHARGE_REFUNDED", charge)
    return item


def create_refund(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"chargeId", "amount", "reason", "metadata"})
    charge_id = as_str(p, "chargeId", required=True, max_len=64)
    assert charge_id is not None
    charge = req.find("charge", charge_id, "chargeId")
    amount = as_int(p, "amount", minimum=1)
    return render(refund(req, charge, amount, as_str(p, "reason", max_len=100), as_metadata(p)))


def refund_via_charge(req: Req, charge_id: str) -> dict[str, Any]:
    """``POST /charges/{id}/refund``: the form the official SDK calls; answers with the charge."""
    charge = req.get("charge", charge_id)
    allow(req.params, {"amount", "reason", "metadata"})
    refund(req, charge, as_int(req.params, "amount", minimum=1), as_str(req.params, "reason", max_len=100),
           as_metadata(req.params))
    return render(charge, req)


def list_refunds(req: Req) -> dict[str, Any]:
    """Every refund, or those of ``chargeId`` (also read as ``charge``)."""
    charge_id = req.query.get("chargeId") or req.query.get("charge")
    if not charge_id:
        return req.page("refund", None, frozenset({"chargeId", "charge"}))
    req.find("charge", str(charge_id), "chargeId")
    return req.page("refund", {"charge": charge_id}, frozenset({"chargeId", "charge"}))


def get_refund(req: Req, refund_id: str) -> dict[str, Any]:
    return render(req.get("refund", refund_id))


def update_refund(req: Req, refund_id: str) -> dict[str, Any]:
    item = req.get("refund", refund_id)
    allow(req.params, {"metadata"})
    if "metadata" in req.params:
        item["metadata"] = as_metadata(req.params)
    return render(item)
