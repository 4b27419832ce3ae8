"""Issue 22, the Journal screen from the keyboard: typing searches at once, "$12.50" as the list
shows it is found, the found row is selected, Down moves; Esc cancels an armed F6 refund."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.support.sale_screen import approved_sale
from tests.support.screens import entries, go_to, until_entry
from ui.pages.journal import JournalPage


def test_journal_search_from_the_keyboard_and_esc_cancels_an_armed_refund(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    first = approved_sale(ui, gui, "1250")
    second = approved_sale(ui, gui, "1250")
    approved_sale(ui, gui, "300")
    journal: JournalPage = go_to(gui, JournalPage)
    search, table = journal.search_text, journal.table
    ui.until(lambda: len(journal.entries) == 3, what="rows")
    # the first row is selected at once: F6, F8 or F9 need no Down first
    assert journal.selected() is not None
    assert journal.selected().invoice == journal.entries[0].invoice
    journal.search_by.setCurrentIndex(1)  # by amount
    focus = QApplication.focusWidget()
    assert focus is search and focus is not None  # typing goes to the search at once
    QTest.keyClicks(focus, "$12.50")  # as the list shows it
    QTest.keyClick(search, Qt.Key.Key_Return)
    ui.until(lambda: len(journal.entries) == 2 and journal.selected() is not None, what="found")
    assert journal.search_error.text() == ""
    assert journal.selected().invoice == journal.entries[0].invoice  # the first found row selected
    QTest.keyClick(search, Qt.Key.Key_Down)
    assert QApplication.focusWidget() is table
    assert journal.selected().invoice == journal.entries[1].invoice  # Down moved
    assert {e.invoice for e in journal.entries} == {first.invoice, second.invoice}
    QTest.keyClick(table, Qt.Key.Key_Up)
    assert journal.selected().invoice == journal.entries[0].invoice

    QTest.keyClick(table, Qt.Key.Key_F6)  # asks once, naming the amount
    assert "F6 again" in journal.message.text()
    QTest.keyClick(table, Qt.Key.Key_Escape)  # cancels: nothing sent
    assert "Not sent" in journal.message.text()
    QTest.keyClick(table, Qt.Key.Key_F6)  # asks again rather than sending
    assert "F6 again" in journal.message.text()
    assert [str(e.kind) for e in entries(ui, gui)] == ["sale", "sale", "sale"]
    assert journal.refund_amount.value == Decimal("12.50")

    QTest.keyClicks(table, "3")  # typing on a row searches again
    assert QApplication.focusWidget() is search
    assert search.text().endswith("3")


def test_a_cash_row_reads_cash_taken_not_a_bank_approval(ui: Any, make_gui: Any) -> None:
    """Cash is taken at the till: the Journal says "Cash" and "Taken", never "cash" "Approved"."""
    from tests.support.screens import keys_to
    from ui.pages.sale import SalePage

    gui = make_gui()
    sale: SalePage = go_to(gui, SalePage)
    keys_to(gui.window)
    QTest.keyClicks(sale.amount, "500")
    QTest.keyClick(sale.amount, Qt.Key.Key_F11)
    until_entry(ui, gui, lambda e: str(e.kind) == "cash", "the cash entry")
    journal: JournalPage = go_to(gui, JournalPage)
    ui.until(lambda: len(journal.entries) == 1 and journal.table.item(0, 5) is not None,
             what="the row")
    kind, state = journal.table.item(0, 2), journal.table.item(0, 5)
    assert kind is not None and state is not None
    assert (kind.text(), state.text()) == ("Cash", "Taken")
