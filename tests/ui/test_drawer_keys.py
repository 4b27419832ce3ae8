"""Issue 22, the Drawer screen with real keys: opening with a float opens the drawer (the virtual
printer shows the kick) and says so; pay-in, pay-out and no-sale confirm; a missing amount or
reason is said in one line; the blind count cannot be redone without a manager."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.screens import answer_prompt


def test_drawer_says_what_it_did_and_a_recount_needs_a_manager(make_gui: Callable[..., Any],
                                                                ui: Any) -> None:
    from ui.pages.drawer import DrawerPage

    gui = make_gui(drawer_float=None)
    w = gui.window
    w.resize(1024, 768)
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    page: DrawerPage = w.go(DrawerPage)
    QTest.keyClicks(page.float_amount, "10000")
    QTest.keyClick(page.float_amount, Qt.Key.Key_F5)
    assert "float of $100.00" in page.message.text() and "drawer opened" in page.message.text()
    ui.until(lambda: gui.printer_window.jobs, what="the kick on the virtual printer")
    assert "[drawer opens]" in gui.printer_window.paper.toPlainText()
    ui.spin(0.05)
    assert not page.message.visibleRegion().isEmpty()  # in sight at 1024x768, not below the fold

    QTest.keyClick(page.reason, Qt.Key.Key_F6)  # pay in with nothing typed
    assert page.message.text().startswith("Amount") and page.message.property("level") == "bad"
    QTest.keyClicks(page.move_amount, "2000")
    QTest.keyClick(page.move_amount, Qt.Key.Key_F6)  # no reason
    assert "reason" in page.message.text().lower() and "\n" not in page.message.text()
    QTest.keyClicks(page.reason, "change from the bank")
    QTest.keyClick(page.reason, Qt.Key.Key_F6)
    assert page.message.text().startswith("Paid in $20.00: change from the bank. Done")
    QTest.keyClicks(page.reason, "coins")
    QTest.keyClick(page.reason, Qt.Key.Key_F4)
    assert page.message.text().startswith("Drawer opened (no sale): coins. Done")

    QTest.keyClicks(page.counted, "11000")
    QTest.keyClick(page.counted, Qt.Key.Key_F9)
    assert "Expected $120.00" in page.result.text() and "short $10.00" in page.result.text()
    page.counted.clear()
    QTest.keyClicks(page.counted, "12000")  # the expected figure typed back in
    asked: list[str] = []
    answer_prompt(asked, "1234")  # the one manager prompt: the training till's manager PIN
    QTest.keyClick(page.counted, Qt.Key.Key_F9)
    assert asked and "manager" in asked[0]
    assert "balanced" in page.result.text()
    drawer = gui.cashdesk.drawer
    counts = [m for m in drawer.moves(drawer.require_open()) if m["type"] == "count"]
    assert counts[0]["approved_by"] is None and counts[1]["approved_by"]  # the recount: a manager


def test_after_the_float_the_keys_go_to_the_cash_moves(make_gui: Callable[..., Any], ui: Any) -> None:
    """Tried as a hurried cashier under openbox: once the drawer opened its box is gone, and the
    amount typed next (a pay-in) went nowhere; after a pay-in the next amount went into the
    reason. The keys follow to the cash moves' amount."""
    from ui.pages.drawer import DrawerPage

    gui = make_gui(drawer_float=None)
    w = gui.window
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    QTest.keyClick(w.focusWidget() or w, Qt.Key.Key_9, Qt.KeyboardModifier.ControlModifier)
    page: DrawerPage = w.page(DrawerPage)
    assert w.focusWidget() is page.float_amount
    QTest.keyClicks(page.float_amount, "10000")
    QTest.keyClick(page.float_amount, Qt.Key.Key_F5)
    assert not page.open_box.isVisible() and page.close_box.isVisible()
    QTest.keyClicks(w.focusWidget(), "2000")
    QTest.keyClick(w.focusWidget(), Qt.Key.Key_Tab)
    QTest.keyClicks(w.focusWidget(), "change")
    QTest.keyClick(w.focusWidget(), Qt.Key.Key_F6)
    assert page.message.text().startswith("Paid in $20.00: change. Done"), page.message.text()
    QTest.keyClicks(w.focusWidget(), "500")  # the next move, straight away: its amount first
    QTest.keyClick(w.focusWidget(), Qt.Key.Key_Tab)
    QTest.keyClicks(w.focusWidget(), "lunch")
    QTest.keyClick(w.focusWidget(), Qt.Key.Key_F7)
    assert page.message.text().startswith("Paid out $5.00: lunch. Done"), page.message.text()
