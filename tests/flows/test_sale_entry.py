"""The Sale screen's state without Qt (issue #36, round 3): what a key does, what is pre-filled and
when typing replaces it, the scanner's digits, which amount a tender takes, F12's first press, and
what came of a tender, on real tickets of a real till (the in-process sandbox)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal as D
from typing import Any

import pytest

from cashier.flows.payments import KeyedCard
from cashier.flows.sale_entry import TIP_KEYED, TIP_NONE, Act, Key, SaleEntry
from cashier.flows.ticket import Tender, TicketResult, TicketSession, TicketSettings
from cashier.money import CentsBuffer
from tests.support.tills import open_drawer

VISA = KeyedCard("4321000000001119", "1228")


@dataclass(frozen=True)
class Product:
    name: str
    price: D
    barcode: str


def entry(**kw: Any) -> SaleEntry:
    return SaleEntry(CentsBuffer(), CentsBuffer(), **kw)


def type_digits(e: SaleEntry, digits: str) -> None:
    """What the window does with a digit: the model first, then the display pushes it."""
    for d in digits:
        assert e.key(Key.DIGIT, d) in (Act.AMOUNT, Act.RETYPE)
        e.amount.push(d)


async def open_ticket(make_till: Any, *lines: tuple[str, D]) -> tuple[Any, TicketSession]:
    till = await make_till("HD")
    s = await TicketSession.start(till.ctx, TicketSettings())
    for name, price in lines:
        await s.add_line(name, price)
    return till, s


# ---- keys without a ticket -----------------------------------------------------------------
def test_keys_say_what_the_window_does() -> None:
    e = entry()
    assert e.key(Key.TEXT, "C") is Act.NAME_TYPE  # letters name the next line
    assert e.key(Key.ADD, "+") is Act.ADD_LINE
    assert e.key(Key.BACKSPACE, named=True) is Act.NAME_BACK  # nothing typed: the name loses one
    type_digits(e, "125")
    assert e.key(Key.BACKSPACE, named=True) is Act.AMOUNT  # an amount typed: the amount does
    assert e.key(Key.ESCAPE) is Act.NAME_CLEAR  # Esc: the name goes, then the amount
    assert e.key(Key.OTHER) is Act.NONE  # an F key: not the entry's
    # on the Tip field only the amount keys count; letters and + are not the entry's
    assert e.key(Key.TEXT, "x", on_tip=True) is Act.NONE
    assert e.key(Key.ADD, on_tip=True) is Act.NONE
    assert e.key(Key.DIGIT, "5", on_tip=True) is Act.AMOUNT
    assert e.key(Key.RETURN, on_tip=True) is Act.AMOUNT  # Return charges from the tip too


def test_a_scanned_code_then_return_is_the_product_and_typing_is_not() -> None:
    milk = Product("Milk 1l", D("1.29"), "4006381333931")
    e = entry(products=[milk])
    type_digits(e, "4006381333931")  # a scanner types into the amount (which refuses the extra)
    assert e.scanned == "4006381333931"  # ... and the model keeps every digit it typed
    assert e.key(Key.RETURN) is Act.SCAN and e.product is milk
    assert (e.scanned, e.amount.entered) == ("", False)  # the code never stays as an amount
    type_digits(e, "999")
    assert e.key(Key.RETURN) is Act.AMOUNT  # no such product: Return charges the amount typed
    assert e.scanned == ""
    type_digits(e, "12")
    e.key(Key.BACKSPACE)
    assert e.scanned == ""  # an edit ends the scan: the digits are no barcode


def test_the_quick_path_takes_all_that_remains_and_brings_its_line() -> None:
    e = entry(tip_mode=TIP_KEYED)
    type_digits(e, "1735")
    e.tip.set(D("1.00"))
    r = e.tender_request("card", name="Amount")
    assert r.tender == Tender("card", None) and r.lines == (("Amount", D("17.35"), 1),)
    assert (r.keyed_tip, r.before, r.shown, r.waits_for_all, r.on_pad) == (
        D("1.00"), 0, D("18.35"), True, True)
    assert e.fields().figures.remaining == D("18.35") and e.fields().can_add_line
    cash = e.tender_request("cash", handed=D("20.00"), chosen=True)
    assert cash.tender == Tender("cash", D("20.00")) and not cash.on_pad and not cash.waits_for_all


def test_a_tip_mode_other_than_keyed_drops_the_keyed_tip() -> None:
    e = entry(tip_mode=TIP_KEYED)
    e.tip.set(D("2.00"))
    assert e.keyed_tip() == D("2.00") and e.fields().tip_open
    assert e.tip_mode_set(TIP_NONE) and not e.tip.entered
    assert e.keyed_tip() == 0 and not e.fields().tip_keyed
    assert e.tender_request("card").keyed_tip is None


def test_fields_are_the_same_object_while_nothing_changed() -> None:
    e = entry()
    type_digits(e, "5")
    first = e.fields()
    assert e.fields() is first  # asked several times per key: laid out once
    type_digits(e, "0")
    assert e.fields() is not first and e.fields().figures.remaining == D("0.50")


# ---- with a real ticket ----------------------------------------------------------------------
def test_a_key_is_one_call_that_edits_the_amount_and_answers_the_fields() -> None:
    """``press``: what the key does, the edit, and the fields, in one call (the window asks
    nothing more for a digit)."""
    from cashier.money import AmountBounds

    e = SaleEntry(CentsBuffer(bounds=AmountBounds(D("100.00"))), CentsBuffer())
    for d in "125":
        p = e.press(Key.DIGIT, d)
        assert p.act is Act.AMOUNT and p.taken
    assert e.amount.value == D("1.25") and p.fields.can_add_line and p.fields is e.fields()
    assert e.press(Key.BACKSPACE).fields.figures.total == D("0.12")
    assert e.press(Key.DIGIT, "9", start_over=True).taken and e.amount.value == D("0.09")
    for d in "999":
        e.press(Key.DIGIT, d)
    refused = e.press(Key.DIGIT, "9")  # 999.99 is past this till's bound: not taken
    assert not refused.taken and e.amount.value == D("99.99")
    assert e.press(Key.ESCAPE).act is Act.NAME_CLEAR and not e.amount.entered
    assert e.press(Key.RETURN).act is Act.AMOUNT  # Return is the window's: it charges


async def test_prefill_is_what_remains_and_a_digit_replaces_it(make_till: Any) -> None:
    _till, s = await open_ticket(make_till, ("Coffee", D("4.50")), ("Bagel", D("4.85")))
    e = entry()
    e.session, e.ticket = s, s.ticket
    e.prefill()
    assert e.prefilled and e.amount.value == D("9.35")
    assert not e.fields().can_add_line  # what remains is no new line
    assert e.line() is None
    r = e.tender_request("card")
    assert r.tender.amount is None and r.lines == () and r.shown == D("9.35")  # F2: all of it
    assert e.key(Key.DIGIT, "5") is Act.RETYPE  # typing replaces what remains (a split)
    e.amount.push("5")
    assert not e.prefilled and e.amount.value == D("0.05")
    part = e.tender_request("card")
    assert part.tender.amount == D("0.05") and not part.waits_for_all
    e.prefill()
    e.amount.backspace()  # edited on the keypad: no longer what remains
    e.amount_edited()
    assert not e.prefilled
    e.prefill()
    assert e.key(Key.ESCAPE) is Act.NAME_CLEAR and not e.prefilled


async def test_a_keyed_tip_moves_the_prefill_so_it_and_remaining_agree(make_till: Any) -> None:
    _till, s = await open_ticket(make_till, ("Lunch", D("20.00")))
    e = entry(tip_mode=TIP_KEYED)
    e.session, e.ticket = s, s.ticket
    e.prefill()
    e.tip.set(D("3.00"))
    assert e.tip_edited() and e.amount.value == D("23.00") == e.fields().figures.remaining


async def test_f12_asks_first_when_money_was_taken_then_cancels(make_till: Any) -> None:
    till, s = await open_ticket(make_till, ("Lunch", D("20.00")))
    e = entry()
    e.session, e.ticket = s, s.ticket
    assert not e.arm_cancel()  # nothing paid: the first press cancels
    open_drawer(till.rt.profile)
    e.ticket = await s.pay(Tender("cash", D("5.00")))
    assert e.arm_cancel() and e.cancel_armed == (e.ticket.id, D("5.00"))  # asks, naming the sum
    assert not e.arm_cancel() and e.cancel_armed is None  # the second press cancels
    assert e.arm_cancel()  # asked again after that


async def test_what_came_of_a_tender_is_the_flow_s_result_as_journaled(make_till: Any) -> None:
    """Issue #36 (c): ``quick_pay`` returns the result its flow built (one object, the ticket
    with it); the screen shows that, nothing rebuilds it from the ticket."""
    _till, s = await open_ticket(make_till, ("Big order", D("1000000.00")))  # the host declines it
    e = entry()
    e.session, e.ticket = s, s.ticket
    out = await s.quick_pay([Tender("card", None, card=VISA)])
    assert out.tender is not None and out.entry is not None and out.result is not None
    assert out.result.entry.id == out.entry.id and not out.ends and out.ticket.is_open
    assert out.result.outcome == "declined" and out.tone == "declined"
    assert out.tender.entry_id == out.entry.id  # the tender the ticket read is the flow's
    out = await s.quick_pay([Tender("card", D("8.00"), card=VISA)])
    assert out.result is not None and out.result.outcome == "approved" and out.tone == "paid-part"
    assert not out.ends  # the ticket stays open: the entry shows what remains
    out = await s.quick_pay([Tender("card", None, card=VISA)])
    e.ticket = out.ticket
    assert out.ends and out.ticket.is_paid  # paid: the result screen
    assert e.leave_closed() and e.session is None and e.ticket is None
    assert TicketResult(out.ticket).tender is None  # nothing was charged: no result
    assert TicketResult.of(out.ticket, None).result is None


async def test_the_flow_s_own_result_reaches_the_screen(make_till: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The result the window is handed is the object the card flow returned (its message
    included), not one made again from the ticket's entry."""
    from cashier.flows import payments
    from cashier.flows import ticket as ticket_flow

    _till, s = await open_ticket(make_till, ("Lunch", D("12.00")))
    built: list[Any] = []
    card_flow = payments.sale_on_held_pad

    async def watched(*args: Any, **kwargs: Any) -> Any:  # the real flow, its result kept
        result = await card_flow(*args, **kwargs)
        built.append(result)
        return result

    monkeypatch.setattr(ticket_flow, "sale_on_held_pad", watched)
    out = await s.quick_pay([Tender("card", None, card=VISA)])
    assert built and out.result is built[0] and out.ticket.is_paid and out.ends
