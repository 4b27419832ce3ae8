"""Voids as durable jobs, and recovery: finishing every entry a lost answer or a crash left open.

A void is journaled (entry VOIDING + a job row, one transaction) before ``DELETE
/transactions/invoice`` is sent, and retried until the host confirms, across restarts.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from cashier.clerks import Action, Clerk
from cashier.entry_rules import void_refusal
from cashier.errors import ValidationError
from cashier.flows import offline
from cashier.flows.base import (
    APPROVED_CODES,
    DECLINED_CODES,
    FlowContext,
    FlowResult,
    _age_s,
    _card_fields,
    claim,
    finish,
    has_own_resolver,
    resolve,
    whose_request,
)
from cashier.flows.events import Progress
from cashier.host.errors import HostError, HostNoDecision, InvoiceNotFound
from cashier.host.models.transactions import TransactionResult
from cashier.journal.leases import EntryOwned
from cashier.journal.model import Entry, Job, JournalError, Kind, State
from cashier.journal.ticket_model import paid_in_full
from cashier.redact import redact

log = logging.getLogger(__name__)

#: ReversalReason for a void the cashier asks for, by the state it was in.
REASON_MERCHANT_CANCEL = "03"
REASON_TIMEOUT = "01"


async def void(ctx: FlowContext, invoice: str, *, reason: str | None = None,
               manager: Clerk | None = None) -> FlowResult:
    """Void an approved or UNKNOWN payment: journal the job, then try it at once. The profile may
    put voids behind a ``manager`` (``ManagerNeeded`` before anything is journaled or sent)."""
    return await void_part(ctx, invoice, reason=reason, manager=manager, covered_by=None)


async def void_part(ctx: FlowContext, invoice: str, *, reason: str | None, manager: Clerk | None,
                    covered_by: str | None) -> FlowResult:
    """``void``; ``covered_by`` names the approved action this void is part of (a ticket's
    cancel, whose own rule was checked), so the void asks no manager of its own."""
    entry = await ctx.journal.by_invoice(invoice)
    if entry is None:
        raise ValidationError("invoice", "is not in this till's journal")
    if has_own_resolver(entry.kind):  # DELETE /transactions/invoice does not know them
        raise ValidationError("invoice", f"is a {entry.kind}, not a card transaction: undo it with "
                                         "'cashier giftcard cancel' or 'cashier qr cancel'")
    if entry.state in (State.INTENT, State.SENT):
        entry = await resolve(ctx, entry)
    owner = await ctx.journal.owned_elsewhere(entry.id)
    if owner is not None:
        raise EntryOwned("invoice", owner)  # its sender settles it: nothing sent from here
    if entry.state is State.VOIDED:
        return finish(ctx, entry, "already voided")
    if entry.state is not State.VOIDING:  # a void job already pending is tried again
        why = void_refusal(entry, await ctx.journal.refunds_in_flight(invoice))
        if why is not None:
            raise ValidationError("invoice", why)
    if reason is None:
        reason = REASON_TIMEOUT if entry.state is State.UNKNOWN else REASON_MERCHANT_CANCEL
    approver = None if covered_by is not None else ctx.approval(Action.VOID, entry.approved, manager)
    try:
        entry, job = await ctx.journal.request_void(entry.id, reason=reason, actor=ctx.actor,
                                                    refusal=void_refusal)
    except JournalError as exc:
        raise ValidationError("invoice", str(exc).removeprefix("state: ")) from None
    await ctx.journal_approval(approver, Action.VOID, entry.approved, entry_id=entry.id)
    entry = await run_void_job(ctx, job)
    # a void the host refused leaves the payment as it was, saying why (its message)
    message = "void pending: it is retried until the host confirms" \
        if entry.state is State.VOIDING else ""
    return finish(ctx, entry, message)


async def run_void_job(ctx: FlowContext, job: Job, *, actor: str | None = None) -> Entry:
    """One attempt at a void job. The job stays pending (with backoff) unless the host decides."""
    entry = await ctx.journal.get(job.entry_id)
    who = actor or ctx.actor
    if entry.invoice is None:
        return entry
    claimed = await claim(ctx, entry)
    if claimed is None or claimed.state is not State.VOIDING or claimed.invoice is None:
        return claimed or entry  # another live process runs this void (or it ended meanwhile)
    entry, invoice = claimed, claimed.invoice
    if await ctx.journal.state_before_void(entry.id) is State.UNKNOWN:
        # the outcome was never known: what the host holds under the number may be another
        # customer's sale (a number a replaced journal reused), which a void would reverse
        try:
            held = await ctx.client.invoice_status(invoice)
        except InvoiceNotFound:
            held = None
        except HostError as exc:
            return await _retry(ctx, job, entry, redact(str(exc))[:200])
        if held is not None and held.response_code in APPROVED_CODES \
                and whose_request(entry, held) != "ours":
            return await ctx.journal.finish_job(
                job.id, outcome="refused", actor=who, state=State.UNKNOWN,
                message="not voided: the host may hold another customer's sale under this "
                        "invoice; check it with the host")
    try:
        await ctx.client.void(invoice, reversal_reason=job.reason,
                              token=entry.token if entry.token and len(entry.token) <= 16 else None)
    except InvoiceNotFound:
        before = await ctx.journal.state_before_void(entry.id)
        if before is State.UNKNOWN and _age_s(entry) < ctx.policy.trust_after_s:
            return await _retry(ctx, job, entry, "invoice not found yet; the sale may still be "
                                                 "in flight")
        # nothing live at the host: voided before, or the payment never landed
        return await ctx.journal.finish_job(
            job.id, outcome="done", actor=who, state=State.VOIDED, host_code="9815,0",
            message="nothing to reverse at the host (not found)")
    except HostNoDecision as exc:
        return await _retry(ctx, job, entry, redact(str(exc))[:200])
    except HostError as exc:
        # refused for the payment's state (refunded, perhaps by another till): final at once
        if exc.invalid_status or job.attempts + 1 >= ctx.policy.void_max_refusals:
            before = await ctx.journal.state_before_void(entry.id)
            return await ctx.journal.finish_job(
                job.id, outcome="refused", actor=who, state=before,
                message=redact(f"void refused by the host: {exc.short_text} {exc.long_text}")[:300])
        return await _retry(ctx, job, entry, redact(str(exc))[:200])
    return await ctx.journal.finish_job(job.id, outcome="done", actor=who,
                                                    state=State.VOIDED, message=None)


async def _retry(ctx: FlowContext, job: Job, entry: Entry, error: str) -> Entry:
    backoff = ctx.policy.void_backoff_s
    delay = backoff[min(job.attempts, len(backoff) - 1)]
    await ctx.journal.job_retry(job.id, error=error, delay_s=delay)
    return entry


@dataclass
class RecoveryReport:
    resolved: list[Entry] = field(default_factory=list)
    still_open: list[Entry] = field(default_factory=list)
    #: entries another live process sent and still waits on: never settled from here
    in_flight: list[Entry] = field(default_factory=list)
    #: entries the journal held as not charged that the host holds approved (corrected)
    corrected: list[Entry] = field(default_factory=list)
    #: tickets a settled tender paid in full: closed as paid, as if its answer had come on time
    tickets_paid: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "resolved": [{"invoice": e.invoice, "state": str(e.state), "approved": str(e.approved),
                          **_charge_key(e)} for e in self.resolved],
            "still_open": [{"invoice": e.invoice, "state": str(e.state), **_charge_key(e)}
                           for e in self.still_open]}
        if self.corrected:
            out["corrected"] = [{"invoice": e.invoice, "state": str(e.state),
                                 "approved": str(e.approved)} for e in self.corrected]
        if self.in_flight:  # another live process sent these and waits on them
            out["in_flight"] = [{"invoice": e.invoice, "state": str(e.state)} for e in self.in_flight]
        if self.tickets_paid:
            out["tickets_paid"] = list(self.tickets_paid)
        return out


def _charge_key(entry: Entry) -> dict[str, str]:
    """A Charge API entry has no invoice: its idempotency key names it instead."""
    return {"idempotency_key": entry.idempotency_key} if entry.idempotency_key else {}


async def recover(ctx: FlowContext, *, concurrency: int = 8, all_jobs: bool = True,
                  patient: bool = False) -> RecoveryReport:
    """Resolve every unfinished entry (intent, sent, unknown) and run the void jobs.

    Run at start-up and by ``cashier recover``. Entries are independent, so several are asked
    at once; journal writes stay serialised on the writer thread.
    """
    report = RecoveryReport()
    # Charge API entries have no invoice: the Charge API client re-sends them by idempotency key
    # (below); an entry another live process has in flight is its own (it is left as it is)
    entries = [e for e in await ctx.journal.unresolved()
               if e.state is not State.VOIDING and e.kind is not Kind.CHARGE and _same_mode(ctx, e)]
    elsewhere = await ctx.journal.owned_elsewhere_among([e.id for e in entries])
    owned = [e for e in entries if e.id in elsewhere]
    report.in_flight.extend(owned)
    entries = [e for e in entries if e not in owned]
    total = len(entries)
    gate = asyncio.Semaphore(concurrency)
    done = 0

    async def one(entry: Entry) -> None:
        nonlocal done
        async with gate:
            try:
                after = await resolve(ctx, entry, actor="recovery", patient=patient)
            except EntryOwned:  # taken meanwhile by a live process: its own to settle
                after = await ctx.journal.get(entry.id)
            except Exception:  # one bad entry never stops the others
                log.exception("recovery of entry %s failed", entry.id)
                after = entry
        done += 1
        ctx.bus.publish(Progress("recovery", done, total))
        (report.still_open if after.unresolved else report.resolved).append(after)

    await asyncio.gather(*(one(e) for e in entries))
    jobs = await (ctx.journal.pending_jobs() if all_jobs else ctx.journal.due_jobs())
    for job in jobs:
        after = await run_void_job(ctx, job, actor="recovery")
        (report.still_open if after.unresolved else report.resolved).append(after)
    await _recover_charges(ctx, report)
    # what this run just resolved is what the host said a moment ago: not asked twice
    report.corrected = await compare_with_host(ctx, found_by="recovery",
                                               skip=frozenset(e.id for e in report.resolved))
    report.tickets_paid = await settle_tickets(ctx, [*report.resolved, *report.corrected])
    return report


async def settle_tickets(ctx: FlowContext, settled: list[Entry]) -> list[int]:
    """Settling the last tender settles the ticket: each ticket of a tender recovery settled as
    approved that now has nothing left to pay is closed as paid, as if the answer had come on
    time (the same ``ticket_paid`` event, so its receipt and, for cash, the drawer follow; by
    ``recovery``). A tender settled as not charged leaves its ticket open with the amount due
    again. Decided and closed in one write (``close_ticket_if``): another process's tender or
    cancel never slips between."""
    tickets = sorted({e.ticket_id for e in settled if e.ticket_id is not None
                      and e.state in (State.APPROVED, State.CAPTURED)})
    paid: list[int] = []
    for ticket_id in tickets:
        if await ctx.journal.close_ticket_if(ticket_id, "paid", actor="recovery",
                                             when=paid_in_full) is not None:
            paid.append(ticket_id)
    return paid


#: How many invoices a comparison with the host asks about at once.
COMPARE_AT_ONCE = 8
#: Sale flags of a transaction the host holds in its open batch (a sale or captured tab, a refund).
_BATCHED_FLAGS = frozenset({"S", "C"})


async def compare_with_host(ctx: FlowContext, *, found_by: str,
                            skip: frozenset[int] = frozenset()) -> list[Entry]:
    """The host is the truth, later too: every entry of the open batch the host numbers (approved,
    captured, error, declined, voided) is asked again, and one the host holds otherwise is
    corrected, journaled with both states and who found it; every total counts it from then on.

    "Invoice Not Found" for a charged entry means voided at the host, or settled in a batch that
    another till (a store close) or the gateway closed. A batch takes every open sale and refund,
    so it is read as voided only when an older sale or refund of this batch is still open at the
    host; an open tab is never batched, so a tab the host no longer knows was voided."""
    # stored payments first: one the host declined at the forward is its own state
    # (declined_on_forward), never a correction; one still stored is not the host's yet
    await offline.catch_up(ctx)
    entries = [e for e in await ctx.journal.open_batch_settled()
               if _compared(e) and e.id not in skip and _same_mode(ctx, e)
               and e.offline != "stored" and e.state is not State.DECLINED_ON_FORWARD]
    gate = asyncio.Semaphore(COMPARE_AT_ONCE)

    async def ask(entry: Entry) -> TransactionResult | HostError | None:
        async with gate:
            try:
                return await ctx.client.invoice_status(str(entry.invoice))
            except InvoiceNotFound:
                return None
            except HostError as exc:  # unreachable or undecided: asked next time
                return exc

    answers = await asyncio.gather(*(ask(e) for e in entries))
    open_at_host = [e.id for e, answer in zip(entries, answers, strict=True)
                    if isinstance(answer, TransactionResult)
                    and answer.response_code in APPROVED_CODES
                    and (answer.transaction.sale_flag or "").upper() in _BATCHED_FLAGS]
    oldest_open = min(open_at_host, default=None)
    corrected: list[Entry] = []
    for entry, answer in zip(entries, answers, strict=True):
        if isinstance(answer, HostError):
            continue
        held = _host_holds(entry, answer, oldest_open)
        if held is None:
            continue
        state, changes = held
        log.warning("invoice %s: the journal said %s, the host holds it %s: corrected",
                    entry.invoice, entry.state, state)
        after = await ctx.journal.correct(
            entry.id, state, was=entry.state, actor=found_by, found_by=found_by,
            message=f"corrected: the host holds it {state} (the journal said {entry.state})",
            **changes)
        if after is not None:
            corrected.append(after)
    return corrected


def _same_mode(ctx: FlowContext, entry: Entry) -> bool:
    """A real till's journal may hold training entries from before training had a journal of its
    own (issue #46): the real host never had them, so they are never asked about or corrected."""
    return ctx.journal.training or not entry.training


def _compared(entry: Entry) -> bool:
    """A card transaction or refund GET /transactions/invoice tells (gift cards and QR payments
    have their own status requests; cash and the Charge API never reach this host)."""
    return (entry.invoice is not None and entry.kind not in (Kind.CASH, Kind.CHARGE)
            and not has_own_resolver(entry.kind))


_CHARGED = (State.APPROVED, State.CAPTURED)
_TABS = (Kind.AUTHORIZATION, Kind.MANUAL_AUTHORIZATION)


def _host_holds(entry: Entry, answer: TransactionResult | None,
                oldest_open: int | None) -> tuple[State, dict[str, Any]] | None:
    """The state (and fields) the host holds ``entry`` in, when the journal says otherwise."""
    if answer is None:
        if entry.state not in _CHARGED:
            return None  # not found agrees with not charged, and with voided
        open_tab = entry.kind in _TABS and entry.state is State.APPROVED
        if open_tab or (oldest_open is not None and oldest_open < entry.id):
            return State.VOIDED, {"host_code": "9815,0"}
        return None  # perhaps settled in a batch closed elsewhere: not a void we can tell
    code = answer.response_code
    total = answer.amount.total if answer.amount is not None else None
    if code in APPROVED_CODES and total:
        if entry.state in _CHARGED:
            return None
        if whose_request(entry, answer) != "ours":
            log.warning("invoice %s: the host may hold another request under it: not taken as "
                        "this entry's, left %s", entry.invoice, entry.state)
            return None
        tip = answer.amount.tip if answer.amount is not None else None
        return State.APPROVED, {"approved": total, "response_code": code,
                                **({"tip": tip} if tip else {}), **_card_fields(answer)}
    if entry.state not in _CHARGED or not code:
        return None
    return (State.DECLINED if code in DECLINED_CODES else State.ERROR), {"response_code": code}


async def _recover_charges(ctx: FlowContext, report: RecoveryReport) -> None:
    """Charge API movements left open: re-sent with their own idempotency key (a replay at worst).
    Without a Charge API (no ``charge_api_url``, not training) they stay open for a till that has one."""
    if ctx.charge_api is None:
        report.still_open.extend(e for e in await ctx.journal.unresolved() if e.kind is Kind.CHARGE)
        return
    try:
        outcomes = await ctx.charge_api.recover(actor="recovery")
    except Exception:  # the Charge API never stops the host's recovery
        log.exception("recovery of Charge API entries failed")
        report.still_open.extend(e for e in await ctx.journal.unresolved() if e.kind is Kind.CHARGE)
        return
    for outcome in outcomes:
        entry = outcome.entry
        (report.still_open if entry.unresolved else report.resolved).append(entry)
