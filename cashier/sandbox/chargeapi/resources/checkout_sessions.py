"""Checkout sessions: an amount or line items and a hosted page URL."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.common import customer_of
from cashier.sandbox.chargeapi.store import (
    Req,
    allow,
    as_currency,
    as_int,
    as_metadata,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.wire import invalid


def create_checkout_session(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"amount", "currency", "lineItems", "customerId", "successUrl", "cancelUrl", "metadata"})
    currency = as_currency(p)
    items = p.get("lineItems")
    if items is not None:
        if not isinstance(items, list) or not items:
            raise invalid("lineItems: must be a list (lineItems[0][amount]=...)")
        total = 0
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise invalid(f"lineItems[{i}]: must be an object")
            allow(item, {"amount", "quantity", "name"})
            unit = as_int(item, "amount", required=True, minimum=1, label=f"lineItems[{i}][amount]")
            qty = as_int(item, "quantity", minimum=1, maximum=1000, default=1,
                         label=f"lineItems[{i}][quantity]")
            assert unit is not None and qty is not None
            total += unit * qty
        amount = total
        if "amount" in p and as_int(p, "amount") != total:
            raise invalid("amount: must equal the sum of the line items")
    else:
        amount_or_none = as_int(p, "amount", required=True, minimum=1)
        assert amount_or_none is not None
        amount = amount_or_none
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        customer_of(req, customer_id)
    session: dict[str, Any] = {"amount": amount, "currency": currency, "lineItems": items,
                               "customerId": customer_id, "status": "open",
                               "successUrl": as_str(p, "successUrl", max_len=2000),
                               "cancelUrl": as_str(p, "cancelUrl", max_len=2000),
                               "metadata": as_metadata(p)}
    req.add("checkoutSession", session)
    session["clientSecret"] = f"{session['id']}_secret_{req.new_id('token')[4:]}"
    session["url"] = f"{req.base_url}/checkout/{session['id']}"
    return render(session)


def list_checkout_sessions(req: Req) -> dict[str, Any]:
    return req.page("checkoutSession")


def get_checkout_session(req: Req, session_id: str) -> dict[str, Any]:
    return render(req.get("checkoutSession", session_id))
