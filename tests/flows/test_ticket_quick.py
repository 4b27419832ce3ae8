"""The quick path and the keyed tip in the core (issue 22): what the counter shows with a tip keyed
but not yet taken, ``quick_pay`` (the window's and the command line's one path), "Exact" cash,
and the keyed tip journaled on the tender that paid it."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows.payments import KeyedCard
from cashier.flows.ticket import Figures, Tender, TicketSession, TicketSettings, parse_tender
from cashier.journal.model import Kind
from tests.support.tills import open_drawer

VISA = KeyedCard("4321000000001119", "1228")


async def test_figures_add_the_keyed_tip_to_what_remains(make_till: Any) -> None:
    till = await make_till("HD")
    assert Figures.of(None, typed=D("10.00"), keyed_tip=D("1.50")).remaining == D("11.50")
    s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("10")))
    await s.add_line("Lunch", D("20.00"))
    f = Figures.of(s.ticket, keyed_tip=D("2.00"))
    assert (f.subtotal, f.tax, f.tip, f.total, f.remaining) == (D("20.00"), D("2.00"), D("2.00"),
                                                                 D("24.00"), D("24.00"))
    ticket = await s.key_tip(D("2.00"))  # once taken, the keyed figure no longer adds to it
    assert Figures.of(ticket, keyed_tip=D("2.00")).remaining == ticket.remaining == D("24.00")


async def test_quick_pay_keyed_tip_then_card_part_then_exact_cash_puts_the_tip_on_cash(
        make_till: Any) -> None:
    till = await make_till("HD")
    open_drawer(till.rt.profile)
    s = await TicketSession.start(till.ctx, TicketSettings(), [Tender("cash")])
    t = (await s.quick_pay([Tender("card", D("8.12"), card=VISA), Tender("cash")],
                           lines=[("Amount", D("17.35"), 1)], tip=D("1.00"))).ticket
    assert (t.state, t.total, t.paid, t.tip) == ("paid", D("18.35"), D("18.35"), D("1.00"))
    card, cash = t.tenders
    assert (card.kind, card.amount, card.tip) == ("card", D("8.12"), D("0"))
    assert (cash.kind, cash.amount, cash.tip, cash.change) == ("cash", D("10.23"), D("1.00"), D("0"))
    entry = (await till.journal.search(kinds=["cash"]))[0]
    assert entry.kind is Kind.CASH and entry.tip == D("1.00")


async def test_quick_pay_refuses_cash_without_a_drawer_before_anything_is_journaled(
        make_till: Any) -> None:
    till = await make_till("HD")
    with pytest.raises(ValidationError, match="drawer"):
        await TicketSession.start(till.ctx, TicketSettings(), [Tender("cash")])
    assert await till.journal.ticket_ids() == []


async def test_quick_pay_tells_a_refused_tender_and_leaves_the_ticket_open(make_till: Any) -> None:
    till = await make_till("HD")
    s = await TicketSession.start(till.ctx, TicketSettings())
    said: list[str] = []
    t = (await s.quick_pay([Tender("card", D("50.00"), card=VISA)], lines=[("Tea", D("4.00"), 1)],
                           refused=lambda exc: said.append(str(exc)))).ticket
    assert t.state == "open" and t.remaining == D("4.00") and said and "at most" in said[0]


def test_the_command_line_still_names_the_cash_tendered() -> None:
    with pytest.raises(ValidationError, match="hands over"):
        parse_tender("cash")
    assert parse_tender("cash=20").amount == D("20.00")


def test_cash_offers_are_the_next_notes_up() -> None:
    from cashier.config import load_profile
    from cashier.flows.ticket import cash_offers

    notes = load_profile(None).ticket.notes
    assert notes == (D(5), D(10), D(20), D(50), D(100))
    assert cash_offers(D("18.35"), notes, "USD") == [D("20.00"), D("50.00"), D("100.00")]
    assert cash_offers(D("7.50"), notes, "USD") == [D("10.00"), D("20.00"), D("50.00")]
    assert cash_offers(D("20.00"), notes, "USD") == [D("50.00"), D("100.00")]  # 20 is "Exact"
    assert cash_offers(D("0"), notes, "USD") == []
    assert load_profile(None, ticket={"notes": [20, 5]}).ticket.notes == (D(5), D(20))
