"""Batch totals and close, with a reconciliation first (journal vs ``/reports/batchtotals``).

Decision: the Host API offers batch totals and submit on HD only. On LG, DCP and DCC the close is
journal-only (the gateway or controller settles by its own schedule): the journal's open batch is
closed with the same unresolved-entry rule, and ``host`` is None in the reconciliation.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from cashier.clerks import Action, Clerk
from cashier.errors import CashierError, ValidationError
from cashier.flows.base import FlowContext
from cashier.host.models.batches import BatchResponse
from cashier.journal.model import Entry
from cashier.journal.totals import HOST_BATCH_REFUND_BUCKETS, HOST_BATCH_SALE_BUCKETS
from cashier.money import format_amount


class BatchBlocked(CashierError):
    """The close is refused until recovery finishes or a manager overrides."""


@dataclass(frozen=True)
class Reconciliation:
    sale_amount: Decimal
    sale_count: int
    refund_amount: Decimal
    refund_count: int
    unresolved: int
    host: BatchResponse | None
    #: Authorizations not yet captured: the host leaves them out of its batch, and so does the
    #: journal's close (they stay in the open batch); the manager captures, voids or carries them over.
    open_tabs: tuple[Entry, ...] = ()
    #: Corrections of this batch's entries (the host held them otherwise than the journal had
    #: them): how many, and what they added to the net (signed).
    corrections: int = 0
    corrected_amount: Decimal = Decimal("0.00")

    @property
    def net_amount(self) -> Decimal:
        return self.sale_amount - self.refund_amount

    @property
    def net_count(self) -> int:
        return self.sale_count + self.refund_count

    @property
    def matches(self) -> bool:
        if self.host is None:
            return True
        h = self.host
        return (h.sale_amount, h.sale_count, h.refund_amount, h.refund_count) == (
            self.sale_amount, self.sale_count, self.refund_amount, self.refund_count)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "journal": {"sale_amount": str(self.sale_amount), "sale_count": self.sale_count,
                        "refund_amount": str(self.refund_amount), "refund_count": self.refund_count,
                        "net_amount": str(self.net_amount), "net_count": self.net_count},
            "unresolved": self.unresolved, "matches": self.matches, "host": None,
            "open_tabs": [{"invoice": t.invoice, "amount": str(t.approved)} for t in self.open_tabs],
            "corrections": {"count": self.corrections, "amount": str(self.corrected_amount)}}
        if self.host is not None:
            h = self.host
            out["host"] = {"sale_amount": str(h.sale_amount), "sale_count": h.sale_count,
                           "refund_amount": str(h.refund_amount), "refund_count": h.refund_count,
                           "net_amount": str(h.net_amount), "net_count": h.net_count}
        return out


def _today() -> str:
    return datetime.now().astimezone().date().isoformat()


async def reconcile(ctx: FlowContext) -> Reconciliation:
    totals = await ctx.journal.totals(0)
    cur = ctx.journal.currency
    corrections, corrected_amount = await ctx.journal.batch_corrections(0)
    host = None
    if ctx.client.option == "HD":
        host = (await ctx.client.batch_totals(_today(), inclusive=True)).batch or BatchResponse()
        for name in ("sale_amount", "refund_amount"):
            if getattr(host, name) is None:
                setattr(host, name, Decimal("0.00"))
        for name in ("sale_count", "refund_count"):
            if getattr(host, name) is None:
                setattr(host, name, 0)
    return Reconciliation(
        sale_amount=sum((totals.amount(b, cur) for b in HOST_BATCH_SALE_BUCKETS), Decimal("0.00")),
        sale_count=sum(totals.count(b, cur) for b in HOST_BATCH_SALE_BUCKETS),
        refund_amount=sum((totals.amount(b, cur) for b in HOST_BATCH_REFUND_BUCKETS), Decimal("0.00")),
        refund_count=sum(totals.count(b, cur) for b in HOST_BATCH_REFUND_BUCKETS),
        unresolved=totals.unresolved, host=host,
        open_tabs=tuple(await ctx.journal.open_authorizations()),
        corrections=corrections, corrected_amount=corrected_amount)


def open_tabs_text(rec: Reconciliation, currency: str) -> str:
    """The open tabs a close leaves out, named with their amounts (the refusal and the window)."""
    tabs = rec.open_tabs
    listed = ", ".join(f"invoice {t.invoice} {format_amount(t.approved, currency)}" for t in tabs[:5])
    more = f" and {len(tabs) - 5} more" if len(tabs) > 5 else ""
    return f"{len(tabs)} open tab{'s' if len(tabs) != 1 else ''} ({listed}{more})"


async def close_batch(ctx: FlowContext, *, override: bool = False,
                      manager_id: str | None = None, manager: Clerk | None = None,
                      carry_over: bool = False) -> tuple[int, Reconciliation]:
    """Reconcile, refuse when something is open or differs (unless a manager overrides), then
    submit (HD) and close the journal's batch. The override is journaled with who gave it. The
    profile may put the close itself behind a ``manager`` (``ManagerNeeded`` before anything).

    Open tabs are never closed silently: the close is refused, naming them, until they are
    captured or voided or the manager carries them over (``carry_over``, journaled): a carried tab
    stays in the open batch, where the host books its capture."""
    if override and not manager_id:
        raise ValidationError("manager", "an override needs the manager's id")
    approver = ctx.approval(Action.CLOSE_BATCH, Decimal(0), manager)
    from cashier.flows.recovery import compare_with_host

    # every entry of the batch is asked again first: one the host holds otherwise (approved
    # later, voided by another till) is corrected before the totals are compared and closed
    await compare_with_host(ctx, found_by="batch close")
    rec = await reconcile(ctx)
    if rec.open_tabs and not carry_over:
        raise BatchBlocked(f"batch: {open_tabs_text(rec, ctx.journal.currency)} would stay open: "
                           "capture or void them first, or carry them over to the next batch "
                           "(--carry-over)")
    problems = []
    if rec.unresolved:
        problems.append(f"{rec.unresolved} unresolved payment(s): run recovery first")
    if not rec.matches:
        problems.append("journal and host totals differ")
    if problems and not override:
        raise BatchBlocked("batch: " + "; ".join(problems) + " (or override with a manager id)")
    actor = manager_id if override and manager_id else ctx.actor
    if problems:
        await ctx.journal.note(None, "batch_override", actor=actor, problems=problems,
                               reconciliation=rec.as_dict())
    await ctx.journal_approval(approver, Action.CLOSE_BATCH, rec.net_amount)
    if rec.open_tabs:
        await ctx.journal.note(None, "tabs_carried_over", actor=actor,
                               invoices=[t.invoice for t in rec.open_tabs],
                               amount=str(sum((t.approved for t in rec.open_tabs), Decimal(0))))
    if ctx.client.option == "HD":
        # send the host's own net when overriding a difference: the host closes what it holds
        net = rec.host.net_amount if (rec.host is not None and not rec.matches) else rec.net_amount
        await ctx.client.batch_submit(_today(), inclusive=True, net_amount=net)
    batch_no = await ctx.journal.close_batch(actor=actor, override=bool(problems),
                                             summary=rec.as_dict())
    return batch_no, rec
