"""Checkout sessions: an amount, line items (ours or the vendor's products) or a payment link,
and a hosted page URL."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.common import customer_of
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
from cashier.sandbox.chargeapi.wire import invalid

#: Ours (the spec's) and the vendor SDKs' session fields; the SDKs' are kept and returned.
SESSION_FIELDS = frozenset({
    "amount", "currency", "lineItems", "customerId", "successUrl", "cancelUrl", "metadata",
    "customer", "paymentLinkId", "locale", "collectBillingAddress", "collectShippingAddress",
    "customFieldsTitle", "customFields", "capture", "merchantAccountId",
})
#: An inline product of a vendor line item (``lineItems[i][product]``).
PRODUCT_FIELDS = frozenset({"id", "name", "description", "amount", "currency", "taxes", "merchantAccountId"})


def _product_price(req: Req, product: Any, label: str) -> tuple[int, str | None]:
    """(unit amount, currency) of a vendor line item's product: a plan by id, or inline."""
    if isinstance(product, str):
        product = {"id": product}
    if not isinstance(product, dict):
        raise invalid(f"{label}: must be a product id or a product object")
    allow(product, PRODUCT_FIELDS, label)
    product_id = as_str(product, "id", max_len=64, label=f"{label}.id")
    if product_id:
        plan = req.find("plan", product_id, f"{label}.id")  # the sandbox has plans, not products
        return int(plan["amount"]), str(plan["currency"])
    raw = product.get("amount")
    if isinstance(raw, dict):  # the SDKs' Amount object: a fixed value (donation ranges not simulated)
        allow(raw, {"value", "options", "custom"}, f"{label}.amount")
        raw = raw.get("value")
    unit = as_int({"amount": raw}, "amount", required=True, minimum=1, label=f"{label}.amount")
    as_str(product, "name", required=True, max_len=200, label=f"{label}.name")
    assert unit is not None
    return unit, as_currency(product, required=False)


def _line_total(req: Req, items: Any) -> tuple[int, str | None]:
    """The sum of line items in either shape: ours ``{amount, quantity, name}`` or the vendor's
    ``{product, quantity}``."""
    if not isinstance(items, list) or not items:
        raise invalid("lineItems: must be a list (lineItems[0][amount]=...)")
    total = 0
    currency: str | None = None
    for i, item in enumerate(items):
        label = f"lineItems[{i}]"
        if not isinstance(item, dict):
            raise invalid(f"{label}: must be an object")
        if "product" in item:
            allow(item, {"product", "quantity"}, label)
            unit, item_currency = _product_price(req, item["product"], f"{label}.product")
            if item_currency and currency and item_currency != currency:
                raise invalid(f"{label}.product.currency: all line items must be in one currency")
            currency = currency or item_currency
        else:
            allow(item, {"amount", "quantity", "name"}, label)
            unit_or_none = as_int(item, "amount", required=True, minimum=1, label=f"{label}[amount]")
            assert unit_or_none is not None
            unit = unit_or_none
        qty = as_int(item, "quantity", minimum=1, maximum=1000, default=1, label=f"{label}[quantity]")
        assert qty is not None
        total += unit * qty
    return total, currency


def create_checkout_session(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, SESSION_FIELDS)
    link_id = as_str(p, "paymentLinkId", max_len=64)
    link = req.find("paymentLink", link_id, "paymentLinkId") if link_id else None
    items = p.get("lineItems")
    item_currency: str | None = None
    if items is not None:
        amount, item_currency = _line_total(req, items)
        if "amount" in p and as_int(p, "amount") != amount:
            raise invalid("amount: must equal the sum of the line items")
    elif link is not None:
        amount, item_currency = int(link["amount"]), str(link["currency"])
    else:
        amount_or_none = as_int(p, "amount", required=True, minimum=1)
        assert amount_or_none is not None
        amount = amount_or_none
    currency = as_currency(p, required=item_currency is None) or item_currency
    if item_currency and currency != item_currency:
        raise invalid(f"currency: must be the line items' currency {item_currency}")
    customer_id = as_str(p, "customerId", max_len=64) or as_str(p, "customer", max_len=64)
    if customer_id:
        customer_of(req, customer_id)
    session: dict[str, Any] = {"amount": amount, "currency": currency, "lineItems": items,
                               "customerId": customer_id, "status": "open",
                               "successUrl": as_str(p, "successUrl", max_len=2000),
                               "cancelUrl": as_str(p, "cancelUrl", max_len=2000),
                               "metadata": as_metadata(p), "paymentLinkId": link_id,
                               "locale": as_str(p, "locale", max_len=20),
                               "capture": as_bool(p, "capture", default=True),
                               "collectBillingAddress": as_bool(p, "collectBillingAddress"),
                               "collectShippingAddress": as_bool(p, "collectShippingAddress"),
                               "customFieldsTitle": as_str(p, "customFieldsTitle", max_len=200),
                               "customFields": p.get("customFields"),
                               "merchantAccountId": as_str(p, "merchantAccountId", max_len=64)}
    req.add("checkoutSession", session)
    session["clientSecret"] = f"{session['id']}_secret_{req.new_id('token')[4:]}"
    session["url"] = f"{req.base_url}/checkout/{session['id']}"
    return render(session)


def list_checkout_sessions(req: Req) -> dict[str, Any]:
    return req.page("checkoutSession")


def get_checkout_session(req: Req, session_id: str) -> dict[str, Any]:
    return render(req.get("checkoutSession", session_id))
