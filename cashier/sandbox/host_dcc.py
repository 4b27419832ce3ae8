"""``/dcc/ratelookup`` (HD only): dynamic currency conversion rate.

The vendor publishes no DCC test cards, so the sandbox treats a few test cards as issued abroad
(``longtail.FOREIGN_CARDS``: JCB in JPY, a Mastercard in EUR, a Visa in CAD). Every other card
answers ``supportIndicator`` '0' (DCC cannot be used) with no conversion. The provider is not
named (``dcc.provider`` is optional and its values are vendor product names).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from cashier.sandbox.core import Family, HostCall, invalid_field, missing_field
from cashier.sandbox.longtail import (
    FOREIGN_CARDS,
    amount,
    check_card_number,
    expiration,
    issue_token,
    merchant,
    new_id,
    test_card_for_token,
    text,
    token_value,
    unknown_token,
)
from cashier.sandbox.shared import get, masked, now_text

FAMILY = Family("dcc")

#: The sandbox's margin over the reference rate, in percent (text, as the host sends it).
MARGIN_PERCENT = Decimal("3.50")


def card_of(call: HostCall) -> tuple[str, str]:
    """(card number, token) from a token or keyed card body."""
    body = call.body
    if get(body, "card.token") is not None:
        token = token_value(body)
        number = test_card_for_token(call, token)
        if number is None:
            raise unknown_token()
        return number, token
    if get(body, "card.number") is not None:
        number = check_card_number(get(body, "card.number"))
        expiration(body)
        return number, issue_token(call, number)
    if get(body, "p2pe") is not None:
        raise invalid_field("p2pe", "encrypted card data is not simulated; send card.token.value")
    raise missing_field("card.number")


def convert(total: Decimal, rate_text: str, minor_units: int) -> tuple[Decimal, Decimal]:
    """(rate with margin, foreign amount rounded to the currency's minor units)."""
    rate = (Decimal(rate_text) * (1 + MARGIN_PERCENT / 100)).quantize(Decimal("0.0001"),
                                                                      rounding=ROUND_HALF_UP)
    exponent = Decimal(1).scaleb(-minor_units)
    return rate, (total * rate).quantize(exponent, rounding=ROUND_HALF_UP)


@FAMILY.route("POST", "/dcc/ratelookup", "HD")
async def rate_lookup(call: HostCall) -> dict[str, Any]:
    body = call.body
    text(body, "currencyCode", max_len=3, min_len=3)
    total = amount(body)
    assert total is not None
    if get(body, "clerk.numericId") is None:
        raise missing_field("clerk.numericId")
    number, token = card_of(call)
    dcc: dict[str, Any] = {"supportIndicator": "0"}
    foreign = FOREIGN_CARDS.get(number)
    if foreign is not None:
        currency, minor_units, reference = foreign
        rate, foreign_amount = convert(total, reference, minor_units)
        dcc = {"rateTimeStamp": now_text(call), "currencyCode": currency,
               "foreignAmount": foreign_amount, "conversionRate": str(rate),
               "marginPercentage": str(MARGIN_PERCENT), "currencyMinorUnits": minor_units,
               "transactionId": new_id(length=12), "marginOverEcb": str(MARGIN_PERCENT),
               "displayUnit": 0, "supportIndicator": "1"}
    return {"dateTime": now_text(call), "amount": {"total": total},
            "card": {"number": masked(number), "token": {"value": token}},
            "dcc": dcc, "merchant": merchant(call)}
