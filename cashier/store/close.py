"""The store-wide reconciliation and close, run from one till (which holds the host credentials).

On the Host API the batch belongs to the merchant: one ``/batches/submit`` closes every till's
sales. So the close reconciles the host's batch totals against the sum of every till's journal
as the store holds it (per tender and card brand), refuses while any till has unresolved
payments or the figures differ (unless a manager overrides: journaled on this till with the
manager's id), submits once, and records the close in the store, which tells each till on its
next contact. Outside HD the host offers no batch: the close is the store's record only.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx

from cashier.clerks import Action, Clerk
from cashier.errors import CashierError, ValidationError
from cashier.flows.base import FlowContext
from cashier.flows.batch import BatchBlocked, _today
from cashier.host.models.batches import BatchResponse
from cashier.store import StoreError, StoreUnreachable
from cashier.store.outbox import Outbox, answer, store_client

__all__ = ["BatchBlocked", "StoreReconciliation", "close_store_batch", "pin_failures",
           "reconcile_store", "sign_in_manager", "store_totals"]

#: Journal notes of a store close: submitted to the host (or, outside HD, decided) and recorded
#: in the store. A ``submitted`` without its ``recorded`` is a close that half happened.
SUBMITTED, RECORDED = "store_batch_submitted", "store_batch_recorded"
HALF_DONE = ("store batch: submitted to the host, not yet recorded in the store ({why}); run "
             "'cashier store batch-close' again (a manager signed in) to record it: nothing is "
             "submitted again")


def sign_in_manager(profile: Any, manager_id: str, pin: str,
                    transport: httpx.BaseTransport | None = None) -> str:
    """A manager signs in at the store with the PIN the store holds: the session that store-wide
    work needs (blocking: call it from a thread in async code)."""
    with store_client(profile, transport=transport) as client:
        try:
            response = client.post("/v1/manager", json={"manager": manager_id, "pin": pin})
        except httpx.HTTPError as exc:
            raise StoreUnreachable(f"store: cannot reach {profile.store_url} "
                                   f"({type(exc).__name__})") from None
        return str(answer(response)["session"])


def pin_failures(profile: Any, session: str) -> list[dict[str, Any]]:
    """The store's failed manager PINs, newest first (a manager's session)."""
    with store_client(profile, manager_session=session) as client:
        try:
            response = client.get("/v1/pin-failures")
        except httpx.HTTPError as exc:
            raise StoreUnreachable(f"store: cannot reach {profile.store_url} "
                                   f"({type(exc).__name__})") from None
        return list(answer(response)["failures"])


@dataclass(frozen=True)
class StoreReconciliation:
    totals: dict[str, Any]
    host: BatchResponse | None
    problems: list[str] = field(default_factory=list)

    @property
    def store(self) -> dict[str, Any]:
        return dict(self.totals["store"])

    @property
    def net_amount(self) -> Decimal:
        """The store's net: every till's sales less its refunds."""
        return Decimal(self.store["sales"]["amount"]) - Decimal(self.store["refunds"]["amount"])

    @property
    def matches(self) -> bool:
        if self.host is None:
            return True
        s, h = self.store, self.host
        return (Decimal(s["sales"]["amount"]), s["sales"]["count"], Decimal(s["refunds"]["amount"]),
                s["refunds"]["count"]) == (h.sale_amount, h.sale_count, h.refund_amount, h.refund_count)

    def as_dict(self) -> dict[str, Any]:
        host = None
        if self.host is not None:
            h = self.host
            host = {"sales": {"count": h.sale_count, "amount": str(h.sale_amount)},
                    "refunds": {"count": h.refund_count, "amount": str(h.refund_amount)},
                    "net": str(h.net_amount)}
        return {"store": self.store, "tills": self.totals["tills"], "host": host,
                "matches": self.matches, "problems": list(self.problems)}


def store_totals(ctx_profile: Any, business_date: str | None = None,
                 transport: httpx.BaseTransport | None = None,
                 session: str | None = None) -> dict[str, Any]:
    """``GET /v1/totals`` (blocking: call it from a thread in async code): this till's own
    figures, or with a manager's ``session`` the store and every till."""
    with store_client(ctx_profile, transport=transport, manager_session=session) as client:
        try:
            response = client.get("/v1/totals", params={"business_date": business_date}
                                  if business_date else None)
        except httpx.HTTPError as exc:
            raise StoreUnreachable(f"store: cannot reach {ctx_profile.store_url} "
                                   f"({type(exc).__name__})") from None
        return answer(response)


def _sync_now(profile: Any) -> None:
    outbox = Outbox(profile)
    try:
        result = outbox.sync(10.0)
    finally:
        outbox.close()
    if not result.reached:
        raise StoreUnreachable(result.message or "store: cannot be reached")


async def _host_totals(ctx: FlowContext) -> BatchResponse | None:
    if ctx.client.option != "HD":
        return None
    host = (await ctx.client.batch_totals(_today(), inclusive=True)).batch or BatchResponse()
    host.sale_amount = host.sale_amount or Decimal("0.00")
    host.refund_amount = host.refund_amount or Decimal("0.00")
    host.sale_count = host.sale_count or 0
    host.refund_count = host.refund_count or 0
    host.net_amount = host.net_amount if host.net_amount is not None else (
        host.sale_amount - host.refund_amount)
    return host


async def reconcile_store(ctx: FlowContext, profile: Any, session: str) -> StoreReconciliation:
    """This till pushes first, then the store's totals (a manager's ``session``: every till)
    against the host's open batch."""
    await asyncio.to_thread(_sync_now, profile)
    totals = await asyncio.to_thread(store_totals, profile, None, None, session)
    if totals.get("scope") != "store":
        raise StoreError("store: answered one till's figures; the store-wide close needs every "
                         "till's (a manager signed in at the store)")
    host = await _host_totals(ctx)
    problems = [f"till {till}: {t['unresolved']} unresolved payment(s): run recovery there first"
                for till, t in totals["tills"].items() if t["unresolved"]]
    rec = StoreReconciliation(totals, host, problems)
    if not rec.matches:
        problems.append("store and host totals differ (a till may not have pushed yet)")
    return rec


async def _half_done(ctx: FlowContext) -> dict[str, Any] | None:
    """The last store close this till submitted but has not seen recorded in the store."""
    pending: dict[str, Any] | None = None
    for event in await ctx.journal.events():
        if event.type == SUBMITTED:
            pending = dict(event.data.get("_note") or {})
        elif event.type == RECORDED:
            pending = None
    return pending


def _record(profile: Any, session: str, close: dict[str, Any]) -> int:
    """``POST /v1/close`` (blocking); a failure says the close half happened."""
    with store_client(profile, manager_session=session) as client:
        try:
            response = client.post("/v1/close", json={
                "through": close["through"], "override": bool(close["override"]),
                "summary": close["summary"]})
            return int(answer(response)["batch_no"])
        except httpx.HTTPError as exc:
            why = f"cannot reach the store: {type(exc).__name__}"
        except StoreUnreachable as exc:
            why = str(exc).removeprefix("store: ")
        if close["summary"].get("host_submitted"):
            raise CashierError(HALF_DONE.format(why=why))
        raise CashierError(f"store batch: decided but not yet recorded in the store ({why}); run "
                           "'cashier store batch-close' again to record it")


async def close_store_batch(ctx: FlowContext, profile: Any, *, session: str,
                            override: bool = False, manager_id: str | None = None,
                            manager: Clerk | None = None) -> tuple[int, StoreReconciliation]:
    """Reconcile, refuse on a problem unless a manager overrides, submit once, record the close.
    ``session``: the manager signed in at the store (the store checks it and records that
    manager as who closed). The till's rule for closing the batch (``manager_rules.close_batch``)
    holds for the store's batch too: ``ManagerNeeded`` before anything is pushed, asked or sent.

    A close that half happened (the host took the batch, the store did not record it) is
    journaled before the store is asked; the next call records it without submitting again.
    An empty host batch is never submitted."""
    if override and not manager_id:
        raise ValidationError("manager", "an override needs the manager's id")
    if profile.is_training:
        raise ValidationError("training", "a training till never closes the store's batch")
    approver = ctx.approval(Action.CLOSE_BATCH, Decimal(0), manager)
    pending = await _half_done(ctx)
    if pending is not None:
        batch_no = await asyncio.to_thread(_record, profile, session, pending)
        await ctx.journal.note(None, RECORDED, actor=ctx.actor, store_batch=batch_no)
        await asyncio.to_thread(_sync_now, profile)
        totals = {"store": pending["summary"]["store"], "tills": {}, "through": pending["through"]}
        return batch_no, StoreReconciliation(totals, None, list(pending["summary"]["problems"]))
    rec = await reconcile_store(ctx, profile, session)
    if rec.problems and not override:
        raise BatchBlocked("store batch: " + "; ".join(rec.problems) + " (or override with a "
                           "manager id)")
    actor = manager_id if override and manager_id else ctx.actor
    if rec.problems:
        await ctx.journal.note(None, "store_batch_override", actor=actor, problems=rec.problems)
    await ctx.journal_approval(approver, Action.CLOSE_BATCH, rec.net_amount, store=True)
    submitted = False
    if rec.host is not None and (rec.host.sale_count or rec.host.refund_count):
        net = rec.host.net_amount if not rec.matches else rec.net_amount
        await ctx.client.batch_submit(_today(), inclusive=True, net_amount=net)
        submitted = True
    summary = {"store": {k: rec.store[k] for k in ("sales", "refunds", "net", "tips", "corrections")
                         if k in rec.store},
               "host_submitted": submitted, "problems": rec.problems}
    close = {"through": rec.totals["through"], "override": bool(rec.problems), "summary": summary}
    await ctx.journal.note(None, SUBMITTED, actor=actor, **close)
    batch_no = await asyncio.to_thread(_record, profile, session, close)
    await ctx.journal.note(None, RECORDED, actor=actor, store_batch=batch_no)
    await asyncio.to_thread(_sync_now, profile)  # this till learns of the close at once
    return batch_no, rec
