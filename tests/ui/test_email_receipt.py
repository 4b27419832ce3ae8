"""E-mailed receipts in the window (issue #41), on a training till: the PIN pad offers it after a
card sale (``[email] offer_on_pad``), the customer types the address on the pad (a bad one is
said in one line and asked again), and the Mail window shows the message as the customer gets it;
from the Journal, the cashier types it (Ctrl+E)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from ui.email_prompt import EmailDialog
from ui.pages.journal import JournalPage
from ui.pages.sale import SalePage


def _card_sale(ui: Any, gui: Any, amount: str) -> Any:
    pad = gui.pinpad
    sale = gui.window.go(SalePage)
    gui.window.activateWindow()
    QTest.qWaitForWindowActive(gui.window, 2000)
    QTest.keyClicks(sale.amount, amount)
    QTest.keyClick(sale.amount, Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    pad.tap_button.click()
    ui.until(lambda: sale.stack.currentWidget() is sale.result_page, what="result")
    assert sale.result.outcome == "approved"
    return sale


def test_the_pad_offers_it_the_customer_types_it_and_the_mail_window_shows_it(
        ui: Any, make_gui: Any) -> None:
    gui = make_gui(email={"offer_on_pad": True}, company_name="Corner Shop")
    assert gui.mail_window is None  # made with the first message
    pad = gui.pinpad
    sale = _card_sale(ui, gui, "1250")
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "input", what="address prompt")
    first = pad.prompt.id
    dialog = sale.findChild(EmailDialog)
    assert dialog is not None
    pad.input.setText("jane@example")
    pad.input_ok.click()
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "input" and pad.prompt.id != first,
             what="asked again")
    assert "must end in a domain such as example.com" in dialog.message.text()
    pad.input.setText("jane@example.com")
    pad.input_ok.click()
    ui.until(lambda: gui.mail_window is not None and gui.mail_window.shown,
             what="the message in the Mail window")
    window: Any = gui.mail_window
    assert window.isVisible()
    shown = window.shown[0]
    assert "To: jane@example.com" in shown and "Corner Shop" in shown and "12.50" in shown
    assert "receipt-" in shown and ".pdf" in shown
    (row,) = gui.cashdesk.recorder.mail.mail_rows()
    assert (row.state, row.address) == ("sent", "j***@example.com")


def test_from_the_journal_the_cashier_types_the_address(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    _card_sale(ui, gui, "700")
    journal = gui.window.go(JournalPage)
    ui.until(lambda: journal.selected() is not None and journal.email_button.isEnabled(),
             what="an entry selected")
    assert not journal.email_button.isVisible()  # F9 first: the entry, then Ctrl+E
    journal.details_button.click()
    ui.until(lambda: journal.email_button.isVisible(), what="the entry's details")
    journal.email_button.click()
    dialog = journal.findChild(EmailDialog)
    assert dialog is not None
    dialog.address.setText("Jane <jane@example.com>")
    QTest.keyClick(dialog.address, Qt.Key.Key_Return)
    assert "to: must not contain" in dialog.message.text()
    assert gui.cashdesk.recorder.mail.mail_rows() == []  # nothing queued
    dialog.address.setText("jane@example.com")
    QTest.keyClick(dialog.address, Qt.Key.Key_Return)
    ui.until(lambda: gui.mail_window is not None and gui.mail_window.shown,
             what="the message in the Mail window")
    assert "*** COPY ***" in gui.mail_window.shown[0]  # sent again from the journal: a copy
    assert "queued for e-mail" in journal.message.text()


def test_a_message_given_up_is_shown_to_the_manager_with_the_reason(ui: Any, make_gui: Any) -> None:
    from ui.pages.manager import ManagerPage

    gui = make_gui()
    mail = gui.cashdesk.recorder.mail
    mail.queue_mail(receipt="7", message_id="<receipt-7-1.x@training.invalid>",
                    address="jane@example.com", message=b"x", clerk="1")
    (row,) = mail.claim_mail("test", lambda _owner: True, due_by=None)
    mail.mail_done(row.id, "test", sent=False, masked="j***@example.com",
                   reason="recipient refused: 550 5.1.1 <j***@example.com>: User unknown")
    manager = gui.window.go(ManagerPage)
    manager.pin.setText("1234")
    manager.unlock()
    ui.until(lambda: "User unknown" in manager.mail_failures_view.text(), what="the failure listed")
    shown = manager.mail_failures_view.text()
    assert "receipt 7" in shown and "j***@example.com" in shown and "jane@" not in shown
