"""Issue #39, what a cashier reaches for at once, through the window with real key presses: a
ticket parked (F6) and another rung up, the parked one recalled from its list (Shift+F6, Return);
the quantity key (*); the blind close counted bill by bill (F3); a report exported where the
manager says, its PDF headed by the store, the till, the clerk and who approved the over/short."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.profiles import CLERKS
from tests.support.sale_screen import SaleDriver
from tests.support.screens import answer_prompt, answer_save, keys, keys_to


def test_park_a_ticket_serve_the_next_customer_and_recall_it(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.add_line("Coffee", "350")
    sale.add_line("Bagel", "225")
    parked = page.ticket
    assert parked is not None and page.park_button.isEnabled()
    sale.press(Qt.Key.Key_F1)
    ui.until(lambda: page.task is not None and page.task.done() and page.ticket is None, what="parked")
    assert "parked" in page.notice.text() and str(parked.id) in page.notice.text()
    assert page.lines_list.rowCount() == 0
    # the next customer: rung up and paid in cash while the first ticket waits
    sale.add_line("Tea", "200")
    sale.press(Qt.Key.Key_F11)
    sale.wait_result()
    QTest.keyClick(page, Qt.Key.Key_Return)  # the next sale
    sale.press(Qt.Key.Key_F1, Qt.KeyboardModifier.ShiftModifier)
    dialog = ui.until(lambda: page.parked_dialog if page.parked_dialog is not None
                      and page.parked_dialog.isVisible() else None, what="the parked tickets")
    assert dialog.list.count() == 1 and f"{parked.id}" in dialog.list.item(0).text()
    assert "Coffee" in dialog.list.item(0).text() and "$5.75" in dialog.list.item(0).text()
    QTest.keyClick(dialog.list, Qt.Key.Key_Return)
    ui.until(lambda: page.ticket is not None and page.ticket.id == parked.id, what="recalled")
    back = page.ticket
    assert back is not None and [line.name for line in back.lines] == ["Coffee", "Bagel"]
    assert page.lines_list.rowCount() == 2 and page.amount.value == Decimal("5.75")  # what remains
    keys_to(gui.window)
    sale.press(Qt.Key.Key_F2)
    sale.prompt("card")
    gui.pinpad.tap_button.click()
    result = sale.wait_result()
    assert result.outcome == "approved" and result.entry.ticket_id == back.id


def test_a_ticket_with_money_taken_is_not_parked(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.add_line("Lamp", "3000")
    sale.type("1000")
    sale.press(Qt.Key.Key_F11)  # 10.00 in cash: the lines are locked
    sale.wait_idle()
    assert not page.park_button.isEnabled() and not page.park_button.isVisible()  # gave way
    page.park_button.setEnabled(True)  # pressed anyway (a key held down): the core refuses
    page.park_button.setVisible(True)
    sale.press(Qt.Key.Key_F1)
    ui.until(lambda: page.task is not None and page.task.done(), what="refused")
    assert "finish or cancel" in page.error_label.text() and page.ticket is not None


def test_the_keys_that_change_a_ticket_give_way_once_money_is_on_it_and_come_back_after(
        ui: Any, make_gui: Any) -> None:
    """Issue #39: money on the ticket makes its lines, discounts and tip final (the core refuses
    each change), so their keys step aside for the tenders; the next ticket has them again."""
    gui = make_gui(tip_mode="keyed")
    sale = SaleDriver(ui, gui)
    page = sale.page
    stage = page.entry_stage
    editing = (stage.remove_line_button, stage.park_button, *stage.discount_buttons,
               stage.payment_panel.description, stage.payment_panel.add_line_button,
               page.tip_field, page.keypad_panel.times_button)
    sale.add_line("Lamp", "3000")
    assert all(w.isVisible() for w in editing)
    sale.type("1000")
    sale.press(Qt.Key.Key_F11)  # 10.00 in cash: the lines are final
    sale.wait_idle()
    assert [w for w in editing if w.isVisible()] == []
    assert stage.cancel_ticket_button.isVisible() and stage.parked_button.isVisible()
    centres = [b.geometry().center().y() for b in (stage.cancel_ticket_button, stage.parked_button)]
    assert abs(centres[0] - centres[1]) <= 2, centres  # the two share one row
    sale.press(Qt.Key.Key_F11)  # the 20.00 that remains, in cash
    sale.wait_result()
    QTest.keyClick(page, Qt.Key.Key_Return)  # the next sale
    ui.until(lambda: page.stack.currentWidget() is page.entry_page, what="a new ticket")
    assert all(w.isVisible() for w in editing)


def test_the_quantity_key_makes_the_next_line_of_several(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("3")
    sale.press(Qt.Key.Key_Asterisk)
    assert page.keypad_panel.times_button.text().startswith("× 3") and page.amount.value == 0
    sale.add_line("Bagel", "125")
    ticket = page.ticket
    assert ticket is not None and [(line.name, line.quantity) for line in ticket.lines] == [("Bagel", 3)]
    assert ticket.total == Decimal("3.75") and page.keypad_panel.times_button.text() == "×\n[*]"
    sale.add_line("Coffee", "350")  # the next line is one again
    two = page.ticket
    assert two is not None and [line.quantity for line in two.lines] == [3, 1]
    sale.type("1000")  # beyond the line's rule: said, nothing changed
    sale.press(Qt.Key.Key_Asterisk)
    assert "Quantity" in page.error_label.text() and page.model.quantity == 1


def test_the_blind_close_counted_bill_by_bill(ui: Any, make_gui: Any) -> None:
    from ui.pages.drawer import DrawerPage

    gui = make_gui(drawer_float="100.00")
    w = gui.window
    keys_to(w)
    page: DrawerPage = w.go(DrawerPage)
    QTest.keyClick(page.counted, Qt.Key.Key_F3)
    assert page.by_note.isVisible()
    twenties, fives, quarters = (page.pieces[Decimal(v)] for v in ("20", "5", "0.25"))
    for box, pieces in ((twenties, "4"), (fives, "3"), (quarters, "20")):
        box.setFocus()
        QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        keys(box, pieces)
    assert page.counts() == {"20": 4, "5": 3, "0.25": 20}
    assert page.counted.value == Decimal("100.00")  # 80 + 15 + 5, by the core's --counts rule
    QTest.keyClick(twenties, Qt.Key.Key_F9)
    assert "balanced" in page.result.text() and "$100.00" in page.result.text()


def test_a_report_is_saved_where_the_manager_says_and_names_whose_it_is(ui: Any, make_gui: Any) -> None:
    from ui.pages.drawer import DrawerPage
    from ui.pages.reports import ReportsPage

    gui = make_gui(clerks=CLERKS, drawer_float=None, company_name="Corner Cafe")
    w, desk = gui.window, gui.cashdesk
    keys_to(w)
    keys(gui.sign_in.pin, "1111", enter=True)
    desk.open(clerk="101", float_amount="50.00")
    drawer: DrawerPage = w.go(DrawerPage)
    keys(drawer.counted, "4500")  # short 5.00: a reason, and the manager approves
    QTest.keyClick(drawer.counted, Qt.Key.Key_F9)
    keys(drawer.close_reason, "change given twice")
    asked: list[str] = []
    answer_prompt(asked, "2222")  # the one manager prompt approves the over/short
    QTest.keyClick(drawer.close_reason, Qt.Key.Key_F10)
    assert desk.drawer.current() is None and asked
    keys_to(w)  # the prompt gave the keyboard back to the window
    QTest.keyClick(drawer.counted, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    reports: ReportsPage = w.page(ReportsPage)
    keys(reports.pin, "2222", enter=True)
    QTest.keyClick(reports.view, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)  # the Z report
    offered: list[str] = []
    answer_save(offered, None)  # Esc: nothing saved
    QTest.keyClick(reports.view, Qt.Key.Key_F9, Qt.KeyboardModifier.ShiftModifier)
    assert reports.message.text() == "Not saved." and not any(reports.export_dir().iterdir())
    keys_to(w)
    answer_save(offered, "z-for-the-bookkeeper")  # the suffix is added
    target = reports.export_dir() / "z-for-the-bookkeeper.pdf"
    QTest.keyClick(reports.view, Qt.Key.Key_F9, Qt.KeyboardModifier.ShiftModifier)
    keys_to(w)
    assert offered[0].startswith("z-report-") and target.is_file(), reports.message.text()
    pdf = target.read_bytes()
    for words in (b"Corner Cafe", b"training", b"101 Alice", b"approved by", b"102 Bob", b"-5.00"):
        assert words in pdf, words
