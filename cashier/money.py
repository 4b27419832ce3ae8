"""Money as ``Decimal`` with the currency's minor units; floats never touch an amount."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from cashier.errors import ValidationError

# ISO 4217 minor units for the currencies a till is likely to meet; anything else has 2.
MINOR_UNITS: dict[str, int] = {
    "USD": 2, "CAD": 2, "EUR": 2, "GBP": 2, "AUD": 2, "NZD": 2, "CHF": 2, "MXN": 2,
    "SEK": 2, "NOK": 2, "DKK": 2, "PLN": 2, "CZK": 2, "HUF": 2, "ZAR": 2, "SGD": 2,
    "HKD": 2, "INR": 2, "BRL": 2, "JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "VND": 0,
    "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3,
}
CURRENCY_SYMBOLS: dict[str, str] = {"USD": "$", "CAD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}

#: The Host API's ceiling on a transaction amount (10 digits before the point, 14 characters).
MAX_AMOUNT = Decimal("9999999999.99")


def minor_units(currency: str) -> int:
    """Number of decimals the currency allows."""
    return MINOR_UNITS.get(currency.upper(), 2)


def quantum(currency: str) -> Decimal:
    return Decimal(1).scaleb(-minor_units(currency))


def parse_amount(text: str | int | Decimal, currency: str = "USD", field: str = "amount",
                 allow_zero: bool = False) -> Decimal:
    """Parse what a cashier typed or a caller passed; refuse more decimals than the currency has."""
    if isinstance(text, float):
        raise ValidationError(field, "must be given as text or Decimal, never as a float")
    raw = text.strip().replace(",", "") if isinstance(text, str) else text
    try:
        value = Decimal(raw)
    except (InvalidOperation, ValueError):
        raise ValidationError(field, f"must be a number such as 12.50 (got {str(text)[:20]!r})") from None
    if not value.is_finite():
        raise ValidationError(field, "must be a finite number")
    if value < 0:
        raise ValidationError(field, "must not be negative")
    if value == 0 and not allow_zero:
        raise ValidationError(field, "must be greater than zero")
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    if -exponent > minor_units(currency):
        raise ValidationError(
            field, f"has more than {minor_units(currency)} decimals for {currency.upper()}"
        )
    if value > MAX_AMOUNT:
        raise ValidationError(field, f"must be at most {MAX_AMOUNT}")
    return value.quantize(quantum(currency))


def to_minor(amount: Decimal, currency: str = "USD") -> int:
    """Integer minor units (the Charge API's unit); exact or refused."""
    scaled = amount.scaleb(minor_units(currency))
    if scaled != scaled.to_integral_value():
        raise ValidationError("amount", f"{amount} is not a whole number of minor units")
    return int(scaled)


def from_minor(units: int, currency: str = "USD") -> Decimal:
    return (Decimal(units).scaleb(-minor_units(currency))).quantize(quantum(currency))


def round_money(amount: Decimal, currency: str = "USD") -> Decimal:
    """Half-up rounding, as receipts and tax tables expect."""
    return amount.quantize(quantum(currency), rounding=ROUND_HALF_UP)


def format_amount(amount: Decimal, currency: str = "USD", symbol: bool = True) -> str:
    """Plain en-US style formatting; the window formats per locale through Qt."""
    q = amount.quantize(quantum(currency))
    sign = "-" if q < 0 else ""
    body = f"{abs(q):,}"
    prefix = CURRENCY_SYMBOLS.get(currency.upper(), "") if symbol else ""
    if symbol and not prefix:
        return f"{sign}{body} {currency.upper()}"
    return f"{sign}{prefix}{body}"


@dataclass(frozen=True, slots=True)
class Money:
    """An amount with its currency, for code that carries both together."""

    amount: Decimal
    currency: str = "USD"

    def __post_init__(self) -> None:
        if not isinstance(self.amount, Decimal):
            raise TypeError("Money.amount must be a Decimal")

    def __add__(self, other: Money) -> Money:
        self._same(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other: Money) -> Money:
        self._same(other)
        return Money(self.amount - other.amount, self.currency)

    def _same(self, other: Money) -> None:
        if other.currency != self.currency:
            raise ValueError(f"cannot mix {self.currency} and {other.currency}")

    @property
    def minor(self) -> int:
        return to_minor(self.amount, self.currency)

    def __str__(self) -> str:
        return format_amount(self.amount, self.currency)
