"""E-mailed receipts in the window (issue #41), on a training till: the PIN pad offers it after a
card sale (``[email] offer_on_pad``), the customer types the address on the pad (a bad one is
said in one line and asked again), and the Mail window shows the message as the customer gets it;
from the Journal, the cashier types it (Ctrl+E)."""

from __future__ import annotations

from decimal import Decimal
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
    # the Mail window shows it as the sender hands it over, a moment before the row is marked
    row = ui.until(lambda: next((r for r in gui.cashdesk.recorder.mail.mail_rows() if r.state == "sent"),
                                None), what="the row marked sent")
    assert len(gui.cashdesk.recorder.mail.mail_rows()) == 1
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


def _typed(ui: Any, gui: Any, page: Any, address: str) -> str:
    """Ctrl+E on ``page`` (the result's key), the address typed by the cashier: the message as
    the Mail window shows it."""
    gui.window.activateWindow()
    QTest.qWaitForWindowActive(gui.window, 2000)
    QTest.keyClick(gui.window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    dialog = ui.until(lambda: page.findChild(EmailDialog), what="the e-mail prompt")
    dialog.address.setText(address)
    QTest.keyClick(dialog.address, Qt.Key.Key_Return)
    ui.until(lambda: gui.mail_window is not None and gui.mail_window.shown, what="the message")
    return str(gui.mail_window.shown[-1])


def test_the_qr_result_carries_the_email_key(ui: Any, make_gui: Any) -> None:
    from cashier.flows.qr import QrPolling
    from ui.pages.qr import QrPage

    gui = make_gui()
    qr = gui.window.go(QrPage)
    qr.polling = QrPolling(first_s=0.03, factor=1.5, max_s=0.08, wait_s=20.0)
    qr.amount.set_value(Decimal("8.40"))
    qr.start_typed()
    ui.until(lambda: qr.customer_pays_button.isEnabled(), what="the code on screen")
    qr.customer_pays_button.click()
    ui.until(lambda: qr.on_result, what="QR result")
    button = qr.email_result_button
    assert button is not None and button.isVisible() and button.isEnabled()
    assert "[Ctrl+E]" in button.text()
    shown = _typed(ui, gui, qr, "jane@example.com")
    assert "To: jane@example.com" in shown and "8.40" in shown and qr.outcome is not None
    assert str(qr.outcome.entry.invoice) in shown
    assert "queued for e-mail" in qr.result_message.text()


def test_the_gift_card_result_carries_the_email_key(ui: Any, make_gui: Any) -> None:
    from ui.pages.giftcard import GiftCardPage

    gui = make_gui()
    page = gui.window.go(GiftCardPage)
    page.card_field.setText("2664654648774")
    page.take_number()
    button = page.email_result_button
    assert button is not None and not button.isEnabled()  # nothing done yet: nothing to send
    page.amount.set_value(Decimal("10.00"))
    page.activate_button.click()
    ui.until(lambda: "Approved" in page.result_title.text(), what="activated")
    assert button.isVisible() and button.isEnabled()
    entry = ui.run(gui.till.ctx.journal.search(kinds=["giftcard_activate"]))[0]
    shown = _typed(ui, gui, page, "jane@example.com")
    assert str(entry.invoice) in shown and "10.00" in shown
    page.balance_button.click()  # a balance is no receipt: the key is off again
    ui.until(lambda: page.result_title.text().startswith("Balance:"), what="balance")
    assert not button.isEnabled()


def test_a_refund_from_the_journal_carries_the_email_key(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = _card_sale(ui, gui, "3000")
    journal = gui.window.go(JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    assert journal.select_invoice(str(sale.result.entry.invoice))
    assert not journal.email_button.isVisible()  # the sale's again: F9 first
    journal.refund_amount.set_value(Decimal("10.00"))
    journal.refund_button.click()  # asks
    journal.refund_button.click()  # confirmed
    ui.until(lambda: journal.email_button.isVisible() and "Approved" in journal.message.text(),
             what="the refund's result with its e-mail key")
    refund = ui.run(gui.till.ctx.journal.search(kinds=["refund"]))[0]
    shown = _typed(ui, gui, journal, "jane@example.com")
    assert "REFUND" in shown and "10.00" in shown and str(refund.invoice) in shown
    assert "*** COPY ***" not in shown  # the refund's own receipt, not a reprint
    journal.table.clearSelection()  # another row (none): its receipt again, after F9
    ui.until(lambda: not journal.email_button.isVisible(), what="the refund's key gone")
