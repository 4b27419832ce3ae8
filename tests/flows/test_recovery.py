"""Lost answers, crashes and durable voids: the journal and the host agree afterwards."""

from __future__ import annotations

from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows.base import RecoveryPolicy
from cashier.flows.batch import BatchBlocked, close_batch, reconcile
from cashier.flows.payments import KeyedCard, sale
from cashier.flows.recovery import recover, void
from cashier.host.models.common import Amount, Card
from cashier.journal.model import Kind, NewEntry, Op, State
from tests.support.tills import assert_agrees

VISA = KeyedCard("4321000000001119", "1228")


async def test_answer_lost_after_commit_is_recovered_as_approved(make_till: Any) -> None:
    till = await make_till("LG")
    await till.fault("drop_after_commit", count=1)
    result = await sale(till.ctx, D("15.00"))
    assert result.outcome == "approved" and result.entry.approved == D("15.00")
    types = [e.type for e in await till.journal.events(result.entry.id)]
    assert types == ["created", "sent", "unknown", "approved"]
    await assert_agrees(till)


@pytest.mark.parametrize("commit,outcome", [(True, "approved"), (False, "error")])
async def test_504_with_and_without_commit(make_till: Any, commit: bool, outcome: str) -> None:
    till = await make_till("HD")
    await till.fault("timeout_504", commit=commit, count=1)
    result = await sale(till.ctx, D("16.00"), card=VISA)
    assert result.outcome == outcome
    if not commit:
        assert "not charged" in result.message
        # the retry reuses the invoice and is approved once
        again = await sale(till.ctx, D("16.00"), card=VISA, invoice=result.entry.invoice)
        assert again.outcome == "approved" and again.entry.id == result.entry.id
    await assert_agrees(till)


async def test_reset_before_the_host_is_not_charged(make_till: Any) -> None:
    till = await make_till("DCP")
    await till.fault("reset", count=1)
    result = await sale(till.ctx, D("17.00"))
    assert result.outcome == "error" and result.entry.approved == D(0)
    assert str(result.entry.invoice) not in await till.ledger()


async def test_status_unreachable_leaves_unknown_then_recovery_resolves(make_till: Any) -> None:
    till = await make_till("LG")
    await till.fault("drop_after_commit", count=1)
    await till.fault("reset", path="/transactions/invoice", count=3)
    result = await sale(till.ctx, D("18.00"))
    assert result.outcome == "unknown"
    assert [e.id for e in await till.journal.unresolved()] == [result.entry.id]
    report = await recover(till.ctx)
    assert [e.state for e in report.resolved] == [State.APPROVED] and not report.still_open
    resolved = await till.journal.get(result.entry.id)
    assert resolved.approved == D("18.00")
    assert (await till.journal.events(resolved.id))[-1].actor == "recovery"
    await assert_agrees(till)


async def test_crash_after_send_is_finished_by_recovery_on_restart(make_till: Any, tmp_path: Path) -> None:
    """A process died between SENT and the outcome: entries left SENT, some landed, some not."""
    journal_path = tmp_path / "crash.sqlite"
    till = await make_till("HD", journal=journal_path)
    landed, lost = [], []
    for i in range(6):
        entry = await till.journal.create(NewEntry(Kind.SALE, D(f"{20 + i}.00"), actor="1", op=Op.SALE,
                                                   sent=True))
        if i % 2 == 0:  # the request reached the host; the process died before the answer
            await till.rt.client.sale(invoice=str(entry.invoice), amount=Amount(total=entry.requested,
                                      tax=D(0)), card=Card(number="4321000000001119",
                                                           expiration_date=1228, entry_mode="M"))
            landed.append(entry.invoice)
        else:
            lost.append(entry.invoice)
    intent = await till.journal.create(NewEntry(Kind.SALE, D("9.00"), actor="1", op=Op.SALE))
    # "restart": a fresh runtime on the same journal and the same host
    again = await make_till("HD", journal=journal_path, sandbox=till.sandbox)
    report = await recover(again.ctx)
    assert not report.still_open
    for e in await again.journal.search(limit=100):
        if e.invoice in landed:
            assert (e.state, e.approved) == (State.APPROVED, e.requested)
        else:
            assert e.state is State.ERROR and e.approved == D(0)
    assert (await again.journal.get(intent.id)).message == "never sent (the host has no such invoice)"
    await assert_agrees(again)


async def test_void_job_survives_restart_until_the_host_confirms(make_till: Any, tmp_path: Path) -> None:
    journal_path = tmp_path / "void.sqlite"
    till = await make_till("LG", journal=journal_path)
    paid = (await sale(till.ctx, D("21.00"))).entry
    await till.fault("reset", path="/transactions/invoice", count=2)
    first = await void(till.ctx, str(paid.invoice))
    assert first.outcome == "voiding" and "retried" in first.message
    jobs = await till.journal.pending_jobs()
    assert len(jobs) == 1 and jobs[0].attempts == 1 and jobs[0].last_error
    await till.rt.close()
    again = await make_till("LG", journal=journal_path, sandbox=till.sandbox)
    report = await recover(again.ctx)  # one more reset, then the void goes through
    report = await recover(again.ctx) if report.still_open else report
    assert (await again.journal.get(paid.id)).state is State.VOIDED
    assert await again.journal.pending_jobs() == []
    assert (await again.ledger())[str(paid.invoice)]["state"] == "voided"


async def test_cashier_voids_an_unknown_payment(make_till: Any) -> None:
    till = await make_till("LG")
    await till.fault("drop_after_commit", count=1)
    await till.fault("reset", path="/transactions/invoice", count=3)
    unknown = (await sale(till.ctx, D("22.00"))).entry
    assert unknown.state is State.UNKNOWN
    result = await void(till.ctx, str(unknown.invoice))
    assert result.outcome == "voided" and result.entry.reversal_reason == "01"
    assert (await till.ledger())[str(unknown.invoice)]["state"] == "voided"


async def test_not_found_is_not_trusted_while_the_request_may_be_in_flight(make_till: Any) -> None:
    """Over a real network a lost answer may still be processed: within the grace period an
    "Invoice Not Found" leaves the entry UNKNOWN instead of declaring it not charged."""
    till = await make_till("HD", policy=RecoveryPolicy(grace_s=60, delays_s=(0.0, 0.01)))
    await till.fault("reset", count=1)
    result = await sale(till.ctx, D("23.00"), card=VISA)
    assert result.outcome == "unknown"
    patient = await make_till("HD", journal=till.rt.journal.path, sandbox=till.sandbox,
                              policy=RecoveryPolicy(grace_s=0, delays_s=(0.0,), host_window_s=0))
    await till.rt.close()
    report = await recover(patient.ctx)
    assert [e.state for e in report.resolved] == [State.ERROR]


async def test_batch_reconciles_and_unresolved_blocks_close(make_till: Any) -> None:
    till = await make_till("HD")
    await sale(till.ctx, D("10.00"), card=VISA)
    await sale(till.ctx, D("5.00"), card=VISA)
    from cashier.flows.payments import refund

    await refund(till.ctx, D("2.00"), card=VISA)
    rec = await reconcile(till.ctx)
    assert rec.matches and rec.host is not None
    assert (rec.sale_amount, rec.sale_count, rec.refund_amount, rec.net_amount) == (
        D("15.00"), 2, D("2.00"), D("13.00"))
    stuck = await till.journal.create(NewEntry(Kind.SALE, D("4.00"), actor="1", op=Op.SALE, sent=True))
    await till.journal.transition(stuck.id, State.UNKNOWN, actor="1")
    with pytest.raises(BatchBlocked, match="1 unresolved"):
        await close_batch(till.ctx)
    with pytest.raises(ValidationError, match="manager"):
        await close_batch(till.ctx, override=True)
    batch_no, _ = await close_batch(till.ctx, override=True, manager_id="mgr-7")
    assert batch_no == 1
    events = await till.journal.events()
    override = [e for e in events if e.type == "batch_override"]
    assert override and override[0].actor == "mgr-7"
    closed = [e for e in events if e.type == "batch_closed"]
    assert closed[0].actor == "mgr-7" and closed[0].data["override"] is True
    after = await reconcile(till.ctx)
    assert (after.sale_amount, after.host.sale_amount if after.host else None) == (D(0), D(0))
    assert after.unresolved == 1  # still waiting for recovery, in the next batch
