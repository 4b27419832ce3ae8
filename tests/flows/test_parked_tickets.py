"""Issue #39, what a cashier reaches for at once, the core's rules: a ticket parked and another
started, the parked one recalled (journaled, it survives a restart, one till takes it back once),
and the quantity key (the number typed is how many of the next line), on a real till (the
in-process sandbox)."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows.payments import KeyedCard
from cashier.flows.sale_entry import Act, Key, SaleEntry
from cashier.flows.ticket import (
    Tender,
    TicketSession,
    TicketSettings,
    open_tickets,
    parked_tickets,
    recall,
)
from cashier.money import CentsBuffer

VISA = KeyedCard("4321000000001119", "1228")


async def new(till: Any, *lines: tuple[str, str]) -> TicketSession:
    session = await TicketSession.start(till.ctx, TicketSettings())
    for name, price in lines:
        await session.add_line(name, D(price))
    return session


async def test_a_parked_ticket_waits_survives_a_restart_and_is_recalled_once(make_till: Any,
                                                                             tmp_path: Any) -> None:
    journal = tmp_path / "parked.sqlite"
    till = await make_till("HD", journal=journal)
    first = await new(till, ("Coffee", "3.50"), ("Bagel", "2.25"))
    await first.park()
    second = await new(till, ("Tea", "2.00"))
    assert [t.id for t in await parked_tickets(till.ctx)] == [first.id]
    # a parked ticket is not "left open by a crash": the start-up resume offers the other only
    assert [s.id for s in await open_tickets(till.ctx, TicketSettings())] == [second.id]
    await till.rt.close()
    again = await make_till("HD", journal=journal, sandbox=till.sandbox)
    [waiting] = await parked_tickets(again.ctx)
    assert waiting.id == first.id and [line.name for line in waiting.lines] == ["Coffee", "Bagel"]
    back = await recall(again.ctx, first.id, TicketSettings())
    assert back.ticket is not None and back.ticket.is_open and back.ticket.total == D("5.75")
    assert await parked_tickets(again.ctx) == []
    with pytest.raises(ValidationError, match="not parked"):  # taken back once
        await recall(again.ctx, first.id, TicketSettings())
    paid = await back.pay(Tender("card", card=VISA))
    assert paid.state == "paid"


async def test_parking_is_journaled_with_who_parked_and_recalled(make_till: Any) -> None:
    till = await make_till("HD")
    s = await new(till, ("Mug", "7.50"))
    await s.park()
    await recall(till.ctx, s.id, TicketSettings())
    rows = [e for e in await till.journal.events() if e.type in ("ticket_parked", "ticket_recalled")]
    assert [(e.type, e.data["ticket"], e.actor) for e in rows] == [
        ("ticket_parked", s.id, till.ctx.actor), ("ticket_recalled", s.id, till.ctx.actor)]


async def test_only_a_ticket_with_lines_and_no_money_taken_is_parked(make_till: Any) -> None:
    till = await make_till("HD")
    empty = await new(till)
    with pytest.raises(ValidationError, match="nothing to park"):
        await empty.park()
    s = await new(till, ("Lamp", "30.00"))
    await s.pay(Tender("card", D("10.00"), card=VISA))
    with pytest.raises(ValidationError, match="finish or cancel"):
        await s.park()
    assert await parked_tickets(till.ctx) == []
    other = await new(till, ("Pen", "1.00"))
    await other.park()
    with pytest.raises(ValidationError, match="already parked"):
        await till.ctx.journal.park_ticket(other.id, parked=True, actor="1")


# ---- the Sale screen's state ---------------------------------------------------------------
def entry(till: Any | None = None) -> SaleEntry:
    context = (lambda: (till.ctx, TicketSettings())) if till is not None else None
    return SaleEntry(CentsBuffer(), CentsBuffer(), context=context)


def press(e: SaleEntry, keys: str) -> Any:
    """Keys as the window hands them: digits, ``*`` the quantity key."""
    pressed = None
    for k in keys:
        pressed = e.press(Key.TIMES if k == "*" else Key.DIGIT, k)
    return pressed


def test_the_quantity_key_sets_the_next_line_and_only_it() -> None:
    e = entry()
    pressed = press(e, "2*")
    assert pressed.act is Act.QUANTITY and pressed.taken
    assert e.quantity == 2 and not e.amount.entered and pressed.fields.quantity == 2
    press(e, "350")
    assert e.figures().total == D("7.00")  # 2 x 3.50 before the line is added
    assert e.line() == D("3.50")  # the line's price, the entry cleared for the next
    assert e.take_quantity() == 2 and e.quantity == 1  # taken by the line; the next is one
    # nothing typed: back to one; beyond the line's rule: refused, nothing changed
    press(e, "3*")
    assert press(e, "*").taken and e.quantity == 1
    pressed = press(e, "1000*")
    assert not pressed.taken and e.quantity == 1 and e.amount.digits == "1000"
    e.amount.clear()


async def test_a_quantity_line_and_the_quick_path_carry_it(make_till: Any) -> None:
    till = await make_till("HD")
    e = entry(till)
    press(e, "3*")
    ticket = await e.add_line("Bagel", D("1.25"))
    assert [(line.name, line.quantity) for line in ticket.lines] == [("Bagel", 3)]
    assert ticket.total == D("3.75") and e.quantity == 1
    e.forget()
    press(e, "2*")
    press(e, "450")
    request = e.tender_request("card", name="Amount")
    assert request.lines == (("Amount", D("4.50"), 2),) and e.quantity == 1


async def test_the_screen_parks_the_ticket_and_recalls_it(make_till: Any) -> None:
    till = await make_till("HD")
    e = entry(till)
    ticket = await e.add_line("Coffee", D("3.50"))
    assert e.fields().can_park
    await e.park()
    assert e.ticket is None and e.session is None
    other = await e.add_line("Tea", D("2.00"))
    assert [t.id for t in await e.parked()] == [ticket.id]
    with pytest.raises(ValidationError, match="on the counter"):  # one ticket on the counter
        await e.recall(ticket.id)
    await e.park()
    back = await e.recall(ticket.id)
    assert back.id == ticket.id and e.ticket is not None and e.ticket.id == ticket.id
    assert [t.id for t in await e.parked()] == [other.id]
