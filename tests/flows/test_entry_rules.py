"""The core decides what an entry allows and why it ended, from the vendor's code tables; the
host's own text stays in the journal."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

from cashier.entry_rules import can_refund, can_void, is_cancelled, reason, refundable_amount, shown_amount
from cashier.flows import giftcards
from cashier.flows.payments import refund, sale


async def test_reasons_from_the_vendor_tables(make_till: Any) -> None:
    till = await make_till("LG")
    approved = (await sale(till.ctx, D("30.00"))).entry
    declined = (await sale(till.ctx, D("999999.00"))).entry
    referral = (await sale(till.ctx, D("999998.50"))).entry
    assert reason(approved) is None
    why_declined, why_referral = reason(declined), reason(referral)
    assert why_declined is not None and why_declined.case == "declined" and declined.response_code == "D"
    assert why_referral is not None and why_referral.case == "referral"
    card = giftcards.GiftCard(number="4321000000001119")  # a credit card is no gift card
    wrong = (await giftcards.reload(till.ctx, card, D("5.00"))).entry
    why_wrong = reason(wrong)
    assert why_wrong is not None and why_wrong.case == "card_not_accepted"
    assert "NOT IN CARDRANGE" in (wrong.message or "")  # the host's text is kept for the manager


async def test_what_can_be_refunded_and_voided(make_till: Any) -> None:
    till = await make_till("LG")
    paid = (await sale(till.ctx, D("30.00"))).entry
    declined = (await sale(till.ctx, D("999999.00"))).entry
    assert can_refund(paid) and refundable_amount(paid) == D("30.00") and can_void(paid)
    assert not can_refund(declined) and not can_void(declined) and not is_cancelled(declined)
    await refund(till.ctx, D("10.00"), original_invoice=paid.invoice)
    paid = await till.journal.get(paid.id)
    assert refundable_amount(paid) == D("20.00") and shown_amount(paid) == D("30.00")
