"""What the journal holds: entry kinds, states, the legal transitions, and the row types it returns.

Amounts are stored as integer minor units of the entry's currency and handed out as ``Decimal``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import KW_ONLY, dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any, Literal, TypedDict

from cashier.discounts import Promotion
from cashier.errors import CashierError
from cashier.money import from_minor


class JournalError(CashierError):
    """The journal refused an operation (illegal transition, unknown entry, newer schema...)."""


class Kind(StrEnum):
    """What a payment entry is. Capture, incremental and void are operations on an entry (``Op``)."""

    SALE = "sale"
    AUTHORIZATION = "authorization"
    REFUND = "refund"
    MANUAL_SALE = "manual_sale"
    MANUAL_AUTHORIZATION = "manual_authorization"
    GIFTCARD_ACTIVATE = "giftcard_activate"
    GIFTCARD_RELOAD = "giftcard_reload"
    GIFTCARD_ALLOCATE = "giftcard_allocate"
    GIFTCARD_CASHBACK = "giftcard_cashback"
    GIFTCARD_DEACTIVATE = "giftcard_deactivate"
    GIFTCARD_REACTIVATE = "giftcard_reactivate"
    GIFTCARD_SALE = "giftcard_sale"
    QR = "qr"
    CHARGE = "charge"
    CASH = "cash"


class Op(StrEnum):
    """The request last put on the wire for an entry; recovery decides by (kind, op)."""

    SALE = "sale"
    AUTHORIZATION = "authorization"
    INCREMENTAL = "incremental"
    CAPTURE = "capture"
    REFUND = "refund"
    VOID = "void"
    MANUAL_SALE = "manual_sale"
    MANUAL_AUTHORIZATION = "manual_authorization"
    GIFTCARD = "giftcard"
    QR = "qr"
    CHARGE = "charge"


class State(StrEnum):
    INTENT = "intent"          # committed, nothing sent yet (or a crash before the send)
    SENT = "sent"              # the request may be on the wire
    APPROVED = "approved"      # approved (possibly partially: approved < requested)
    DECLINED = "declined"
    ERROR = "error"            # the host answered with an error, or it never left: not charged
    UNKNOWN = "unknown"        # no answer: recovery must ask the host
    VOIDING = "voiding"        # a void job is pending
    VOIDED = "voided"
    CAPTURED = "captured"      # an authorization closed into a sale
    #: the gateway approved it by itself while the host was away (stored), and the host declined
    #: it when the gateway forwarded it: nothing was charged; the customer owes it (issue 40)
    DECLINED_ON_FORWARD = "declined_on_forward"


#: Entries recovery must finish.
UNRESOLVED = frozenset({State.INTENT, State.SENT, State.UNKNOWN, State.VOIDING})
#: The same states as an SQL list (the journal's queries).
UNRESOLVED_SQL = "('intent', 'sent', 'unknown', 'voiding')"

#: from-state -> states it may move to. A state moving to itself records a change of amounts
#: (a linked refund on an approved sale) or another attempt (unknown stays unknown).
TRANSITIONS: dict[State, frozenset[State]] = {
    State.INTENT: frozenset({State.SENT, State.ERROR, State.UNKNOWN, State.APPROVED, State.DECLINED}),
    State.SENT: frozenset({State.APPROVED, State.DECLINED, State.ERROR, State.UNKNOWN,
                           State.CAPTURED, State.VOIDED, State.SENT}),
    State.UNKNOWN: frozenset({State.APPROVED, State.DECLINED, State.ERROR, State.UNKNOWN,
                              State.CAPTURED, State.VOIDING, State.VOIDED}),
    State.APPROVED: frozenset({State.APPROVED, State.SENT, State.VOIDING, State.CAPTURED,
                               State.DECLINED_ON_FORWARD}),
    State.CAPTURED: frozenset({State.CAPTURED, State.SENT, State.VOIDING,
                               State.DECLINED_ON_FORWARD}),
    State.DECLINED: frozenset({State.SENT, State.INTENT}),
    State.ERROR: frozenset({State.SENT, State.INTENT}),
    State.VOIDING: frozenset({State.VOIDING, State.VOIDED, State.APPROVED, State.CAPTURED,
                              State.ERROR, State.UNKNOWN}),
    State.VOIDED: frozenset(),
    #: final: the host holds a decline; the money is collected from the customer, off the card
    State.DECLINED_ON_FORWARD: frozenset(),
}

#: Amounts the journal changes only in an event that moves the entry (its data names the state):
#: a transition, a correction or a void job's end. A mirror on another entry (a refund on its
#: original, a Charge API capture on its charge) changes only captured and refunded amounts.
MOVED_WITH_STATE = ("requested_minor", "approved_minor", "tip_minor", "tax_minor", "pending_minor")

#: What a correction may do (``JournalRecorder.correct``): no step of a payment's life, but the
#: journal's record set to what the host holds (the host is the truth, later too). Not charged ->
#: charged, and charged -> not charged (voided, declined or in error at the host).
CORRECTIONS: dict[State, frozenset[State]] = {
    State.ERROR: frozenset({State.APPROVED, State.CAPTURED}),
    State.DECLINED: frozenset({State.APPROVED, State.CAPTURED}),
    State.VOIDED: frozenset({State.APPROVED, State.CAPTURED}),
    State.DECLINED_ON_FORWARD: frozenset({State.APPROVED, State.CAPTURED}),
    State.APPROVED: frozenset({State.VOIDED, State.DECLINED, State.ERROR}),
    State.CAPTURED: frozenset({State.VOIDED, State.DECLINED, State.ERROR}),
}

#: Kinds the Host API numbers by invoice; the others (Charge API) are keyed by idempotency key.
INVOICED_KINDS = frozenset(k for k in Kind if k not in (Kind.CHARGE, Kind.CASH))

#: Actors written on every event besides a clerk or manager id.
SYSTEM_ACTORS = frozenset({"recovery", "system"})


def check_transition(current: State, new: State) -> None:
    if new not in TRANSITIONS[current]:
        raise JournalError(f"state: cannot move an entry from {current} to {new}")


@dataclass(frozen=True, slots=True)
class Entry:
    """The current state of one payment (the projection row).

    Each column holds one meaning (journal v5): ``auth_code`` the host's authorization code,
    ``token`` a card token, and the Charge API's ids their own fields (``charge_id``,
    ``refund_id``, ``payment_link_id``, ``customer_id``). For a Charge API entry, ``auth_code``
    and ``token`` still read as before v5 (its charge or refund id; the link, customer or charge
    it referred to) so readers not yet moved keep working; new code reads the exact fields.
    """

    id: int
    till_id: str
    kind: Kind
    state: State
    op: Op | None
    invoice: str | None
    idempotency_key: str | None
    original_invoice: str | None
    currency: str
    requested: Decimal
    approved: Decimal
    tip: Decimal
    tax: Decimal
    captured: Decimal
    refunded: Decimal
    pending: Decimal
    card: str | None
    card_last4: str | None
    card_type: str | None
    token: str | None
    auth_code: str | None
    response_code: str | None
    host_code: str | None
    message: str | None
    reversal_reason: str | None
    training: bool
    clerk: str | None
    created_at: str
    updated_at: str
    sent_at: str | None
    business_date: str
    batch_no: int
    attempts: int
    #: The Charge API charge this entry made (charge, authorization) or moved (capture, refund).
    charge_id: str | None = None
    #: The Charge API refund a refund entry made.
    refund_id: str | None = None
    #: The payment link a Charge API charge was paid through.
    payment_link_id: str | None = None
    #: The Charge API customer whose default card was charged.
    customer_id: str | None = None
    #: The ticket this payment belongs to (None: a payment outside any ticket).
    ticket_id: int | None = None
    #: Store and forward: ``stored`` (the gateway approved it by itself, the host has not
    #: settled it yet), ``forwarded`` (settled by the host since); None: the host approved it.
    offline: str | None = None

    @property
    def unresolved(self) -> bool:
        return self.state in UNRESOLVED

    @property
    def partial(self) -> bool:
        return self.state is State.APPROVED and Decimal(0) < self.approved < self.requested

    @property
    def refundable(self) -> Decimal:
        base = self.captured if self.kind is Kind.AUTHORIZATION else self.approved
        return base - self.refunded

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-able view; amounts as strings so no float ever appears."""
        out: dict[str, Any] = {}
        for name in self.__slots__:
            value = getattr(self, name)
            out[name] = str(value) if isinstance(value, Decimal | StrEnum) else value
        return out


@dataclass(frozen=True, slots=True)
class Event:
    id: int
    entry_id: int | None
    at: str
    actor: str
    type: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OfflinePayment:
    """A payment stored offline, or one declined at the forward, with only what the offline
    status shows (issue 40): the window reads it after every payment change, and a whole
    ``Entry`` per row cost about 70 µs."""

    id: int
    invoice: str | None
    ticket_id: int | None
    state: State
    requested: Decimal
    approved: Decimal
    card_last4: str | None
    created_at: str


@dataclass(frozen=True, slots=True)
class OfflineView:
    """The offline status in one read: the till's last switch, the payments stored (oldest
    first) and those declined at the forward."""

    mode: Event | None
    stored: tuple[OfflinePayment, ...]
    declined: tuple[OfflinePayment, ...]


@dataclass(frozen=True, slots=True)
class Job:
    """A durable job (a void) retried until the host confirms it."""

    id: int
    entry_id: int
    kind: str
    reason: str
    state: str
    attempts: int
    next_at: str
    last_error: str | None
    created_at: str
    created_by: str


@dataclass(frozen=True, slots=True)
class Totals:
    """Approved money per bucket in one batch (0 = the open batch), by currency."""

    batch_no: int
    buckets: dict[tuple[str, str], tuple[int, Decimal]]  # (bucket, currency) -> (count, amount)
    unresolved: int

    def amount(self, bucket: str, currency: str = "USD") -> Decimal:
        return self.buckets.get((bucket, currency), (0, Decimal(0)))[1]

    def count(self, bucket: str, currency: str = "USD") -> int:
        return self.buckets.get((bucket, currency), (0, Decimal(0)))[0]


@dataclass(frozen=True, slots=True)
class ClockMoved:
    """The wall clock jumped more than ``recorder.CLOCK_JUMP_S`` either way (journaled once as
    ``clock_moved``): the journal publishes it for the status bar; money keeps the journal's time."""

    by_s: int  # signed: negative when the clock went back
    clock: str  # the wall clock's time then
    journal: str | None  # the journal's last time then

    @property
    def back(self) -> bool:
        return self.by_s < 0

    @property
    def span(self) -> str:
        """How far, in days, hours and minutes: "1 d 2 h", "1 h 05 min", "4 min"."""
        minutes = abs(self.by_s) // 60
        days, rest = divmod(minutes, 24 * 60)
        hours, mins = divmod(rest, 60)
        if days:
            return f"{days} d {hours} h"
        return f"{hours} h {mins:02d} min" if hours else f"{mins} min"

    @property
    def words(self) -> str:
        """One line for the command line and the logs (the window words it in its language)."""
        return f"the clock moved {'back' if self.back else 'forward'} {self.span}"


@dataclass(frozen=True, slots=True)
class DrawerMoved:
    """Published after a drawer move is committed: float, pay_in, pay_out, no_sale, kick, count,
    close (``type``, as the event ``drawer_<type>`` the journal holds)."""

    session_id: int
    type: str
    amount: Decimal
    clerk: str
    entry_id: int | None = None


def money(minor: int | None, currency: str) -> Decimal:
    return from_minor(int(minor or 0), currency)


@dataclass(frozen=True, slots=True)
class LineRefund:
    """The ticket lines a refund gives back (their ids). The refunds of one command share them:
    ``group`` is the first refund's entry id (None: this refund is the first), so a command's
    second tender may carry the lines its first one took."""

    lines: tuple[int, ...]
    group: int | None = None


@dataclass(frozen=True, slots=True)
class NewEntry:
    """What ``EntryRecorder.create`` journals as an intent: one typed value, checked there (the
    kind and the amount asked first, as a payment is named; the rest by name).

    ``sent=True`` also records that the request is about to go (one commit less on the hot
    path); ``ticket_id`` makes it a tender (or a refund) of that ticket; ``line_refund`` the
    ticket lines a refund gives back, taken in the same transaction."""

    kind: Kind | str
    requested: Decimal
    _: KW_ONLY
    actor: str
    currency: str | None = None
    tip: Decimal | None = None
    tax: Decimal | None = None
    invoice: str | None = None
    idempotency_key: str | None = None
    original_invoice: str | None = None
    card: str | None = None
    token: str | None = None
    clerk: str | None = None
    message: str | None = None
    op: Op | str | None = None
    sent: bool = False
    charge_id: str | None = None
    payment_link_id: str | None = None
    customer_id: str | None = None
    ticket_id: int | None = None
    line_refund: LineRefund | None = None


class EntryChanges(TypedDict, total=False):
    """The fields a transition, a correction or a void job's end may change on an entry, by name:
    amounts as Decimals (stored as minor units), the card masked and the token encoded on the way
    in (``EntryRecorder._columns`` checks each at run time too)."""

    requested: Decimal | None
    approved: Decimal | None
    tip: Decimal | None
    tax: Decimal | None
    captured: Decimal | None
    refunded: Decimal | None
    pending: Decimal | None
    card: str | None
    token: str | None
    op: Op | str | None
    original_invoice: str | None
    card_type: str | None
    auth_code: str | None
    response_code: str | None
    host_code: str | None
    message: str | None
    clerk: str | None
    reversal_reason: str | None
    charge_id: str | None
    refund_id: str | None
    payment_link_id: str | None
    customer_id: str | None
    attempts: int
    batch_no: int
    offline: str | None


@dataclass(frozen=True, slots=True)
class LineSold:
    """What a ticket line was sold as (issue #37), journaled with it so a price or rate changed
    later never changes it: the catalog's sku and version (None: a typed line), the tax class and
    its rate in percent (None: the till's default class at the ticket's rate), the modifiers'
    names (their price changes are in the line's unit price)."""

    sku: str | None = None
    catalog_version: int | None = None
    tax_class: str | None = None
    tax_rate: Decimal | None = None
    modifiers: tuple[str, ...] = ()
    #: the product's category (what a promotion covers; issue #38)
    category: str | None = None
    #: a price override (issue #38): the catalog's price typed over, the reason and the manager
    list_price: Decimal | None = None
    override_reason: str | None = None
    override_by: str | None = None


@dataclass(frozen=True, slots=True)
class TicketDiscount:
    """A cashier's discount on a ticket (issue #38): on line ``line_id`` (None: the ticket), by
    ``kind`` (percent|amount) of ``value``, for ``reason``, given by ``clerk``, approved by
    ``approved_by`` (None: within the clerk's limit)."""

    id: int
    line_id: int | None
    kind: str
    value: Decimal
    reason: str
    clerk: str | None = None
    approved_by: str | None = None


@dataclass(frozen=True, slots=True)
class TicketLine:
    id: int
    name: str
    quantity: int
    unit_price: Decimal
    #: the catalog's sku and version the line was sold from (None: a typed line)
    sku: str | None = None
    catalog_version: int | None = None
    #: its tax class and rate (percent); None on a line journaled before tax classes (issue #37):
    #: the ticket's one rate, in the default class
    tax_class: str | None = None
    tax_rate: Decimal | None = None
    modifiers: tuple[str, ...] = ()
    category: str | None = None
    #: the catalog's unit price when a price was typed over it (issue #38), the reason and who
    #: approved it
    list_price: Decimal | None = None
    override_reason: str | None = None
    override_by: str | None = None

    @property
    def amount(self) -> Decimal:
        return self.unit_price * self.quantity

    @property
    def label(self) -> str:
        """The line as a screen shows it in one row: its name, then its modifiers
        (``Latte large + Extra shot, No sugar``)."""
        return f"{self.name} + {', '.join(self.modifiers)}" if self.modifiers else self.name


@dataclass(frozen=True, slots=True)
class TicketRecord:
    """One ticket as the journal holds it: its row, live lines, entries and cash notes."""

    id: int
    state: str
    currency: str
    tax_rate: Decimal
    tax_included: bool
    tip_mode: str
    tip: Decimal
    tip_asked: bool
    training: bool
    clerk: str | None
    created_at: str
    closed_at: str | None
    lines: tuple[TicketLine, ...]
    entries: tuple[Entry, ...]
    #: entry id -> (tendered, change) for cash tenders
    cash: dict[int, tuple[Decimal, Decimal]]
    #: refund entry id -> the ids of the lines it gives back (``LINES_NOTE``)
    line_refunds: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: the cashier's discounts (issue #38), in the order given
    discounts: tuple[TicketDiscount, ...] = ()
    #: the promotions the ticket prices itself with: the catalog's in force when it started
    promotions: tuple[Promotion, ...] = ()
    #: cash rounding (issue #38): what a cash tender's rounding added (negative: took off)
    rounding: Decimal = Decimal(0)
    #: The ``Ticket`` read model of this record once made (``Ticket.of``): the record never
    #: changes, so the write's published ticket and the session's are made once, not per reader.
    view: list[Any] = field(default_factory=list, init=False, repr=False, compare=False)
    #: The record this one was ``changed`` from, until this one's read model is made: what the
    #: change left as it was is not worked out again (the pricing of a long ticket's lines when
    #: a line is added). One record back at most: a record's link goes when one is made from it.
    came_from: list[TicketRecord] = field(default_factory=list, init=False, repr=False,
                                          compare=False)

    def changed(self, **changes: Any) -> TicketRecord:
        """This record with ``changes`` (its fields), remembering which record it was changed
        from (``came_from``)."""
        record = dataclasses.replace(self, **changes)
        self.came_from.clear()
        record.came_from.append(self)
        return record

    def take_came_from(self) -> TicketRecord | None:
        """The record this one was changed from, once (the read model takes it as it is made)."""
        try:
            return self.came_from.pop()
        except IndexError:  # never changed from one, or taken (another thread made it too)
            return None


@dataclass(frozen=True, slots=True)
class TicketWritten:
    """A committed write changed ticket ``ticket_id`` (its row, lines, or a tender entry or note);
    the journal publishes the ticket as it now reads (``TicketChanged``)."""

    ticket_id: int


#: The one outcome word every flow, the window and the command line show (``outcome_of``): the
#: entry's state, with intent, sent and unknown all "unknown" (the till is still finding out).
Outcome = Literal["approved", "declined", "error", "unknown", "voided", "voiding", "captured",
                  "declined_on_forward"]


def outcome_of(entry: Entry) -> Outcome:
    state = entry.state
    if state in (State.INTENT, State.SENT, State.UNKNOWN):
        return "unknown"
    return state.value  # type: ignore[return-value]


#: What a committed write changed besides entries, in order, for the journal's one publisher
#: (``Datastore.take_changes``; the async journal publishes a written ticket as ``TicketChanged``).
Change = TicketWritten | DrawerMoved | ClockMoved
