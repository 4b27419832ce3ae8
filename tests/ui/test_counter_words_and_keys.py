"""Issue 39 ("the counter, round 3"), words and keys through the window with real key presses:
the PIN pad after a partial approval, F12's last word, the amounts a tender line shows, the
Journal's states, Reconcile in plain words, the one manager prompt, the Reports lock, the refund's
question, the Cash key with the drawer closed, the Return of the sign-in and the pad's clicks."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtTest import QTest

from cashier.flows.payments import KeyedCard, refund, sale
from tests.support.profiles import CLERKS
from tests.support.sale_screen import SaleDriver
from tests.support.screens import answer_prompt, go_to, keys, keys_to, walk_away_if_asked
from ui.i18n import TRANSLATIONS_DIR
from ui.i18n_tool import read_ts

ES = read_ts(TRANSLATIONS_DIR / "cashier_es.ts")
VISA = "4321000000001119"


def _sign_in(gui: Any, pin: str, key: Qt.Key = Qt.Key.Key_Return) -> None:
    keys_to(gui.window)
    QTest.keyClicks(gui.sign_in.pin, pin)
    QTest.keyClick(gui.sign_in.pin, key)


# ---- keys -----------------------------------------------------------------------------------------
def test_the_return_that_signs_in_never_reaches_the_sale_screen(ui: Any, make_gui: Any) -> None:
    """Every shift started with a red "Amount: type the amount first": the PIN's Return went on
    to the Sale screen once it was up."""
    from ui.pages.sale import SalePage

    gui = make_gui(clerks=CLERKS)
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
        _sign_in(gui, "1111", key)
        page = gui.window.stack.currentWidget()
        assert isinstance(page, SalePage) and gui.till.clerk is not None
        ui.spin(0.05)
        assert page.error_label.text() == "" and page.stack.currentWidget() is page.entry_page
        QTest.keyClick(gui.window, Qt.Key.Key_L,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        assert gui.till.clerk is None


def test_beside_the_till_a_click_on_the_pad_gives_the_keys_back(ui: Any, make_gui: Any) -> None:
    """At 1280x800 the pad sits beside the till: after the trainer clicked it (Tap card, and
    also a test card for the next customer or the automatic customer, which kept the keyboard on
    the pad) the cashier's Return reaches the till."""
    from ui.cash import place_training_windows
    from ui.pages.sale import SalePage

    gui = make_gui()
    place_training_windows(gui, QRect(0, 0, 1280, 800))
    window, pad = gui.window, gui.pinpad
    assert not pad.front.overlapping()
    page = window.go(SalePage)
    keys_to(window)
    QTest.keyClicks(page.amount, "850")
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    pad.activateWindow()  # the trainer's click on the pad's window...
    assert QTest.qWaitForWindowActive(pad, 2000)
    QTest.mouseClick(pad.tap_button, Qt.MouseButton.LeftButton)  # ...on Tap card
    assert QTest.qWaitForWindowActive(window, 2000)  # the keyboard is the till's again
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="the result")
    QTest.keyClick(window.focusWidget(), Qt.Key.Key_Return)  # the cashier's next key: a new sale
    assert page.stack.currentWidget() is page.entry_page and page.ticket is None
    first_card = pad.cards.visualItemRect(pad.cards.item(0)).center()
    for widget, pos in ((pad.auto, pad.auto.rect().center()), (pad.cards.viewport(), first_card)):
        pad.activateWindow()
        assert QTest.qWaitForWindowActive(pad, 2000)
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
        assert QTest.qWaitForWindowActive(window, 2000), f"the keys stayed on the pad ({widget})"


def test_one_manager_prompt_on_the_drawer_and_none_again_on_the_manager_screen(
        ui: Any, make_gui: Any) -> None:
    """The Drawer asked with a field of its own ("type the manager PIN and press again"): it asks
    with the one prompt now. A manager who unlocked the Manager screen is not asked again to close
    the batch."""
    from ui.pages.drawer import DrawerPage
    from ui.pages.manager import ManagerPage

    gui = make_gui(clerks=CLERKS)
    _sign_in(gui, "1111")  # a clerk: a pay-out needs a manager
    page = go_to(gui, DrawerPage)
    assert not hasattr(page, "manager_pin")  # no second way to approve
    keys(page.move_amount, "650")
    keys(page.reason, "milk")
    seen: list[str] = []
    answer_prompt(seen, "2222")
    QTest.keyClick(page.reason, Qt.Key.Key_F7)
    assert seen and seen[0].startswith("A pay-out needs a manager's approval."), seen
    assert page.message.text().startswith("Paid out $6.50"), page.message.text()
    moves = gui.cashdesk.drawer.moves(gui.cashdesk.drawer.require_open())
    assert [(m["type"], m["approved_by"]) for m in moves if m["type"] == "pay_out"] == [("pay_out", "102")]

    manager = go_to(gui, ManagerPage)
    keys(manager.pin, "2222", enter=True)
    assert manager.unlocked and manager.manager is not None
    QTest.keyClick(manager.close_button, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    ui.until(lambda: "Press Alt+B again" in manager.batch_message.text(), what="the question")
    asked: list[str] = []
    stop = walk_away_if_asked(asked)
    QTest.keyClick(manager.close_button, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    ui.until(lambda: "closed" in manager.batch_message.text(), what="the batch closed")
    stop()
    assert asked == [], "the manager who unlocked the screen was asked again"
    QTest.keyClick(manager.lock_button, Qt.Key.Key_L, Qt.KeyboardModifier.AltModifier)
    assert manager.manager is None


def test_the_reports_lock_as_the_manager_leaves_them(ui: Any, make_gui: Any) -> None:
    """The clerk still signed in read the expected cash until the time-out: leaving the screen
    locks it."""
    from ui.pages.reports import ReportsPage
    from ui.pages.sale import SalePage

    gui = make_gui(clerks=CLERKS)
    _sign_in(gui, "1111")
    reports = go_to(gui, ReportsPage)
    keys(reports.pin, "2222", enter=True)
    assert reports.unlocked and "expected" in reports.view.toPlainText()
    QTest.keyClick(gui.window.focusWidget(), Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert isinstance(gui.window.stack.currentWidget(), SalePage)
    assert not reports.unlocked and reports.view.toPlainText() == ""
    QTest.keyClick(gui.window.focusWidget(), Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert gui.window.stack.currentWidget() is reports and reports.stack.currentWidget() is reports.lock_page


def test_the_cash_key_waits_for_the_drawer_and_says_ctrl_9(ui: Any, make_gui: Any) -> None:
    gui = make_gui(drawer_float=None)
    sale = SaleDriver(ui, gui)
    page = sale.page
    assert page.cash_button.property("drawer") == "closed"  # looks inactive
    sale.type("400")
    assert page.cash_button.property("drawer") == "closed" and not page.payment_panel.exact_button.isEnabled()
    assert page.card_button.property("ready") is True
    sale.press(Qt.Key.Key_F11)
    ui.until(lambda: page.error_label.text(), what="the refusal")
    assert page.error_label.text() == ("Cash: the drawer is closed: open it first on the Drawer screen "
                                       "(Ctrl+9)")
    gui.set_language("es")
    sale.press(Qt.Key.Key_F11)
    ui.until(lambda: page.error_label.text().startswith(ES["Cash"]), what="the refusal in Spanish")
    assert page.error_label.text() == ES["Cash"] + ": " + ES[
        "the drawer is closed: open it first on the Drawer screen (Ctrl+9)"]
    gui.set_language("en")
    gui.cashdesk.open(clerk="1", float_amount="100.00")  # the drawer opens: the key is ready
    ui.until(lambda: page.cash_button.property("drawer") == "open", what="the Cash key ready")
    assert page.payment_panel.exact_button.isEnabled()


# ---- words ----------------------------------------------------------------------------------------
def test_after_a_partial_approval_the_pad_says_what_is_still_due(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    pad = gui.pinpad
    sale = SaleDriver(ui, gui)
    sale.type("21900")  # the sandbox's partial approval: half of it
    sale.press(Qt.Key.Key_F2)
    sale.prompt("card")
    QTest.mouseClick(pad.tap_button, Qt.MouseButton.LeftButton)
    ui.until(lambda: "still due" in pad.header.text(), what="the pad's word")
    assert pad.header.text() == "Approved for $109.50: $109.50 still due. Pay the rest another way."
    assert "thank you" not in pad.header.text()


def test_f12_names_each_void_and_the_cash_given_back(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.add_line("Coffee", "1000")
    sale.press(Qt.Key.Key_F12)  # nothing paid: cancelled at once, and said so
    ui.until(lambda: "nothing had been paid" in page.notice.text(), what="the cancel")
    assert page.notice.text().endswith("cancelled: nothing had been paid.")
    sale.add_line("Lunch", "2500")
    sale.type("1000")
    sale.press(Qt.Key.Key_F2)  # 10.00 on the card
    sale.wait_idle()
    sale.type("500")
    sale.press(Qt.Key.Key_F11)  # 5.00 cash
    sale.wait_idle()
    assert page.ticket is not None
    card = str(page.ticket.tenders[0].card)
    sale.press(Qt.Key.Key_F12)
    assert "$15.00 already paid" in page.notice.text()
    sale.press(Qt.Key.Key_F12)
    ui.until(lambda: "cancelled:" in page.notice.text(), what="the cancel")
    said = page.notice.text()
    assert f"Card …{card[-4:]} $10.00 voided" in said and "$5.00 cash given back" in said, said
    assert "$0.00" not in said


def test_a_declined_tender_shows_the_amount_tried(ui: Any, make_gui: Any) -> None:
    gui = make_gui(max_amount=Decimal("1000000.00"))
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("99999800")  # the vendor's decline trigger
    sale.press(Qt.Key.Key_F2)
    sale.wait_idle()
    rows = [page.tenders_list.item(i).text() for i in range(page.tenders_list.count())]
    assert len(rows) == 1 and "$999,998.00" in rows[0] and "declined" in rows[0], rows


def test_the_journal_says_cancelled_and_refunded(ui: Any, make_gui: Any) -> None:
    from ui.pages.journal import JournalPage

    gui = make_gui()
    sale_driver = SaleDriver(ui, gui)
    sale_driver.type("500")
    sale_driver.press(Qt.Key.Key_F2)
    sale_driver.prompt("card")
    QTest.keyClick(sale_driver.page, Qt.Key.Key_Escape)  # the cashier cancels on the till
    sale_driver.wait_idle()
    ctx = gui.till.ctx
    paid = ui.run(sale(ctx, Decimal("20.00"), card=KeyedCard(VISA, "1228"))).entry
    ui.run(refund(ctx, Decimal("20.00"), original_invoice=str(paid.invoice)))
    journal = go_to(gui, JournalPage)
    ui.until(lambda: len(journal.entries) >= 3, what="rows")
    table = journal.table
    rows = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]
    shown = " | ".join(" ".join(row) for row in rows)
    assert "Not charged (error)" not in shown and "Cancelled" in shown, shown
    cells = next(row for row in rows if paid.invoice in row and "Sale" in row)
    assert "Refunded" in cells and "Approved" not in cells, cells


def test_reconcile_says_what_it_compared(ui: Any, make_gui: Any) -> None:
    from ui.pages.manager import ManagerPage

    for option, words in (("LG", "they match"), ("HD", "they match")):
        gui = make_gui(processing_option=option)
        ui.run(sale(gui.till.ctx, Decimal("15.00"), card=KeyedCard(VISA, "1228")))
        manager = go_to(gui, ManagerPage)
        keys(manager.pin, "1234", enter=True)
        QTest.keyClick(manager.reconcile_button, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)
        ui.until(lambda m=manager: m.batch_message.text().startswith("Reconciled at"), what="said")
        said = manager.batch_message.text()
        assert "processing option" not in said and "journal only" not in said
        assert words in said or "not checked against the host" in said, said
        ui.run(gui.stop())


def test_the_refund_question_is_prominent_and_says_the_amount(ui: Any, make_gui: Any) -> None:
    from ui.pages.journal import JournalPage

    gui = make_gui()
    paid = ui.run(sale(gui.till.ctx, Decimal("12.40"), card=KeyedCard(VISA, "1228"))).entry
    journal = go_to(gui, JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    assert journal.select_invoice(paid.invoice)
    journal.refund_amount.clear()  # the whole amount is pre-filled: 5.00 of it back
    QTest.keyClicks(journal.refund_amount, "500")
    QTest.keyClick(journal.refund_amount, Qt.Key.Key_F6)
    said = journal.message.text()
    assert "$5.00" in said and "Press F6 again" in said, said
    assert journal.message.property("asking") == "true"
    assert journal.message.font().pointSizeF() > journal.search_error.font().pointSizeF() or \
        journal.message.fontInfo().pixelSize() >= 18
    # just above the keys, not under them at the bottom
    assert journal.message.mapTo(journal, journal.message.rect().topLeft()).y() < \
        journal.refund_button.mapTo(journal, journal.refund_button.rect().topLeft()).y()
    QTest.keyClick(journal.table, Qt.Key.Key_Escape)
    assert journal.message.property("asking") == "false"
