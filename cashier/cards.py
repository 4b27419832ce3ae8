"""Card facts checked before anything is sent: one home for the rules every flow shares."""

from __future__ import annotations

from datetime import UTC, datetime

from cashier.errors import ValidationError
from cashier.redact import luhn_ok
from cashier.text import is_card_number


def check_not_expired(field: str, month: int, year: int, now: datetime | None = None) -> None:
    """A card is good through the last day of its expiry month; an earlier month is refused."""
    today = now or datetime.now(UTC)
    if (year, month) < (today.year, today.month):
        raise ValidationError(field, "is in the past: the card has expired")


def looks_like_card_number(text: str) -> bool:
    """The whole text is 13 to 19 digits passing the Luhn check, in any dress (separators,
    any script's digits): ``cashier.text.is_card_number``."""
    return is_card_number(text)


def never_luhn_valid(digits: str) -> str:
    """A digit token that no card-number check mistakes for a card: when ``digits`` passes
    Luhn, its fifth digit from the end moves by one (the last four stay the card's)."""
    if not (digits.isdigit() and len(digits) >= 5 and luhn_ok(digits)):
        return digits
    i = len(digits) - 5
    return digits[:i] + str((int(digits[i]) + 1) % 10) + digits[i + 1:]


def check_token(field: str, token: str) -> str:
    """A token is never a card number: a Luhn-valid 13-19 digit value is refused before
    anything is sent or journaled (someone typed the card where the token goes)."""
    if looks_like_card_number(token):
        raise ValidationError(field, "looks like a card number, not a token: nothing was sent "
                                     "or kept; key the card as a card, or give its token")
    return token
