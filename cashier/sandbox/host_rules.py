"""``/rules/verify`` and ``/rule/verify`` (HD only): processing rules, surcharge eligibility.

Our spec names ``/rules/verify`` and a later correction ``/rule/verify``; the server's choice is
ambiguous, so the sandbox answers both with the same handler (docs/decisions/002-sandbox.md).

Surcharge rule of the sandbox: credit cards are eligible ('P', 3.00 percent); debit and prepaid
cards are not ('F'), as card network rules forbid surcharging debit.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from cashier.sandbox.core import Family, HostCall, invalid_field
from cashier.sandbox.host_dcc import card_of
from cashier.sandbox.longtail import (
    DEBIT_CARDS,
    amount,
    card_type,
    merchant,
    new_id,
    require,
    text,
)
from cashier.sandbox.shared import get, masked, now_text

FAMILY = Family("rules")

SURCHARGE_PERCENT = Decimal("3.00")
RULES = ("SURCHARGE",)


async def rule_verify(call: HostCall) -> dict[str, Any]:
    body = call.body
    total = amount(body)
    assert total is not None
    checks = require(body, "ruleCheck")
    if not isinstance(checks, list) or not checks or any(c not in RULES for c in checks):
        raise invalid_field("ruleCheck", f"must be a list of rule names: {', '.join(RULES)}")
    invoice = text(body, "transaction.invoice", max_len=10)
    vendor_reference = text(body, "transaction.vendorReference", max_len=50, required=False)
    number, token = card_of(call)
    item: dict[str, Any] = {"dateTime": now_text(call), "merchant": merchant(call),
                            "card": {"number": masked(number), "token": {"value": token},
                                     "type": card_type(number)}}
    transaction: dict[str, Any] = {"invoice": invoice}
    if vendor_reference:
        transaction["vendorReference"] = vendor_reference
    item["transaction"] = transaction
    if get(body, "clerk.numericId") is not None:
        item["clerk"] = {"numericId": get(body, "clerk.numericId")}
    eligible = number not in DEBIT_CARDS
    surcharge = (total * SURCHARGE_PERCENT / 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    item["surcharge"] = {"result": "P" if eligible else "F", "transactionId": new_id(length=16)}
    if eligible:
        item["surcharge"]["percentage"] = SURCHARGE_PERCENT
        item["amount"] = {"total": total + surcharge, "surcharge": surcharge}
    else:
        item["amount"] = {"total": total, "surcharge": Decimal("0.00")}
    return item


FAMILY.route("POST", "/rules/verify", "HD")(rule_verify)
FAMILY.route("POST", "/rule/verify", "HD")(rule_verify)
