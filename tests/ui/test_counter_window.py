"""A counter with a queue (issue 13): keys that do what they say, guards on what cannot be undone,
a status bar that alarms only when needed. Every test drives the window with real key presses
against the embedded sandbox."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from cashier.flows.qr import QrPolling
from tests.support.sale_screen import approved_sale
from tests.support.screens import entries, go_to, until_entry
from ui import keys
from ui.pages.giftcard import GiftCardPage
from ui.pages.journal import JournalPage
from ui.pages.manager import ManagerPage
from ui.pages.qr import QrPage
from ui.pages.sale import SalePage
from ui.pages.tabs import TabsPage

FAST = QrPolling(first_s=0.03, factor=1.5, max_s=0.08, wait_s=20.0)


# ---- item 1: Return starts the QR payment; Esc clears every amount ------------------------------
def test_qr_return_shows_the_code_and_esc_clears(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    qr = go_to(gui, QrPage)
    qr.polling = FAST
    QTest.keyClicks(qr.amount, "999")
    QTest.keyClick(qr.amount, Qt.Key.Key_Escape)
    assert qr.amount.value == 0  # Esc cleared what was typed
    QTest.keyClicks(qr.amount, "1250")
    QTest.keyClick(qr.amount, Qt.Key.Key_Return)  # the main Return key, not only F2 or keypad Enter
    assert qr.stack.currentWidget() is qr.waiting_page
    ui.until(lambda: qr.scan.text_value, what="code on screen")
    QTest.keyClick(qr.cancel_button, Qt.Key.Key_Escape)  # Esc cancels while the code is shown
    ui.until(lambda: qr.stack.currentWidget() is qr.result_page, what="result")
    assert qr.outcome is not None and qr.outcome.outcome == "voided"
    QTest.keyClick(qr.new_button, Qt.Key.Key_Return)  # Return after the result: a new one
    assert qr.stack.currentWidget() is qr.entry_page and qr.amount.value == 0


def test_esc_clears_the_amount_on_tabs_gift_card_and_journal(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    approved_sale(ui, gui, "3000")
    for cls, field in ((TabsPage, "amount"), (GiftCardPage, "amount")):
        page = go_to(gui, cls)
        amount = getattr(page, field)
        amount.setFocus()
        QTest.keyClicks(amount, "4321")
        assert amount.value == Decimal("43.21")
        QTest.keyClick(amount, Qt.Key.Key_Escape)
        assert amount.value == 0, cls.__name__
    journal = go_to(gui, JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    journal.table.selectRow(0)
    assert journal.refund_amount.value == Decimal("30.00")
    journal.refund_amount.setFocus()
    QTest.keyClick(journal.refund_amount, Qt.Key.Key_Escape)
    assert journal.refund_amount.value == 0


# ---- item 4: Open tabs, the tip typed after choosing a row ------------------------------------------
def test_tip_typed_after_selecting_a_tab_goes_to_the_tip_and_f4_never_closes_silently(
        ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    tabs = go_to(gui, TabsPage)
    for typed in ("6000", "2500"):
        tabs.amount.setFocus()
        QTest.keyClicks(tabs.amount, typed)
        QTest.keyClick(tabs.amount, Qt.Key.Key_F2)  # open the tab
        ui.until(lambda n=typed: any(e.approved == Decimal(n) / 100 for e in tabs.entries),
                 what="tab listed")
    tabs.table.setFocus()
    QTest.keyClick(tabs.table, Qt.Key.Key_Home)  # the cashier picks the first tab with the keys
    first = tabs.selected()
    assert first is not None
    QTest.keyClicks(tabs.table, "900")  # typed while the table has the keyboard
    assert tabs.amount.value == Decimal("9.00")
    QTest.keyClick(tabs.amount, Qt.Key.Key_F4)
    ui.until(lambda: "Captured" in tabs.message.text(), what="captured")
    captured = next(e for e in entries(ui, gui, kinds=["authorization"]) if e.invoice == first.invoice)
    assert captured.tip == Decimal("9.00") and captured.captured == first.approved + Decimal("9.00")
    # the other tab, F4 with no tip typed: asked once, nothing sent until F4 again
    ui.until(lambda: len(tabs.entries) == 1, what="one tab left")
    tabs.table.setFocus()
    QTest.keyClick(tabs.table, Qt.Key.Key_Home)
    second = tabs.selected()
    QTest.keyClick(tabs.table, Qt.Key.Key_F4)
    assert "No tip typed" in tabs.message.text() and second.invoice in tabs.message.text()
    assert str(entries(ui, gui, invoice=second.invoice)[0].state) == "approved"
    QTest.keyClick(tabs.table, Qt.Key.Key_F4)
    ui.until(lambda: not tabs.entries, what="second tab closed")
    # (the list drops the tab as the capture is sent; the journal says captured once it answered)
    closed = until_entry(ui, gui, lambda e: str(e.state) == "captured", "captured",
                          invoice=second.invoice)
    assert closed.tip == 0


# ---- item 6: irreversible actions ask once, naming what and how much; one key map --------------------
def test_journal_refund_f6_asks_once_naming_the_amount(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    sale = approved_sale(ui, gui, "3000")
    journal = go_to(gui, JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    assert journal.select_invoice(sale.invoice)
    journal.refund_amount.setFocus()
    QTest.keyClick(journal.refund_amount, Qt.Key.Key_F6)
    assert "Refund $30.00 of invoice " + sale.invoice in journal.message.text()
    assert "F6 again" in journal.message.text()
    assert [str(e.kind) for e in entries(ui, gui)] == ["sale"]  # nothing sent yet
    QTest.keyClick(journal.refund_amount, Qt.Key.Key_Escape)
    QTest.keyClicks(journal.refund_amount, "1000")  # a changed amount is asked about again
    QTest.keyClick(journal.refund_amount, Qt.Key.Key_F6)
    assert "Refund $10.00" in journal.message.text()
    assert [str(e.kind) for e in entries(ui, gui)] == ["sale"]
    QTest.keyClick(journal.refund_amount, Qt.Key.Key_F6)
    refund = until_entry(ui, gui, lambda e: str(e.state) == "approved", "refund approved",
                          kinds=["refund"])
    assert refund.approved == Decimal("10.00") and refund.original_invoice == sale.invoice


def test_gift_card_cancel_last_asks_once_on_f12_and_f9_cancels_nothing(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gift = go_to(gui, GiftCardPage)
    gift.card_field.setFocus()
    QTest.keyClicks(gift.card_field, "2664654648774")
    QTest.keyClick(gift.card_field, Qt.Key.Key_Return)
    QTest.keyClicks(gift.amount, "2000")
    QTest.keyClick(gift.amount, Qt.Key.Key_F3)  # activate with 20.00
    ui.until(lambda: gift.last_invoice is not None, what="activation done")
    invoice = gift.last_invoice
    QTest.keyClick(gift.amount, Qt.Key.Key_F9)  # F9 means "show", never "cancel"
    QTest.keyClick(gift.amount, Qt.Key.Key_F12)
    assert f"invoice {invoice} ($20.00)" in gift.result_text.text() and "F12 again" in gift.result_text.text()
    assert str(entries(ui, gui, invoice=invoice)[0].state) == "approved", gift.result_text.text()
    QTest.keyClick(gift.amount, Qt.Key.Key_F12)
    until_entry(ui, gui, lambda e: str(e.state) == "voided", "cancelled", invoice=invoice)


def test_batch_close_alt_b_asks_once_naming_the_totals(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    approved_sale(ui, gui, "1500")
    manager = go_to(gui, ManagerPage)
    manager.pin.setFocus()
    QTest.keyClicks(manager.pin, "1234")
    QTest.keyClick(manager.pin, Qt.Key.Key_Return)
    ui.until(lambda: manager.reconciliation is not None, what="unlocked")
    QTest.keyClick(manager, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    ui.until(lambda: "Alt+B again" in manager.batch_message.text(), what="asked")
    assert "Sales: 1 ($15.00)" in manager.batch_message.text()
    assert ui.run(gui.till.ctx.journal.search())[0].batch_no == 0  # still open
    QTest.keyClick(manager, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    ui.until(lambda: "closed" in manager.batch_message.text(), what="batch closed")
    assert ui.run(gui.till.ctx.journal.search())[0].batch_no != 0


def test_one_key_map_for_every_screen(ui: Any, make_gui: Any) -> None:
    """Buttons that give money back or undo use F12 (and ask); F9 only shows; F8 only prints."""
    gui = make_gui(start=False)
    for page in gui.window.pages:
        for button, _text, key in page._buttons:
            assert isinstance(button, QPushButton)
            danger = button.objectName() == "Danger"
            if danger:
                assert key in (keys.GIVE_BACK, keys.CLEAR_OR_CANCEL, ""), (type(page).__name__, key)
            if key == keys.GIVE_BACK:
                assert danger, (type(page).__name__, button.text())
            if key == keys.PRINT:
                assert "rint" in button.text(), (type(page).__name__, button.text())


# ---- item 5: closing the window ---------------------------------------------------------------------------
def test_closing_while_the_pin_pad_waits_asks_and_cancel_closes_all(ui: Any, make_gui: Any,
                                                                     qapp: Any) -> None:
    gui = make_gui()
    qapp.setQuitOnLastWindowClosed(False)  # the test's loop outlives the window it closes
    closed: list[bool] = []
    gui.window.closed.connect(lambda: closed.append(True))
    sale = go_to(gui, SalePage)
    QTest.keyClicks(sale.amount, "1250")
    QTest.keyClick(sale.amount, Qt.Key.Key_F2)
    ui.until(lambda: gui.pinpad.prompt is not None, what="the pad asks the customer")
    assert not gui.window.close()  # refused: a payment is open
    box = gui.window.close_question
    assert box is not None and box.isVisible() and "a sale of 12.50" in box.text()
    QTest.keyClick(box, Qt.Key.Key_Escape)  # Wait
    ui.spin(0.05)
    assert gui.window.isVisible() and not closed and gui.till.ctx.pinpad.busy
    assert not gui.window.close()
    box = gui.window.close_question
    QTest.keyClick(gui.window.cancel_and_close, Qt.Key.Key_Space)
    ui.until(lambda: closed, what="window closed once the payment ended")
    assert not gui.window.isVisible() and not gui.pinpad.isVisible()  # the PIN pad window too
    entry = entries(ui, gui)[0]
    qapp.setQuitOnLastWindowClosed(True)
    assert entry.approved == 0 and str(entry.state) == "error"  # cancelled, not charged


def test_closing_with_nothing_open_ends_the_program_pin_pad_too(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    closed: list[bool] = []
    gui.window.closed.connect(lambda: closed.append(True))
    assert gui.pinpad.isVisible()
    assert gui.window.close()
    assert closed and not gui.pinpad.isVisible()


# ---- item 7: the PIN pad is one resource ------------------------------------------------------------------
def test_a_second_payment_while_the_pad_waits_is_refused_before_it_is_journaled(
        ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = go_to(gui, SalePage)
    QTest.keyClicks(sale.amount, "1250")
    QTest.keyClick(sale.amount, Qt.Key.Key_F2)
    ui.until(lambda: gui.pinpad.prompt is not None, what="the pad asks the customer")
    tabs = go_to(gui, TabsPage)
    tabs.amount.setFocus()
    QTest.keyClicks(tabs.amount, "500")
    QTest.keyClick(tabs.amount, Qt.Key.Key_F2)  # open a tab: needs the same PIN pad
    # "Opening the tab: ... on the PIN pad" shows at once: wait for the refusal itself
    ui.until(lambda: "is busy" in tabs.message.text(), what="refused")
    assert "busy with a sale of 12.50" in tabs.message.text()
    assert [str(e.kind) for e in entries(ui, gui)] == ["sale"]  # nothing journaled for the tab
    assert len(ui.run(gui.till.ctx.journal.ticket_ids())) == 1  # the sale's ticket: none for the tab


# ---- item 12: the status bar alarms only when something needs the cashier ------------------------------
def test_status_bar_stays_calm_during_a_normal_payment(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = go_to(gui, SalePage)
    QTest.keyClicks(sale.amount, "1250")
    QTest.keyClick(sale.amount, Qt.Key.Key_F2)
    ui.until(lambda: gui.pinpad.prompt is not None, what="the pad asks the customer")
    ui.run(gui.till.refresh_status())
    pill = gui.window.recovery_pill
    assert pill.text() == "Payment in progress" and pill.property("level") == "ok"
    assert all(p.property("level") != "warn" for p in (gui.window.training_pill, pill))


# ---- item 14: the Journal ---------------------------------------------------------------------------------
def test_journal_search_by_the_amount_shown_details_reprint_and_empty(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    tabs = go_to(gui, TabsPage)
    tabs.amount.setFocus()
    QTest.keyClicks(tabs.amount, "6000")
    QTest.keyClick(tabs.amount, Qt.Key.Key_F2)
    ui.until(lambda: tabs.entries, what="tab")
    tabs.table.setFocus()
    QTest.keyClick(tabs.table, Qt.Key.Key_Home)
    QTest.keyClicks(tabs.table, "900")
    QTest.keyClick(tabs.table, Qt.Key.Key_F4)
    ui.until(lambda: not tabs.entries, what="captured")
    journal = go_to(gui, JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    assert journal.table.item(0, 4).text() == "$69.00"  # the amount shown, tip included
    journal.search_by.setCurrentIndex(1)  # amount
    journal.search_text.setFocus()
    QTest.keyClicks(journal.search_text, "69.00")
    QTest.keyClick(journal.search_text, Qt.Key.Key_Return)
    ui.until(lambda: len(journal.entries) == 1 and journal.entries[0].captured == Decimal("69.00"),
             what="found by the amount shown")
    assert journal.search_error.text() == ""
    journal.table.selectRow(0)
    QTest.keyClick(journal.table, Qt.Key.Key_F9)  # details: every event, the host's codes
    ui.until(lambda: journal.details.isVisible() and journal.details.toPlainText(), what="details")
    text = journal.details.toPlainText()
    assert "Approval code" in text and "Response code: A" in text
    assert text.count("\n") >= 6  # the head and one line per event
    QTest.keyClick(journal.table, Qt.Key.Key_F8)  # reprint on the PIN pad
    ui.until(lambda: "printed" in journal.message.text() or "Could not print" in journal.message.text(),
             what="reprinted")
    assert "Receipt printed" in journal.message.text()
    journal.search_text.setFocus()
    journal.search_text.selectAll()
    QTest.keyClicks(journal.search_text, "1.23")
    QTest.keyClick(journal.search_text, Qt.Key.Key_Return)
    ui.until(lambda: not journal.entries, what="no rows")
    assert journal.search_error.text() == "Nothing found: no entry matches this search."


# ---- item 8: words a cashier understands; the host's text kept for the manager ----------------------
def test_journal_says_why_in_the_cashiers_words_and_keeps_the_host_text(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    sale = go_to(gui, SalePage)
    QTest.keyClicks(sale.amount, "99999900")  # the test host's decline trigger
    QTest.keyClick(sale.amount, Qt.Key.Key_F2)
    # a declined card tender leaves the ticket open: the Sale screen says why, in the cashier's words
    ui.until(lambda: "Declined" in sale.notice.text(), what="declined")
    assert "Declined by the card's bank. Ask for another card" in sale.notice.text()
    assert sale.notice.text().count("Declined") == 1  # said once
    gift = go_to(gui, GiftCardPage)
    gift.card_field.setFocus()
    QTest.keyClicks(gift.card_field, "4321000000001119")  # a credit card, not a gift card
    QTest.keyClick(gift.card_field, Qt.Key.Key_Return)
    QTest.keyClicks(gift.amount, "500")
    QTest.keyClick(gift.amount, Qt.Key.Key_F4)
    ui.until(lambda: "not accepted here" in gift.result_text.text(), what="gift card refused")
    assert "CARDRANGE" not in gift.result_text.text()
    journal = go_to(gui, JournalPage)
    ui.until(lambda: len(journal.entries) == 2, what="rows")
    notes = [journal.table.item(r, 6).text() for r in range(journal.table.rowCount())]
    assert any("Declined by the card's bank. Ask for another card" in n for n in notes)
    assert any("This card is not accepted here" in n for n in notes)
    assert not any("CARDRANGE" in n for n in notes)
    row = next(r for r, e in enumerate(journal.entries) if str(e.kind) == "giftcard_reload")
    journal.table.selectRow(row)
    QTest.keyClick(journal.table, Qt.Key.Key_F9)
    ui.until(lambda: "NOT IN CARDRANGE" in journal.details.toPlainText(), what="host text in details")
    assert "Host code: 9842" in journal.details.toPlainText()
