"""The books balance (issue #28): the journal's batch totals are the host's, field by field, after
a day of every kind of money movement; open tabs across a close; a capture within its
authorization; a gift card's real state; the real reason when invoice numbers cannot be asked."""

from __future__ import annotations

import sqlite3
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows import giftcards as gc
from cashier.flows import payments
from cashier.flows.batch import BatchBlocked, close_batch, reconcile
from cashier.journal.model import State
from cashier.journal.totals import rebuild_totals
from tests.support.books import CARD, GIFT, a_day_of_every_kind


def host_fields(rec: Any) -> tuple[Any, ...]:
    h = rec.host
    return (h.sale_amount, h.sale_count, h.refund_amount, h.refund_count, h.net_amount, h.net_count)


def journal_fields(rec: Any) -> tuple[Any, ...]:
    return (rec.sale_amount, rec.sale_count, rec.refund_amount, rec.refund_count, rec.net_amount,
            rec.net_count)


async def test_a_day_of_every_kind_balances_with_the_host_before_and_after_a_close(make_till: Any) -> None:
    till = await make_till("HD")
    await a_day_of_every_kind(till)
    rec = await reconcile(till.ctx)
    assert rec.host is not None
    assert journal_fields(rec) == host_fields(rec)
    # card 12.50 + 8.25, gift 15.00 + 25.00, QR 9.99, tab 23.00, sale 50.00 = 143.74 in 7
    assert (rec.sale_amount, rec.sale_count, rec.refund_amount, rec.refund_count) == (
        D("143.74"), 7, D("5.00"), 1)
    assert rec.matches
    batch_no, _ = await close_batch(till.ctx)
    assert batch_no == 1
    after = await reconcile(till.ctx)
    assert after.host is not None and journal_fields(after) == host_fields(after)
    assert (after.sale_amount, after.sale_count) == (D("0.00"), 0)
    # the next day's first sale is in the new batch on both sides
    await payments.sale(till.ctx, D("4.00"), card=CARD)
    later = await reconcile(till.ctx)
    assert later.host is not None and journal_fields(later) == host_fields(later) and later.matches


async def test_an_open_tab_blocks_the_close_until_the_manager_decides(make_till: Any) -> None:
    till = await make_till("HD")
    tab = await payments.authorize(till.ctx, D("33.00"), card=CARD)
    await payments.sale(till.ctx, D("10.00"), card=CARD)
    rec = await reconcile(till.ctx)
    assert [t.invoice for t in rec.open_tabs] == [tab.entry.invoice]
    assert rec.as_dict()["open_tabs"] == [{"invoice": tab.entry.invoice, "amount": "33.00"}]
    with pytest.raises(BatchBlocked, match=r"1 open tab .*33\.00.*carry"):
        await close_batch(till.ctx)
    with pytest.raises(BatchBlocked, match="open tab"):   # an override is for totals, not tabs
        await close_batch(till.ctx, override=True, manager_id="9")
    batch_no, _ = await close_batch(till.ctx, carry_over=True)
    assert batch_no == 1
    moved = await till.journal.by_invoice(str(tab.entry.invoice))
    assert moved is not None and moved.batch_no == 0   # carried into the open batch
    assert (await till.journal.totals(1)).count("auth_open") == 0
    assert (await till.journal.totals(0)).amount("auth_open") == D("33.00")
    captured = await payments.capture(till.ctx, str(tab.entry.invoice), tip=D("3.00"))
    assert captured.outcome == "captured"
    after = await reconcile(till.ctx)
    assert after.host is not None and journal_fields(after) == host_fields(after)
    assert (after.sale_amount, after.sale_count) == (D("36.00"), 1)
    closed = await till.journal.totals(1)
    assert (closed.amount("sale"), closed.count("capture")) == (D("10.00"), 0)


async def test_a_tab_left_in_a_closed_batch_is_booked_to_the_open_batch_when_captured(
        make_till: Any, tmp_path: Path) -> None:
    """A journal closed by an earlier version moved open tabs into the closed batch: their capture
    lands where the host puts it, in the open batch."""
    path = tmp_path / "older.sqlite"
    till = await make_till("HD", journal=path)
    tab = await payments.authorize(till.ctx, D("20.00"), card=CARD)
    with sqlite3.connect(path) as older:   # what the earlier close left behind
        older.execute("INSERT INTO batches(batch_no, closed_at, closed_by, override, summary) "
                      "VALUES (1, '2026-11-24T23:00:00+00:00', '1', 0, '{}')")
        older.execute("UPDATE entries SET batch_no = 1 WHERE id = ?", (tab.entry.id,))
        rebuild_totals(older)
    assert (await till.journal.totals(1)).amount("auth_open") == D("20.00")
    await payments.capture(till.ctx, str(tab.entry.invoice), tip=D("2.00"))
    entry = await till.journal.by_invoice(str(tab.entry.invoice))
    assert entry is not None and entry.batch_no == 0
    assert (await till.journal.totals(0)).amount("capture") == D("22.00")
    assert (await till.journal.totals(1)).count("auth_open") == 0
    rec = await reconcile(till.ctx)
    assert rec.host is not None and journal_fields(rec) == host_fields(rec)


@pytest.mark.parametrize(("amount", "tip", "field", "rule"), [
    (D("900.00"), D("0"), "amount", r"at most the 20\.00 authorized"),
    (D("20.01"), D("0"), "amount", r"at most the 20\.00 authorized"),
    (None, D("10.01"), "tip", r"at most 10\.00 \(50 % of the 20\.00 authorized\)"),
    (D("10.00"), D("10.01"), "tip", r"at most 10\.00 \(50 %"),
])
async def test_a_capture_stays_within_its_authorization(make_till: Any, amount: D | None, tip: D,
                                                        field: str, rule: str) -> None:
    till = await make_till("HD")
    tab = await payments.authorize(till.ctx, D("20.00"), card=CARD)
    before = await till.ledger()
    with pytest.raises(ValidationError, match=rule) as err:
        await payments.capture(till.ctx, str(tab.entry.invoice), amount, tip=tip)
    assert err.value.field == field
    assert await till.ledger() == before   # nothing sent
    entry = await till.journal.by_invoice(str(tab.entry.invoice))
    assert entry is not None and entry.state is State.APPROVED


async def test_the_bound_follows_the_profile_and_the_incremental(make_till: Any) -> None:
    till = await make_till("HD")
    till.ctx.max_tip_percent = D(20)
    tab = await payments.authorize(till.ctx, D("20.00"), card=CARD)
    assert payments.capture_bound(till.ctx, tab.entry) == (D("20.00"), D("4.00"))
    with pytest.raises(ValidationError, match=r"at most 4\.00 \(20 %"):
        await payments.capture(till.ctx, str(tab.entry.invoice), tip=D("4.01"))
    await payments.incremental(till.ctx, str(tab.entry.invoice), D("10.00"))
    raised = await till.journal.by_invoice(str(tab.entry.invoice))
    assert raised is not None
    assert payments.capture_bound(till.ctx, raised) == (D("30.00"), D("6.00"))
    done = await payments.capture(till.ctx, str(tab.entry.invoice), D("30.00"), tip=D("6.00"))
    assert (done.outcome, done.entry.captured) == ("captured", D("36.00"))


async def test_a_gift_card_shows_its_real_state(make_till: Any) -> None:
    till = await make_till("HD")
    card = gc.GiftCard(number=GIFT)
    await gc.activate(till.ctx, card, D("12.00"))
    assert (await gc.balance(till.ctx, card)).as_dict()["state"] == "active"
    await gc.cashback(till.ctx, card)
    after = await gc.balance(till.ctx, card)
    assert (after.active, after.state, after.deactivation_reason) == (False, "deactivated", "Cash out")
    assert after.as_dict()["active"] is False
    await gc.reactivate(till.ctx, card)
    assert (await gc.balance(till.ctx, card)).state == "active"
    never = await gc.balance(till.ctx, gc.GiftCard(number="2664650000009999"))
    assert (never.active, never.state) == (False, "not activated")
