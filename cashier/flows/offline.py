"""Store and forward while the host is away (issue 40): every rule of it lives here.

- The till's mode is the journal's last switch (``mode_offline`` / ``mode_online`` notes): a
  manager's (the Manager screen, ``set_offline``) or the till's own (``automatic`` in the note).
  Every process on the till reads the same answer, and a restart keeps it.
- Going offline by itself (``OfflineWatch``): the gateway's own answer that its host cannot be
  reached (``HostUnreachable``), or ``[offline] failures`` connection failures and timeouts in a
  row, put LG or DCP offline (``/mode/offline``). HD and DCC have no gateway to store in: the
  card tender is refused with one line (``HOST_AWAY_NO_STORE``).
- Coming back by itself (``probe``): only from an automatic offline (a manager's switch is the
  manager's to end), by ``/mode/online``, which the gateway refuses while its host is away; once
  it is online the gateway forwards what it stored and the till settles each stored payment by
  ``GET /transactions/invoice`` (``settle_forwarded``): approved stays approved (``forwarded``),
  declined becomes ``declined_on_forward``, shown to the manager and counted apart.
- The limits (``check_tender``) are checked before anything is journaled and before the PIN pad
  is asked: one tender, everything stored, how many, the age of the oldest; no gift card, no tab,
  no keyed card while offline.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Literal

from cashier.config import OfflineOptions

# the payment's words live with the other cases the window words (re-exported here)
from cashier.entry_rules import HOST_AWAY_NO_STORE as HOST_AWAY_NO_STORE
from cashier.entry_rules import HOST_AWAY_STORING as HOST_AWAY_STORING
from cashier.errors import ValidationError
from cashier.flows.base import FlowContext, HostWatch
from cashier.host.errors import (
    HostError,
    HostNoDecision,
    HostOutcomeUnknown,
    HostRetrySafe,
    HostUnreachable,
    InvoiceNotFound,
)
from cashier.journal.model import Event, JournalError, OfflinePayment, OfflineView, State
from cashier.money import from_minor, to_minor
from cashier.redact import redact

log = logging.getLogger(__name__)

#: The processing options with a gateway (or controller) that can store payments offline.
STORING_OPTIONS = frozenset({"LG", "DCP"})
#: The actor of the till's own switches (no manager decided them).
SYSTEM = "system"
#: What a stored payment declined at the forward says: what happened and what to do.
DECLINED_ON_FORWARD_MESSAGE = ("declined when the gateway forwarded it: nothing was charged; reach "
                               "the customer and collect {amount}")
#: The oldest stored payment this close to ``max_hours`` (hours) warns on the status bar.
WARN_WITHIN_HOURS = Decimal(1)

What = Literal["sale", "giftcard", "tab"]


@dataclass(frozen=True)
class Mode:
    """The till's mode as its journal last recorded it."""

    offline: bool = False
    #: The till switched by itself (it probes, and comes back by itself).
    automatic: bool = False
    since: str | None = None
    actor: str | None = None


@dataclass(frozen=True)
class Stored:
    """The payments the gateway holds for the host (``Entry.offline == "stored"``)."""

    entries: tuple[OfflinePayment, ...] = ()
    currency: str = "USD"

    @property
    def count(self) -> int:
        return len(self.entries)

    @property
    def amount(self) -> Decimal:
        return from_minor(sum(to_minor(e.approved, self.currency) for e in self.entries),
                          self.currency)

    @property
    def oldest_at(self) -> str | None:
        return self.entries[0].created_at if self.entries else None

    def hours_left(self, max_hours: Decimal, now: datetime | None = None) -> Decimal | None:
        """Hours before the oldest stored payment reaches ``max_hours`` (None: nothing stored;
        never below zero)."""
        return None if self.oldest_at is None else _hours_left(self.oldest_at, max_hours, now)

    def near_limit(self, max_hours: Decimal, now: datetime | None = None) -> bool:
        """The status bar's warning: the oldest is within an hour of ``max_hours``."""
        left = self.hours_left(max_hours, now)
        return left is not None and left <= WARN_WITHIN_HOURS


def _hours_left(at: str, max_hours: Decimal, now: datetime | None = None) -> Decimal:
    return max(Decimal(0), max_hours - _hours_since(at, now)).quantize(Decimal("0.01"))


def _hours_since(at: str, now: datetime | None = None) -> Decimal:
    then = datetime.fromisoformat(at)
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    seconds = ((now or datetime.now(UTC)) - then).total_seconds()
    return Decimal(str(round(max(seconds, 0.0) / 3600, 4)))


async def mode(ctx: FlowContext) -> Mode:
    return _mode_of(await ctx.journal.last_mode())


def _mode_of(event: Event | None) -> Mode:
    if event is None or event.type == "mode_online":
        return Mode()
    note = event.data.get("_note") or {}
    return Mode(True, bool(note.get("automatic")), event.at, event.actor)


async def stored(ctx: FlowContext) -> Stored:
    return _stored_of(await ctx.journal.offline_view(), ctx.journal.currency)


def _stored_of(view: OfflineView, currency: str) -> Stored:
    return Stored(tuple(p for p in view.stored if p.state in (State.APPROVED, State.CAPTURED)),
                  currency)


def limits_dict(options: OfflineOptions) -> dict[str, Any]:
    return {"automatic": options.automatic, "max_sale": str(options.max_sale),
            "max_total": str(options.max_total), "max_count": options.max_count,
            "max_hours": str(options.max_hours)}


async def status(ctx: FlowContext) -> dict[str, Any]:
    """``cashier offline status``: one JSON object (the Manager screen reads the same; the window
    after every payment change, so it is one read of the journal: ``bench_offline``)."""
    view = await ctx.journal.offline_view()
    now_mode, held, declined = _mode_of(view.mode), _stored_of(view, ctx.journal.currency), view.declined
    return {
        "offline": now_mode.offline, "automatic": now_mode.automatic, "since": now_mode.since,
        "option": ctx.client.option,
        "stored": {"count": held.count, "amount": str(held.amount), "oldest_at": held.oldest_at,
                   "hours_left": _text(held.hours_left(ctx.offline.max_hours)),
                   "near_limit": held.near_limit(ctx.offline.max_hours),
                   "payments": [stored_dict(e, ctx.offline.max_hours) for e in held.entries]},
        "limits": limits_dict(ctx.offline),
        "declined_on_forward": [declined_dict(e) for e in declined],
    }


def stored_dict(entry: OfflinePayment, max_hours: Decimal, now: datetime | None = None) -> dict[str, Any]:
    """One stored payment as the manager reads it: ticket, amount, card's last four, time, and
    the hours left before it reaches ``max_hours`` (never below zero)."""
    return {"invoice": entry.invoice, "ticket": entry.ticket_id, "amount": str(entry.approved),
            "card_last4": entry.card_last4, "at": entry.created_at,
            "hours_left": str(_hours_left(entry.created_at, max_hours, now))}


def declined_dict(entry: OfflinePayment) -> dict[str, Any]:
    """A payment declined at the forward as the manager reads it: ticket, amount, card's last
    four, time, and what to do."""
    return {"invoice": entry.invoice, "ticket": entry.ticket_id, "amount": str(entry.requested),
            "card_last4": entry.card_last4, "at": entry.created_at,
            "todo": DECLINED_ON_FORWARD_MESSAGE.format(amount=entry.requested)}


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


# ---- the limits --------------------------------------------------------------------------------
async def check_tender(ctx: FlowContext, amount: Decimal, *, what: What, keyed: bool) -> None:
    """While the till is offline: refuse a tender the gateway must not store, in one line naming
    the limit (``ValidationError("offline", ...)``), before anything is journaled or the PIN pad
    asked. Offline by itself: the host is probed first, so the first tender after it answers
    again goes online (not stored). Online: nothing to check. HD and DCC (nothing to store in):
    refused for ``probe_s`` after the host was found away, then one tender asks the host again."""
    if ctx.client.option not in STORING_OPTIONS:
        if ctx.watch is not None and ctx.watch.away(ctx.offline.probe_s):
            raise ValidationError("offline", "the host cannot be reached and this till cannot "
                                             "store card payments: take cash, or a manager takes a "
                                             "manual sale with a voice authorization code")
        return
    now = await mode(ctx)
    if not now.offline:
        return
    if now.automatic and await probe(ctx):
        return  # the host is back: the first tender after it goes online, within no limit
    if what == "giftcard":
        raise ValidationError("offline", "no gift card while offline: its balance is at the host; "
                                         "take another tender")
    if what == "tab":
        raise ValidationError("offline", "no tab while offline: an authorization is not stored; "
                                         "take the payment now")
    if keyed:
        raise ValidationError("offline", "no keyed card while offline: present the card on the "
                                         "PIN pad, or take another tender")
    limits = ctx.offline
    if amount > limits.max_sale:
        raise ValidationError("offline", f"max_sale: a card tender stored offline is at most "
                                         f"{limits.max_sale}; take another tender for the rest")
    held = await stored(ctx)
    if held.count + 1 > limits.max_count:
        raise ValidationError("offline", f"max_count: {held.count} card payments are stored "
                                         f"already (at most {limits.max_count}); take another tender")
    if held.amount + amount > limits.max_total:
        raise ValidationError("offline", f"max_total: {held.amount} is stored already, at most "
                                         f"{limits.max_total} in all; take another tender")
    if held.oldest_at is not None and _hours_since(held.oldest_at) >= limits.max_hours:
        raise ValidationError("offline", f"max_hours: the oldest stored payment is {limits.max_hours} "
                                         "hours old or more; take another tender")


# ---- going offline and back --------------------------------------------------------------------
@dataclass
class OfflineWatch:
    """This process's reading of the host: connection failures and timeouts in a row. The
    flows tell it each answer (``FlowContext.watch``); the till's mode itself is the journal's."""

    failures: int = 0
    #: When the host was last found away (``time.monotonic``); None while it answers.
    away_at: float | None = None
    #: The last word about the host was that it could not be reached (the gateway's own
    #: "host unreachable", or ``[offline] failures`` in a row, or ``check_host``): the status
    #: bar says so until the host answers again (issue #39: it stayed "reachable")
    host_away: bool = False
    #: Offline by itself at most once per outage in this process (another process's switch is
    #: read from the journal).
    _switching: bool = field(default=False, repr=False)

    def answered(self) -> None:
        self.failures, self.away_at, self.host_away = 0, None, False

    def unanswered(self) -> None:
        """A question that moves no money found the host away (``check_host``): said on the
        status bar, never counted toward going offline (only a payment takes the till there)."""
        self.host_away = True

    def away(self, within_s: float) -> bool:
        """The host was found away less than ``within_s`` ago (HD and DCC refuse a card tender
        before the PIN pad meanwhile; the first one after it asks the host again)."""
        return self.away_at is not None and time.monotonic() - self.away_at < within_s

    async def stored(self, ctx: FlowContext) -> None:
        """The gateway stored a payment while this till's journal said online (another till on
        the same gateway, or a manager elsewhere, switched it): the journal follows, so the
        limits hold from the next payment and the till probes."""
        if not (await mode(ctx)).offline:
            await ctx.journal.note(None, "mode_offline", actor=SYSTEM, automatic=True,
                                   why="the gateway stored a payment: it is offline")

    async def failed(self, ctx: FlowContext, exc: HostError) -> str | None:
        """A request got no answer from the host: after enough in a row (at once for the
        gateway's own "host unreachable"), the host is away. Returns what the payment says."""
        if isinstance(exc, HostUnreachable):
            self.failures = max(self.failures + 1, ctx.offline.failures)
        elif isinstance(exc, HostRetrySafe | HostOutcomeUnknown):
            self.failures += 1
        if self.failures < ctx.offline.failures:
            return None
        self.host_away = True
        if isinstance(exc, HostRetrySafe):  # nothing reached it (a lost answer may be slowness)
            self.away_at = time.monotonic()
        if ctx.client.option not in STORING_OPTIONS:
            return HOST_AWAY_NO_STORE
        if not ctx.offline.automatic:
            return None
        if self._switching:
            return None
        self._switching = True
        try:
            return HOST_AWAY_STORING if await go_offline(ctx, redact(str(exc))[:120]) else None
        finally:
            self._switching = False


def host_reachable(connected: bool, offline_by_itself: bool, watch: HostWatch | None) -> bool:
    """THE rule for the status bar's "Host": reachable only when the connection answers, the
    till is not offline by itself (it went there because the host was away) and the last word
    the flows heard about the host was not that it was away (``OfflineWatch.host_away``)."""
    return connected and not offline_by_itself and not (watch is not None and watch.host_away)


async def check_host(ctx: FlowContext) -> bool:
    """Ask the host one question that moves no money (its merchant record): True when it
    answers (a refusal is an answer). The watch hears it (training's "Host down" switch: the
    status bar tells the truth at once, not at the next card payment)."""
    try:
        await ctx.client.merchant_info()
    except (HostRetrySafe, HostOutcomeUnknown):
        if ctx.watch is not None:
            ctx.watch.unanswered()
        return False
    except HostError:
        pass  # refused, but answered: the host is there
    if ctx.watch is not None:
        ctx.watch.answered()
    return True


async def go_offline(ctx: FlowContext, why: str) -> bool:
    """The till puts its gateway offline by itself; False when it cannot (the gateway refused:
    an LG older than 3080, the feature off), which is logged and the till stays online."""
    if (await mode(ctx)).offline:
        return True
    try:
        await ctx.client.mode_offline()
    except HostError as exc:
        log.warning("the host is away and the gateway did not go offline: %s", redact(str(exc)))
        return False
    await ctx.journal.note(None, "mode_offline", actor=SYSTEM, automatic=True, why=why)
    log.warning("the host cannot be reached: offline by itself (%s)", why)
    return True


async def probe(ctx: FlowContext) -> bool:
    """While offline by itself: ask the gateway to go online (it refuses while its host is
    away); once it is, settle what it forwarded. True when the till is online after it."""
    now = await mode(ctx)
    if not now.offline:
        return True
    if not now.automatic:
        return False  # a manager's switch: the manager ends it
    try:
        await ctx.client.mode_online()
    except HostError as exc:
        log.info("probe: the host is still away (%s)", redact(str(exc))[:120])
        return False
    await ctx.journal.note(None, "mode_online", actor=SYSTEM, automatic=True)
    if ctx.watch is not None:
        ctx.watch.answered()
    await settle_forwarded(ctx)
    return True


async def catch_up(ctx: FlowContext) -> None:
    """Recovery and the batch close: probe when offline by itself; once online, settle what
    is still stored (a crash or another process may have left it between the switch and the
    settling). Never raises: the host is asked again next time."""
    try:
        if (await mode(ctx)).offline:
            await probe(ctx)
        elif (await stored(ctx)).count:
            await settle_forwarded(ctx)
    except Exception:
        log.exception("settling stored payments failed: tried again at the next recovery")


async def settle_forwarded(ctx: FlowContext) -> dict[str, int]:
    """Once the gateway is online: ask the host about each stored payment. Approved: it stays
    (``forwarded``, the host's amount); declined: ``declined_on_forward``, never corrected
    silently. One the host cannot tell yet stays stored (the next probe, recovery or batch close
    asks again). Counts by how each ended."""
    counts = {"forwarded": 0, "declined_on_forward": 0, "still_stored": 0}
    if (await mode(ctx)).offline:
        return counts
    for entry in (await stored(ctx)).entries:
        if entry.invoice is None:
            continue
        try:
            result = await ctx.client.invoice_status(entry.invoice)
        except (HostNoDecision, InvoiceNotFound) as exc:
            log.info("stored payment %s not settled yet: %s", entry.invoice, redact(str(exc)))
            counts["still_stored"] += 1
            continue
        except HostError as exc:
            log.warning("stored payment %s: %s", entry.invoice, redact(str(exc)))
            counts["still_stored"] += 1
            continue
        current = await ctx.journal.get(entry.id)
        if current.offline != "stored":
            continue  # another process settled it meanwhile
        code = result.response_code
        total = result.amount.total if result.amount is not None else None
        try:
            if code in ("A", "C", "P") and total:
                state = current.state
                extra: dict[str, Any] = {} if state is State.CAPTURED else {"approved": total}
                await ctx.move(current, state, actor=SYSTEM, offline="forwarded",
                               response_code=code, **extra)
                counts["forwarded"] += 1
            else:
                await ctx.move(current, State.DECLINED_ON_FORWARD, actor=SYSTEM,
                               offline="forwarded", approved=Decimal(0), response_code=code or None,
                               message=DECLINED_ON_FORWARD_MESSAGE.format(amount=current.requested))
                counts["declined_on_forward"] += 1
        except JournalError as exc:  # another process moved it first
            log.info("stored payment %s: %s", entry.invoice, exc)
    return counts
