from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cashier.errors import ValidationError
from cashier.money import Money, format_amount, from_minor, parse_amount, to_minor


def test_parse_keeps_decimal_exact() -> None:
    assert parse_amount("12.5") == Decimal("12.50")
    assert parse_amount("1234.56") == Decimal("1234.56")
    with pytest.raises(ValidationError, match="separators"):
        parse_amount("1,234.56")  # issue 11: a comma is refused, never read as a separator
    assert str(parse_amount("0.10")) == "0.10"


@pytest.mark.parametrize(
    ("text", "rule"),
    [("abc", "must be a number"), ("-1", "negative"), ("0", "greater than zero"),
     ("1.234", "more than 2 decimals"), ("NaN", "finite"), ("99999999999", "at most"),
     ("9999999999.99", "at most")],
)
def test_parse_refuses_with_field_and_rule(text: str, rule: str) -> None:
    with pytest.raises(ValidationError) as info:
        parse_amount(text, field="amount.total")
    assert info.value.field == "amount.total"
    assert rule in info.value.rule


def test_float_is_refused() -> None:
    with pytest.raises(ValidationError):
        parse_amount(1.5)  # type: ignore[arg-type]


def test_currency_minor_units() -> None:
    assert parse_amount("100", "JPY") == Decimal("100")
    with pytest.raises(ValidationError):
        parse_amount("1.5", "JPY")
    assert parse_amount("1.234", "KWD") == Decimal("1.234")
    assert to_minor(Decimal("1.234"), "KWD") == 1234


@given(st.integers(min_value=0, max_value=10**12))
def test_minor_round_trip(units: int) -> None:
    assert to_minor(from_minor(units)) == units


def test_money_arithmetic_and_format() -> None:
    total = Money(Decimal("10.00")) + Money(Decimal("2.50"))
    assert total.amount == Decimal("12.50")
    assert str(total) == "$12.50"
    assert format_amount(Decimal("1234.5"), "EUR") == "€1,234.50"
    assert format_amount(Decimal("-3"), "CHF") == "-3.00 CHF"
    with pytest.raises(ValueError):
        Money(Decimal(1), "USD") + Money(Decimal(1), "EUR")


def test_a_tip_inside_a_tender_and_a_tip_on_top_of_a_sale_are_one_relation() -> None:
    """Issue #36 (b): the ticket hands a tender's amount with its tip inside, a sale adds a tip on
    top; both read ``base`` (what the tip rules measure) and ``total`` (what is charged) here."""
    from cashier.money import TippedAmount

    inside = TippedAmount.within(Decimal("6.00"), Decimal("1.00"))
    assert (inside.base, inside.tip, inside.total) == (Decimal("5.00"), Decimal("1.00"), Decimal("6.00"))
    assert inside == TippedAmount(Decimal("5.00"), Decimal("1.00"))  # the same charge either way
    none = TippedAmount.within(Decimal("6.00"), Decimal(0))  # "no tip" stays 0, not None
    assert (none.base, none.tip, none.total) == (Decimal("6.00"), Decimal(0), Decimal("6.00"))
    asked = TippedAmount(Decimal("6.00"))  # the pad may still ask: no tip said
    assert asked.tip is None and asked.total == Decimal("6.00")
