"""What a journal entry allows and how it reads to a cashier: one home for the rules every screen
and flow shares (refund, void, cancelled, the amount shown, what needs recovery, the message).

The window asks these questions; it never decides them from message text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from cashier.journal.model import Entry, Event, Kind, Op, State

#: States whose money moved and can still be given back.
_SETTLED = (State.APPROVED, State.CAPTURED)
#: Host API kinds a linked refund may name as the original.
_REFUNDABLE_KINDS = (Kind.SALE, Kind.AUTHORIZATION)
#: Charge API operations that take money (a refund names one of them as its origin).
CHARGE_ORIGIN_OPS = frozenset({Op.CHARGE, Op.AUTHORIZATION})
#: The host's code for a prompt the cashier or the customer cancelled on the PIN pad (legacy
#: primary code 9960 with that short text; 50101 "Transaction cancelled" on the modern surface).
_CANCELLED_TEXTS = ("PROMPT CANCELLED", "TRANSACTION CANCELLED")


def is_charge_api(entry: Entry) -> bool:
    return entry.kind is Kind.CHARGE


def refundable_amount(entry: Entry) -> Decimal:
    """What a refund from this entry may still give back (0: none). The same rule the refund flows
    check before anything is sent."""
    if is_charge_api(entry):
        if entry.op not in CHARGE_ORIGIN_OPS or entry.state not in _SETTLED or not entry.charge_id:
            return Decimal(0)
        return max(entry.approved - entry.refunded, Decimal(0))
    if entry.state not in _SETTLED or entry.kind not in _REFUNDABLE_KINDS:
        return Decimal(0)
    return max(entry.refundable, Decimal(0))


def can_refund(entry: Entry) -> bool:
    return refundable_amount(entry) > 0


def void_refusal(entry: Entry, refunds_in_flight: Sequence[Entry] = ()) -> str | None:
    """Why a void of ``entry`` is refused (None: it may be voided). A void reverses the whole
    payment: an approved, captured or unanswered Host API payment, or a Charge API payment with
    money left to give back (its "void" is a full refund). A Host API payment with a refund
    against it is never voided: the void would give the refunded part back a second time (the
    host refuses it too, docs/decisions/004-journal-and-flows.md "Money and authority, round 4 (issue #46):
    refunds"); the rest is refunded instead. ``refunds_in_flight`` are the journal's linked refunds of it
    whose answer is not known yet: they may have given money back, so they count as refunds."""
    if is_charge_api(entry):
        return None if refundable_amount(entry) > 0 else "has nothing left to give back"
    if entry.invoice is None or entry.state not in (State.APPROVED, State.CAPTURED, State.UNKNOWN):
        return f"is {entry.state}: it cannot be voided (only approved, captured or unknown payments)"
    if entry.refunded > 0:
        return (f"was refunded ({entry.refunded} of {shown_amount(entry)}): refund the rest "
                f"({refundable_amount(entry)}) instead; a void would give the refunded part back twice")
    if any(r.unresolved for r in refunds_in_flight):
        return ("has a refund whose answer is not known yet: it was refunded, perhaps; run "
                "'cashier recover', then refund the rest instead of voiding")
    return None


def can_void(entry: Entry) -> bool:
    """``void_refusal`` finds nothing against it (the window's Void key)."""
    return void_refusal(entry) is None


def is_cancelled(entry: Entry) -> bool:
    """The payment ended because someone cancelled it on the PIN pad (not charged)."""
    if entry.state is not State.ERROR:
        return False
    said = reason(entry)
    return said is not None and said.case == "cancelled"


def shown_state(entry: Entry) -> str:
    """The state a list shows: cash is taken (or given back), never "approved" by a bank; a
    payment cancelled on the PIN pad (by the cashier's Esc or the customer) is "cancelled", not
    an error; a payment whose money all went back by refunds is "refunded"; every other entry
    shows its journal state."""
    if entry.kind == "cash" and entry.state is State.APPROVED:
        return "given_back" if entry.op is Op.REFUND else "taken"
    if is_cancelled(entry):
        return "cancelled"
    if entry.state in (State.APPROVED, State.CAPTURED) and entry.refunded > 0 \
            and entry.refundable <= 0 and entry.kind is not Kind.REFUND:
        return "refunded"
    return str(entry.state)


def shown_amount(entry: Entry) -> Decimal:
    """The amount a list shows for an entry: what moved (captured with the tip, approved, refunded)
    or, when nothing did, what was asked."""
    if entry.state is State.CAPTURED and entry.captured > 0:
        return entry.captured
    if entry.approved > 0:
        return entry.approved
    return entry.requested


#: Entries a cashier must know about: no answer yet, or a void waiting. An INTENT or SENT entry is
#: a payment in progress (start-up recovery settles the ones a crash left behind).
NEEDS_RECOVERY = frozenset({State.UNKNOWN, State.VOIDING})


def needs_recovery(entry: Entry) -> bool:
    return entry.state in NEEDS_RECOVERY


def is_unknown(entry: Entry) -> bool:
    """The answer was lost: the host is being asked what happened (never charge again)."""
    return entry.state is State.UNKNOWN


# ---- what happened, for the cashier (the host's own text stays in the journal) -----------------
@dataclass(frozen=True)
class Reason:
    """Why a payment ended as it did, as one of a few cases a cashier can act on; the window words
    each case in the cashier's language. Built from the vendor's decline and error code tables
    (``shared/reference/host-api/decline-codes.yml``, ``error-codes.yml``)."""

    case: str
    approved: Decimal | None = None
    rest: Decimal | None = None

    @property
    def partial(self) -> bool:
        """Approved for less than asked: the rest is collected another way."""
        return self.case == "partial"


#: transaction.responseCode (decline-codes.yml) -> case
_RESPONSE_CASES = {"D": "declined", "R": "referral", "f": "address_or_code"}
#: error.code (error-codes.yml) -> case
_ERROR_CASES = {
    "40001": "timeout", "50002": "timeout",
    "40100": "bad_request", "40101": "bad_request", "40102": "bad_request", "40103": "bad_request",
    "40104": "no_such_invoice", "40105": "token", "40106": "token", "40107": "bad_amount",
    "40300": "not_allowed", "40402": "split_tender", "40403": "no_card", "40404": "no_pin",
    "40405": "no_card", "40500": "pinpad_error", "40600": "misconfigured",
    "50001": "host_unreachable", "52011": "host_unreachable", "65100": "host_unreachable",
    "66652": "host_unreachable", "50101": "cancelled", "50102": "pinpad_busy",
    "64500": "duplicate", "67102": "risk_declined", "67103": "risk_declined",
    "67115": "risk_declined", "67123": "risk_declined",
}
#: the legacy primary code (what the journal's host_code holds first) -> case, where one suffices
_LEGACY_CASES = {"9842": "card_not_accepted", "9815": "duplicate", "9951": "timeout",
                 "9862": "not_allowed", "9820": "bad_card_number"}
#: host short texts that name the case when the code is shared (9960 is cancelled or busy)
_TEXT_CASES = (("PINPAD BUSY", "pinpad_busy"), *((words, "cancelled") for words in _CANCELLED_TEXTS),
               ("NOT IN CARDRANGE", "card_not_accepted"), ("NO SUCH INVOICE", "no_such_invoice"),
               ("DOES NOT KNOW THE INVOICE", "no_such_invoice"), ("NOT SENT", "not_sent"))


#: What a card payment says when the host went away under it and the till went offline (issue
#: 40): the cashier presents the card again and the gateway stores it, within the limits.
HOST_AWAY_STORING = ("not charged: the host cannot be reached; the till is offline now and "
                     "stores card payments within its limits: take the card again")
#: What a card payment says when the host is away and this till cannot store it (HD, DCC).
HOST_AWAY_NO_STORE = ("not charged: the host cannot be reached; take cash, or a manager takes a "
                      "manual authorization with a voice authorization code")
_OFFLINE_CASES = ((HOST_AWAY_STORING, "offline_now"), (HOST_AWAY_NO_STORE, "host_away_no_store"))


def reason(entry: Entry) -> Reason | None:
    """The case a cashier must know about, or None for a plain approval."""
    if entry.partial:
        return Reason("partial", entry.approved, entry.requested - entry.approved)
    if entry.state in (State.APPROVED, State.CAPTURED, State.VOIDED):
        return None
    if entry.state in (State.INTENT, State.SENT, State.UNKNOWN, State.VOIDING):
        return Reason("checking")
    if entry.state is State.DECLINED_ON_FORWARD:
        return Reason("declined_on_forward")
    for message, case in _OFFLINE_CASES:
        if entry.message == message:
            return Reason(case)
    text = (entry.message or "").upper()
    for words, case in _TEXT_CASES:
        if words in text:
            return Reason(case)
    codes = [c.strip() for c in (entry.host_code or "").split(",") if c.strip()]
    for code in codes[:1]:
        if code in _ERROR_CASES:
            return Reason(_ERROR_CASES[code])
        if code in _LEGACY_CASES:
            return Reason(_LEGACY_CASES[code])
    if entry.response_code in _RESPONSE_CASES:
        return Reason(_RESPONSE_CASES[entry.response_code])
    if entry.state is State.DECLINED:
        return Reason("declined")
    return Reason("host_error")


#: Why the QR flow cancels a code nobody paid before its wait ran out (journaled in the message).
QR_EXPIRED = "not paid in time"


class QrEnd(StrEnum):
    """How a QR payment ended, in the cases its screen shows (``qr_end``)."""

    PAID = "paid"
    CANCELLED = "cancelled"      # before payment
    EXPIRED = "expired"          # nobody paid in time
    REVERSED = "reversed"        # paid, then given back
    NOT_CHARGED = "not_charged"
    CHECKING = "checking"

    @property
    def paid(self) -> bool:
        """The money is on the till: a receipt prints, a reversal may give it back."""
        return self is QrEnd.PAID

    @property
    def checking(self) -> bool:
        """The host has not told yet: the cashier may ask again."""
        return self is QrEnd.CHECKING


def qr_end(entry: Entry) -> QrEnd:
    """How a QR payment ended: paid, reversed (paid, then given back), expired (nobody paid in
    time), cancelled (before payment), checking, not charged."""
    if entry.state in (State.APPROVED, State.CAPTURED):
        return QrEnd.PAID
    if entry.state is State.VOIDED:
        if entry.response_code == "T":
            return QrEnd.REVERSED
        return QrEnd.EXPIRED if QR_EXPIRED in (entry.message or "") else QrEnd.CANCELLED
    if entry.unresolved:
        return QrEnd.CHECKING
    return QrEnd.NOT_CHARGED


#: QR code statuses (``flows.qr.QrStatusChanged``) after which the code can no longer be cancelled.
_QR_PAST_CANCELLING = frozenset({"cancelling", "cancelled", "reversed", "paid"})


def qr_can_customer_pay(status: str) -> bool:
    """The code on screen can still be paid (the training customer's key stays offered)."""
    return status == "pending"


def qr_can_cancel(status: str) -> bool:
    """The cashier may still cancel the code on screen."""
    return status not in _QR_PAST_CANCELLING


def took_money(outcome: str) -> bool:
    """A flow's outcome word that means money moved (a receipt can be printed)."""
    return outcome in ("approved", "captured")


def is_checking(outcome: str) -> bool:
    """A flow's outcome word that means the host's answer is not known yet."""
    return outcome == "unknown"


def is_approved(outcome: str) -> bool:
    """A flow's outcome word that means the payment was approved (not captured, not voided)."""
    return outcome == "approved"


@dataclass(frozen=True)
class CashGiven:
    """Cash handed over for an entry (its ``cash_tendered`` note): what the customer gave and the
    change; the entry's approved amount is what the till took."""

    given: Decimal
    change: Decimal | None


def cash_given(events: Sequence[Event]) -> CashGiven | None:
    """The cash given and the change from an entry's events (its latest cash note), None when it
    has none: the receipt, the Sale screen and the Journal's details say them from here."""
    for event in reversed(events):
        note = event.data.get("_note", event.data)
        if isinstance(note, dict) and "tendered" in note:
            change = note.get("change")
            return CashGiven(Decimal(str(note["tendered"])),
                             None if change is None else Decimal(str(change)))
    return None
