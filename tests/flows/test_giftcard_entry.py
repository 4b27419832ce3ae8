"""The Gift card screen's state without Qt (issue #36, round 3): the number held in memory only
(checked, masked, or read on the pad), which flow a key runs with the amount typed, the last
request F12 names and cancels on its second press, and the balance's history, on a real till
(the in-process sandbox)."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows.giftcard_entry import GiftCardEntry, GiftCardOp
from cashier.flows.giftcards import Balance, GiftCardFlowResult
from cashier.journal.model import State
from cashier.money import CentsBuffer
from tests.support.tills import GIFT_NUMBER


def test_the_number_is_checked_held_masked_or_left_to_the_pad() -> None:
    e = GiftCardEntry(CentsBuffer())
    assert e.on_pad and e.masked is None and e.card().on_pad
    e.take_number(f" {GIFT_NUMBER} ")
    assert not e.on_pad and e.masked is not None and GIFT_NUMBER not in e.masked
    assert e.masked.endswith(GIFT_NUMBER[-4:]) and e.card().number == GIFT_NUMBER
    with pytest.raises(ValidationError) as bad:
        e.take_number("12ab")
    assert bad.value.field == "card" and e.number == GIFT_NUMBER  # a bad number changes nothing
    e.take_number("")
    assert e.on_pad  # empty: the PIN pad reads the card


def test_a_balance_names_its_card_one_way_and_says_when_to_activate() -> None:
    e = GiftCardEntry(CentsBuffer())
    never = Balance("1", "XXXX1234", None, None, None, state="not activated")
    assert e.shown_card(never) == "XXXX1234" and e.needs_activation(never)  # read on the pad
    e.take_number(GIFT_NUMBER)
    assert e.shown_card(never) == e.masked  # the number on hold, as the card line shows it
    assert not e.needs_activation(Balance("1", None, None, D(5), None))


async def test_keys_run_their_flow_and_f12_asks_before_it_cancels(make_till: Any) -> None:
    till = await make_till("HD")
    e = GiftCardEntry(CentsBuffer())
    e.take_number(GIFT_NUMBER)
    for digit in "2000":
        e.amount.push(digit)
    assert not e.arm_cancel()  # nothing to cancel yet
    activated = await e.request(till.ctx, GiftCardOp.ACTIVATE)
    assert isinstance(activated, GiftCardFlowResult)
    e.done(activated)
    assert e.last is not None and e.last.amount == D("20.00") and e.last.invoice == activated.entry.invoice
    assert not e.amount.entered  # cleared for the next request
    e.started()
    balance = await e.request(till.ctx, GiftCardOp.BALANCE)
    assert isinstance(balance, Balance) and balance.balance == D("20.00")
    e.done(balance)
    assert e.history and e.last.invoice == activated.entry.invoice  # a balance is no request to cancel
    e.started()
    assert e.history == ()
    assert e.arm_cancel() and e.cancel_armed == e.last.invoice  # the first press only asks
    assert not e.arm_cancel() and e.cancel_armed is None  # the second press cancels
    cancelled = await e.cancel(till.ctx)
    e.done(cancelled)
    assert cancelled.outcome == "voided" and e.last.invoice == cancelled.entry.invoice
    assert (await till.journal.get(activated.entry.id)).state is State.VOIDED
    assert (await e.request(till.ctx, GiftCardOp.BALANCE)).state == "not activated"
