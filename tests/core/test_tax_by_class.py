"""Per-item tax (issue #37), the one rule in ``cashier.money``: the lines summed by tax class and
rate, ``tax_of`` once on each sum (half-up once per class); a tender's ``amount.tax`` is its share
(``tax_share``), the tender paying the rest carrying what the others did not. Plain pytest and a
hypothesis property: by class, with prices that include the tax or not, the classes add up to the
ticket's tax and total, and the tenders' taxes and amounts add up to what the host is asked."""

from __future__ import annotations

from decimal import Decimal as D

from hypothesis import given, settings
from hypothesis import strategies as st

from cashier.money import (
    DEFAULT_TAX_CLASS,
    ClassTax,
    percent_text,
    round_money,
    tax_by_class,
    tax_of,
    tax_share,
)

CLASSES = {"standard": D("8.25"), "reduced": D("5"), "zero": D("0"), "luxury": D("21.5")}


def test_one_class_is_the_rule_before_classes() -> None:
    lines = [(DEFAULT_TAX_CLASS, D("8.25"), D("1.00")), (DEFAULT_TAX_CLASS, D("8.25"), D("2.35"))]
    (only,) = tax_by_class(lines, False)
    assert only == ClassTax("standard", D("8.25"), D("3.35"), tax_of(D("3.35"), D("8.25"), False))
    assert only.tax == D("0.28")  # 0.276375, half-up once on the sum (per line: 0.08 + 0.19)


def test_each_class_is_rounded_once_on_its_own_sum() -> None:
    lines = [("standard", D("8.25"), D("1.00")), ("reduced", D("5"), D("0.10")),
             ("standard", D("8.2500"), D("1.00")), ("reduced", D("5.0"), D("0.10"))]
    taxes = tax_by_class(lines, False)
    # 8.25 and 8.2500 are one rate: one row per class, ordered by name
    assert [(t.tax_class, t.base, t.tax) for t in taxes] == [
        ("reduced", D("0.20"), D("0.01")), ("standard", D("2.00"), D("0.17"))]
    included = tax_by_class(lines, True)
    assert [t.tax for t in included] == [D("0.01"), D("0.15")]  # 2.00 * 8.25 / 108.25 = 0.1524


def test_one_class_at_two_rates_stays_two_rows() -> None:
    """A typed line takes the till's default class at the ticket's rate; the store's "standard"
    may carry another rate: they are never added at one rate."""
    taxes = tax_by_class([("standard", D("8.25"), D("10.00")), ("standard", D("10"), D("10.00"))],
                         False)
    assert [(t.rate, t.tax) for t in taxes] == [(D("8.25"), D("0.83")), (D("10"), D("1.00"))]
    assert [percent_text(t.rate) for t in taxes] == ["8.25", "10"]


def test_a_tenders_share_never_passes_its_amount_nor_the_tax_left() -> None:
    assert tax_share(D("1.00"), D("10.00"), D("5.00"), D(0), pays_rest=False) == D("0.50")
    assert tax_share(D("1.00"), D("10.00"), D("5.00"), D("0.50"), pays_rest=True) == D("0.50")
    assert tax_share(D("1.00"), D("10.00"), D("0.30"), D("0.90"), pays_rest=True) == D("0.10")
    assert tax_share(D("5.00"), D("10.00"), D("0.01"), D(0), pays_rest=True) == D("0.01")
    assert tax_share(D("1.00"), D("10.00"), D("1.00"), D("0.80"), pays_rest=False,
                     paid=D("8.00")) == D("0.10")
    assert tax_share(D(0), D("10.00"), D("10.00"), D(0), pays_rest=True) == D("0.00")


def test_many_part_tenders_never_lose_tax_to_rounding() -> None:
    """Nine tenders of 0.32 on a 3.00 ticket with 0.60 of tax: each alone would send 0.064 -> 0.06,
    and the last cent would have 0.04 left to carry. Worked out on what is paid so far, the shares
    come to the ticket's tax exactly, each within its tender."""
    tax, total = D("0.60"), D("3.00")
    sent = paid = D(0)
    for amount in [D("0.32")] * 9 + [D("0.11"), D("0.01")]:
        share = tax_share(tax, total, amount, sent, pays_rest=paid + amount == total, paid=paid)
        assert 0 <= share <= amount
        sent, paid = sent + share, paid + amount
    assert (paid, sent) == (total, tax)


_line = st.tuples(st.sampled_from(sorted(CLASSES)), st.integers(0, 500_000))


@settings(max_examples=300, deadline=None, database=None)
@given(lines=st.lists(_line, min_size=1, max_size=30), included=st.booleans(),
       cuts=st.lists(st.integers(1, 99), max_size=12))
def test_by_class_adds_up_to_the_ticket_and_to_what_the_host_is_asked(
        lines: list[tuple[str, int]], included: bool, cuts: list[int]) -> None:
    amounts = [(name, CLASSES[name], D(minor).scaleb(-2)) for name, minor in lines]
    taxes = tax_by_class(amounts, included)
    subtotal = sum((a for _n, _r, a in amounts), D(0))
    tax = sum((t.tax for t in taxes), D(0))
    assert sum((t.base for t in taxes), D(0)) == subtotal
    for t in taxes:  # each class: the one rule on its own sum, rounded once
        assert t.tax == tax_of(t.base, t.rate, included) == round_money(t.tax)
        assert 0 <= t.tax <= t.base
    total = subtotal if included else subtotal + tax
    # the classes, each its net and its tax, add up to the ticket's total
    net = sum(((t.base - t.tax) if included else t.base for t in taxes), D(0))
    assert net + tax == total
    # the tenders: the total split at ``cuts`` percent of what remains; each asks the host for its
    # amount and its share of the tax; the last pays the rest
    asked: list[tuple[D, D]] = []
    remaining, sent = total, D(0)
    for cut in [*cuts, 100]:
        amount = remaining if cut == 100 else round_money(remaining * cut / 100)
        pays_rest = amount >= remaining
        share = tax_share(tax, total, amount, sent, pays_rest=pays_rest, paid=total - remaining)
        assert 0 <= share <= amount  # amount.tax is never more than amount.total
        asked.append((amount, share))
        sent += share
        remaining -= amount
        if pays_rest:
            break
    assert remaining == 0
    assert sum((a for a, _s in asked), D(0)) == total
    assert sum((s for _a, s in asked), D(0)) == tax
