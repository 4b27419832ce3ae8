"""Test cards of the Charge API sandbox: which number does what (shown by the training UI).

Every card error code of the spec has a card that triggers it when charged. Bad input
triggers the input codes too (a number failing Luhn: ``invalid_number``; month 13:
``invalid_expiry_month``; a past year: ``invalid_expiry_year``; a past month of this year:
``expired_card``; a CVC that is not 3-4 digits: ``invalid_cvc``; an amount above
``MAX_AMOUNT``: ``limit_exceeded``; a used or expired token: ``expired_token``; a blacklist
rule: ``blacklisted``). A few cards open a dispute or a fraud warning ``FOLLOW_UP_DELAY_S``
seconds (sandbox clock) after a successful charge, and one answers slowly.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from cashier.redact import luhn_ok

#: The highest charge amount in minor units; above it a charge fails with ``limit_exceeded``.
MAX_AMOUNT = 99_999_999
#: Seconds (sandbox clock) between a charge and the dispute or fraud warning its card opens.
FOLLOW_UP_DELAY_S = 5
#: Real seconds the "slow" card waits before answering (times ``SandboxConfig.delay_scale``).
SLOW_DELAY_S = 2.0


def _with_check_digit(body: str) -> str:
    for digit in "0123456789":
        if luhn_ok(body + digit):
            return body + digit
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class TestCard:
    __test__ = False  # not a pytest class

    number: str
    brand: str
    #: ``success``, a card error code, or ``dispute`` / ``fraud_warning`` / ``slow`` (succeed first).
    outcome: str
    description: str


def _decline(n: int, code: str, description: str) -> TestCard:
    return TestCard(_with_check_digit(f"40000000000{n:04d}"), "Visa", code, description)


TEST_CARDS: tuple[TestCard, ...] = (
    TestCard("4242424242424242", "Visa", "success", "Approved"),
    TestCard("4012888888881881", "Visa", "success", "Approved"),
    TestCard("5555555555554444", "Mastercard", "success", "Approved"),
    TestCard("378282246310005", "American Express", "success", "Approved"),
    TestCard("6011111111111117", "Discover", "success", "Approved"),
    _decline(101, "invalid_number", "Issuer reports the number as invalid"),
    _decline(102, "invalid_expiry_month", "Issuer reports the expiry month as invalid"),
    _decline(103, "invalid_expiry_year", "Issuer reports the expiry year as invalid"),
    _decline(104, "invalid_cvc", "Issuer reports the security code as invalid"),
    _decline(105, "incorrect_cvc", "Security code does not match"),
    _decline(106, "incorrect_zip", "Postal code does not match"),
    _decline(107, "card_declined", "Declined"),
    _decline(108, "expired_card", "Card expired"),
    _decline(109, "insufficient_funds", "Insufficient funds"),
    _decline(110, "lost_or_stolen", "Card reported lost or stolen"),
    _decline(111, "suspected_fraud", "Issuer suspects fraud"),
    _decline(112, "processing_error", "Processing error at the issuer"),
    _decline(113, "blacklisted", "Card on the network's blacklist"),
    _decline(114, "expired_token", "Card token expired at the issuer"),
    _decline(115, "limit_exceeded", "Amount above the card's limit"),
    _decline(116, "authentication_required", "3D Secure needed: charge the token of POST /3d-secure"),
    _decline(117, "do_not_honor", "Do not honor"),
    _decline(118, "do_not_try_again", "Issuer asks for no further attempts"),
    _decline(201, "dispute", f"Approved, then a dispute opens {FOLLOW_UP_DELAY_S} s later"),
    _decline(202, "fraud_warning", f"Approved, then a fraud warning {FOLLOW_UP_DELAY_S} s later"),
    _decline(203, "slow", f"Approved after {SLOW_DELAY_S} s (timeouts, idempotency conflicts)"),
)

_BY_NUMBER = {card.number: card for card in TEST_CARDS}

#: The card error codes of the spec, in its order.
CARD_ERROR_CODES: tuple[str, ...] = (
    "invalid_number", "invalid_expiry_month", "invalid_expiry_year", "invalid_cvc", "incorrect_cvc",
    "incorrect_zip", "card_declined", "expired_card", "insufficient_funds", "lost_or_stolen",
    "suspected_fraud", "processing_error", "blacklisted", "expired_token", "limit_exceeded",
    "authentication_required", "do_not_honor", "do_not_try_again",
)

MESSAGES: dict[str, str] = {
    "invalid_number": "The card number is not a valid credit card number.",
    "invalid_expiry_month": "The card's expiration month is invalid.",
    "invalid_expiry_year": "The card's expiration year is invalid.",
    "invalid_cvc": "Your card's security code is invalid.",
    "incorrect_cvc": "The card's security code failed verification.",
    "incorrect_zip": "The card's zip code failed verification.",
    "card_declined": "The card was declined.",
    "expired_card": "The card has expired.",
    "insufficient_funds": "The charge amount exceeds the available funds or the card's credit limit.",
    "lost_or_stolen": "The card has been reported as lost or stolen.",
    "suspected_fraud": "The charge is suspected to be fraudulent.",
    "processing_error": "An error occurred while processing the card.",
    "blacklisted": "The charge matches a blacklist rule.",
    "expired_token": "The token has already been used or has expired.",
    "limit_exceeded": "The charge amount exceeds the maximum allowed.",
    "authentication_required": "3D Secure authentication is required for this charge.",
    "do_not_honor": "The card was declined (do not honor).",
    "do_not_try_again": "The card was declined: do not try again.",
}


def outcome_of(number: str) -> str:
    card = _BY_NUMBER.get(number)
    return card.outcome if card else "success"


def brand_of(number: str) -> str:
    card = _BY_NUMBER.get(number)
    if card:
        return card.brand
    if number.startswith("4"):
        return "Visa"
    if number[:2] in {"51", "52", "53", "54", "55"} or "2221" <= number[:4] <= "2720":
        return "Mastercard"
    if number[:2] in {"34", "37"}:
        return "American Express"
    if number.startswith("6011") or number.startswith("65"):
        return "Discover"
    return "Unknown"


def fingerprint_of(number: str) -> str:
    """The same card gives the same fingerprint in every account; the number itself is never kept."""
    return hashlib.sha256(b"cashier-sandbox-card:" + number.encode()).hexdigest()[:20]


def as_table() -> list[dict[str, str]]:
    """Rows for the training UI and ``docs``: number, brand, outcome, description."""
    return [{"number": c.number, "brand": c.brand, "outcome": c.outcome, "description": c.description}
            for c in TEST_CARDS]
