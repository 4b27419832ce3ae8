"""The host is the truth, later too (issue 27): ``recover`` and the pre-close reconciliation compare
every entry of the open batch with the host, on the in-process sandbox. An approved sale another
till voided at the host is corrected (both states, who found it) and every report, the batch
close and the journal's totals count the correction; a batch another till closed at the host is
never read as a void."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

from cashier.drawer import Drawer
from cashier.flows.batch import close_batch, reconcile
from cashier.flows.payments import KeyedCard, refund, sale
from cashier.flows.recovery import recover
from cashier.journal.model import State
from cashier.journal.recorder import JournalRecorder
from cashier.reports import report_csv, report_pdf, report_text, x_report

CARD = KeyedCard("4321000000001119", "1230")


def _x_report(till: Any) -> dict[str, Any]:
    """The X report as the Reports screen, ``cashier report x`` and the printer build it."""
    profile = till.rt.profile
    store = JournalRecorder(profile.journal_path, reader=True, till_id=profile.till_id,
                            currency=profile.currency)
    try:
        return x_report(store, Drawer(store, profile.roster))
    finally:
        store.close()


def _notes(till: Any) -> list[dict[str, Any]]:
    return [n.data["_note"] for n in till.journal.recorder.corrections()]


async def test_a_sale_another_till_voided_is_corrected_and_every_report_counts_it(
        make_till: Any) -> None:
    till = await make_till("HD")
    other = await make_till("HD", till_number=2, sandbox=till.sandbox)  # another till, same host
    kept = (await sale(till.ctx, D("5.00"), card=CARD)).entry
    gone = (await sale(till.ctx, D("7.00"), card=CARD)).entry
    assert gone.state is State.APPROVED
    await other.ctx.client.void(str(gone.invoice))  # voided at the host behind this till's back

    report = await recover(till.ctx)
    assert [(e.invoice, e.state) for e in report.corrected] == [(gone.invoice, State.VOIDED)]
    assert report.as_dict()["corrected"] == [
        {"invoice": gone.invoice, "state": "voided", "approved": "7.00"}]
    assert (await till.journal.get(kept.id)).state is State.APPROVED
    assert _notes(till) == [{"was": "approved", "now": "voided", "found_by": "recovery",
                             "invoice": gone.invoice, "amount": "-7.00"}]
    assert (await till.journal.totals(0)).amount("sale", "USD") == D("5.00")
    again = await recover(till.ctx)  # the journal now says what the host holds: nothing to do
    assert not again.corrected and len(_notes(till)) == 1

    x = _x_report(till)
    assert x["corrections"] == {"count": 1, "amount": "-7.00"}
    assert x["by_tender"]["card"] == {"count": 1, "amount": "5.00"}
    text = report_text(x, 42)
    assert any(line.strip().startswith("Corrections") and line.endswith("1 / -7.00") for line in text), text
    assert "summary,corrections,1,-7.00" in report_csv(x).splitlines()
    assert b"Corrections" in report_pdf(x) and b"1 / -7.00" in report_pdf(x)

    rec = await reconcile(till.ctx)
    assert (rec.corrections, rec.corrected_amount, rec.matches) == (1, D("-7.00"), True)
    assert rec.as_dict()["corrections"] == {"count": 1, "amount": "-7.00"}
    batch_no, closed = await close_batch(till.ctx)
    assert closed.as_dict()["corrections"] == {"count": 1, "amount": "-7.00"}
    assert await till.journal.batch_corrections(batch_no) == (1, D("-7.00"))
    assert await till.journal.batch_corrections(0) == (0, D("0.00"))
    ledger = await till.ledger()
    assert {i: r["state"] for i, r in ledger.items()} == {kept.invoice: "batched",
                                                          gone.invoice: "voided"}


async def test_the_pre_close_reconciliation_corrects_both_ways(make_till: Any) -> None:
    """An error the host holds approved and a refund the host holds voided: the close corrects
    both (found by the batch close) before it compares totals, and closes matching the host."""
    till = await make_till("HD")
    other = await make_till("HD", till_number=2, sandbox=till.sandbox)
    sold = (await sale(till.ctx, D("20.00"), card=CARD)).entry
    given = (await refund(till.ctx, D("4.00"), original_invoice=sold.invoice)).entry
    assert given.state is State.APPROVED
    lost = await till.journal.create("sale", D("3.00"), actor="1", op="sale", sent=True)
    await till.journal.transition(lost.id, State.ERROR, actor="1", message="not charged")
    await till.ctx.client.sale(invoice=str(lost.invoice), amount=_amount("3.00"), card=_card())  # unseen
    await other.ctx.client.void(str(given.invoice))

    batch_no, rec = await close_batch(till.ctx)
    assert rec.matches and (rec.sale_amount, rec.refund_amount) == (D("23.00"), D("0.00"))
    assert rec.as_dict()["corrections"] == {"count": 2, "amount": "7.00"}  # +3.00 sold, +4.00 kept
    assert {n["invoice"]: (n["was"], n["now"], n["found_by"], n["amount"]) for n in _notes(till)} == {
        lost.invoice: ("error", "approved", "batch close", "3.00"),
        given.invoice: ("approved", "voided", "batch close", "4.00")}
    # the refund no longer counts against its sale
    assert (await till.journal.get(sold.id)).refunded == D("0.00")
    assert batch_no == 1


async def test_a_batch_another_till_closed_at_the_host_is_no_void(make_till: Any) -> None:
    """The host's batch belongs to the merchant: a store close from another till settles this
    till's sales too, and "Invoice Not Found" then means settled, not voided: nothing corrected."""
    till = await make_till("HD")
    other = await make_till("HD", till_number=2, sandbox=till.sandbox)
    first = (await sale(till.ctx, D("6.00"), card=CARD)).entry
    second = (await sale(till.ctx, D("9.00"), card=CARD)).entry
    totals = (await other.ctx.client.batch_totals(_today(), inclusive=True)).batch
    assert totals is not None
    await other.ctx.client.batch_submit(_today(), inclusive=True, net_amount=totals.net_amount)
    report = await recover(till.ctx)
    assert not report.corrected and not _notes(till)
    for entry in (first, second):
        assert (await till.journal.get(entry.id)).state is State.APPROVED


async def test_an_open_tab_voided_at_the_host_is_corrected(make_till: Any) -> None:
    """A tab is never batched: the host no longer knowing it means it was voided."""
    from cashier.flows.payments import authorize

    till = await make_till("LG")
    other = await make_till("LG", till_number=2, sandbox=till.sandbox)
    tab = (await authorize(till.ctx, D("30.00"), card=CARD)).entry
    await other.ctx.client.void(str(tab.invoice))
    report = await recover(till.ctx)
    assert [(e.invoice, e.state) for e in report.corrected] == [(tab.invoice, State.VOIDED)]
    assert (await till.journal.totals(0)).amount("auth_open", "USD") == D("0.00")


def _today() -> str:
    from cashier.flows.batch import _today as today

    return today()


def _amount(total: str) -> Any:
    from cashier.host.models.common import Amount

    return Amount(total=D(total))


def _card() -> Any:
    from cashier.host.models.common import Card

    return Card(number=CARD.number, expiration_date=CARD.expiration)
