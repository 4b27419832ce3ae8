"""Issue 22, keys and focus: the first key after start, after a dialog and after switching
windows reaches the Sale screen (real key presses to whatever Qt says has the keyboard)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from ui.pages.sale import SalePage


def _type_to_focus(ui: Any, text: str) -> None:
    """Keys to the widget that has the keyboard (the window itself when no field has it)."""
    for ch in text:
        target = QApplication.focusWidget() or QApplication.activeWindow()
        assert target is not None
        QTest.keyClicks(target, ch)


def test_first_key_after_start_dialog_and_window_switch_reaches_the_sale_entry(
        ui: Any, make_gui: Any) -> None:
    gui = make_gui()  # training: the PIN pad and the printer windows open at start
    page = gui.window.page(SalePage)
    assert gui.pinpad is not None and gui.pinpad.isVisible()
    ui.until(lambda: QApplication.activeWindow() is gui.window, what="the till's window active")
    ui.until(lambda: QApplication.focusWidget() is page.amount, what="the Sale entry focused")
    _type_to_focus(ui, "125")
    assert page.amount.value == Decimal("1.25")

    box = QMessageBox(QMessageBox.Icon.Information, "Cashier", "A dialog", parent=gui.window)
    box.show()
    box.activateWindow()
    ui.until(lambda: QApplication.activeWindow() is box, what="the dialog active")
    QTest.keyClick(box, Qt.Key.Key_Return)  # closed from the keyboard
    box.deleteLater()
    gui.window.activateWindow()
    ui.until(lambda: QApplication.activeWindow() is gui.window, what="back to the till")
    _type_to_focus(ui, "0")
    assert page.amount.value == Decimal("12.50")

    gui.pinpad.activateWindow()  # the cashier looks at the PIN pad, then comes back
    ui.until(lambda: QApplication.activeWindow() is gui.pinpad, what="the pad active")
    gui.window.activateWindow()
    ui.until(lambda: QApplication.activeWindow() is gui.window, what="the till active again")
    page.amount.clearFocus()  # even with no field focused, the key reaches the entry
    _type_to_focus(ui, "0")
    assert page.amount.value == Decimal("125.00")


def test_at_start_with_the_drawer_closed_the_cash_keys_look_closed(ui: Any, make_gui: Any) -> None:
    """Tried from a fresh start under openbox: the Sale screen, first on show (never "entered"
    from the navigation), drew Cash [F11] and the quick cash keys as ready with the drawer closed."""
    gui = make_gui(drawer_float=None)
    page = gui.window.page(SalePage)  # as the window shows it at start: no navigation to it
    assert gui.window.stack.currentWidget() is page
    assert page.cash_button.property("drawer") == "closed"
    QTest.keyClicks(page.amount, "400")
    assert page.cash_button.property("drawer") == "closed"
    assert not page.payment_panel.exact_button.isEnabled()
