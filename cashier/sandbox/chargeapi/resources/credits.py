"""Credits: money sent to a card (a card error refuses it as it refuses a charge)."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.cards import card_source, default_card, public_card
from cashier.sandbox.chargeapi.resources.common import customer_of
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_currency,
    as_int,
    as_metadata,
    as_obj,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.testcards import (
    CARD_ERROR_CODES,
    MAX_AMOUNT,
    MESSAGES,
)
from cashier.sandbox.chargeapi.wire import card_error, invalid


def create_credit(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"amount", "currency", "card", "customerId", "description", "metadata", "fundsSender",
              "receiver", "merchantAccountId"})
    amount = as_int(p, "amount", required=True, minimum=1)
    currency = as_currency(p)
    assert amount is not None and currency is not None
    customer = None
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        customer = customer_of(req, customer_id)
    if p.get("card") not in (None, ""):
        card = card_source(req, p["card"], customer)
    elif customer is not None:
        found = default_card(req, customer)
        if found is None:
            raise invalid(f"customerId: customer '{customer_id}' has no default card")
        card = found
    else:
        raise invalid("customerId or card: one of them is required")
    if amount > MAX_AMOUNT:
        raise card_error("limit_exceeded", MESSAGES["limit_exceeded"])
    outcome = card.get("_outcome", "success")
    code = outcome if outcome in CARD_ERROR_CODES and outcome != "authentication_required" else None
    credit: dict[str, Any] = {"amount": amount, "currency": currency, "card": public_card(req, card),
                              "customerId": customer_id, "fast": True,
                              "description": as_str(p, "description", max_len=1000),
                              "metadata": as_metadata(p), "fundsSender": as_obj(p, "fundsSender"),
                              "receiver": as_obj(p, "receiver"),
                              "merchantAccountId": as_str(p, "merchantAccountId", max_len=64)}
    if code:
        # kept, like a failed charge: the vendor's card error names the credit it recorded
        credit.update(failureCode=code, failureMessage=MESSAGES[code], _failed=True)
    req.add("credit", credit)
    if code:
        req.emit("CREDIT_FAILED", credit)
        raise card_error(code, MESSAGES[code], credit_id=credit["id"])
    req.emit("CREDIT_SUCCEEDED", credit)
    return render(credit)


def list_credits(req: Req) -> dict[str, Any]:
    filters = {"customerId": req.query["customerId"]} if "customerId" in req.query else None
    return req.page("credit", filters, frozenset({"customerId"}))


def get_credit(req: Req, credit_id: str) -> dict[str, Any]:
    return render(req.get("credit", credit_id))


def update_credit(req: Req, credit_id: str) -> dict[str, Any]:
    credit = req.get("credit", credit_id)
    allow(req.params, {"description", "metadata", "customerId"})
    customer_id = as_str(req.params, "customerId", max_len=64)
    if customer_id:
        customer = req.find("customer", customer_id, "customerId")
        if customer.get("deleted"):
            raise invalid(f"customerId: customer '{customer_id}' was deleted")
        credit["customerId"] = customer_id
    description = as_str(req.params, "description", max_len=1000)
    if description is not None:
        credit["description"] = description
    if "metadata" in req.params:
        credit["metadata"] = as_metadata(req.params)
    return render(credit)
