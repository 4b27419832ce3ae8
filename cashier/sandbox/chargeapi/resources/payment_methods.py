"""Payment methods: non-card methods whose charges stay pending until resolved."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.common import customer_of
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_bool,
    as_metadata,
    as_obj,
    as_str,
    render,
)


def create_payment_method(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"type", "customerId", "billing", "metadata"})
    kind = as_str(p, "type", required=True, max_len=40, pattern=r"[a-z][a-z0-9_]{1,39}")
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        customer_of(req, customer_id)
    method: dict[str, Any] = {"type": kind, "customerId": customer_id, "billing": as_obj(p, "billing"),
                              "metadata": as_metadata(p), "status": "chargeable"}
    req.add("paymentMethod", method)
    method["clientObjectId"] = f"client_{method['id']}"
    return render(method)


def list_payment_methods(req: Req) -> dict[str, Any]:
    filters = {"customerId": req.query["customerId"]} if "customerId" in req.query else None
    deleted = as_bool(req.query, "deleted", default=False)
    return req.page("paymentMethod", filters, frozenset({"customerId", "deleted"}),
                    lambda o: bool(o.get("deleted")) == deleted)


def get_payment_method(req: Req, method_id: str) -> dict[str, Any]:
    return render(req.get("paymentMethod", method_id))


def delete_payment_method(req: Req, method_id: str) -> dict[str, Any]:
    method = req.get("paymentMethod", method_id)
    method["deleted"] = True
    return render(method)
