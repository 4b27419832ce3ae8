"""Discounts, promotions and price overrides on real tickets (issue #38), through the in-process
sandbox: a cashier's 10 % staff discount, a manager's 30 %, happy hour pricing itself, a price
override with its reason and manager, each journaled with who, who approved, the reason, before
and after; a line of a discounted ticket refunded to the cent; the host asked for the ticket's
total and tax after discounts."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal as D
from typing import Any

import pytest

from cashier.catalog import Catalog, Category, Product, TaxClass
from cashier.clerks import Clerk, ManagerRules, Roster
from cashier.discounts import Discount, happy_hour
from cashier.errors import ManagerNeeded, ValidationError
from cashier.flows.payments import KeyedCard
from cashier.flows.ticket import (
    PriceOverride,
    Tender,
    TicketSession,
    TicketSettings,
    load,
    refund_ticket,
)
from tests.support.profiles import pin_hash

VISA = KeyedCard("4321000000001119", "1228")
CASHIER, MANAGER = 101, 102
LATTE = Product("LATTE", "Latte", D("4.00"), category="coffee", tax_class="standard")
BUN = Product("BUN", "Bun", D("2.50"), category="bakery", tax_class="reduced")
WEDNESDAY_5PM = datetime(2026, 11, 25, 17, 0)
WEDNESDAY_NOON = datetime(2026, 11, 25, 12, 0)


def cafe(**kw: Any) -> Catalog:
    return Catalog(1, (LATTE, BUN), (Category("coffee"), Category("bakery")),
                   (TaxClass("standard", D("8.25")), TaxClass("reduced", D("5"))), **kw)


def with_clerks(till: Any) -> Roster:
    roster = Roster([Clerk(id=CASHIER, name="Alice", pin_hash=pin_hash("1111")),
                     Clerk(id=MANAGER, name="Bob", pin_hash=pin_hash("2222"), role="manager")],
                    ManagerRules())
    till.ctx.roster = roster
    till.ctx.clerk_id = CASHIER
    return roster


async def events(till: Any, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in await till.journal.events() if e.type == kind]


async def test_a_cashiers_ten_percent_and_a_managers_thirty(make_till: Any) -> None:
    till = await make_till("HD")
    roster = with_clerks(till)
    till.ctx.catalog.replace(cafe())
    s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("8.25")))
    await s.add_product(LATTE, quantity=2)
    await s.add_product(BUN)
    t = await s.add_discount(Discount("percent", D(10), line=0, reason="staff"))
    assert t.discount_dicts() == [{"line": 1, "kind": "percent", "value": "10", "amount": "0.80",
                                   "reason": "staff", "approved_by": None, "clerk": str(CASHIER)}]
    with pytest.raises(ManagerNeeded, match="a discount of 30 %"):
        await s.add_discount(Discount("percent", D(30), reason="loyalty"))
    assert len((await load(till.ctx, s.id)).record.discounts) == 1  # nothing journaled
    with pytest.raises(ValidationError, match="reason: must be one of the store's reasons"):
        await s.add_discount(Discount("percent", D(5), reason="friend"))
    t = await s.add_discount(Discount("percent", D(30), reason="loyalty"),
                             manager=roster.manager(MANAGER, "2222"))
    # 8.00 - 0.80 = 7.20 and 2.50: 30 % of 9.70 = 2.91, spread 2.16 / 0.75
    assert (t.subtotal, t.discounts) == (D("10.50"), D("3.71"))
    assert [line.net for line in t.priced.lines] == [D("5.04"), D("1.75")]
    assert (t.tax, t.total) == (D("0.51"), D("7.30"))  # 5.04 * 8.25 % = 0.42, 1.75 * 5 % = 0.09
    shown = t.as_dict()
    assert shown["discounts"][1] == {"line": None, "kind": "percent", "value": "30", "amount": "2.91",
                                     "reason": "loyalty", "approved_by": str(MANAGER),
                                     "clerk": str(CASHIER)}
    journaled = await events(till, "ticket_discount")
    assert [(d["clerk"], d["approved_by"], d["reason"], d["before"], d["after"])
            for d in journaled] == [(str(CASHIER), None, "staff", "11.29", "10.42"),
                                    (str(CASHIER), str(MANAGER), "loyalty", "10.42", "7.30")]
    paid = await s.pay(Tender("card", card=VISA))
    assert paid.state == "paid"
    host = (await till.ledger())[paid.tenders[0].invoice or ""]
    assert (host["requestedAmount"], host["tax"]) == ("7.30", "0.51")
    # a line of the discounted ticket refunded to the cent: what was paid for it
    refunded = await refund_ticket(till.ctx, s.id, lines=[1], manager=roster.manager(MANAGER, "2222"))
    assert refunded.given_back() == D("1.84")  # 1.75 + its 0.09 of tax
    rest = await refund_ticket(till.ctx, s.id, lines=[0], manager=roster.manager(MANAGER, "2222"))
    assert rest.given_back() == D("7.30")  # every line back: exactly what was paid


async def test_happy_hour_prices_itself_and_is_kept_to_the_tickets_end(make_till: Any) -> None:
    till = await make_till("HD")
    till.ctx.catalog.replace(cafe(promotions=(happy_hour("coffee", D(20)),)))
    s = await TicketSession.start(till.ctx, TicketSettings(), at=WEDNESDAY_5PM)
    t = await s.add_product(LATTE, quantity=2)
    assert t.promotions == {"Happy hour": D("1.60")} and t.total == D("6.93")  # 6.40 + 0.53
    assert t.as_dict()["promotions"] == [{"name": "Happy hour", "amount": "1.60"}]
    t = await s.add_product(BUN)  # not coffee: full price
    assert t.promotions == {"Happy hour": D("1.60")}
    again = await load(till.ctx, s.id)  # read back from the file: the promotion rides with it
    assert again.total == t.total and again.promotions == t.promotions
    noon = await TicketSession.start(till.ctx, TicketSettings(), at=WEDNESDAY_NOON)
    assert (await noon.add_product(LATTE)).discounts == 0


async def test_a_price_override_needs_a_reason_and_a_manager(make_till: Any) -> None:
    till = await make_till("HD")
    roster = with_clerks(till)
    till.ctx.catalog.replace(cafe())
    s = await TicketSession.start(till.ctx, TicketSettings())
    with pytest.raises(ManagerNeeded, match="a price override"):
        await s.add_product(LATTE, override=PriceOverride("3.00", "damaged"))
    assert (await load(till.ctx, s.id)).lines == ()
    t = await s.add_product(LATTE, override=PriceOverride("3.00", "damaged",
                                                          roster.manager(MANAGER, "2222")))
    assert t.as_dict()["lines"][0]["price_override"] == {
        "before": "4.00", "after": "3.00", "reason": "damaged", "approved_by": str(MANAGER)}
    (note,) = await events(till, "ticket_price_override")
    assert (note["clerk"], note["approved_by"], note["before"], note["after"]) == (
        str(CASHIER), str(MANAGER), "4.00", "3.00")


async def test_a_till_without_clerks_asks_no_one(make_till: Any) -> None:
    till = await make_till("HD")
    till.ctx.catalog.replace(cafe())
    s = await TicketSession.start(till.ctx, TicketSettings())
    await s.add_product(LATTE)
    t = await s.add_discount(Discount("amount", D("9.00"), reason="damaged"))
    assert t.total == D("0.00") and t.discounts == D("4.00")  # never below zero
