"""Discounts and a price override on the Sale screen (issue #38), with real key presses on a till
with clerks: Ctrl+D gives a cashier's 10 % staff discount on the last line without asking anyone,
Alt+D a 30 % loyalty discount on the ticket only with the manager's PIN (the shared
prompt), Ctrl+P refuses a typed line (a price is typed over a catalog product's only). The rules
are the core's (``SaleEntry``, ``TicketSession``); the window only asks."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QInputDialog, QLineEdit

from tests.support.profiles import CLERKS
from tests.support.sale_screen import SaleDriver
from ui.email_prompt import EmailDialog
from ui.i18n import format_money


def answer_dialogs(seen: list[str], answers: list[str | None]) -> None:
    """Answer the next input dialogs in turn, as a cashier would: a text typed then Return, a
    reason chosen from the list then Return, a PIN typed (None: Escape)."""
    done: list[object] = []

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog) or (done and dialog is done[-1]):
            QTimer.singleShot(20, step)
            return
        done.append(dialog)
        answer = answers[len(done) - 1]
        seen.append(dialog.labelText())
        combo = dialog.findChild(QComboBox)
        field = combo if combo is not None and combo.isVisible() else dialog.findChild(QLineEdit)
        assert field is not None
        if answer is None:
            QTest.keyClick(field, Qt.Key.Key_Escape)
        elif isinstance(field, QComboBox):
            field.setCurrentIndex(field.findText(answer))
            QTest.keyClick(field, Qt.Key.Key_Return)
        else:
            QTest.keyClicks(field, answer)
            QTest.keyClick(field, Qt.Key.Key_Return)
        if len(done) < len(answers):
            QTimer.singleShot(20, step)
    QTimer.singleShot(20, step)


def test_discounts_from_the_keys_and_the_manager_asked_above_the_limit(
        ui: Any, make_gui: Callable[..., Any]) -> None:
    gui = make_gui(clerks=CLERKS, drawer_float=None)
    w = gui.window
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    QTest.keyClicks(gui.sign_in.pin, "1111")
    QTest.keyClick(gui.sign_in.pin, Qt.Key.Key_Return)
    sale = SaleDriver(ui, gui)
    page = sale.page
    assert not page.entry_stage.discount_line_button.isEnabled()  # no line yet
    sale.add_line("Tea", "1000")
    sale.add_line("Cake", "500")
    assert page.entry_stage.discount_line_button.isEnabled()
    seen: list[str] = []
    answer_dialogs(seen, ["10%", "staff"])
    sale.press(Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    ui.until(lambda: page.task is not None and page.task.done(), what="discount")
    ticket = page.ticket
    assert ticket is not None and ticket.discount_dicts()[0]["amount"] == "0.50"  # on Cake
    assert ticket.discount_dicts()[0]["approved_by"] is None and len(seen) == 2
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    answer_dialogs(seen, ["30%", "loyalty", None])  # the manager walks away: nothing given
    sale.press(Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    assert seen[-1].startswith("A discount of 30 % needs a manager's approval")
    assert len(ui.run(gui.till.ctx.journal.ticket(ticket.id)).discounts) == 1
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    answer_dialogs(seen, ["30%", "loyalty", "2222"])
    sale.press(Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    ui.until(lambda: page.ticket is not None and len(page.ticket.record.discounts) == 2
             and page.task is not None and page.task.done(), what="the manager's discount")
    t = page.ticket
    assert t is not None and t.discount_dicts()[1]["approved_by"] == "102"
    assert t.discounts == Decimal("0.50") + Decimal("4.35")  # 30 % of 14.50
    # the screen's subtotal is after the discounts: it and the tax make the total shown
    figures = page.model.fields().figures
    assert figures.subtotal + figures.tax == figures.total == t.total
    table = page.entry_stage.ticket_panel.lines_list  # each line at what it now costs
    items = [table.item(row, 1) for row in range(table.rowCount())]
    shown = [item.text() for item in items if item is not None]
    assert shown == [format_money(line.net, "USD") for line in t.priced.lines]
    assert sum(line.net for line in t.priced.lines) == figures.subtotal
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    ui.until(lambda: page.task is not None and page.task.done(), what="idle")
    sale.press(Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)  # a typed line: no one asked
    assert "catalog product" in page.error_label.text() and len(seen) == 8


def test_a_comp_is_finished_by_the_cash_key_as_paid(ui: Any, make_gui: Callable[..., Any]) -> None:
    """Issue #38: a Bun given away (Ctrl+D, 100 % on its line, the manager's PIN) is finished by
    F11 like any other ticket, with no drawer open: the result screen says Paid with the ticket,
    its receipt shows, and the journal has the ticket paid with no tender (nothing taken)."""
    gui = make_gui(clerks=CLERKS, drawer_float=None)
    w = gui.window
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    QTest.keyClicks(gui.sign_in.pin, "1111")
    QTest.keyClick(gui.sign_in.pin, Qt.Key.Key_Return)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.add_line("Bun", "250")
    seen: list[str] = []
    answer_dialogs(seen, ["100%", "staff", "2222"])
    sale.press(Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    ui.until(lambda: page.ticket is not None and page.ticket.total == 0
             and page.task is not None and page.task.done(), what="the comp")
    assert seen[-1].startswith("A discount of 100 % needs a manager's approval")
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    assert page.ticket is not None
    ticket_id = page.ticket.id
    sale.press(Qt.Key.Key_F11)
    assert sale.wait_result() is None  # no tender: nothing was taken
    assert page.result_title.text() == "Paid" and page.error_label.text() == ""
    assert f"Ticket: {ticket_id}" in page.result_details.text()
    assert page.result_amount.text() == format_money(Decimal(0), "USD")
    assert page.print_button.isEnabled() and page.result_stage.email_button.isEnabled()
    QTest.keyClick(w.focusWidget(), Qt.Key.Key_F9)  # Show receipt
    receipt = page.receipt_view.toPlainText()
    assert page.receipt_view.isVisibleTo(page) and "Bun" in receipt and "(staff)" in receipt
    QTest.keyClick(w.focusWidget(), Qt.Key.Key_F8)  # Print receipt, on the PIN pad
    ui.until(lambda: page.result_message.text() == "Receipt printed on the PIN pad.",
             what="the receipt printed")
    ticket = ui.run(gui.till.ctx.journal.ticket(ticket_id))
    assert ticket.state == "paid" and ticket.entries == ()
    QTest.keyClick(w.focusWidget(), Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    dialog = page.findChild(EmailDialog)
    assert dialog is not None
    QTest.keyClicks(dialog.address, "jane@example.com")
    QTest.keyClick(dialog.address, Qt.Key.Key_Return)
    row = ui.until(lambda: next(iter(gui.cashdesk.recorder.mail.mail_rows()), None),
                   what="the receipt queued")
    assert row.receipt == str(ticket_id)  # the paid ticket's receipt
