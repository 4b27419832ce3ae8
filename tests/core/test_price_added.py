"""A line added to a long ticket is priced alone (``discounts.price_added``), and every figure is
the one pricing the whole ticket gives (``price_ticket``): seeded random tickets with every kind
of promotion (some stacking, some in a time window, spend promotions whose threshold a ticket
crosses as it grows), the cashier's line and ticket discounts given as it grows, typed lines no
promotion knows and products several promotions cover, in two tax classes, prices with and
without the tax in them (docs/decisions/017-run-time-and-benchmarks.md, stop 50)."""

from __future__ import annotations

import random
from datetime import datetime, time
from decimal import Decimal as D

from cashier.discounts import (
    Discount,
    PricedTicket,
    PriceLine,
    Promotion,
    price_added,
    price_ticket,
)

WEDNESDAY_5PM = datetime(2026, 11, 25, 17, 0)
PROMOTIONS = (
    Promotion("3 buns for 5", "quantity_price", skus=("BUN",), quantity=3, price=D("5.00")),
    Promotion("Tea 2+1", "buy_x_get_y", skus=("TEA",), buy=2, get=1),
    Promotion("Happy hour", "category_percent", category="drinks", percent=D(20),
              days=(2,), start=time(16), end=time(18)),
    Promotion("Cake day", "category_percent", category="cake", percent=D("12.5"), stacks=True),
    Promotion("Spend 40", "spend_discount", percent=D(5), threshold=D("40.00")),
    Promotion("Spend 90", "spend_discount", amount=D("6.00"), threshold=D("90.00"), stacks=True),
)
PRODUCTS = (("BUN", "bakery", "reduced"), ("TEA", "drinks", "standard"),
            ("COF", "drinks", "standard"), ("CAKE", "cake", "reduced"))
RATES = {"standard": D("8.25"), "reduced": D("5")}


def random_line(rng: random.Random) -> PriceLine:
    """A line as the journal prices it: whole cents, a typed line (no sku) half the time."""
    price = D(rng.randint(0, 900)) / 100
    quantity = rng.choice((1, 1, 1, 2, 3, 7))
    if rng.random() < 0.5:
        return PriceLine(price, quantity, "standard", RATES["standard"])
    sku, category, tax_class = rng.choice(PRODUCTS)
    return PriceLine(price, quantity, tax_class, RATES[tax_class], sku, category)


def figures(p: PricedTicket) -> tuple[object, ...]:
    """Every figure of a pricing, each amount also as text (the receipt and ``ticket show`` print
    them as ``str``: 1.5 and 1.50 would print otherwise)."""
    texts = [str(x) for x in (p.subtotal, p.discounts, p.net, p.tax, p.total, *p.discount_amounts)]
    texts += [f"{t.tax_class} {t.rate} {t.base} {t.tax}" for t in p.taxes]
    texts += [f"{x.gross} {x.saved} {x.net} {x.tax} {x.paid} {x.promotions}" for x in p.lines]
    return (p, p.lines, p.savings, p.taxes, p.promotions, p.discount_amounts,
            [p.line_net(i) for i in range(len(p.lines))],
            [p.line_promotions(i) for i in range(len(p.lines))], texts)


def test_a_ticket_grown_line_by_line_prices_as_the_whole_ticket() -> None:
    rng = random.Random(20261123)
    added = whole = 0
    for _ticket in range(60):
        promotions = tuple(p for p in PROMOTIONS if rng.random() < 0.6)
        at = rng.choice((None, WEDNESDAY_5PM))
        included = rng.random() < 0.3
        lines: list[PriceLine] = []
        discounts: list[Discount] = []
        pricing = price_ticket(lines, discounts, promotions, at=at, included=included)
        for _step in range(rng.randint(1, 45)):
            if lines and rng.random() < 0.06:  # the cashier gives a discount: priced whole again
                on = None if rng.random() < 0.3 else rng.randrange(len(lines))
                discounts.append(Discount("percent", D(rng.choice((5, 10, 50))), on) if rng.random() < 0.5
                                 else Discount("amount", D(rng.randint(1, 300)) / 100, on))
                pricing = price_ticket(lines, discounts, promotions, at=at, included=included)
            else:
                line = random_line(rng)
                lines.append(line)
                grown = price_added(pricing, line, discounts, promotions, at=at, included=included)
                if grown is None:
                    whole += 1
                    pricing = price_ticket(lines, discounts, promotions, at=at, included=included)
                else:
                    added += 1
                    pricing = grown
            again = price_ticket(lines, discounts, promotions, at=at, included=included)
            assert figures(pricing) == figures(again), (lines, discounts, promotions, at, included)
    # both ways were taken, often: a line no promotion touches is priced alone
    assert added > 150 and whole > 150, (added, whole)


def test_a_line_that_could_change_what_was_taken_off_prices_the_ticket_whole() -> None:
    typed = PriceLine(D("5.00"), 1, "standard", D("8.25"))
    bun = PriceLine(D("2.00"), 1, "reduced", D("5"), "BUN", "bakery")
    buns = price_ticket([bun, bun], (), PROMOTIONS[:1])
    assert price_added(buns, bun, (), PROMOTIONS[:1]) is None  # the third bun makes the set
    assert price_added(buns, typed, (), PROMOTIONS[:1]) is not None  # no promotion knows it
    spend = price_ticket([typed] * 7, (), PROMOTIONS[4:5])
    assert price_added(spend, typed, (), PROMOTIONS[4:5]) is None  # 40.00: the spend promotion
    off = price_ticket([typed], [Discount("amount", D(1))], ())
    assert price_added(off, typed, [Discount("amount", D(1))], ()) is None  # spread over all
    line_off = price_ticket([typed], [Discount("amount", D(1), 0)], ())
    assert price_added(line_off, typed, [Discount("amount", D(1), 0)], ()) is not None
    # priced otherwise than before (other discounts, promotions, tax rule or currency): whole
    assert price_added(line_off, typed, [], ()) is None
    assert price_added(buns, typed, (), ()) is None
    assert price_added(buns, typed, (), PROMOTIONS[:1], included=True) is None
    assert price_added(buns, typed, (), PROMOTIONS[:1], currency="EUR") is None
