"""Journal v16: a till upgraded mid-day. Its refunds journaled before a refund carried its own
tax (``Ticket.refund_tax``, its entry's tax) carried none, so its X/Z report for the day showed
no tax given back for them (the report used to work it out per ticket) and overstated the day's
net tax. The upgrade gives each its tax by the same rule, in the order they were made: the X
report then says what the same refunds say on a journal made new (decision 011, "Refunds
journaled before their tax")."""

from __future__ import annotations

import logging
import sqlite3
from decimal import Decimal
from typing import Any

import pytest

from cashier.cashdesk import CashDesk, open_recorder
from cashier.flows.ticket import Ticket
from cashier.journal.model import Entry, Kind, LineRefund, NewEntry, State
from cashier.journal.recorder import REFUND_TAX_EVENT
from cashier.journal.schema import version_of
from tests.support.journal_v15 import REFUNDS, refunds_without_tax


def _paid(store: Any, rate: str, *lines: tuple[str, int, str]) -> Ticket:
    tid = store.create_ticket(actor="101", tax_rate=Decimal(rate), tax_included=False,
                              tip_mode="none")
    for name, quantity, price in lines:
        store.add_ticket_line(tid, name=name, quantity=quantity, unit_price=Decimal(price),
                              actor="101")
    ticket = Ticket.of(store.ticket(tid))
    paid = store.create(NewEntry(Kind.CASH, ticket.total, actor="101", clerk="101", op="sale",
                                 ticket_id=tid))
    store.transition(paid.id, State.APPROVED, actor="101", approved=ticket.total)
    store.close_ticket(tid, "paid", actor="101")
    return Ticket.of(store.ticket(tid))


def _refund(store: Any, ticket: Ticket, amount: str, *, line: int | None = None,
            approve: bool = True) -> Entry:
    """Cash given back on a paid ticket: ``line`` (its index) a line refund, else an amount."""
    back: Entry = store.create(NewEntry(
        Kind.CASH, Decimal(amount), actor="102", clerk="102", op="refund", ticket_id=ticket.id,
        line_refund=None if line is None else LineRefund((ticket.lines[line].id,))))
    if not approve:
        return back  # never sent: its money not moved yet
    moved: Entry = store.transition(back.id, State.APPROVED, actor="102", approved=Decimal(amount))
    return moved


def _day(desk: CashDesk) -> tuple[Ticket, Ticket, Entry]:
    """The day's tickets and refunds, made by today's code: a line refund and an amount off the
    same ticket, an amount off another, and one more on that one not sent yet."""
    store = desk.recorder
    desk.open(clerk="101", float_amount="100.00")
    one = _paid(store, "10", ("Goods", 1, "10.00"), ("More", 1, "30.00"))  # 44.00, 4.00 tax
    two = _paid(store, "8.25", ("Goods", 2, "15.00"))  # 32.48, 2.48 tax
    assert _refund(store, one, "11.00", line=0).tax == Decimal("1.00")  # the line, its own tax
    assert _refund(store, one, "5.50").tax == Decimal("0.50")  # its share of the 3.00 left
    assert _refund(store, two, "16.24").tax == Decimal("1.24")
    waiting = _refund(store, two, "8.12", approve=False)
    assert waiting.tax == Decimal("0.62")  # 1.86 with the 16.24 before it, less its 1.24
    return one, two, waiting


def _as_v15_made_it(desk: CashDesk) -> None:
    """The till closed, its journal as version 15 wrote it (its refunds with no tax)."""
    path = desk.recorder.store.path
    desk.close()
    desk.recorder.close()
    refunds_without_tax(path)


def _reopened(desk: CashDesk) -> CashDesk:
    """The till after the upgrade: its writer opens the journal (and migrates it)."""
    return CashDesk(desk.profile, open_recorder(desk.profile))


def _taxes(store: Any) -> dict[int, int]:
    return {int(r[0]): int(r[1]) for r in store.conn.execute(
        f"SELECT id, tax_minor FROM entries WHERE {REFUNDS} ORDER BY id")}


def test_an_upgraded_till_reports_the_tax_its_earlier_refunds_gave_back(make_desk: Any) -> None:
    desk = make_desk()
    one, two, waiting = _day(desk)
    manager = desk.roster.manager("102", "2222")
    new = desk.x_report(manager)
    assert (new["tax"], new["tax_refunded"]) == ("3.74", "2.74")  # 6.48 charged, 2.74 back
    live = _taxes(desk.recorder)
    _as_v15_made_it(desk)
    after = _reopened(desk)
    try:
        store = after.recorder
        assert version_of(store.conn) == 16
        upgraded = after.x_report(manager)
        assert (upgraded["tax"], upgraded["tax_refunded"]) == (new["tax"], new["tax_refunded"])
        assert upgraded == {**new, **{k: upgraded[k] for k in ("to", "printed_at") if k in new}}
        # each refund that moved or may move money carries the tax it had on a journal made
        # new, in one event the store folds in as a move (its state, unchanged, and its tax)
        taxes = _taxes(store)
        assert taxes == {**live, waiting.id: 0}
        events = store.conn.execute("SELECT entry_id, actor, data FROM events WHERE type = ? "
                                    "ORDER BY id", (REFUND_TAX_EVENT,)).fetchall()
        assert [(r[0], r[1]) for r in events] == [(i, "system") for i in sorted(live)
                                                  if i != waiting.id]
        assert all('"state": "approved"' in r[2] for r in events)
        rows, totals = store.replay()  # the projection is still the events' fold
        assert rows == store.all_rows() and totals == store.live_totals()
        assert store.conn.execute("SELECT COUNT(*) FROM refund_tax_due").fetchone()[0] == 0
        # the one never sent gets its tax when it moves the money, as on a journal made new
        moved = store.transition(waiting.id, State.APPROVED, actor="102",
                                 approved=Decimal("8.12"))
        assert moved.tax == Decimal("0.62")
        assert after.x_report(manager)["tax_refunded"] == "3.36"
    finally:
        after.close()
        after.recorder.close()
    again = _reopened(desk)  # once: a second open prices nothing again
    try:
        assert again.recorder.conn.execute("SELECT COUNT(*) FROM events WHERE type = ?",
                                           (REFUND_TAX_EVENT,)).fetchone()[0] == 3
    finally:
        again.close()
        again.recorder.close()
    assert (one.tax, two.tax) == (Decimal("4.00"), Decimal("2.48"))


def test_a_ticket_that_cannot_be_priced_keeps_no_tax_and_is_logged_once(
        make_desk: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Damaged rows (a ticket's tax rate no number): its refunds keep 0, one line names it, and
    the till opens all the same; the other tickets' refunds get theirs."""
    desk = make_desk()
    one, two, _waiting = _day(desk)
    live = _taxes(desk.recorder)
    path = desk.recorder.store.path
    _as_v15_made_it(desk)
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("UPDATE tickets SET tax_rate = 'eight' WHERE id = ?", (two.id,))
    conn.close()
    with caplog.at_level(logging.WARNING, logger="cashier.journal.recorder"):
        after = _reopened(desk)
    try:
        taxes = _taxes(after.recorder)
        ones = {e.id for e in one.refunds} | {int(r[0]) for r in after.recorder.conn.execute(
            "SELECT id FROM entries WHERE ticket_id = ? AND op = 'refund'", (one.id,))}
        assert {i: t for i, t in taxes.items() if i in ones} == {i: live[i] for i in ones}
        assert {t for i, t in taxes.items() if i not in ones} == {0}
        assert after.recorder.conn.execute("SELECT COUNT(*) FROM refund_tax_due").fetchone()[0] == 0
    finally:
        after.close()
        after.recorder.close()
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 1 and f"tickets {two.id})" in warned[0], warned
