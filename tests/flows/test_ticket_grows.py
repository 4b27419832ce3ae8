"""A ticket with promotions in force, grown line by line through the real journal, is priced once
per change, not once per line on it (``discounts.price_added``: the lines already priced are not
priced again), and shows at every step exactly what pricing it from scratch shows: seeded random
typed lines and products, promotions that cover some of them, a spend promotion the ticket
crosses, a cashier's discount, a removed line; then paid, its line refunded to the cent
(docs/decisions/017-run-time-and-benchmarks.md, stop 50)."""

from __future__ import annotations

import dataclasses
import random
from decimal import Decimal as D
from typing import Any

import pytest

import cashier.journal.tickets as journal_tickets
from cashier.discounts import Discount, Promotion, happy_hour, price_ticket
from cashier.flows.ticket import Tender, Ticket, TicketSession, TicketSettings, refund_ticket
from tests.support.cafe import BUN, LATTE, MANAGER, VISA, WEDNESDAY_5PM, cafe, with_clerks

PROMOTIONS = (happy_hour("coffee"),
              Promotion("3 buns for 6", "quantity_price", skus=("BUN",), quantity=3, price=D("6.00")),
              Promotion("Spend 150", "spend_discount", percent=D(5), threshold=D("150.00")))


def from_scratch(ticket: Ticket) -> Ticket:
    """The ticket of a copy of its record that remembers no earlier one: priced whole."""
    return Ticket.of(dataclasses.replace(ticket.record))


def shown(ticket: Ticket) -> tuple[Any, ...]:
    return (ticket.as_dict(), ticket.priced.lines, ticket.taxes, ticket.discounts, ticket.total,
            ticket.remaining, [ticket.pricing and ticket.pricing.line_net(i)
                               for i in range(len(ticket.lines))])


async def test_a_long_ticket_with_promotions_prices_each_line_once_and_as_from_scratch(
        make_till: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    till = await make_till("HD")
    roster = with_clerks(till)
    till.ctx.catalog.replace(cafe(promotions=PROMOTIONS))
    whole: list[int] = []
    def counted(*args: Any, **kw: Any) -> Any:
        whole.append(len(args[0]))
        return price_ticket(*args, **kw)

    # counted, not replaced: the journal's module prices by the one rule it imported
    monkeypatch.setattr(journal_tickets, "price_ticket", counted)
    rng = random.Random(20261123)
    s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("8.25")), at=WEDNESDAY_5PM)
    alone: list[int] = []  # the typed lines added below the spend promotion: priced whole how often
    for n in range(60):
        counted_from = len(whole)
        if n == 30:  # the cashier's discount on a line: priced whole again, once
            t = await s.add_discount(Discount("percent", D(10), line=3, reason="staff"))
        elif n == 40:  # a line removed: priced whole again, once
            t = await s.remove_line(5)
        elif rng.random() < 0.7:
            t = await s.add_line(f"Item {n}", D(rng.randint(1, 300)) / 100, rng.choice((1, 1, 2)))
            if "Spend 150" not in t.promotions:
                alone.append(len(whole) - counted_from)
        else:
            t = await s.add_product(rng.choice((LATTE, BUN)), quantity=rng.choice((1, 2)))
        # (the ticket priced from scratch here is not counted)
        assert shown(t) == shown(from_scratch(t)), n
    assert t.promotions and {"Happy hour", "3 buns for 6", "Spend 150"} <= set(t.promotions)
    # a typed line no promotion knows, the spend promotion not reached: the lines already on the
    # ticket are not priced again (before: each line added priced the whole ticket)
    assert len(alone) > 20 and alone == [0] * len(alone), alone
    paid = await s.pay(Tender("card", t.total, card=VISA))
    assert paid.state == "paid"
    assert shown(paid) == shown(from_scratch(paid))
    back = await refund_ticket(till.ctx, s.id, lines=[0], manager=roster.manager(MANAGER, "2222"))
    assert back.given_back() == paid.priced.lines[0].paid


async def test_a_ticket_without_promotions_keeps_its_figures_light_and_right(make_till: Any) -> None:
    till = await make_till("HD")
    till.ctx.catalog.replace(cafe())  # no promotions
    rng = random.Random(20261124)
    s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("8.25")))
    for n in range(40):
        t = await s.add_line(f"Item {n}", D(rng.randint(0, 500)) / 100, rng.choice((1, 2, 3)))
        assert t.pricing is None  # nothing taken off: not priced by the discounts rule
        again = from_scratch(t)
        assert (t.as_dict(), t.taxes, t.subtotal, t.tax, t.total) == \
            (again.as_dict(), again.taxes, again.subtotal, again.tax, again.total), n
