"""Discounts, promotions and cash rounding (issue #38): the one rule in ``cashier.discounts``.

Plain pytest for each promotion kind and the spread; hypothesis properties over random tickets,
discounts, promotions, tax classes and tenders: the lines add up to the subtotal, subtotal less
discounts plus tax is the total, the tenders (cash rounded, card to the cent) less change pay it,
refunding every line gives back exactly what was paid, never a negative line or total."""

from __future__ import annotations

from datetime import datetime, time
from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cashier.discounts import (
    Discount,
    PriceLine,
    Promotion,
    cash_rounded,
    happy_hour,
    parse_discount,
    price_ticket,
    promotion_savings,
    spread,
)
from cashier.errors import ValidationError
from cashier.money import tax_share

WEDNESDAY_5PM = datetime(2026, 11, 25, 17, 0)
WEDNESDAY_6PM = datetime(2026, 11, 25, 18, 0)
SATURDAY_5PM = datetime(2026, 11, 28, 17, 0)


def coffee(price: str = "3.00", qty: int = 1, sku: str = "COF", category: str = "drinks",
           rate: str = "10") -> PriceLine:
    return PriceLine(D(price), qty, "standard", D(rate), sku, category)


def test_spread_gives_the_leftover_cents_to_the_largest_lines() -> None:
    assert spread(D("1.00"), [D("1.00"), D("1.00"), D("1.00")]) == [D("0.34"), D("0.33"), D("0.33")]
    assert spread(D("0.05"), [D("1.00"), D("3.00")]) == [D("0.01"), D("0.04")]
    assert spread(D("10.00"), [D("2.00"), D("3.00")]) == [D("2.00"), D("3.00")]
    assert sum(spread(D("7.77"), [D("1.11"), D("5.55"), D("3.33")])) == D("7.77")


def test_a_percent_and_an_amount_off_a_line_and_the_ticket() -> None:
    lines = [coffee("4.00"), coffee("6.00", sku="TEA")]
    priced = price_ticket(lines, [Discount("percent", D(10), line=0),
                                  Discount("amount", D("2.00"))], included=False)
    assert priced.discount_amounts == (D("0.40"), D("2.00"))
    # 2.00 spread over 3.60 and 6.00: 0.75 and 1.25
    assert [line.net for line in priced.lines] == [D("2.85"), D("4.75")]
    assert priced.subtotal == D("10.00") and priced.discounts == D("2.40")
    assert priced.tax == D("0.76") and priced.total == D("8.36")
    assert sum(line.paid for line in priced.lines) == priced.total


def test_a_discount_never_makes_a_line_negative_nor_the_total_below_zero() -> None:
    priced = price_ticket([coffee("1.00")], [Discount("amount", D("5.00"), line=0),
                                             Discount("amount", D("5.00"))])
    assert priced.lines[0].net == D("0.00") and priced.total == D("0.00")
    assert priced.discount_amounts == (D("1.00"), D("0.00"))


def test_a_discount_on_a_line_the_ticket_has_not_is_refused() -> None:
    with pytest.raises(ValidationError, match="--line: the ticket has no line 3"):
        price_ticket([coffee()], [Discount("percent", D(5), line=2)])


@pytest.mark.parametrize(("text", "kind", "value"), [("10%", "percent", D(10)),
                                                     ("12.5%", "percent", D("12.5")),
                                                     ("2.00", "amount", D("2.00"))])
def test_parse_discount(text: str, kind: str, value: D) -> None:
    d = parse_discount(text)
    assert (d.kind, d.value) == (kind, value)


@pytest.mark.parametrize("text", ["0%", "101%", "-5%", "1.234", "ten", "5.5.5%", "0"])
def test_parse_discount_refuses_with_one_line(text: str) -> None:
    with pytest.raises(ValidationError, match=r"^--discount: "):
        parse_discount(text)


def test_quantity_price_three_for_five() -> None:
    promo = Promotion("3 for 5", "quantity_price", skus=("DON",), quantity=3, price=D("5.00"))
    lines = [PriceLine(D("2.00"), 4, sku="DON")]  # 4 at 2.00: three for 5.00, one at 2.00
    priced = price_ticket(lines, (), [promo])
    assert priced.total == D("7.00") and priced.promotions == {"3 for 5": D("1.00")}
    assert priced.lines[0].promotions == ("3 for 5",)
    assert price_ticket([PriceLine(D("2.00"), 2, sku="DON")], (), [promo]).discounts == 0


def test_buy_two_get_one_the_cheapest_free() -> None:
    promo = Promotion("2+1", "buy_x_get_y", category="snacks", buy=2, get=1)
    lines = [coffee("3.00", category="snacks", sku="A"), coffee("1.50", category="snacks", sku="B"),
             coffee("2.00", category="snacks", sku="C"), coffee("9.00", sku="D")]
    savings = promotion_savings(lines, [promo], None)
    assert [(s.line, s.amount) for s in savings] == [(1, D("1.50"))]


def test_happy_hour_prices_itself_within_its_window_only() -> None:
    promo = happy_hour("drinks", D(20))
    lines = [coffee("5.00"), coffee("5.00", category="food", sku="BUN")]
    assert price_ticket(lines, (), [promo], at=WEDNESDAY_5PM).discounts == D("1.00")
    assert price_ticket(lines, (), [promo], at=WEDNESDAY_6PM).discounts == 0  # ends at 18:00
    assert price_ticket(lines, (), [promo], at=SATURDAY_5PM).discounts == 0   # weekdays only
    assert price_ticket(lines, (), [promo], at=None).discounts == 0
    assert promo.start == time(16)


def test_the_customer_gets_the_best_promotion_unless_they_stack() -> None:
    small = Promotion("Drinks 10", "category_percent", category="drinks", percent=D(10))
    big = Promotion("Coffee 25", "category_percent", skus=("COF",), percent=D(25))
    lines = [coffee("4.00")]
    assert price_ticket(lines, (), [small, big]).promotions == {"Coffee 25": D("1.00")}
    stacking = Promotion("Member 5", "category_percent", category="drinks", percent=D(5),
                         stacks=True)
    assert price_ticket(lines, (), [small, big, stacking]).promotions == {
        "Coffee 25": D("1.00"), "Member 5": D("0.20")}


def test_a_spend_promotion_is_a_ticket_discount_above_its_threshold() -> None:
    promo = Promotion("10 off 50", "spend_discount", amount=D("10.00"), threshold=D("50.00"))
    lines = [coffee("30.00"), coffee("20.00", sku="TEA")]
    priced = price_ticket(lines, (), [promo])
    assert priced.promotions == {"10 off 50": D("10.00")}
    assert [line.net for line in priced.lines] == [D("24.00"), D("16.00")]
    assert price_ticket(lines[:1], (), [promo]).discounts == 0


def test_a_typed_line_gets_no_promotion() -> None:
    promo = Promotion("All 50", "category_percent", category="products", percent=D(50))
    assert price_ticket([PriceLine(D("4.00"), category="products")], (), [promo]).discounts == 0


def test_cash_rounding_to_five_cents() -> None:
    assert cash_rounded(D("12.32"), D("0.05")) == D("12.30")
    assert cash_rounded(D("12.33"), D("0.05")) == D("12.35")
    assert cash_rounded(D("12.325"), D("0.05")) == D("12.35")
    assert cash_rounded(D("12.32"), None) == D("12.32")
    assert cash_rounded(D("0.02"), D("0.05")) == D("0.00")


# ---- properties ----------------------------------------------------------------------------------
RATES = {"standard": D("8.25"), "reduced": D("5"), "zero": D("0")}
SKUS = ("A", "B", "C", "D")
CATEGORIES = ("drinks", "food")


@st.composite
def tickets(draw: st.DrawFn) -> tuple[list[PriceLine], list[Discount], list[Promotion], bool]:
    lines = [PriceLine(draw(st.decimals(0, 200, places=2)), draw(st.integers(1, 5)),
                       (cls := draw(st.sampled_from(sorted(RATES)))), RATES[cls],
                       draw(st.sampled_from((*SKUS, None))), draw(st.sampled_from(CATEGORIES)))
             for _ in range(draw(st.integers(1, 8)))]
    discounts = []
    for _ in range(draw(st.integers(0, 3))):
        line = draw(st.none() | st.integers(0, len(lines) - 1))
        if draw(st.booleans()):
            discounts.append(Discount("percent", draw(st.decimals(D("0.01"), 100, places=2)), line))
        else:
            discounts.append(Discount("amount", draw(st.decimals(D("0.01"), 300, places=2)), line))
    promotions = draw(st.lists(st.sampled_from([
        Promotion("Qty", "quantity_price", skus=("A",), quantity=3, price=D("5.00")),
        Promotion("BXGY", "buy_x_get_y", category="food", buy=2, get=1),
        Promotion("Happy", "category_percent", category="drinks", percent=D(20)),
        Promotion("B pct", "category_percent", skus=("B",), percent=D("33.33"), stacks=True),
        Promotion("Spend", "spend_discount", percent=D(10), threshold=D(100)),
        Promotion("Spend 5", "spend_discount", amount=D(5), threshold=D(20), stacks=True),
    ]), unique=True, max_size=6))
    return lines, discounts, promotions, draw(st.booleans())


@settings(max_examples=120, deadline=None)
@given(tickets(), st.lists(st.sampled_from(["card", "cash", "giftcard"]), min_size=1, max_size=3),
       st.sampled_from([None, D("0.05"), D("0.10")]))
def test_the_books_add_up_to_the_cent(ticket: tuple[list[PriceLine], list[Discount],
                                                    list[Promotion], bool],
                                      tenders: list[str], step: D | None) -> None:
    lines, discounts, promotions, included = ticket
    priced = price_ticket(lines, discounts, promotions, at=WEDNESDAY_5PM, included=included)
    assert sum(line.gross for line in priced.lines) == priced.subtotal
    assert all(line.net >= 0 and line.tax >= 0 and line.net <= line.gross for line in priced.lines)
    assert priced.subtotal - priced.discounts == priced.net == sum(line.net for line in priced.lines)
    assert priced.discounts == sum(s.amount for s in priced.savings)
    assert priced.tax == sum(t.tax for t in priced.taxes) == sum(line.tax for line in priced.lines)
    assert priced.total == (priced.net if included else priced.net + priced.tax) >= 0
    # refunding every line, one by one, gives back exactly what was paid
    assert sum(line.paid for line in priced.lines) == priced.total
    # tenders: each part but the last pays a share; the last pays what remains (cash rounded)
    remaining, taxes_sent, rounding, paid = priced.total, D(0), D(0), D(0)
    for n, kind in enumerate(tenders):
        last = n == len(tenders) - 1
        part = remaining if last else (remaining / 2).quantize(D("0.01"))
        if kind == "cash" and last:
            asked = cash_rounded(part, step)
            rounding += asked - part
        else:
            asked = part
        tax = tax_share(priced.tax, priced.total, part, taxes_sent, pays_rest=last, paid=paid)
        assert 0 <= tax <= part
        taxes_sent += tax
        paid += part
        remaining -= part
    assert remaining == 0 and paid == priced.total
    assert taxes_sent == priced.tax  # what the host was asked (amount.tax) adds up
    assert abs(rounding) <= (step or 0) / 2


@settings(max_examples=100, deadline=None)
@given(st.lists(st.decimals(0, 500, places=2), min_size=1, max_size=10), st.decimals(0, 5000, places=2))
def test_spread_adds_up_and_never_passes_a_weight(weights: list[D], amount: D) -> None:
    shares = spread(amount, weights)
    assert sum(shares) == min(amount, sum(weights)) or sum(weights) == 0
    assert all(0 <= s <= w for s, w in zip(shares, weights, strict=True))
