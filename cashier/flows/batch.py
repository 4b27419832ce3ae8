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

#: Journal buckets the host counts as sales and as refunds in a batch.
HOST_SALE_BUCKETS = ("sale", "manual_sale", "capture")
HOST_REFUND_BUCKETS = ("refund",)


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
            "unresolved": self.unresolved, "matches": self.matches, "host": None}
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
        sale_amount=sum((totals.amount(b, cur) for b in HOST_SALE_BUCKETS), Decimal("0.00")),
        sale_count=sum(totals.count(b, cur) for b in HOST_SALE_BUCKETS),
        refund_amount=sum((totals.amount(b, cur) for b in HOST_REFUND_BUCKETS), Decimal("0.00")),
        refund_count=sum(totals.count(b, cur) for b in HOST_REFUND_BUCKETS),
        unresolved=totals.unresolved, host=host)


async def close_batch(ctx: FlowContext, *, override: bool = False,
                      manager_id: str | None = None,
                      manager: Clerk | None = None) -> tuple[int, Reconciliation]:
    """Reconcile, refuse when something is open or differs (unless a manager overrides), then
    submit (HD) and close the journal's batch. The override is journaled with who gave it. The
    profile may put the close itself behind a ``manager`` (``ManagerNeeded`` before anything)."""
    if override and not manager_id:
        raise ValidationError("manager", "an override needs the manager's id")
    approver = ctx.approval(Action.CLOSE_BATCH, Decimal(0), manager)
    from cashier.flows.recovery import compare_with_host

    # every entry of the batch the journal holds as not charged is asked again first: a payment
    # the host approved later is corrected before the totals are compared and closed
    await compare_with_host(ctx, found_by="batch close")
    rec = await reconcile(ctx)
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
    if ctx.client.option == "HD":
        # send the host's own net when overriding a difference: the host closes what it holds
        net = rec.host.net_amount if (rec.host is not None and not rec.matches) else rec.net_amount
        await ctx.client.batch_submit(_today(), inclusive=True, net_amount=net)
    batch_no = await ctx.journal.close_batch(actor=actor, override=bool(problems),
                                             summary=rec.as_dict())
    return batch_no, rec
