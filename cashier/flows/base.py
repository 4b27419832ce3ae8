"""The one pattern every payment flow follows: journal intent -> call -> outcome -> recovery.

``FlowContext`` carries what a flow needs (client, journal, bus, clerk, recovery policy).
``send_journaled`` runs one request for one entry: it commits SENT before the first byte, calls,
and commits the outcome; when the answer is lost it commits UNKNOWN and asks
``GET /transactions/invoice`` (``resolve``) until the host says what happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import warnings
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Literal, Protocol, Unpack

from cashier.catalog import Catalog, CatalogSource
from cashier.clerks import Action, Clerk, Roster
from cashier.config import OfflineOptions
from cashier.errors import ValidationError
from cashier.flows.events import EventBus, FlowFinished
from cashier.host.client import HostClient
from cashier.host.errors import (
    HostError,
    HostNoDecision,
    HostOutcomeUnknown,
    HostRetrySafe,
    HostTimeout,
    InvoiceNotFound,
)
from cashier.host.models.transactions import TransactionResult
from cashier.journal.aio import Journal
from cashier.journal.leases import EntryOwned
from cashier.journal.model import Entry, EntryChanges, Kind, Op, State
from cashier.journal.model import Outcome as Outcome  # the one outcome word, re-exported
from cashier.journal.model import outcome_of as outcome_of
from cashier.journal.recorder import MISMATCH_NOTE
from cashier.money import DEFAULT_MAX_TIP_PERCENT, AmountBounds
from cashier.redact import redact

log = logging.getLogger(__name__)

#: The host's longest processing time for one request, in seconds (a delay trigger of 111.99;
#: the vendor guide puts no other bound on it): "Invoice Not Found" within it, plus the client's
#: timeouts, may be a request the host is still working on.
HOST_LONGEST_S = 99.0

#: Response codes that mean the host holds an approval (``f``: approved, AVS/CSC failed; the
#: host keeps it until the POS voids it, so the journal must count it).
APPROVED_CODES = frozenset({"A", "C", "P", "f"})
DECLINED_CODES = frozenset({"D", "R", "X", "S", "I", "J"})
#: Ops that create the money (the entry had nothing approved before them).
NEW_MONEY_OPS = frozenset({Op.SALE, Op.AUTHORIZATION, Op.REFUND, Op.MANUAL_SALE,
                           Op.MANUAL_AUTHORIZATION})


#: Settles one entry whose answer was lost: ``(ctx, entry, *, trust_not_found, actor, delays_s)``.
Resolver = Callable[..., Awaitable[Entry]]
#: Kinds whose outcome ``GET /transactions/invoice`` cannot tell (gift cards ask the card's
#: balance and history, QR payments ``getqrpaymentstatus``): each has a resolver of its own
#: (``giftcards.RESOLVERS``, ``qr.RESOLVERS``), which the composition root (``cashier.runtime``)
#: passes in ``FlowContext.resolvers``, so recovery never falls back to the invoice lookup for
#: them (it would call a landed reload "not charged").
OWN_RESOLVER_KINDS = frozenset({
    *(k for k in Kind if k.value.startswith("giftcard_") and k is not Kind.GIFTCARD_SALE),
    Kind.QR,
})


def has_own_resolver(kind: Kind) -> bool:
    """The invoice lookup (and ``DELETE /transactions/invoice``) does not know ``kind``."""
    return kind in OWN_RESOLVER_KINDS


@dataclass(frozen=True)
class RecoveryPolicy:
    """How hard to ask after a lost answer.

    ``grace_s``: "Invoice Not Found" is trusted as "never landed" only when the host itself gave
    up (HTTP 504) or the request was sent at least this long ago; a younger request may still be
    in flight at the host. In-process (training) there is no flight, so the runtime sets 0.

    ``host_window_s``: the host's longest processing time (its longest delay, 99 s for the
    111.99 trigger, plus the client's connect and host timeouts). Within it "Invoice Not Found"
    means "still unknown, ask again" whatever ``grace_s`` says: no grace setting, however small,
    turns a charge into "not charged". The process that sent the request keeps asking within it.
    """

    delays_s: tuple[float, ...] = (0.0, 0.2, 0.5, 1.0, 2.0)
    grace_s: float = 10.0
    host_window_s: float = HOST_LONGEST_S + 5.0 + 40.0

    @property
    def trust_after_s(self) -> float:
        """How old a request must be before "Invoice Not Found" means it never landed."""
        return max(self.grace_s, self.host_window_s)
    void_backoff_s: tuple[float, ...] = (1.0, 5.0, 30.0, 120.0, 600.0)
    void_max_refusals: int = 5


class PinPadBusy(ValidationError):
    """The PIN pad is taken by another payment: refused before anything is journaled."""

    def __init__(self, holder: str) -> None:
        self.holder = holder
        super().__init__("PIN pad", f"is busy with {holder}: wait for it to end or cancel it, "
                                    "then start this one")


@dataclass
class PinPad:
    """The till's one PIN pad, held by one payment at a time (a second one is refused at once,
    never sent to the pad to come back as a host error journaled for $0.00)."""

    holder: str | None = None
    #: The holder reads a gift card: the wire does not say so (a gift card sale on the pad is a
    #: plain sale), so a training pad asks here which card its customer presents.
    wants_gift_card: bool = False

    @property
    def busy(self) -> bool:
        return self.holder is not None

    @contextlib.contextmanager
    def reserve(self, what: str, needed: bool = True, *, gift_card: bool = False) -> Iterator[None]:
        """Hold the pad for ``what`` while the block runs (a no-op when ``needed`` is False: a
        keyed card or a token never touches the pad); ``gift_card`` when it reads a gift card."""
        if not needed:
            yield
            return
        if self.holder is not None:
            raise PinPadBusy(self.holder)
        self.holder, self.wants_gift_card = what, gift_card
        try:
            yield
        finally:
            self.holder, self.wants_gift_card = None, False


class HostWatch(Protocol):
    """Told every answer and every failure to get one (``cashier.flows.offline.OfflineWatch``:
    the till goes offline by itself when the host is away)."""

    #: The last word about the host was that it could not be reached (the status bar says so).
    host_away: bool

    def answered(self) -> None: ...

    def unanswered(self) -> None: ...

    async def stored(self, ctx: FlowContext) -> None: ...

    def away(self, within_s: float) -> bool: ...

    async def failed(self, ctx: FlowContext, exc: HostError) -> str | None: ...


@dataclass
class FlowContext:
    client: HostClient
    journal: Journal
    bus: EventBus = field(default_factory=EventBus)
    clerk_id: int = 1
    policy: RecoveryPolicy = field(default_factory=RecoveryPolicy)
    #: The Charge API's ``JournaledChargeApi`` when this till has one (training, or ``charge_api_url``
    #: with a key); recovery finishes its entries too.
    charge_api: Any = None
    #: Which payment holds the PIN pad now (``reserve`` it around a flow that uses it).
    pinpad: PinPad = field(default_factory=PinPad)
    #: The till's clerks and manager rules; None (or a roster without clerks) asks no manager.
    roster: Roster | None = None
    #: The language the till's receipts speak (the profile's ``language``: en or es).
    receipt_language: str = "en"
    #: A tab's tip may be at most this percentage of its authorization (profile ``max_tip_percent``).
    max_tip_percent: Decimal = DEFAULT_MAX_TIP_PERCENT
    #: The clerk who signed in with their own PIN (the window); None on the command line, where
    #: a clerk number only says who works and a manager approves with a PIN each time.
    signed_in: Clerk | None = None
    #: Amounts a human can mean at this till (the profile's ``max_amount``, ``largest_note``).
    bounds: AmountBounds = field(default_factory=AmountBounds)
    #: The resolver of each kind in ``OWN_RESOLVER_KINDS``, passed by the runtime.
    resolvers: Mapping[Kind, Resolver] = field(default_factory=dict)
    #: The catalog this till sells from now (the store's newest version it pulled, or its profile's
    #: products as version 0); the runtime passes the profile's, a store pull swaps in newer ones.
    catalog: CatalogSource = field(default_factory=lambda: CatalogSource(Catalog(0, ())))
    #: The profile's ``[offline]``: store and forward while the host is away (issue 40).
    offline: OfflineOptions = field(default_factory=OfflineOptions)
    #: Told of every answer and failure (the runtime passes ``offline.OfflineWatch``).
    watch: HostWatch | None = None

    @property
    def actor(self) -> str:
        return str(self.clerk_id)

    def resolver(self, kind: Kind) -> Resolver | None:
        """``kind``'s own resolver; None when the invoice lookup tells its outcome. One the
        runtime did not pass is a wiring fault, never a fall back to the invoice lookup."""
        if not has_own_resolver(kind):
            return None
        found = self.resolvers.get(kind)
        if found is None:
            raise LookupError(f"no resolver for {kind} entries was passed to the flow context "
                              "(cashier.runtime passes them)")
        return found

    def approval(self, action: Action, amount: Decimal, manager: Clerk | None) -> Clerk | None:
        """The profile's manager rule for ``action``, checked before anything is journaled or
        sent (raises ``ManagerNeeded``); None when no manager is needed."""
        return None if self.roster is None else self.roster.approver(action, amount, manager,
                                                                     self.signed_in)

    async def journal_approval(self, approver: Clerk | None, action: Action, amount: Decimal, *,
                               entry_id: int | None = None, **about: Any) -> None:
        """A ``manager_approved`` note by the approving manager: the journal says who let it
        through (nothing when no manager was needed)."""
        if approver is not None:
            await self.journal.note(entry_id, "manager_approved", actor=str(approver.id),
                                    action=action.value, amount=str(amount), clerk=self.actor,
                                    **about)

    def changed(self, entry: Entry) -> Entry:
        """Deprecated: the journal publishes every change itself (``cashier.flows.events``).
        Kept so flows written before that still run; it returns ``entry`` and publishes nothing,
        so no change is announced twice."""
        warnings.warn("FlowContext.changed is not needed: the journal publishes every change",
                      DeprecationWarning, stacklevel=2)
        return entry

    async def move(self, entry: Entry, state: State, *, actor: str | None = None,
                   **changes: Unpack[EntryChanges]) -> Entry:
        return await self.journal.transition(entry.id, state, actor=actor or self.actor, **changes)


@dataclass(frozen=True)
class FlowResult:
    """What the window and the command line show."""

    entry: Entry
    outcome: Outcome
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        e = self.entry
        return {"invoice": e.invoice, "outcome": self.outcome, "kind": str(e.kind),
                "state": str(e.state), "requested": str(e.requested), "approved": str(e.approved),
                "tip": str(e.tip), "captured": str(e.captured), "refunded": str(e.refunded),
                "card": e.card, "authorization_code": e.auth_code, "response_code": e.response_code,
                "training": e.training, "message": self.message}


class WrapsResult:
    """For a flow's richer outcome (gift card balance, QR code) that carries a ``FlowResult``:
    its outcome word and journal entry read straight through."""

    result: FlowResult

    @property
    def outcome(self) -> Outcome:
        return self.result.outcome

    @property
    def entry(self) -> Entry:
        return self.result.entry


def finish(ctx: FlowContext, entry: Entry, message: str = "") -> FlowResult:
    result = FlowResult(entry, outcome_of(entry), message or (entry.message or ""))
    ctx.bus.publish(FlowFinished(entry, result.outcome, result.message))
    return result


def _card_fields(result: TransactionResult) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if result.card is not None:
        if result.card.number:
            out["card"] = result.card.number
        if result.card.type:
            out["card_type"] = result.card.type
        if result.token:
            out["token"] = result.token
    if result.transaction.authorization_code:
        out["auth_code"] = result.transaction.authorization_code
    return out


def _before_state(entry: Entry) -> State:
    """Where a failed follow-up op (capture, top-up, incremental) leaves the entry."""
    if entry.captured > 0:
        return State.CAPTURED
    if entry.approved > 0:
        return State.APPROVED
    return State.ERROR


@dataclass(frozen=True)
class Presented:
    """The card a request presents: the last four digits of a keyed card, a token, or neither
    (the PIN pad reads the card). A retry presents what its entry was started with."""

    last4: str | None = None
    token: str | None = None

    @classmethod
    def of(cls, masked: str | None, token: str | None) -> Presented:
        digits = "".join(c for c in (masked or "") if c.isdigit())
        return cls(digits[-4:] if len(digits) >= 4 else None, token)

    @property
    def on_pad(self) -> bool:
        return self.last4 is None and self.token is None

    def words(self) -> str:
        """How the cashier reads it: "card ..1119", "token", "the PIN pad"."""
        if self.last4 is not None:
            return f"card ..{self.last4}"
        return "a token" if self.token is not None else "the PIN pad"


def names_another_card(presented: Presented, result: TransactionResult) -> bool:
    """THE card rule: an answer names a card other than the one presented when both sides know
    it and the last four digits (or the tokens) differ. A card read on the PIN pad is whatever
    the host names."""
    theirs = "".join(c for c in ((result.card.number or "") if result.card else "") if c.isdigit())
    if presented.last4 and len(theirs) >= 4 and theirs[-4:] != presented.last4:
        return True
    return bool(presented.token and result.token and result.token != presented.token)


def whose_request(entry: Entry, result: TransactionResult, presented: Presented | None = None
                  ) -> Literal["ours", "another", "unsure"]:
    """Whether the approval the host holds under ``entry``'s invoice is ``entry``'s own request.
    A journal replaced or restored may have reused a number its predecessor used for a request
    the host never recorded, and another customer's sale then stands under it: the journal never
    takes that sale as this entry's (docs/decisions/007-recovery-and-the-host.md, "A host record of another
    request is not adopted"). Ours: the amount asked, with what the host names on top (tip, cashback,
    surcharge), or less when partly approved, on the same card when both sides know it (last four digits,
    token: ``names_another_card``). Another: a card other than the one the till keyed, a full approval for
    other than what was asked, or more than asked on a card the till gave (no PIN pad could add to it).
    Unsure: more than asked, with nothing named, on a card read on the PIN pad, whose customer may have
    chosen a tip there that this host does not name.
    ``presented``: the card this request presented (default: the entry's, as it was journaled
    before any answer)."""
    amount = result.amount
    if amount is None:
        return "ours"
    card = presented or Presented(entry.card_last4, entry.token)
    if names_another_card(card, result):
        return "another"
    total = amount.total
    added = sum((x for x in (amount.tip, amount.cashback, amount.surcharge) if x), Decimal(0))
    asked = {a for a in (entry.requested, entry.pending) if a > 0}
    had = max((*asked, entry.approved, entry.captured), default=Decimal(0))
    if not asked or total in asked or total - added in asked:
        return "ours"
    if total < had + added:  # less: a partial approval, or a tab's capture below its approval
        is_partial = result.response_code == "P" or entry.approved > 0 or entry.captured > 0
        return "ours" if is_partial else "another"
    return "unsure" if added == 0 and card.on_pad else "another"


def stored_by_gateway(result: TransactionResult) -> bool:
    """The gateway approved it by itself while offline, to forward later (``deferredAuth`` D,
    or ``authSource`` O on a sale or authorization): a stored payment (issue 40)."""
    t = result.transaction
    return (t.deferred_auth or "").upper() == "D" or (t.auth_source or "").upper() == "O"


async def apply_answer(ctx: FlowContext, entry: Entry, op: Op, result: TransactionResult, *,
                       actor: str | None = None, from_status: bool = False) -> Entry:
    """Journal what the host answered to ``op`` (or what GET /transactions/invoice reports)."""
    code = result.response_code
    total = result.amount.total if result.amount is not None else None
    tip = result.amount.tip if result.amount is not None else None
    fields = _card_fields(result)
    fields["response_code"] = code or None
    if op is Op.CAPTURE:
        flag = (result.transaction.sale_flag or "").upper()
        if code in APPROVED_CODES and (not from_status or flag == "S") and total is not None:
            extra: dict[str, Any] = {"tip": tip} if tip is not None else {}
            return await ctx.move(entry, State.CAPTURED, actor=actor, captured=total, **extra, **fields)
        return await ctx.move(entry, _before_state(entry), actor=actor,
                              message=f"capture not done (host answered {code or 'blank'})", **fields)
    if code in APPROVED_CODES and total is not None:
        extra = {"tip": tip} if tip is not None and tip > 0 else {}
        if op in (Op.SALE, Op.AUTHORIZATION) and entry.offline is None and stored_by_gateway(result):
            extra["offline"] = "stored"
        message = "AVS/CSC check failed: keep or void" if code == "f" else None
        if code == "P":
            message = f"partially approved: {total} of {entry.pending}"
        return await ctx.move(entry, State.APPROVED, actor=actor, approved=total, message=message,
                              **extra, **fields)
    if entry.approved > 0:  # a top-up refused: the approval on file stands
        return await ctx.move(entry, _before_state(entry), actor=actor,
                              message=f"additional amount not approved ({code or 'blank'})", **fields)
    if code in DECLINED_CODES:
        return await ctx.move(entry, State.DECLINED, actor=actor, **fields)
    if not code:
        return await ctx.move(entry, State.UNKNOWN, actor=actor, message="blank response code", **fields)
    return await ctx.move(entry, State.ERROR, actor=actor, message=f"host response code {code}", **fields)


#: What a payment whose request may have reached the host says when the till itself failed.
CHECKING = "outcome unknown: checking with the host"
#: What a payment says whose invoice the host holds for another request (``whose_request``).
OTHER_REQUEST = ("not charged: the host holds another request under this invoice (a number "
                 "a replaced journal reused)")
#: What a payment says whose request the host answered with another payment's approval.
NOT_OURS = ("not charged for this customer: the host answered {held}, another payment under this "
            "invoice; a manager settles it with the host")
#: What a payment says whose invoice the host holds for more than it asked, nothing named.
UNSURE_REQUEST = ("outcome unknown: the host holds this invoice for more than was asked; check it "
                  "with the host before charging again")


async def once_sent(ctx: FlowContext, entry: Entry, outcome: Awaitable[Entry]) -> Entry:
    """Once a request may have reached the host, a local failure (a full disk while journaling
    the answer, any exception) leaves the payment UNKNOWN for recovery, never "error": the
    customer may have been charged."""
    try:
        return await outcome
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        cause = redact(f"{type(exc).__name__}: {exc}")[:200]
        log.error("local failure after invoice %s was sent (%s): recovery asks the host",
                  entry.invoice, cause)
        try:
            return await ctx.move(entry, State.UNKNOWN, message=f"{CHECKING} (local failure: "
                                                                f"{cause[:120]})")
        except Exception:  # the journal cannot be written either: it still says SENT
            return dataclasses.replace(entry, state=State.SENT if entry.state is State.INTENT
                                       else entry.state, message=f"{CHECKING} ({cause[:120]})")


async def send_journaled(ctx: FlowContext, entry: Entry, op: Op,
                         send: Callable[[], Awaitable[TransactionResult]], *,
                         pending: Decimal | None = None,
                         presented: Presented | None = None) -> Entry:
    """The heart of every flow: SENT is committed before the first byte; the outcome after.
    ``presented``: the card the request presents (default: the entry's as journaled, which is
    what a new entry was started with; a retry passes what it presents)."""
    if presented is None:
        presented = Presented(entry.card_last4, entry.token)
    if entry.state is not State.SENT or entry.op is not op:
        changes: dict[str, Any] = {"op": op}
        if pending is not None:
            changes["pending"] = pending
        if presented.on_pad and entry.approved == 0 and (entry.card_last4 or entry.token):
            # a retry on the pad reads a card again: the one an earlier answer named (a decline)
            # is not this request's, and a lost answer is read against this request's card
            changes.update(card=None, token=None)
        entry = await ctx.move(entry, State.SENT, **changes)
    return await once_sent(ctx, entry, _send_and_apply(ctx, entry, op, send, presented))


async def _send_and_apply(ctx: FlowContext, entry: Entry, op: Op,
                          send: Callable[[], Awaitable[TransactionResult]],
                          presented: Presented) -> Entry:
    try:
        result = await send()
    except HostRetrySafe as exc:
        # never left: nothing charged, safe to send again with the same invoice
        away = await _host_failed(ctx, op, exc)
        return await ctx.move(entry, _before_state(entry),
                              message=away or f"not sent, safe to retry: {redact(str(exc))[:200]}")
    except HostOutcomeUnknown as exc:
        await _host_failed(ctx, op, exc)
        entry = await ctx.move(entry, State.UNKNOWN, message=f"no answer: {redact(str(exc))[:200]}",
                               host_code=_code(exc))
        host_gave_up = isinstance(exc, HostTimeout) and exc.http_status == 504
        # the till's own timeout: the host has the request and is slow. The owner keeps asking
        # while the host may still be working (it approves after the till gave up: approved)
        # (a lost connection is no sign of a slow host: recovery asks again later instead)
        slow_host = (isinstance(exc, HostTimeout) and not host_gave_up
                     and exc.short_text == "RESPONSE TIMEOUT")
        return await resolve(ctx, entry, trust_not_found=host_gave_up, patient=slow_host)
    except InvoiceNotFound as exc:
        return await ctx.move(entry, _before_state(entry), host_code=_code(exc),
                              message=f"host does not know the invoice: {redact(exc.short_text)}")
    except HostError as exc:
        return await ctx.move(entry, _before_state(entry), host_code=_code(exc),
                              message=redact(f"{exc.short_text} {exc.long_text}".strip())[:300])
    if ctx.watch is not None:
        ctx.watch.answered()
        if op in (Op.SALE, Op.AUTHORIZATION) and result.response_code in APPROVED_CODES \
                and stored_by_gateway(result):
            await _gateway_stored(ctx)
    if op in NEW_MONEY_OPS and result.response_code in APPROVED_CODES:
        whose = whose_request(entry, result, presented)
        if whose != "ours":  # the host amended a record under this number that is not ours
            return await not_ours(ctx, entry, result, whose)
    return await apply_answer(ctx, entry, op, result)


async def _gateway_stored(ctx: FlowContext) -> None:
    """The gateway stored a payment: it is offline, whatever this till's journal said (another
    till or a manager elsewhere switched it): the watch has the journal follow."""
    assert ctx.watch is not None
    try:
        await ctx.watch.stored(ctx)
    except Exception:
        log.exception("the host watch failed")


async def _host_failed(ctx: FlowContext, op: Op, exc: HostError) -> str | None:
    """The watch hears of a request the host did not answer; what the payment says when the
    host is away (a card payment only: a void or a lookup is retried as ever)."""
    if ctx.watch is None:
        return None
    try:
        said = await ctx.watch.failed(ctx, exc)
    except Exception:  # going offline must never turn a payment's outcome into a crash
        log.exception("the host watch failed")
        return None
    return said if op in (Op.SALE, Op.AUTHORIZATION) else None


def _held_words(result: TransactionResult) -> str:
    """What the host answered, in words the manager reads (never more of a card than its last
    four digits)."""
    total = result.amount.total if result.amount is not None else None
    digits = "".join(c for c in ((result.card.number or "") if result.card else "") if c.isdigit())
    card = f" on card ..{digits[-4:]}" if len(digits) >= 4 else ""
    code = result.transaction.authorization_code
    return f"approved {total}{card}" + (f" (authorization {code})" if code else "")


async def not_ours(ctx: FlowContext, entry: Entry, result: TransactionResult,
                   whose: Literal["another", "unsure"]) -> Entry:
    """An approval answered to this entry's request that is not this customer's payment (another
    card, another amount: the host amended a record another request made under this number).
    The host is the truth, so what it said is journaled (``host_mismatch``, the Manager screen
    lists it), but never as this entry's approval, and nothing is voided: a void would reverse
    the whole record, another customer's sale (docs/decisions/007-recovery-and-the-host.md, "Money and
    authority, round 4")."""
    held = _held_words(result)
    digits = "".join(c for c in ((result.card.number or "") if result.card else "") if c.isdigit())
    await ctx.journal.note(entry.id, MISMATCH_NOTE, actor=ctx.actor, invoice=entry.invoice,
                           whose=whose, response_code=result.response_code,
                           total=str(result.amount.total) if result.amount else None,
                           card_last4=digits[-4:] if len(digits) >= 4 else None,
                           auth_code=result.transaction.authorization_code)
    log.warning("invoice %s: the host answered %s, not this entry's request (%s)", entry.invoice,
                held, whose)
    if whose == "unsure":
        return await ctx.move(entry, State.UNKNOWN, message=UNSURE_REQUEST)
    return await ctx.move(entry, State.ERROR, message=NOT_OURS.format(held=held))


def _code(exc: Exception) -> str | None:
    if isinstance(exc, HostError) and exc.primary_code is not None:
        return f"{exc.primary_code},{exc.secondary_code or 0}"
    return None


def _age_s(entry: Entry) -> float:
    if not entry.sent_at:
        return float("inf")
    sent = datetime.fromisoformat(entry.sent_at)
    return (datetime.now(UTC) - sent).total_seconds()


async def claim(ctx: FlowContext, entry: Entry) -> Entry | None:
    """Take ``entry`` before settling it: None while another live process has it in flight (its
    owner settles it; recovery, a cancel or a restart never do), else the entry as it is now."""
    if not entry.unresolved:
        return entry
    try:
        return await ctx.journal.claim(entry.id)
    except EntryOwned:
        return None


async def resolve(ctx: FlowContext, entry: Entry, *, trust_not_found: bool = False,
                  actor: str | None = None, delays_s: tuple[float, ...] | None = None,
                  patient: bool = False) -> Entry:
    """Ask the host what became of an entry whose answer was lost; retry with backoff.

    Returns the entry as journaled: resolved, or still UNKNOWN when the host could not be asked
    (recovery tries again later). An entry another live process has in flight is returned as it
    is. Decision: "Invoice Not Found" for a new payment means it never landed, journaled as
    ERROR (not charged), only once the request is older than the host's longest processing time
    (``RecoveryPolicy.trust_after_s``); ``patient`` keeps asking until then.
    """
    if entry.invoice is None:
        return entry  # Charge API entries are resolved by the Charge API flows, by idempotency key
    claimed = await claim(ctx, entry)
    if claimed is None:
        return entry
    entry = claimed
    if not entry.unresolved or entry.invoice is None:
        return entry  # settled meanwhile by the process that owned it
    special = ctx.resolver(entry.kind)
    if special is not None:
        return await special(ctx, entry, trust_not_found=trust_not_found, actor=actor,
                             delays_s=delays_s)
    op = entry.op or Op.SALE
    who = actor or ctx.actor
    schedule = list(delays_s if delays_s is not None else ctx.policy.delays_s)
    while schedule:
        delay = schedule.pop(0)
        if delay:
            await asyncio.sleep(delay)
        try:
            result = await ctx.client.invoice_status(entry.invoice)
        except InvoiceNotFound:
            # an intent was never sent; a request younger than the host's longest processing
            # time may still be at work there
            young = entry.state is not State.INTENT and _age_s(entry) < ctx.policy.trust_after_s
            if young and not trust_not_found:
                if patient and not schedule:  # the host may still be working: ask again
                    schedule.append(min(2.0, max(ctx.policy.trust_after_s - _age_s(entry), 0.05)))
                continue
            if entry.state is State.INTENT:
                return await ctx.move(entry, State.ERROR, actor=who,
                                      message="never sent (the host has no such invoice)")
            if op in NEW_MONEY_OPS and entry.approved == 0:
                return await ctx.move(entry, State.ERROR, actor=who, host_code="9815,0",
                                      message="not charged: the host has no such invoice")
            return await ctx.move(entry, State.VOIDED, actor=who, host_code="9815,0",
                                  message="the host no longer knows the invoice (voided or settled)")
        except HostNoDecision:
            continue
        except HostError as exc:
            log.warning("invoice status for %s failed: %s", entry.invoice, redact(str(exc)))
            continue
        whose = whose_request(entry, result) if op in NEW_MONEY_OPS \
            and result.response_code in APPROVED_CODES else "ours"
        if whose == "another":  # the host keeps one request per invoice: ours was not charged
            log.warning("invoice %s: the host holds another request under it", entry.invoice)
            return await ctx.move(entry, State.ERROR, actor=who, message=OTHER_REQUEST)
        if whose == "unsure":  # not approved as ours, nor "not charged" (charged again after)
            if entry.state is State.UNKNOWN and entry.message == UNSURE_REQUEST:
                return entry  # asked again by every recovery: journaled once
            return await ctx.move(entry, State.UNKNOWN, actor=who, message=UNSURE_REQUEST)
        # intent/sent move straight to the host's answer: one commit per resolved entry
        return await apply_answer(ctx, entry, op, result, actor=who, from_status=True)
    if entry.state in (State.INTENT, State.SENT):
        entry = await ctx.move(entry, State.UNKNOWN, actor=who,
                               message="outcome unknown: the host could not be asked yet")
    return entry
