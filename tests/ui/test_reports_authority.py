"""Issue #46 in the window, with real key presses: the X report (the open drawer's expected cash)
is a manager's. A plain clerk at the Reports screen sees nothing of it: not with their own PIN,
not through the screen's keys while it is locked, and not after a manager who opened it signed
out (the manager's screens lock when the clerk changes). And the sign-in panel, where a
manager's PIN signs a manager in, is under the same five-tries lock as every manager prompt."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.journal_entries import cash_entry
from tests.support.profiles import CLERKS
from tests.support.screens import keys

SIGN_OUT = (Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _nothing_of_the_drawer_shown(reports: Any) -> None:
    assert not reports.unlocked and reports.report is None
    assert reports.stack.currentWidget() is reports.lock_page
    assert reports.view.toPlainText() == ""


def test_a_plain_clerk_never_sees_the_expected_cash(make_gui: Callable[..., Any], ui: Any) -> None:
    from ui.pages.manager import ManagerPage
    from ui.pages.reports import ReportsPage

    gui = make_gui(clerks=CLERKS, drawer_float="100.00")
    w, desk = gui.window, gui.cashdesk
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    cash_entry(desk.recorder, "42.50", clerk="101", tendered="50.00", ticket=True)
    keys(gui.sign_in.pin, "1111", enter=True)  # Alice, a cashier
    assert gui.till.clerk is not None and gui.till.clerk.id == 101

    QTest.keyClick(w.page(ReportsPage).pin, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    reports: ReportsPage = w.page(ReportsPage)
    assert w.stack.currentWidget() is reports
    # the screen's own keys do nothing while it is locked
    for key in (Qt.Key.Key_F5, Qt.Key.Key_F6, Qt.Key.Key_F7, Qt.Key.Key_F8, Qt.Key.Key_F9):
        QTest.keyClick(reports.pin, key, SHIFT)
    _nothing_of_the_drawer_shown(reports)
    keys(reports.pin, "1111", enter=True)  # her own PIN: she is no manager
    _nothing_of_the_drawer_shown(reports)
    assert reports.pin_error.text() == "No manager of this till has that PIN."

    # Bob, a manager, opens it at her till: the X report, with the expected cash
    keys(reports.pin, "2222", enter=True)
    assert reports.unlocked and reports.report is not None and reports.report["type"] == "x"
    assert reports.report["cash"]["expected"] == "142.50"
    assert "142.50" in reports.view.toPlainText()
    # the Manager screen too, then Bob signs out and Alice signs in again
    manager: ManagerPage = w.go(ManagerPage)
    keys(manager.pin, "2222", enter=True)
    assert manager.unlocked
    QTest.keyClick(manager, *SIGN_OUT)
    assert gui.till.clerk is None
    keys(gui.sign_in.pin, "1111", enter=True)
    QTest.keyClick(w.page(ReportsPage).pin, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert w.stack.currentWidget() is reports
    _nothing_of_the_drawer_shown(reports)
    QTest.keyClick(reports.pin, Qt.Key.Key_F5, SHIFT)
    _nothing_of_the_drawer_shown(reports)
    assert not w.go(ManagerPage).unlocked


def test_five_wrong_pins_at_the_sign_in_panel_lock_it(make_gui: Callable[..., Any]) -> None:
    """A manager's PIN signs a manager in (who then approves): the sign-in panel checks PINs
    under the same lock as every manager prompt, so it is no way round the five tries."""
    gui = make_gui(clerks=CLERKS, drawer_float=None)
    panel = gui.sign_in
    for guess in ("0000", "0001", "0002", "0003", "0004"):
        keys(panel.pin, guess, enter=True)
        assert gui.till.clerk is None and "not accepted" in panel.error.text()
    keys(panel.pin, "2222", enter=True)  # Bob's right PIN, after five wrong ones
    assert gui.till.clerk is None
    assert panel.error.text().startswith("Too many wrong PINs (5): try again in ")


def test_a_manager_locked_by_a_command_elsewhere_cannot_sign_in(make_gui: Callable[..., Any],
                                                               tmp_path: Path) -> None:
    """The lock a command earned on another journal holds at the window's sign-in: the locked
    manager's PIN is refused there; a clerk not locked signs in."""
    from cashier.approvals import pin_guard
    from cashier.clerks import SignInError

    gui = make_gui(clerks=CLERKS, drawer_float=None)
    panel = gui.sign_in
    elsewhere = pin_guard(tmp_path / "elsewhere.sqlite")  # CASHIER_JOURNAL_PATH=elsewhere
    for guess in ("9000", "9001", "9002", "9003", "9004"):
        with pytest.raises(SignInError):
            elsewhere.check(gui.till.profile.roster, "102", guess, "pin-failures")
    keys(panel.pin, "2222", enter=True)  # Bob's right PIN: not while he is locked
    assert gui.till.clerk is None and "not accepted" in panel.error.text()
    keys(panel.pin, "1111", enter=True)  # Alice is not locked
    assert gui.till.clerk is not None and gui.till.clerk.id == 101
