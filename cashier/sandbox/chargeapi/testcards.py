"""Test cards of the Charge API sandbox: which number does what (shown by the training UI).

The vendor's test mode comes first (``source="vendor"``): the numbers its own SDKs' test
suites charge (shift4-python, -java, -php ``ExceptionTest``, -node, -ios test data) answer here
as they answer there, so a merchant's integration tests run unchanged. For the spec's card
error codes the vendor's list does not cover, the sandbox keeps its own numbers
(``source="sandbox"``). Bad input triggers the input codes too (a number failing Luhn:
``invalid_number``; month 13: ``invalid_expiry_month``; a past year: ``invalid_expiry_year``; a
past month of this year: ``expired_card``; a CVC that is not 3-4 digits: ``invalid_cvc``; an
amount above ``MAX_AMOUNT``: ``limit_exceeded``; a used or expired token: ``expired_token``; a
blacklist rule: ``blacklisted``). The dispute and fraud-warning cards succeed and then open a
dispute or a fraud warning ``FOLLOW_UP_DELAY_S`` seconds (sandbox clock) later.
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
    #: ``vendor`` (the vendor's test mode has this number) or ``sandbox`` (ours).
    source: str = "vendor"
    #: The issuer's decline code the vendor sends with this card's error, where it sends one.
    issuer_decline_code: str | None = None


def _ours(n: int, code: str, description: str) -> TestCard:
    return TestCard(_with_check_digit(f"40000000000{n:04d}"), "Visa", code, description, "sandbox")


TEST_CARDS: tuple[TestCard, ...] = (
    TestCard("4242424242424242", "Visa", "success", "Approved"),
    TestCard("4012000100000007", "Visa", "success", "Approved"),
    TestCard("5555555555554444", "Mastercard", "success", "Approved"),
    TestCard("378282246310005", "American Express", "success", "Approved"),
    TestCard("6011111111111117", "Discover", "success", "Approved"),
    TestCard("30569309025904", "Diners Club", "success", "Approved"),
    TestCard("3530111333300000", "JCB", "success", "Approved"),
    TestCard("6759649826438453", "Maestro", "success", "Approved"),
    TestCard("4242000000011114", "Visa", "success", "Approved, the vendor's credit test card"),
    TestCard("4024007102349866", "Visa", "invalid_number", "Issuer reports the number as invalid"),
    TestCard("4532873294814636", "Visa", "invalid_expiry_month",
             "Issuer reports the expiry month as invalid"),
    TestCard("4532582477951947", "Visa", "invalid_expiry_year", "Issuer reports the expiry year as invalid"),
    TestCard("4024007189368227", "Visa", "invalid_cvc", "Issuer reports the security code as invalid"),
    TestCard("4916487051294548", "Visa", "expired_card", "Card expired"),
    TestCard("4024007134364842", "Visa", "incorrect_cvc", "Security code does not match"),
    TestCard("4929225021529113", "Visa", "incorrect_zip", "Postal code does not match"),
    TestCard("4024007118468684", "Visa", "insufficient_funds", "Insufficient funds, issuer code 51",
             issuer_decline_code="51"),
    TestCard("4024007114621187", "Visa", "lost_or_stolen", "Card reported lost or stolen"),
    TestCard("4024007155502486", "Visa", "suspected_fraud", "Issuer suspects fraud"),
    TestCard("4916018475814056", "Visa", "card_declined", "Declined, charges and credits"),
    TestCard("4024007114166316", "Visa", "processing_error", "Processing error at the issuer"),
    TestCard("4916449457024978", "Visa", "authentication_required",
             "3D Secure needed: charge the token of POST /3d-secure"),
    TestCard("4242000000000018", "Visa", "dispute",
             f"Approved, then disputed (a chargeback) {FOLLOW_UP_DELAY_S} s later"),
    TestCard("4242000000000208", "Visa", "fraud_warning",
             f"Approved, then a fraud warning {FOLLOW_UP_DELAY_S} s later"),
    TestCard("4012888888881881", "Visa", "success", "Approved", "sandbox"),
    _ours(113, "blacklisted", "Card on the network's blacklist"),
    _ours(114, "expired_token", "Card token expired at the issuer"),
    _ours(115, "limit_exceeded", "Amount above the card's limit"),
    _ours(117, "do_not_honor", "Do not honor"),
    _ours(118, "do_not_try_again", "Issuer asks for no further attempts"),
    _ours(203, "slow", f"Approved after {SLOW_DELAY_S} s (timeouts, idempotency conflicts)"),
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


#: The issuer's decline code the vendor sends with a card error code, where it sends one.
ISSUER_DECLINE_CODES: dict[str, str] = {c.outcome: c.issuer_decline_code for c in TEST_CARDS
                                        if c.issuer_decline_code}


def as_table() -> list[dict[str, str]]:
    """Rows for the training UI and the sandbox guide (docs/guides/sandbox.md): number, brand,
    outcome, description, source."""
    return [{"number": c.number, "brand": c.brand, "outcome": c.outcome, "description": c.description,
             "source": c.source} for c in TEST_CARDS]


def markdown_table(source: str) -> str:
    """The sandbox guide's table of one source's cards (a test keeps the guide equal to it)."""
    lines = ["| Number | Brand | Outcome | What happens |", "|---|---|---|---|"]
    lines += [f"| {c.number} | {c.brand} | `{c.outcome}` | {c.description} |"
              for c in TEST_CARDS if c.source == source]
    return "\n".join(lines)
