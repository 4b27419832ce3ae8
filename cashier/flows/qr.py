"""QR payments (HD, LG): get a code, show it, poll until the customer pays, cancel on request.

A QR payment is a money movement: the intent (invoice, amount) is journaled before
``getqrcode`` goes, the code is journaled (a note) before it is shown, and every outcome after.
``GET /transactions/invoice`` does not know QR payments, so a lost answer and recovery ask
``getqrpaymentstatus`` with the journaled code (``resolve_qr``, in ``RESOLVERS``, which the
runtime passes to the flows).

Journal states: paid -> approved; cancelled before payment -> voided (approved 0, response C: the
code is dead, nothing was taken); paid then cancelled -> voided with the amount and response T (a
reversal). A cancel is journaled (sent, op void) before ``cancelqrpayment`` goes.

The window shows the code from the ``QrShown`` event and follows ``QrStatusChanged``. On LG the
code also goes to the PIN pad as a stored form (decision: ``form.type: qrDisplay`` is a device
controller form, and QR payments exist on HD and LG only; see docs/decisions/008-gift-cards-and-qr.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from cashier.entry_rules import QR_EXPIRED
from cashier.errors import ValidationError
from cashier.flows.base import (
    FlowContext,
    FlowResult,
    Resolver,
    WrapsResult,
    claim,
    finish,
    outcome_of,
)
from cashier.flows.events import QrShown as QrShown  # re-exported: published here
from cashier.flows.events import QrStatusChanged as QrStatusChanged
from cashier.flows.giftcards import require
from cashier.host.errors import (
    HostError,
    HostNoDecision,
    HostOutcomeUnknown,
    HostProtocolError,
    HostRetrySafe,
    HostUnavailable,
)
from cashier.host.models.common import Amount
from cashier.host.models.devices import ChargeApiForm, FormItem
from cashier.host.models.qr import QrStatusResult
from cashier.journal.model import Entry, Kind, NewEntry, Op, State
from cashier.money import check_tax
from cashier.redact import redact
from cashier.text import clean_text

log = logging.getLogger(__name__)

CODE_NOTE = "qr_code"
#: Stored form on an LG PIN pad that shows a QR code from its ``QR`` item (decision).
DEFAULT_PAD_FORM = "QRPAY"
#: Lost ``getqrcode`` answers retried on the same invoice and amount (the host answers the same
#: pending code), before the payment is left UNKNOWN for recovery.
CODE_ATTEMPTS = 3


@dataclass(frozen=True)
class QrPolling:
    """How the status is polled: ``first_s`` then growing by ``factor`` up to ``max_s``; after
    ``wait_s`` without payment the code is cancelled."""

    first_s: float = 0.5
    factor: float = 1.5
    max_s: float = 3.0
    wait_s: float = 120.0

    def __post_init__(self) -> None:
        if not 0 < self.first_s <= self.max_s:
            raise ValidationError("poll", "first_s must be more than 0 and at most max_s")
        if self.factor < 1:
            raise ValidationError("poll", "factor must be at least 1")
        if not 0 < self.wait_s <= 3600:
            raise ValidationError("wait", "must be more than 0 and at most 3600 seconds")

    def delays(self) -> Iterator[float]:
        delay = self.first_s
        while True:
            yield delay
            delay = min(delay * self.factor, self.max_s)


@dataclass(frozen=True)
class QrResult(WrapsResult):
    result: FlowResult
    code: str | None = None
    host_status: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out = self.result.as_dict()
        out["qr_code"] = self.code
        if self.host_status is not None:
            out["host_status"] = self.host_status
        return out


def _status(result: QrStatusResult) -> str:
    code = result.response_code
    return {"A": "paid", "C": "cancelled", "T": "reversed"}.get(code, "pending" if not code else "unknown")


def _text(exc: Exception) -> str:
    if isinstance(exc, HostError):
        return redact(f"{exc.short_text} {exc.long_text}".strip())[:300]
    return redact(str(exc))[:200]


def _check_amount(ctx: FlowContext, value: Decimal, name: str, *, allow_zero: bool = False) -> Decimal:
    return ctx.bounds.parse(value, ctx.journal.currency, name, allow_zero=allow_zero)


async def _code_of(ctx: FlowContext, entry: Entry) -> tuple[str | None, datetime | None]:
    for event in reversed(await ctx.journal.events(entry.id)):
        if event.type == CODE_NOTE:
            note = event.data.get("_note", {})
            expires = note.get("expires_at")
            return note.get("code"), datetime.fromisoformat(expires) if expires else None
    return None, None


async def _ask_code(ctx: FlowContext, entry: Entry) -> str:
    """``getqrcode`` on the entry's invoice and amount; a retry answers the same pending code."""
    amount = Amount(total=entry.requested, tax=entry.tax)
    last: Exception | None = None
    for attempt in range(CODE_ATTEMPTS):
        if attempt:
            await asyncio.sleep(min(ctx.policy.delays_s[min(attempt, len(ctx.policy.delays_s) - 1)], 2.0))
        try:
            result = await ctx.client.qr_get_code(invoice=str(entry.invoice), amount=amount)
        except HostOutcomeUnknown as exc:
            last = exc
            continue
        if result.qr_code is None or not result.qr_code.value:
            raise HostProtocolError("getqrcode answered no qrCode.value")
        return clean_text(result.qr_code.value)  # shown, journaled and printed: host's text
    assert last is not None
    raise last


# ---- the payment -------------------------------------------------------------------------------
async def pay(ctx: FlowContext, amount: Decimal, *, tax: Decimal = Decimal(0),
              polling: QrPolling | None = None, cancel: asyncio.Event | None = None,
              pad_form: str | None = DEFAULT_PAD_FORM, ticket_id: int | None = None) -> QrResult:
    """Take ``amount`` by QR code. Set ``cancel`` (the cashier's Cancel) to end the wait: the code
    is cancelled at the host (or, if the customer paid meanwhile, reversed)."""
    require(ctx, "qr_get_code")
    amount = _check_amount(ctx, amount, "amount")
    tax = check_tax(amount, _check_amount(ctx, tax, "tax", allow_zero=True))
    if pad_form is not None and not 1 <= len(pad_form) <= 12:
        raise ValidationError("pad_form", "must be a stored form name of 1 to 12 characters")
    polling = polling or QrPolling()
    on_pad = pad_form is not None and ctx.client.option == "LG"
    with ctx.pinpad.reserve(f"a QR payment of {amount}", on_pad):
        return await _pay(ctx, amount, tax, polling, cancel, pad_form, ticket_id)


async def _pay(ctx: FlowContext, amount: Decimal, tax: Decimal, polling: QrPolling,
               cancel: asyncio.Event | None, pad_form: str | None, ticket_id: int | None) -> QrResult:
    entry = await ctx.journal.create(NewEntry(Kind.QR, amount, actor=ctx.actor, tax=tax, op=Op.QR,
                                     clerk=ctx.actor, sent=True, ticket_id=ticket_id))
    inv = str(entry.invoice)
    try:
        code = await _ask_code(ctx, entry)
    except HostRetrySafe as exc:
        entry = await ctx.move(entry, State.ERROR, message=f"not sent, safe to retry: {_text(exc)}")
        return QrResult(finish(ctx, entry))
    except HostOutcomeUnknown as exc:
        entry = await ctx.move(entry, State.UNKNOWN, message=f"no QR code came back: {_text(exc)}")
        return QrResult(finish(ctx, entry))
    except HostError as exc:
        entry = await ctx.move(entry, State.ERROR, message=_text(exc),
                               host_code=f"{exc.primary_code},{exc.secondary_code or 0}")
        return QrResult(finish(ctx, entry))
    expires = datetime.now(UTC) + timedelta(seconds=polling.wait_s)
    await ctx.journal.note(entry.id, CODE_NOTE, actor=ctx.actor, code=code,
                           expires_at=expires.isoformat(timespec="milliseconds"))
    ctx.bus.publish(QrShown(entry.id, inv, code, amount))
    ctx.bus.publish(QrStatusChanged(entry.id, inv, "pending"))
    pad = show_on_pad(ctx, code, pad_form)
    try:
        entry = await _poll(ctx, entry, code, polling, cancel)
    finally:
        await _clear_pad(ctx, pad)
    return QrResult(finish(ctx, entry), code)


def show_on_pad(ctx: FlowContext, code: str, form: str | None) -> asyncio.Task[Any] | None:
    """LG: the stored form shows the code; it waits on the pad, so it runs beside the polling."""
    if ctx.client.option != "LG" or form is None or len(code) > 200:
        return None
    shown = ChargeApiForm(name=form, items=[FormItem(key="QR", value=code)])
    return asyncio.ensure_future(ctx.client.device_process_form(shown))


async def _clear_pad(ctx: FlowContext, task: asyncio.Task[Any] | None) -> None:
    if task is None:
        return
    if not task.done():
        with contextlib.suppress(HostError, HostUnavailable, HostProtocolError):
            await ctx.client.device_reset()  # takes the code off the pad
    try:
        await asyncio.wait_for(task, 5.0)
    except (HostError, TimeoutError) as exc:
        log.info("QR code on the PIN pad ended: %s", _text(exc))  # the window showed it anyway


async def _poll(ctx: FlowContext, entry: Entry, code: str, polling: QrPolling,
                cancel: asyncio.Event | None) -> Entry:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + polling.wait_s
    inv = str(entry.invoice)
    seen = "pending"
    why = QR_EXPIRED
    for delay in polling.delays():
        remaining = deadline - loop.time()
        if remaining <= 0:
            break
        if cancel is not None:
            try:
                await asyncio.wait_for(cancel.wait(), min(delay, remaining))
                why = "cancelled by the cashier"
                break
            except TimeoutError:
                pass
        else:
            await asyncio.sleep(min(delay, remaining))
        try:
            result = await ctx.client.qr_payment_status(code)
        except HostError as exc:
            log.info("QR status for %s not read: %s", inv, _text(exc))  # a read: ask again
            continue
        status = _status(result)
        if status != seen:
            seen = status
            ctx.bus.publish(QrStatusChanged(entry.id, inv, status))
        if status in ("paid", "cancelled", "reversed"):
            fresh = await ctx.journal.get(entry.id)
            if not fresh.unresolved:  # another process (cashier qr cancel) finished it
                return fresh
            return await _record(ctx, fresh, result, status)
    return await _cancel_code(ctx, entry, code, why)


async def _record(ctx: FlowContext, entry: Entry, result: QrStatusResult, status: str, *,
                  actor: str | None = None) -> Entry:
    fields: dict[str, Any] = {"response_code": result.response_code or None}
    if result.card is not None:
        if result.card.number:
            fields["card"] = result.card.number
        if result.card.type:
            fields["card_type"] = result.card.type
        if result.token and len(result.token) <= 64:
            fields["token"] = result.token
    if result.transaction.authorization_code:
        fields["auth_code"] = result.transaction.authorization_code
    total = result.amount.total if result.amount is not None and result.amount.total else entry.requested
    if status == "paid":
        return await ctx.move(entry, State.APPROVED, actor=actor, op=Op.QR, approved=total, **fields)
    if status == "reversed":
        return await ctx.move(entry, State.VOIDED, actor=actor, approved=total,
                              message="paid, then cancelled: reversed at the host", **fields)
    return await ctx.move(entry, State.VOIDED, actor=actor, message="QR code cancelled before payment: "
                          "not charged", **fields)


async def _cancel_code(ctx: FlowContext, entry: Entry, code: str, why: str, *,
                       actor: str | None = None) -> Entry:
    """Journal the cancel (sent, op void), send ``cancelqrpayment``, journal what it did."""
    # an UNKNOWN entry stays unknown while its cancel is on the wire (no unknown -> sent)
    target = State.UNKNOWN if entry.state is State.UNKNOWN else State.SENT
    entry = await ctx.move(entry, target, actor=actor, op=Op.VOID, message=f"cancelling: {why}")
    ctx.bus.publish(QrStatusChanged(entry.id, str(entry.invoice), "cancelling", why))
    try:
        result = await ctx.client.qr_cancel(code)
    except HostNoDecision as exc:
        entry = await ctx.move(entry, State.UNKNOWN, actor=actor, message=f"no answer to the cancel: "
                               f"{_text(exc)}")
        return await resolve_qr(ctx, entry, actor=actor)
    except HostError as exc:
        # e.g. 9870,6 already cancelled: the status says what the code really is
        log.info("QR cancel for %s refused: %s", entry.invoice, _text(exc))
        return await resolve_qr(ctx, entry, actor=actor)
    status = {"C": "cancelled", "T": "reversed"}.get(result.response_code)
    if status is None:
        return await resolve_qr(ctx, entry, actor=actor)
    ctx.bus.publish(QrStatusChanged(entry.id, str(entry.invoice), status, why))
    if status == "reversed":
        try:  # the card and amount of the payment being reversed, for the journal
            paid = await ctx.client.qr_payment_status(code)
            return await _record(ctx, entry, paid, "reversed", actor=actor)
        except HostError:
            return await ctx.move(entry, State.VOIDED, actor=actor, approved=entry.requested,
                                  response_code="T", message="paid, then cancelled: reversed at the host")
    return await ctx.move(entry, State.VOIDED, actor=actor, response_code="C",
                          message=f"QR code cancelled before payment ({why}): not charged")


# ---- status, cancel, resolution ----------------------------------------------------------------
async def _qr_entry(ctx: FlowContext, invoice: str) -> Entry:
    entry = await ctx.journal.by_invoice(invoice)
    if entry is None:
        raise ValidationError("invoice", "is not in this till's journal")
    if entry.kind is not Kind.QR:
        raise ValidationError("invoice", f"is a {entry.kind}, not a QR payment")
    return entry


async def status(ctx: FlowContext, invoice: str) -> QrResult:
    """What became of a QR payment: unfinished entries are resolved, finished ones reported with
    the host's current status beside the journal's (no journal change)."""
    require(ctx, "qr_payment_status")
    entry = await _qr_entry(ctx, invoice)
    code, _ = await _code_of(ctx, entry)
    if entry.unresolved:
        entry = await resolve_qr(ctx, entry)
        code, _ = await _code_of(ctx, entry)
        return QrResult(FlowResult(entry, outcome_of(entry), entry.message or ""), code)
    host_status = None
    if code is not None:
        try:
            host_status = _status(await ctx.client.qr_payment_status(code))
        except HostError as exc:
            host_status = f"not read: {_text(exc)[:80]}"
    return QrResult(FlowResult(entry, outcome_of(entry), entry.message or ""), code, host_status)


async def cancel(ctx: FlowContext, invoice: str) -> QrResult:
    """Cancel a QR payment: an unpaid code dies, a paid one is reversed (response T)."""
    require(ctx, "qr_cancel")
    entry = await _qr_entry(ctx, invoice)
    if entry.unresolved:
        entry = await ctx.journal.claim(entry.id)  # EntryOwned while its sender waits on it
    if entry.state is State.VOIDED:
        return QrResult(finish(ctx, entry, "already cancelled"))
    if entry.state not in (State.APPROVED, State.SENT, State.UNKNOWN):
        raise ValidationError("invoice", f"is {entry.state}: there is no live QR payment to cancel")
    code, _ = await _code_of(ctx, entry)
    if code is None:
        entry = await resolve_qr(ctx, entry)
        return QrResult(finish(ctx, entry))
    entry = await _cancel_code(ctx, entry, code, "cancelled by the cashier")
    return QrResult(finish(ctx, entry), code)


async def resolve_qr(ctx: FlowContext, entry: Entry, *, actor: str | None = None,
                     delays_s: tuple[float, ...] | None = None, **_: Any) -> Entry:
    """Settle an unfinished QR entry with ``getqrpaymentstatus``.

    A code nobody is showing any more (past its wait, recovered after a lost answer, or one the
    cashier wanted cancelled) is cancelled here, so it cannot be paid behind the till's back.
    """
    who = actor or ctx.actor
    claimed = await claim(ctx, entry)
    if claimed is None:
        return entry  # another live process shows this code and waits on it
    entry = claimed
    if entry.state is State.INTENT:
        return await ctx.move(entry, State.ERROR, actor=who, message="never sent")
    if entry.state not in (State.SENT, State.UNKNOWN):
        return entry
    code, expires = await _code_of(ctx, entry)
    recovered = False
    if code is None:
        try:
            code = await _ask_code(ctx, entry)
        except HostNoDecision as exc:
            return await _still_unknown(ctx, entry, who, f"the host could not be asked ({_text(exc)})")
        except HostError as exc:
            return await _still_unknown(ctx, entry, who, f"its code was lost and the host refuses a "
                                        f"new one ({_text(exc)})")
        await ctx.journal.note(entry.id, CODE_NOTE, actor=who, code=code, recovered=True)
        recovered = True
    result: QrStatusResult | None = None
    for delay in delays_s if delays_s is not None else ctx.policy.delays_s:
        if delay:
            await asyncio.sleep(delay)
        try:
            result = await ctx.client.qr_payment_status(code)
            break
        except HostNoDecision:
            continue
        except HostError as exc:
            log.warning("QR status for %s failed: %s", entry.invoice, _text(exc))
            continue
    if result is None:
        return await _still_unknown(ctx, entry, who, "the host could not be asked yet")
    state = _status(result)
    wants_cancel = entry.op is Op.VOID
    if state in ("cancelled", "reversed"):
        return await _record(ctx, entry, result, state, actor=who)
    if state == "paid":
        if wants_cancel:  # the cashier's cancel did not land: finish it (a reversal)
            return await _cancel_code(ctx, entry, code, "cancel retried by recovery", actor=who)
        return await _record(ctx, entry, result, "paid", actor=who)
    expired = expires is None or datetime.now(UTC) >= expires
    if state == "pending" and (wants_cancel or recovered or expired):
        return await _cancel_code(ctx, entry, code, "nobody is showing the code any more", actor=who)
    if entry.state is State.UNKNOWN:
        return await ctx.move(entry, State.UNKNOWN, actor=who, message="the customer may still pay")
    return entry


async def _still_unknown(ctx: FlowContext, entry: Entry, who: str, why: str) -> Entry:
    return await ctx.move(entry, State.UNKNOWN, actor=who, message=f"outcome unknown: {why}")


#: The kind ``resolve_qr`` settles (``base.OWN_RESOLVER_KINDS``).
RESOLVERS: dict[Kind, Resolver] = {Kind.QR: resolve_qr}

