"""Money as ``Decimal`` with the currency's minor units; floats never touch an amount.

This module holds the one amount rule of the till (``parse_amount``): every flow, the command
line and the window's amount entry go through it, so an amount is refused the same way, naming
the field and the rule, before an invoice is taken.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation

from cashier.errors import ValidationError


@dataclass(frozen=True, slots=True)
class Currency:
    """What the till needs to know of a currency: its decimals and the symbol receipts show."""

    minor_units: int = 2
    symbol: str | None = None


#: The one currency table (ISO 4217 minor units; symbols where a till shows one). The window
#: formats from it; any currency not listed has 2 decimals and shows its code.
CURRENCIES: dict[str, Currency] = {
    "USD": Currency(2, "$"), "CAD": Currency(2, "$"), "MXN": Currency(2, "$"),
    "EUR": Currency(2, "€"), "GBP": Currency(2, "£"), "JPY": Currency(0, "¥"),
    **{code: Currency(2) for code in ("AUD", "NZD", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK",
                                      "HUF", "ZAR", "SGD", "HKD", "INR", "BRL")},
    **{code: Currency(0) for code in ("KRW", "ISK", "CLP", "VND")},
    **{code: Currency(3) for code in ("BHD", "KWD", "OMR", "JOD", "TND")},
}

#: The Host API refuses ``amount.total`` of 2,000,000,000 or more (40107 invalid amount), so the
#: largest amount a till may send is just below it (1999999999.99 in a 2-decimal currency).
HOST_AMOUNT_LIMIT = Decimal(2_000_000_000)
#: Kept for callers that need one figure in a 2-decimal currency (the window's entry width).
MAX_AMOUNT = HOST_AMOUNT_LIMIT - Decimal("0.01")
#: The Charge API's ceiling, in minor units (its ``limit_exceeded``).
CHARGE_API_MAX_MINOR = 99_999_999

_AMOUNT_TEXT = re.compile(r"[0-9]+(?:\.[0-9]+)?", re.ASCII)
_SEPARATORS = frozenset(",_' \u00a0\u202f\u2009")


def currency(code: str) -> Currency:
    return CURRENCIES.get(code.upper(), Currency())


def minor_units(code: str) -> int:
    """Number of decimals the currency allows."""
    return currency(code).minor_units


def currency_symbol(code: str) -> str | None:
    return currency(code).symbol


@functools.lru_cache(maxsize=64)
def quantum(code: str) -> Decimal:
    """The currency's smallest step; cached (the currency table is fixed), as every amount read
    from the journal goes through it."""
    return Decimal(1).scaleb(-minor_units(code))


def max_amount(code: str = "USD") -> Decimal:
    """The largest amount the host takes in this currency."""
    return HOST_AMOUNT_LIMIT - quantum(code)


#: A profile's ``max_amount`` when it names none: the most one sale, card, gift card or QR
#: tender may be at this till (twenty digits typed at the counter are a slip, not a sale).
DEFAULT_MAX_AMOUNT = Decimal("10000.00")
#: A profile's ``largest_note`` when it names none: how far a cash tender may pass what remains.
DEFAULT_LARGEST_NOTE = Decimal("100.00")


@dataclass(frozen=True)
class AmountBounds:
    """Amounts a human can mean at this till (the profile's ``max_amount`` and ``largest_note``):
    the one rule the command line, the flows and the window's keys all ask."""

    max_amount: Decimal = DEFAULT_MAX_AMOUNT
    largest_note: Decimal = DEFAULT_LARGEST_NOTE

    def ceiling(self, code: str = "USD") -> Decimal:
        """The most one amount may be: the profile's bound, never past the host's limit."""
        return min(self.max_amount, max_amount(code))

    def check(self, value: Decimal, code: str, field: str) -> Decimal:
        """``value`` (already a valid amount) within ``max_amount``; else one line naming it."""
        limit = self.ceiling(code)
        if value > limit:
            raise ValidationError(field, "must be at most {limit} (this till's max_amount)", limit=limit)
        return value

    def parse(self, value: Decimal | str | int, code: str, field: str, *,
              allow_zero: bool = False) -> Decimal:
        return self.check(parse_amount(value, code, field, allow_zero=allow_zero), code, field)

    def check_cash(self, tendered: Decimal, remaining: Decimal, code: str,
                   field: str = "cash") -> Decimal:
        """A cash tender passes what remains by at most the largest note (200,020.00 handed over
        for 25.45 is a slip: its change would be printed and paid)."""
        self.check(tendered, code, field)
        over = tendered - remaining
        if over > self.largest_note:
            raise ValidationError(field, "{tendered} is more than the {remaining} that remains by "
                                         "{over}: at most {largest_note} (this till's largest_note) "
                                         "over", tendered=tendered, remaining=remaining, over=over,
                                  largest_note=self.largest_note)
        return tendered


def _text_rule(text: str, code: str) -> str | None:
    """Why ``text`` is not an amount as typed (None: it is one)."""
    if not text:
        return "is empty: type an amount such as 12.50"
    if _AMOUNT_TEXT.fullmatch(text):
        return None
    if any(ch.isdigit() and not ("0" <= ch <= "9") for ch in text) or any(
            unicodedata.category(ch) == "Nd" and not ch.isascii() for ch in text):
        return "must use the digits 0-9 only (full-width or other-script digits are refused)"
    if text.lower() in {"nan", "snan", "inf", "infinity", "+inf", "-inf", "-infinity"}:
        return "must be a finite number such as 12.50"
    if text.startswith("-"):
        return "must not be negative"
    if any(ch in _SEPARATORS for ch in text):
        return "must not contain separators (commas, underscores, spaces): type 1234.50"
    if "e" in text.lower() and re.fullmatch(r"[0-9.]+[eE][+-]?[0-9]+", text):
        return "must not use an exponent (1E+2): type the amount in full"
    if text.count(".") > 1:
        return "must have at most one decimal point"
    return "must be a number such as 12.50 (digits 0-9 and at most one decimal point)"


def parse_amount(text: str | int | Decimal, currency: str = "USD", field: str = "amount",
                 allow_zero: bool = False, maximum: Decimal | None = None) -> Decimal:
    """THE amount rule: what a cashier typed or a caller passed, checked once for every flow.

    Text must be ASCII digits with at most one decimal point (no sign, exponent, separators or
    other-script digits); a ``Decimal`` must be finite. Either way: not negative, zero only when
    ``allow_zero``, at most the currency's decimals, at most ``maximum`` (default: the host's
    limit). The ``ValidationError`` names ``field`` and the rule broken.
    """
    if isinstance(text, bool | float):
        raise ValidationError(field, "must be given as text or Decimal, never as a float")
    if isinstance(text, str):
        raw = text.strip(" \t")
        rule = _text_rule(raw, currency)
        if rule is not None:
            raise ValidationError(field, rule)
        value = Decimal(raw)
    elif isinstance(text, int):
        value = Decimal(text)
    elif isinstance(text, Decimal):
        value = text
    else:
        raise ValidationError(field, "must be a Decimal amount")
    if not value.is_finite():
        raise ValidationError(field, "must be a finite number")
    if value < 0:
        raise ValidationError(field, "must not be negative")
    if value == 0 and not allow_zero:
        raise ValidationError(field, "must be greater than zero")
    places = minor_units(currency)
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    # typed text is held to the letter (12.500 is three decimals); a computed Decimal to its value
    too_fine = -exponent > places if isinstance(text, str) else (
        -exponent > places and value != value.quantize(quantum(currency)))
    if too_fine:
        raise ValidationError(field, f"has more than {places} decimals for {currency.upper()}")
    limit = max_amount(currency) if maximum is None else maximum
    if value > limit:
        raise ValidationError(field, f"must be at most {limit} (the host's limit)"
                              if maximum is None else f"must be at most {limit}")
    try:
        return value.quantize(quantum(currency))
    except InvalidOperation:  # pragma: no cover - guarded by the limit above
        raise ValidationError(field, "is too large") from None


def check_tax(amount: Decimal, tax: Decimal) -> Decimal:
    """Tax is the part of the amount that is tax: never more than the amount (every payment)."""
    if tax > amount:
        raise ValidationError("tax", f"must not be more than the amount ({amount})")
    return tax


def check_tip(amount: Decimal, tip: Decimal, currency: str = "USD") -> Decimal:
    """Decision: a tip larger than the amount it is on is refused (almost always a keying slip,
    1250 for 12.50); amount and tip together must stay within the host's limit."""
    if tip > amount:
        raise ValidationError("tip", "must not be more than the amount ({amount}): a larger tip "
                                     "is almost always a typing slip; key it again", amount=amount)
    if amount + tip > max_amount(currency):
        raise ValidationError("tip", f"amount and tip together must be at most {max_amount(currency)}")
    return tip


@dataclass(frozen=True)
class TippedAmount:
    """An amount and the tip it carries: THE one place the two relate. ``base`` is what the tip
    is on (the tip rules measure the tip against it), ``tip`` rides on top (None: no tip said, so
    the pad may ask; 0: "no tip"), ``total`` is what the customer pays (the host's total, the
    entry's requested). A sale adds its tip to its amount (``TippedAmount(amount, tip)``); a
    ticket's tender is an amount with the ticket's tip inside it (``within``)."""

    base: Decimal
    tip: Decimal | None = None

    @classmethod
    def within(cls, total: Decimal, tip: Decimal | None) -> TippedAmount:
        """A tender of ``total`` that carries ``tip`` inside it (a ticket's tender)."""
        return cls(total - (tip or 0), tip)

    @property
    def total(self) -> Decimal:
        return self.base + (self.tip or 0)


def check_tip_within(amount: Decimal, tip: Decimal, currency: str, bounds: AmountBounds) -> Decimal:
    """THE tip rules for any tip on a payment, keyed or chosen by the customer on the PIN pad
    (issue #46: a pad's tip of 500.00 on 10.00 was approved and journaled unchecked): not more
    than the amount it is on (``check_tip``), and amount and tip together within this till's
    ``max_amount``."""
    check_tip(amount, tip, currency)
    limit = bounds.ceiling(currency).quantize(quantum(currency), rounding=ROUND_DOWN)
    if amount + tip > limit:
        raise ValidationError("tip", "amount and tip together must be at most {limit} (this till's "
                                     "max_amount)", limit=limit)
    return tip


#: A tab's tip may be at most this percentage of its authorization unless the profile says
#: otherwise (``max_tip_percent``): beyond it a keyed tip is a slip, not a tip.
DEFAULT_MAX_TIP_PERCENT = Decimal(50)


def capture_bound(authorized: Decimal, max_tip_percent: Decimal,
                  currency: str = "USD") -> tuple[Decimal, Decimal]:
    """(most amount, most tip) a tab's capture may ask: the capture exceeds its authorization only
    by the tip, and the tip by ``max_tip_percent`` of the authorization (rounded down)."""
    tip = (authorized * max_tip_percent / 100).quantize(quantum(currency), rounding=ROUND_DOWN)
    return authorized, tip


def check_capture(authorized: Decimal, amount: Decimal, tip: Decimal, max_tip_percent: Decimal,
                  currency: str = "USD") -> None:
    """Refuse, before anything is sent, a capture beyond its authorization (issue: a tab of 20.00
    captured for 1,800.00 was approved by the host)."""
    most, most_tip = capture_bound(authorized, max_tip_percent, currency)
    shown = format_amount(authorized, currency, symbol=False)
    if amount > most:
        raise ValidationError("amount", f"must be at most the {shown} authorized (raise the tab with "
                                        "an incremental authorization first)")
    if tip > most_tip:
        raise ValidationError("tip", f"must be at most {format_amount(most_tip, currency, symbol=False)} "
                                     f"({max_tip_percent.normalize():f} % of the {shown} authorized)")


def to_minor(amount: Decimal, currency: str = "USD") -> int:
    """Integer minor units (the Charge API's unit); exact or refused."""
    scaled = amount.scaleb(minor_units(currency))
    if scaled != scaled.to_integral_value():
        raise ValidationError("amount", f"{amount} is not a whole number of minor units")
    return int(scaled)


def from_minor(units: int, currency: str = "USD") -> Decimal:
    # an integer times the step is exact and already has the step's exponent (1.25, 0.00)
    return (Decimal(units) * quantum(currency)).quantize(quantum(currency))


def round_money(amount: Decimal, currency: str = "USD") -> Decimal:
    """Half-up rounding, as receipts and tax tables expect."""
    return amount.quantize(quantum(currency), rounding=ROUND_HALF_UP)


def format_amount(amount: Decimal, currency: str = "USD", symbol: bool = True) -> str:
    """Plain en-US style formatting; the window formats per locale through Qt."""
    q = amount.quantize(quantum(currency))
    sign = "-" if q < 0 else ""
    body = f"{abs(q):,}"
    prefix = (currency_symbol(currency) or "") if symbol else ""
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


def parse_shown_amount(text: str, currency: str = "USD", field: str = "amount") -> Decimal:
    """An amount as a list shows it (``$1,234.50``, ``1,234.50 USD``): the currency's symbol or
    code and the thousands commas come off, then THE amount rule (``parse_amount``) decides."""
    raw = text.strip()
    code = currency.upper()
    for mark in sorted({code, currency_symbol(code) or "", "$"} - {""}, key=len, reverse=True):
        if raw.upper().startswith(mark.upper()):
            raw = raw[len(mark):].strip()
        if raw.upper().endswith(mark.upper()):
            raw = raw[: -len(mark)].strip()
    if re.fullmatch(r"[0-9]{1,3}(,[0-9]{3})+(\.[0-9]*)?", raw):
        raw = raw.replace(",", "")
    return parse_amount(raw, currency, field)


def tax_of(subtotal: Decimal, rate: Decimal, included: bool, currency: str = "USD") -> Decimal:
    """THE tax rule: one rate in percent on an amount, rounded half-up once; with prices that
    include it, the part of the amount that is tax. A ticket applies it once per tax class
    (``tax_by_class``); the ticket and the X and Z reports both use it, so the day's tax is the
    sum of what the tickets charged."""
    if not rate:
        return Decimal(0).quantize(quantum(currency))
    share = subtotal * rate / (100 + rate) if included else subtotal * rate / 100
    return round_money(share, currency)


#: The till's default tax class (issue #37): a typed line's, and the one class of a till without
#: a store (its profile's ``tax_rate``).
DEFAULT_TAX_CLASS = "standard"


@dataclass(frozen=True, slots=True)
class ClassTax:
    """One tax class of a ticket (issue #37): its name and rate, the lines' amount in it (the
    prices as sold: with the tax in them when the ticket's prices include it) and its tax."""

    tax_class: str
    rate: Decimal
    base: Decimal
    tax: Decimal


def tax_by_class(amounts: Iterable[tuple[str, Decimal, Decimal]], included: bool,
                 currency: str = "USD") -> tuple[ClassTax, ...]:
    """THE ticket tax rule with per-item tax classes: the lines' amounts summed by (class, rate),
    and ``tax_of`` once on each sum (half-up once per class, never per line). The ticket's tax is
    the sum of these; one class is exactly ``tax_of`` on the subtotal, as before classes. Ordered
    by class name, then rate, so a receipt and a report list them the same way each time."""
    sums: dict[tuple[str, Decimal], Decimal] = {}
    for tax_class, rate, amount in amounts:
        key = (tax_class, rate)  # 8.25 and 8.2500 are one key (equal Decimals hash alike)
        sums[key] = sums.get(key, Decimal(0)) + amount
    return tuple(ClassTax(name, rate, base, tax_of(base, rate, included, currency))
                 for (name, rate), base in sorted(sums.items()))


def tax_by_class_added(taxes: Iterable[ClassTax], tax_class: str, rate: Decimal, amount: Decimal,
                       included: bool, currency: str = "USD") -> tuple[ClassTax, ...]:
    """``tax_by_class`` of the lines behind ``taxes`` and one more (``tax_class``, ``rate``,
    ``amount``): the same rule, ``tax_of`` again on the one class's new sum only, so a line added
    to a long ticket costs one class, not the ticket (the sums are exact: the same figures as
    ``tax_by_class`` of every line). A class missing from ``taxes`` starts from zero."""
    sums = {(t.tax_class, t.rate): t for t in taxes}
    was = sums.get((tax_class, rate))  # the class as first named (8.25 and 8.2500 are one)
    name, rate = (tax_class, rate) if was is None else (was.tax_class, was.rate)
    base = (Decimal(0) if was is None else was.base) + amount
    sums[(name, rate)] = ClassTax(name, rate, base, tax_of(base, rate, included, currency))
    return tuple(sums[key] for key in sorted(sums))


def percent_text(rate: Decimal) -> str:
    """A rate as a receipt and a report print it: ``8.25``, ``10`` (never ``1E+1``)."""
    text = f"{rate.normalize():f}"
    return text


def tax_share(tax: Decimal, base: Decimal, amount: Decimal, already: Decimal, *,
              pays_rest: bool, paid: Decimal = Decimal(0), currency: str = "USD") -> Decimal:
    """The part of a ticket's ``tax`` one tender sends as ``amount.tax``: the tender that pays what
    remains sends what earlier tenders did not (so the tenders' taxes add up to the ticket's); a
    part payment its share, worked out on what is paid so far (``paid`` before it, without tips,
    plus ``amount``) as ``tax * paid / base`` (``base``: the ticket's total without the tip),
    rounded half-up, less the ``already`` sent: the rounding never piles up over many tenders.
    Never more than the tender's amount or the tax not yet sent."""
    left = max(tax - already, Decimal(0))
    share = left if pays_rest or not base else min(
        round_money(tax * (paid + amount) / base, currency) - already, left)
    return max(min(share, amount), Decimal(0)).quantize(quantum(currency))


#: Longest digit string a buffer holds; the core's amount rule (``max_amount``) refuses the rest.
MAX_DIGITS = 12


class CentsBuffer:
    """An amount typed on a till's keys, each digit shifting in from the right as minor units
    ("1", "2", "5", "0" is 12.50): digits only, so no text parsing and no float; the amount rule
    (``parse_amount`` or the till's ``AmountBounds``) refuses a digit too many."""

    def __init__(self, minor_units: int = 2, max_digits: int = MAX_DIGITS,
                 currency: str = "USD", bounds: AmountBounds | None = None) -> None:
        self.minor_units = minor_units
        self.max_digits = max_digits
        self.currency = currency
        #: the till's amounts a human can mean (``max_amount``); None: the host's limit only
        self.bounds = bounds
        self.digits = ""

    def push(self, digit: str) -> bool:
        """Add one digit (or "00"); False when refused: the core's amount rule decides."""
        candidate = (self.digits + digit).lstrip("0")
        if len(candidate) > self.max_digits or not (digit.isascii() and digit.isdigit()):
            return False
        typed = f"{Decimal(int(candidate or '0')).scaleb(-self.minor_units):f}"
        try:
            if self.bounds is not None:
                self.bounds.parse(typed, self.currency, "amount", allow_zero=True)
            else:
                parse_amount(typed, self.currency, "amount", allow_zero=True)
        except ValidationError:
            return False
        self.digits = candidate
        return True

    def backspace(self) -> None:
        self.digits = self.digits[:-1]

    def clear(self) -> None:
        self.digits = ""

    def set(self, amount: Decimal) -> None:
        scaled = amount.scaleb(self.minor_units)
        if scaled != scaled.to_integral_value() or scaled < 0:
            raise ValueError("amount: must be positive with at most the currency's decimals")
        self.digits = str(int(scaled)).lstrip("0")[: self.max_digits]

    @property
    def value(self) -> Decimal:
        return Decimal(int(self.digits or "0")).scaleb(-self.minor_units)

    @property
    def entered(self) -> bool:
        """Digits worth more than zero were typed (leading zeros are never kept)."""
        return bool(self.digits)
