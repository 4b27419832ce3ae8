"""The vendor test server's trigger values, as pure functions.

The test host accepts only its published test cards and lets ``amount.total``, AVS inputs and
security codes force an outcome. Keeping the rules here (no I/O, no state) lets the transaction
handlers, the training window's cheat sheet and the tests share one table.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from cashier.redact import luhn_ok

CENT = Decimal("0.01")


@dataclass(frozen=True)
class TestCard:
    number: str
    brand: str  # CardTypeResp: VS MC AX NS JC
    triggers: str  # what the card does, for people

    __test__ = False  # not a pytest class


#: Every card number the sandbox accepts, with what it triggers (the training window lists them).
TEST_CARDS: tuple[TestCard, ...] = (
    TestCard("4321000000001119", "VS", "approved (amount triggers apply)"),
    TestCard("4616222222222257", "VS", "approved (amount triggers apply)"),
    TestCard("4761739001010010", "VS", "approved (amount triggers apply)"),
    TestCard("5432000000003332", "MC", "approved (amount triggers apply)"),
    TestCard("5290111111111111", "MC", "approved (amount triggers apply)"),
    TestCard("2221000000000009", "MC", "tapped (contactless): S, online PIN required; "
                                       "inserted: approved"),
    TestCard("373400000002221", "AX", "approved (amount triggers apply)"),
    TestCard("342877777777705", "AX", "approved (amount triggers apply)"),
    TestCard("374245455400001", "AX", "approved (amount triggers apply)"),
    TestCard("6011013928534509", "NS", "approved (amount triggers apply)"),
    TestCard("6011000000004444", "NS", "approved (amount triggers apply)"),
    TestCard("3337000000005551", "JC", "approved (amount triggers apply)"),
    TestCard("3059910000007215", "NS", "Diners, approved (amount triggers apply)"),
    TestCard("4321000000011001", "VS", "timeout: HTTP 504, error 9951"),
    TestCard("4321000000009401", "VS", "error 9401"),
    TestCard("4417010617574247", "VS", "demo host error"),
    TestCard("4184324142934805", "VS", "timeout response: HTTP 504, error 9951"),
    TestCard("4444000000008686", "VS", "hosted card form error"),
    TestCard("4515300011000159", "VS", "original credit transfer (OCT) Visa"),
    TestCard("4515300011000167", "VS", "original credit transfer (OCT) Visa"),
    TestCard("5312600000002167", "MC", "original credit transfer (OCT) Mastercard"),
)
LUHN_FAIL_CARD = "4321000000001118"
_BY_NUMBER = {card.number: card for card in TEST_CARDS}

#: The amount rules, for people (the training window shows them next to the cards).
AMOUNT_TRIGGERS: tuple[tuple[str, str], ...] = (
    ("up to 999997.99", "approved (A)"),
    ("999998.01 to 999998.99", "voice referral (R)"),
    ("999998.00, and 999999.00 and up", "declined (D)"),
    ("19.19 on a refund", "refund declined (D)"),
    ("19.19 stored offline", "declined when the gateway forwards it (D)"),
    ("219.00", "partial approval (P) of half the amount sought, with ALLOWPARTIALAUTH; "
               "declined (D) without it; also a capture, incremental authorization or raised "
               "invoice seeking 219.00 more"),
    ("111.XX", "approved after XX seconds"),
    ("112.XX", "error after XX seconds"),
    ("511.XX", "referral after XX seconds"),
    ("1111.XX", "declined after XX seconds"),
    ("32202.00", "demo host error"),
    ("6.66", "approved on a prepaid card with a balance of 43.34"),
)

AVS_PREFIXES = {"65": "A", "69": "E", "78": "N", "82": "R", "85": "U", "88": "X", "89": "Y", "90": "Z"}
CSC_RESULTS = {"333": "M", "3333": "M", "444": "N", "4444": "N", "555": "P", "5555": "P",
               "666": "S", "6666": "S", "777": "U", "7777": "U"}
#: Decision: only the explicit AVS "no match" trigger (prefix 78) and a CSC "no match" fail a
#: transaction; the default 'N' for a value that matches no trigger is informational, or every
#: ordinary keyed sale on the test host would fail its address check.
CSC_FAILURES = frozenset({"N"})

PREPAID_BALANCE = Decimal("43.34")
#: The partial-approval trigger, as a total or as the amount an amendment or capture seeks.
PARTIAL_TRIGGER = Decimal("219")
MAX_AMOUNT = Decimal("2000000000")
#: Decision: the contactless card that asks for an online PIN (response code S).
ONLINE_PIN_CARD = "2221000000000009"
CONTACTLESS_MODES = frozenset({"C", "R"})


# ---- cards ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardProblem:
    """A card the test host refuses: the error it answers with."""

    primary_code: int
    short_text: str
    long_text: str
    secondary_code: int = 0
    http_status: int = 400
    severity: str = "Info"
    code: int | None = None


def brand_of(number: str) -> str:
    """The ``card.type`` for a number: test cards by table, others by prefix."""
    known = _BY_NUMBER.get(number)
    if known is not None:
        return known.brand
    if number.startswith("4"):
        return "VS"
    if number[:2] in {"51", "52", "53", "54", "55"} or "2221" <= number[:4] <= "2720":
        return "MC"
    if number[:2] in {"34", "37"}:
        return "AX"
    if number.startswith(("35", "3337")):
        return "JC"
    return "NS"


def check_card(number: str) -> CardProblem | None:
    """None when the test host would process this number; else the error it answers."""
    if not number.isdigit() or not 12 <= len(number) <= 19:
        return CardProblem(9000, "INVALID FIELD", "card.number: must be 12 to 19 digits", code=40101)
    if not luhn_ok(number):
        return CardProblem(9820, "LUHN FAIL", "card.number fails the Luhn check", code=40101)
    if number == "4321000000011001":
        return CardProblem(9951, "RESPONSE TIMEOUT", "Timeout waiting for response across the internet",
                           http_status=504, severity="Error", code=40001)
    if number == "4184324142934805":
        return CardProblem(9951, "RESPONSE TIMEOUT", "Timeout response from the demo host",
                           http_status=504, severity="Error", code=40001)
    if number == "4321000000009401":
        return CardProblem(9401, "HOST ERROR", "Demo host returned error 9401", severity="Error",
                           code=60000)
    if number == "4417010617574247":
        return demo_host_error()
    if number == "4444000000008686":
        return CardProblem(9961, "CARD FORM ERROR", "Hosted card form error (demo)", secondary_code=9,
                           severity="Error", code=64000)
    if number not in _BY_NUMBER:
        return CardProblem(9842, "NOT IN CARDRANGE",
                           "Card type not recognized: the test host accepts only published test cards",
                           code=40101)
    return None


def demo_host_error() -> CardProblem:
    return CardProblem(9961, "HOST ERROR", "Demo host error", secondary_code=1, severity="Error",
                       code=69999)


def is_test_card(number: str) -> bool:
    return number in _BY_NUMBER


# ---- amounts -------------------------------------------------------------------------------
@dataclass(frozen=True)
class HostDecision:
    """What the processor says to an amount: a response code, or an error, maybe late."""

    response_code: str  # A D R P, or "" when ``error`` is set
    approved: Decimal = Decimal(0)  # of the amount sought
    delay_s: float = 0.0
    error: CardProblem | None = None
    balance: Decimal | None = None  # prepaid card balance (6.66)


def _delay_class(total: Decimal) -> tuple[str, int] | None:
    """111.XX, 112.XX, 511.XX, 1111.XX: the class and XX seconds."""
    whole = int(total)
    cents = int(((total - whole) * 100).to_integral_value())
    if whole in (111, 112, 511, 1111):
        return {111: "A", 112: "e", 511: "R", 1111: "D"}[whole], cents
    return None


#: A sale or authorization of this amount stored offline is declined when the gateway forwards it
#: (a sandbox trigger, below any offline limit, so a training till rehearses it).
FORWARD_DECLINE = Decimal("19.19")


def amount_outcome(total: Decimal, sought: Decimal, *, kind: str, partial_allowed: bool) -> HostDecision:
    """What the test host decides for a request of ``total`` that seeks ``sought`` of new approval.

    ``kind`` is sale, authorization, capture, incremental or refund. Triggers look at the
    request's ``amount.total`` as the vendor's test host does, and the partial-approval trigger
    also at the amount sought ("or increment auth/capture by 219": a capture of 229.00 on a
    10.00 authorization, an invoice raised by 219.00); a partial approval approves half of what
    is sought (decision), rounded down to the cent.
    """
    if total >= MAX_AMOUNT:
        return HostDecision("", error=CardProblem(9000, "INVALID AMOUNT",
                                             "amount.total must be below 2000000000", code=40107))
    if kind == "refund":
        if total == Decimal("19.19"):
            return HostDecision("D")
        return HostDecision("A", sought)
    if total == Decimal("32202.00"):
        return HostDecision("", error=demo_host_error())
    delayed = _delay_class(total)
    if delayed is not None:
        code, seconds = delayed
        if code == "e":
            return HostDecision("", delay_s=seconds, error=demo_host_error())
        return HostDecision(code, sought if code == "A" else Decimal(0), delay_s=seconds)
    if total == PARTIAL_TRIGGER or sought == PARTIAL_TRIGGER:
        if not partial_allowed:
            return HostDecision("D")
        half = (sought / 2).quantize(CENT, rounding=ROUND_DOWN)
        return HostDecision("P", half)
    if total == Decimal("6.66"):
        return HostDecision("A", sought, balance=PREPAID_BALANCE)
    if total <= Decimal("999997.99"):
        return HostDecision("A", sought)
    if Decimal("999998.01") <= total <= Decimal("999998.99"):
        return HostDecision("R")
    return HostDecision("D")


# ---- AVS and CSC -----------------------------------------------------------------------------
def avs_result(address_line1: str | None, postal_code: str | None) -> tuple[str, bool] | None:
    """(``transaction.avs.result``, failed) for the address sent, or None when none was sent."""
    if not address_line1 and not postal_code:
        return None
    for value in (address_line1, postal_code):
        if value:
            code = AVS_PREFIXES.get(value.strip()[:2])
            if code is not None:
                return code, code == "N"
    return "N", False


def csc_result(value: str | None) -> tuple[str, bool] | None:
    """(``card.securityCode.result``, failed), or None when no security code was sent."""
    if not value:
        return None
    code = CSC_RESULTS.get(value, "M")
    return code, code in CSC_FAILURES


def needs_online_pin(number: str, entry_mode: str) -> bool:
    """Response code S: the contactless EMV case that needs an online PIN (decision: one card)."""
    return number == ONLINE_PIN_CARD and entry_mode in CONTACTLESS_MODES
