"""Seeded (issue #38): random discounted tickets through the in-process sandbox, paid by a card
part and rounded cash (a comp, discounted to 0.00, closed as the window closes it), every line
paid for refunded; the books add up to the cent
(``CASHIER_HOSTILE_SEED``, rounds ``CASHIER_HOSTILE_DISCOUNTS``)."""

from __future__ import annotations

import contextlib
import os
import random
from decimal import Decimal as D
from typing import Any

import pytest

from cashier.discounts import Discount, Promotion, happy_hour
from cashier.errors import ValidationError
from cashier.flows.ticket import Tender, TicketSession, TicketSettings, load, refund_ticket
from tests.support.cafe import (
    BUN,
    LATTE,
    MANAGER,
    VISA,
    WEDNESDAY_5PM,
    WEDNESDAY_NOON,
    cafe,
    with_clerks,
)
from tests.support.tills import open_drawer

pytestmark = pytest.mark.socket
ROUNDS = int(os.environ.get("CASHIER_HOSTILE_DISCOUNTS", "4"))
SEED = int(os.environ.get("CASHIER_HOSTILE_SEED", "20261123"))


async def test_random_discounted_tickets_through_the_sandbox_add_up(make_till: Any) -> None:
    """Seeded: random catalog tickets with promotions, line and ticket discounts, paid by a card
    part and cash for the rest (rounded to 0.05), then every line refunded: the host was asked
    for the ticket's tax across its tenders, the tenders less change pay the total, and the
    line refunds give back exactly what was paid (``CASHIER_HOSTILE_DISCOUNTS`` rounds,
    default 4; ``CASHIER_HOSTILE_SEED``)."""
    rng = random.Random(SEED)
    till = await make_till("HD")
    roster = with_clerks(till)
    bob = roster.manager(MANAGER, "2222")
    open_drawer(till.rt.profile, "500.00")
    promotions = (happy_hour("coffee", D(20)),
                  Promotion("Bun 3 for 6", "quantity_price", skus=("BUN",), quantity=3, price=D("6.00")),
                  Promotion("10 off 40", "spend_discount", amount=D("10.00"), threshold=D("40.00")))
    till.ctx.catalog.replace(cafe(promotions=promotions))
    for _ in range(ROUNDS):
        s = await TicketSession.start(till.ctx, TicketSettings(cash_rounding=D("0.05")),
                                      at=rng.choice([WEDNESDAY_5PM, WEDNESDAY_NOON]))
        for _n in range(rng.randint(1, 4)):
            await s.add_product(rng.choice([LATTE, BUN]), quantity=rng.randint(1, 4))
        ticket = s.ticket
        assert ticket is not None
        for _d in range(rng.randint(0, 2)):
            line = rng.choice([None, rng.randrange(len(ticket.lines))])
            discount = (Discount("percent", D(rng.choice([5, 10, 25, 50])), line, "loyalty")
                        if rng.random() < 0.5 else
                        Discount("amount", D(rng.choice(["0.50", "1.00", "3.00"])), line, "staff"))
            with contextlib.suppress(ValidationError):  # nothing left to take off: refused
                ticket = await s.add_discount(discount, manager=bob)
        assert ticket.total == ticket.subtotal - ticket.discounts + ticket.tax >= 0
        card_part = (ticket.total / 2).quantize(D("0.01"))
        if card_part > 0:
            await s.pay(Tender("card", card_part, card=VISA))
        # the window's call (``SaleEntry.pay``): cash for the rest, or, on a comp (its lines
        # discounted to 0.00, issue #38), the close as paid with no tender
        paid = (await s.quick_pay([Tender("cash")])).ticket
        assert paid.state == "paid", paid
        assert paid.tenders or paid.total == 0  # a comp journals no tender: nothing was taken
        ledger = await till.ledger()
        cards = [t for t in paid.tenders if t.kind == "card"]
        sent = sum((D(ledger[t.invoice or ""]["tax"] or "0") for t in cards), D(0))
        cash_tax = sum((e.tax for e in paid.record.entries if e.kind == "cash"), D(0))
        assert sent + cash_tax == paid.tax  # what the host was asked, with cash's share
        assert sum((D(ledger[t.invoice or ""]["requestedAmount"]) for t in cards), D(0)) \
            + sum((t.amount for t in paid.tenders if t.kind == "cash"), D(0)) == paid.total
        assert sum((line.paid for line in paid.priced.lines), D(0)) + paid.record.rounding \
            == paid.total
        order = list(range(len(paid.lines)))
        rng.shuffle(order)
        groups = [order] if rng.random() < 0.5 else [[i] for i in order]  # at once, or one by one
        for group in groups:
            if all(paid.priced.lines[i].paid == 0 for i in group):  # nothing was paid for them
                with pytest.raises(ValidationError, match="refund: nothing to give back"):
                    await refund_ticket(till.ctx, s.id, lines=group, manager=bob)
                continue
            await refund_ticket(till.ctx, s.id, lines=group, manager=bob)
        back = await load(till.ctx, s.id)
        # the rounding goes back with the last lines paid for; a comp gives back 0.00
        assert back.given_back() == paid.total, back
