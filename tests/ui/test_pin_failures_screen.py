"""Issue #26 in the window: wrong manager PINs typed at the Manager screen's lock are journaled,
five lock the prompt (even the right PIN then waits), and the Manager screen shows the tries."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.profiles import CLERKS


def test_wrong_pins_at_the_manager_screen_lock_and_are_shown(make_gui: Callable[..., Any],
                                                             ui: Any) -> None:
    from cashier.approvals import pin_guard
    from ui.pages.manager import ManagerPage

    gui = make_gui(clerks=CLERKS, drawer_float=None)
    QTest.keyClicks(gui.sign_in.pin, "1111")  # Alice works; a manager unlocks the screen
    QTest.keyClick(gui.sign_in.pin, Qt.Key.Key_Return)
    manager = gui.window.go(ManagerPage)
    for guess in ("0000", "0001", "0002", "0003", "0004"):
        QTest.keyClicks(manager.pin, guess)
        QTest.keyClick(manager.pin, Qt.Key.Key_Return)
        assert manager.pin_error.text() == "Manager PIN: not accepted." and not manager.unlocked
    QTest.keyClicks(manager.pin, "2222")  # the right PIN, while the prompt is locked
    QTest.keyClick(manager.pin, Qt.Key.Key_Return)
    assert not manager.unlocked
    assert manager.pin_error.text().startswith("Too many wrong PINs (5): try again in ")
    # half a minute later the right PIN opens it, and the screen shows every failed try
    later = datetime.now(UTC) + timedelta(seconds=31)
    guard = pin_guard(gui.till.profile.resolved_journal_path, clock=lambda: later)
    assert guard.check(gui.till.profile.roster, None, "2222", "test").id == 102
    QTest.keyClicks(manager.pin, "2222")
    QTest.keyClick(manager.pin, Qt.Key.Key_Return)
    ui.until(lambda: manager.unlocked, what="the manager screen")
    shown = manager.pin_failures_view.text()
    assert shown.count("window manager screen") == 6 and shown.count("locked") == 1, shown
    events = [e.type for e in ui.run(gui.till.ctx.journal.events())]
    assert events.count("manager_pin_failed") == 5 and events.count("manager_pin_locked") == 1
