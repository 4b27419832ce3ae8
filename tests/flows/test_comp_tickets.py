"""A comp (issue #38): a ticket whose lines are discounted to 0.00 is finished like any other.
Through the in-process sandbox and the Sale screen's own core (``SaleEntry``): its tender keys
are ready, the tender closes the ticket as paid with no tender journaled (no host, no PIN pad, no
drawer), the X report counts its lines and discounts, and a refund of what was paid nothing is
refused with nothing journaled."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from cashier.discounts import Discount
from cashier.errors import ValidationError
from cashier.flows.sale_entry import SaleEntry
from cashier.flows.ticket import Tender, TicketSession, TicketSettings, load, refund_ticket
from cashier.money import CentsBuffer
from tests.support.cafe import BUN, LATTE, MANAGER, cafe, with_clerks
from tests.support.tills import open_drawer


async def comped_bun(till: Any, bob: Any, settings: TicketSettings) -> TicketSession:
    """A Bun (2.50) given away: the manager's 2.50 staff discount on its line."""
    s = await TicketSession.start(till.ctx, settings)
    await s.add_product(BUN)
    ticket = await s.add_discount(Discount("amount", D("2.50"), 0, "staff"), manager=bob)
    assert (ticket.total, ticket.remaining, ticket.discounts) == (D("0.00"), D("0.00"), D("2.50"))
    return s


async def test_a_comp_is_closed_as_paid_by_the_cash_key_with_no_drawer_and_no_host(
        make_till: Any) -> None:
    """The Sale screen's Cash key on a comped Bun, with no drawer open: the tenders are ready,
    the key asks no one (not the PIN pad), and the core closes the ticket as paid with no tender
    (nothing went to the host, nothing in the drawer); the X report counts its line and its
    discount. An amount typed for it is refused, with nothing journaled."""
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer
    from cashier.reports import x_report

    till = await make_till("HD")
    bob = with_clerks(till).manager(MANAGER, "2222")
    till.ctx.catalog.replace(cafe())
    settings = TicketSettings(cash_rounding=D("0.05"))
    entry = SaleEntry(CentsBuffer(), CentsBuffer(), context=lambda: (till.ctx, settings))
    s = await comped_bun(till, bob, settings)
    entry.session = s
    entry.show(s.ticket, prefill=True)
    fields = entry.fields()
    assert fields.ready and not fields.figures.due and fields.cash_due is None
    with pytest.raises(ValidationError, match="cash: nothing remains to pay on ticket"):
        await s.quick_pay([Tender("cash", D("5.00"))])  # a slip: never taken
    request = entry.tender_request("card")  # Return: the card key, as on any ticket
    assert request.closes and not request.on_pad and request.shown == 0
    done = await entry.pay(await entry.session_for([request.tender]), request)
    assert done.ends and done.result is None and done.tender is None
    ticket = await load(till.ctx, s.id)
    assert ticket.state == "paid" and ticket.tenders == () and ticket.total == 0
    assert entry.ticket is not None and entry.ticket.is_paid and not entry.fields().ready
    assert await till.ledger() == {}  # nothing reached the host
    events = [e for e in await till.journal.events() if e.type == "ticket_paid"]
    assert [e.data["ticket"] for e in events] == [s.id]
    assert events[0].data["discounts"]["total"] == "2.50"
    store = open_recorder(till.rt.profile)
    try:
        report = x_report(store, Drawer(store, till.rt.profile.roster))
        sold = store.report_lines("", "~")
    finally:
        store.close()
    assert report["discounts"]["by_reason"] == {"staff": {"count": 1, "amount": "2.50"}}
    assert (report["tickets"], report["gross"]) == (1, "0.00")  # a ticket, no money
    assert [(row["product"], int(row["quantity"])) for row in sold] == [("BUN", 1)]


async def test_refunding_a_comp_is_refused_and_a_paid_ticket_gives_back_what_it_took(
        make_till: Any) -> None:
    """Nothing was paid for a comp's lines: refunding them (or the comp) is refused in one line,
    nothing journaled, no manager asked. On a ticket with a Latte paid in cash and a Bun given
    away, the Latte's refund gives back all that was paid, the cash rounding too (the Bun is
    never refunded alone, so the Latte is the last line paid for)."""
    till = await make_till("HD")
    bob = with_clerks(till).manager(MANAGER, "2222")
    open_drawer(till.rt.profile)
    till.ctx.catalog.replace(cafe())
    settings = TicketSettings(cash_rounding=D("0.05"))
    comp = await comped_bun(till, bob, settings)
    assert (await comp.quick_pay([Tender("cash")])).ticket.is_paid
    before = len(await till.journal.events())
    for lines in ([0], None):
        with pytest.raises(ValidationError, match="refund: nothing to give back on ticket"):
            await refund_ticket(till.ctx, comp.id, lines=lines)  # no manager: refused before
    assert len(await till.journal.events()) == before
    assert (await load(till.ctx, comp.id)).refunds == ()
    s = await TicketSession.start(till.ctx, settings)
    await s.add_product(LATTE)
    await s.add_product(BUN)
    await s.add_discount(Discount("amount", D("2.50"), 1, "staff"), manager=bob)
    paid = await s.pay(Tender("cash", D("5.00")))
    # 4.00 + 8.25 % = 4.33, paid in cash as 4.35
    assert (paid.state, paid.total, paid.record.rounding) == ("paid", D("4.35"), D("0.02"))
    with pytest.raises(ValidationError, match="refund: nothing to give back"):
        await refund_ticket(till.ctx, s.id, lines=[1], manager=bob)
    back = await refund_ticket(till.ctx, s.id, lines=[0], manager=bob)
    assert back.given_back() == paid.total == D("4.35")
    with pytest.raises(ValidationError, match="refund: nothing to give back"):
        await refund_ticket(till.ctx, s.id, lines=[1], manager=bob)  # not the rounding again


async def test_a_comp_after_a_declined_card_is_one_ticket_in_the_report(make_till: Any) -> None:
    """A ticket whose card was declined, then given away (its line discounted to 0.00) and closed
    with no money: it has a tender entry (the declined one) and no money taken. The X report
    counted its discount but not the ticket, as it counted only comps with no entry at all; every
    paid ticket counts once, whatever entries it has (beside it, one paid in cash, counted once)."""
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer
    from cashier.flows.payments import KeyedCard
    from cashier.reports import x_report

    till = await make_till("HD")
    bob = with_clerks(till).manager(MANAGER, "2222")
    open_drawer(till.rt.profile)
    s = await TicketSession.start(till.ctx, TicketSettings())
    await s.add_line("Big order", D("1000000.00"))  # the sandbox declines this amount
    ticket = await s.pay(Tender("card", card=KeyedCard("4321000000001119", "1228")))
    assert [t.outcome for t in ticket.tenders] == ["declined"] and ticket.state == "open"
    await s.add_discount(Discount("percent", D(100), reason="staff"), manager=bob)
    comp = (await s.quick_pay([Tender("cash")])).ticket
    assert comp.is_paid and comp.total == 0 and [t.outcome for t in comp.tenders] == ["declined"]
    cash = await TicketSession.start(till.ctx, TicketSettings())
    await cash.add_line("Tea", D("2.00"))
    assert (await cash.pay(Tender("cash", D("2.00")))).is_paid
    store = open_recorder(till.rt.profile)
    try:
        report = x_report(store, Drawer(store, till.rt.profile.roster))
    finally:
        store.close()
    assert report["discounts"]["by_reason"] == {"staff": {"count": 1, "amount": "1000000.00"}}
    assert (report["tickets"], report["gross"]) == (2, "2.00")  # the comp and the tea, once each
