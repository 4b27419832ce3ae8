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
from cashier.host.models.common import Amount, Card
from cashier.journal.model import NewEntry, State
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
    lost = await till.journal.create(NewEntry("sale", D("3.00"), actor="1", op="sale", sent=True))
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


async def test_another_request_under_an_error_invoice_is_not_adopted(make_till: Any) -> None:
    """A replaced journal of the same till reused a number its predecessor burned (the host never
    recorded it) for another customer's sale: the old journal's ``recover`` leaves its own entry
    in error instead of taking that sale as its own (the hostile run found it counted twice)."""
    till = await make_till("HD")
    burned = await till.journal.create(NewEntry("sale", D("3.00"), actor="1", op="sale", sent=True))
    await till.journal.transition(burned.id, State.ERROR, actor="1", message="not charged")
    # the replacement's sale under the same number: another amount, and another card
    other_card = Card(number="5432000000003332", expiration_date=1230)
    await till.ctx.client.sale(invoice=str(burned.invoice), amount=_amount("103.64"), card=other_card)
    report = await recover(till.ctx)
    assert not report.corrected
    assert (await till.journal.get(burned.id)).state is State.ERROR
    assert (await till.journal.totals(0)).amount("sale", "USD") == D("0.00")
    # the same amount on another card is not ours either; ours (the earlier test) is corrected
    again = await till.journal.create(NewEntry("sale", D("4.00"), actor="1", op="sale", sent=True,
                                      card=CARD.number))
    await till.journal.transition(again.id, State.ERROR, actor="1", message="not charged")
    await till.ctx.client.sale(invoice=str(again.invoice), amount=_amount("4.00"), card=other_card)
    assert not (await recover(till.ctx)).corrected


async def test_a_lost_answer_never_takes_another_request_as_its_own(make_till: Any) -> None:
    """Asked after a lost answer, the host holds the invoice for another amount. On the card the
    till keyed (no PIN pad could add to it): another request, so ours was not charged. On a card
    read on the pad, more than asked with no tip named may be a tip this host does not name:
    unknown, saying why, for the manager (not "not charged": the cashier would charge again);
    asked again by recovery, it is journaled once."""
    from cashier.flows.base import OTHER_REQUEST, UNSURE_REQUEST, resolve

    till = await make_till("HD")
    keyed = await till.journal.create(NewEntry("sale", D("12.34"), actor="1", op="sale", sent=True,
                                      card=CARD.number))
    await till.ctx.client.sale(invoice=str(keyed.invoice), amount=_amount("50.00"), card=_card())
    settled = await resolve(till.ctx, keyed, trust_not_found=True, delays_s=(0,))
    assert (settled.state, settled.message, settled.approved) == (State.ERROR, OTHER_REQUEST, D("0.00"))

    on_pad = await till.journal.create(NewEntry("sale", D("12.34"), actor="1", op="sale", sent=True))
    await till.ctx.client.sale(invoice=str(on_pad.invoice), amount=_amount("50.00"), card=_card())
    settled = await resolve(till.ctx, on_pad, trust_not_found=True, delays_s=(0,))
    assert (settled.state, settled.message) == (State.UNKNOWN, UNSURE_REQUEST)
    events = len(await till.journal.events(on_pad.id))
    report = await recover(till.ctx)
    assert [e.invoice for e in report.still_open] == [on_pad.invoice]
    assert len(await till.journal.events(on_pad.id)) == events
    assert (await till.journal.totals(0)).amount("sale", "USD") == D("0.00")

    # ours under its own invoice is approved
    mine = await till.journal.create(NewEntry("sale", D("10.00"), actor="1", op="sale", sent=True))
    await till.ctx.client.sale(invoice=str(mine.invoice), amount=_amount("10.00"), card=_card())
    settled = await resolve(till.ctx, mine, trust_not_found=True, delays_s=(0,))
    assert (settled.state, settled.approved) == (State.APPROVED, D("10.00"))


def test_what_the_host_names_on_top_or_a_partial_approval_is_still_this_request() -> None:
    """The rule itself: a tip, cashback or surcharge the host names comes on top of what the
    till asked; a partial approval is less; more with nothing named is unsure only on a card read
    on the PIN pad; anything else is another request."""
    import dataclasses

    from cashier.flows.base import whose_request
    from cashier.host.models.transactions import TransactionInfo, TransactionResult
    from cashier.journal.model import Entry

    fields: dict[str, Any] = {f.name: None for f in dataclasses.fields(Entry)}
    zero = D("0.00")
    keyed = Entry(**{**fields, "id": 1, "till_id": "t", "kind": "sale", "state": State.SENT,
                     "currency": "USD", "requested": D("10.00"), "approved": zero, "tip": zero,
                     "tax": zero, "captured": zero, "refunded": zero, "pending": D("10.00"),
                     "card_last4": "1119", "training": False, "created_at": "", "updated_at": "",
                     "business_date": "", "batch_no": 0, "attempts": 1})
    on_pad = dataclasses.replace(keyed, card_last4=None)

    def whose(entry: Entry, code: str, number: str = "XXXXXXXXXXXX1119", **amount: str) -> str:
        return whose_request(entry, TransactionResult(
            amount=Amount(**{k: D(v) for k, v in amount.items()}),
            card=Card(number=number), transaction=TransactionInfo(response_code=code)))

    assert whose(keyed, "A", total="10.00") == "ours"
    assert whose(keyed, "A", total="12.00", tip="2.00") == "ours"
    assert whose(keyed, "A", total="30.00", cashback="20.00") == "ours"
    assert whose(keyed, "A", total="10.50", surcharge="0.50") == "ours"
    assert whose(keyed, "P", total="4.00") == "ours"
    assert whose(keyed, "A", total="9.99") == "another"
    assert whose(keyed, "A", total="12.00") == "another"
    assert whose(keyed, "A", total="13.00", tip="2.00") == "another"
    assert whose(keyed, "A", total="10.00", number="XXXXXXXXXXXX3332") == "another"
    assert whose(on_pad, "A", total="12.00") == "unsure"
    assert whose(on_pad, "A", total="13.00", tip="2.00") == "another"
    assert whose(on_pad, "A", total="9.99") == "another"
    assert whose(on_pad, "A", total="12.00", tip="2.00", number="XXXXXXXXXXXX3332") == "ours"


async def test_the_journal_changes_amounts_only_with_a_move(make_till: Any) -> None:
    """What the store holds a till to (``MOVED_WITH_STATE``): every event of the journal that
    changes an amount asked or approved names the entry's state. Checked over a day's flows: a
    partial approval, a tab raised and captured with a tip, a linked refund, a void, a gift card."""
    import json

    from cashier.flows import giftcards, payments
    from cashier.flows.recovery import void
    from cashier.journal.model import MOVED_WITH_STATE

    till = await make_till("HD")
    sold = (await sale(till.ctx, D("20.00"), card=CARD)).entry
    await sale(till.ctx, D("3.00"), tip=D("0.50"), card=CARD)
    await refund(till.ctx, D("4.00"), original_invoice=sold.invoice)
    tab = (await payments.authorize(till.ctx, D("20.00"), card=CARD)).entry
    await payments.incremental(till.ctx, str(tab.invoice), D("10.00"))
    await payments.capture(till.ctx, str(tab.invoice), D("30.00"), tip=D("5.00"))
    await void(till.ctx, str((await sale(till.ctx, D("9.00"), card=CARD)).entry.invoice))
    gift = giftcards.GiftCard("2664650000005678")
    await giftcards.activate(till.ctx, gift, D("50.00"))
    await sale(till.ctx, D("80.00"), giftcard=gift)  # partly approved: the card holds 50.00
    rows = till.journal.recorder.conn.execute(
        "SELECT type, data FROM events WHERE entry_id IS NOT NULL").fetchall()
    changed = [(row[0], json.loads(row[1])) for row in rows]
    moved_amounts = [(t, d) for t, d in changed if t != "created" and set(d) & set(MOVED_WITH_STATE)]
    assert {"sent", "approved", "captured"} <= {t for t, _ in moved_amounts}, moved_amounts
    assert [(t, d) for t, d in moved_amounts if "state" not in d] == []


async def test_a_void_never_reverses_another_request_under_an_unknown_invoice(
        make_till: Any) -> None:
    """A payment whose outcome was never known is voided by its number, so the void asks first:
    the host holding another customer's sale under it, the void is refused (the entry back to
    unknown, journaled) and the other sale stays; one that is ours is voided as before."""
    from cashier.flows.recovery import void

    till = await make_till("HD")

    async def unknown(asked: str, held: str) -> Any:
        """A keyed sale of ``asked`` left unknown, its number holding a sale of ``held``."""
        entry = await till.journal.create(NewEntry("sale", D(asked), actor="1", op="sale", sent=True,
                                          card=CARD.number))
        await till.ctx.client.sale(invoice=str(entry.invoice), amount=_amount(held), card=_card())
        return await till.journal.transition(entry.id, State.UNKNOWN, actor="1", message="no answer")

    lost = await unknown("12.34", "50.00")
    refused = await void(till.ctx, str(lost.invoice))
    assert refused.entry.state is State.UNKNOWN
    assert "another customer's sale" in str(refused.entry.message)
    assert (await till.ledger())[str(lost.invoice)]["state"] == "sale"

    ours = await unknown("8.00", "8.00")
    voided = await void(till.ctx, str(ours.invoice))
    assert voided.entry.state is State.VOIDED
    assert (await till.ledger())[str(ours.invoice)]["state"] == "voided"
