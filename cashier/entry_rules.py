"""What a journal entry allows and how it reads to a cashier: one home for the rules every screen
and flow shares (refund, void, cancelled, the amount shown, what needs recovery, the message).

The window asks these questions; it never decides them from message text.
"""

from __future__ import annotations

from decimal import Decimal

from cashier.journal.model import Entry, Kind, Op, State

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
        if entry.op not in CHARGE_ORIGIN_OPS or entry.state not in _SETTLED or not entry.auth_code:
            return Decimal(0)
        return max(entry.approved - entry.refunded, Decimal(0))
    if entry.state not in _SETTLED or entry.kind not in _REFUNDABLE_KINDS:
        return Decimal(0)
    return max(entry.refundable, Decimal(0))


def can_refund(entry: Entry) -> bool:
    return refundable_amount(entry) > 0


def can_void(entry: Entry) -> bool:
    """A void reverses the whole payment: an approved, captured or unanswered Host API payment,
    or a Charge API payment with money left to give back (its "void" is a full refund)."""
    if is_charge_api(entry):
        return refundable_amount(entry) > 0
    return entry.invoice is not None and entry.state in (State.APPROVED, State.CAPTURED, State.UNKNOWN)


def is_cancelled(entry: Entry) -> bool:
    """The payment ended because someone cancelled it on the PIN pad (not charged)."""
    if entry.state is not State.ERROR:
        return False
    code = (entry.host_code or "").split(",")[0]
    text = (entry.message or "").upper()
    return code == "50101" or any(t in text for t in _CANCELLED_TEXTS)


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
