"""The Journal refunds a ticket by line (F7) with real keys: the customer brings back the mug of
a three-line ticket paid by card and cash; the dialog shows what goes back where before asking."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal as D
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from cashier.flows.ticket import Tender, TicketSession, TicketSettings, load
from cashier.journal.model import Kind


def test_journal_refunds_the_ticked_line_to_the_latest_tender(make_gui: Callable[..., Any],
                                                              ui: Any) -> None:
    from ui.pages.journal import JournalPage
    from ui.ticket_refund import TicketRefundDialog

    gui = make_gui()  # training; the drawer open with a float
    ctx = gui.till.ctx
    assert gui.pinpad is not None
    gui.pinpad.auto.setChecked(True)  # the training customer taps the card

    async def paid_ticket() -> Any:
        session = await TicketSession.start(ctx, TicketSettings())
        for name, price in (("Coffee beans", "18.90"), ("Mug", "7.50"), ("Filters", "3.25")):
            await session.add_line(name, D(price))
        await session.pay(Tender("card", D("20.00")))
        return await session.pay(Tender("cash", D("10.00")))

    ticket = ui.run(paid_ticket())
    assert ticket.state == "paid" and ticket.total == D("29.65")
    w = gui.window
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    journal = w.go(JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    assert journal.select_invoice(ticket.tenders[0].invoice)
    assert journal.ticket_refund_button.isEnabled()
    QTest.keyClick(journal.table, Qt.Key.Key_F7)
    ui.until(lambda: isinstance(journal.ticket_dialog, TicketRefundDialog)
             and journal.ticket_dialog.isVisible(), what="the ticket refund dialog")
    dialog: TicketRefundDialog = journal.ticket_dialog
    assert dialog.lines.count() == 3
    # nothing ticked: the whole ticket, cash first (the latest tender), then the card
    assert dialog.summary.text() == "Goes back: $29.65 (Cash $9.65, Card …1119 $20.00)"
    QTest.keyClick(dialog.lines, Qt.Key.Key_Down)  # to the mug
    QTest.keyClick(dialog.lines, Qt.Key.Key_Space)
    assert dialog.chosen_lines() == [1]
    assert dialog.summary.text() == "Goes back: $7.50 (Cash $7.50)"
    QTest.keyClick(dialog.lines, Qt.Key.Key_Return)
    ui.until(lambda: "refunded" in journal.message.text(), what="the refund's result")
    assert journal.message.text() == f"Ticket {ticket.id}: $7.50 refunded."
    after = ui.run(load(ctx, ticket.id))
    assert [(e.kind, e.approved) for e in after.refunds] == [(Kind.CASH, D("7.50"))]

    # Esc leaves without sending anything
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    ui.until(lambda: journal.select_invoice(ticket.tenders[0].invoice), what="the row again")
    QTest.keyClick(journal.table, Qt.Key.Key_F7)
    ui.until(lambda: journal.ticket_dialog is not None and journal.ticket_dialog.isVisible(),
             what="the dialog again")
    assert journal.ticket_dialog.summary.text() == "Goes back: $22.15 (Cash $2.15, Card …1119 $20.00)"
    # the mug went back once: shown so, and it can no longer be ticked (issue #46)
    mug = journal.ticket_dialog.lines.item(1)
    assert mug.text().endswith("(refunded)")
    assert not mug.flags() & Qt.ItemFlag.ItemIsUserCheckable
    journal.ticket_dialog.lines.setCurrentRow(1)
    QTest.keyClick(journal.ticket_dialog.lines, Qt.Key.Key_Space)
    assert journal.ticket_dialog.chosen_lines() is None
    QTest.keyClick(journal.ticket_dialog.lines, Qt.Key.Key_Escape)
    ui.spin(0.1)
    assert len(ui.run(load(ctx, ticket.id)).refunds) == 1  # still only the mug
