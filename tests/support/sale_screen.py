"""The Sale screen driven as a cashier drives it: real key presses into the amount field against
the embedded sandbox, then a wait on the loop for what the screen shows next."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.screens import keys_to
from ui.pages.sale import SalePage


class SaleDriver:
    """``SaleDriver(ui, gui)`` opens the Sale screen (made the active window first: shortcuts such
    as F2, F7 and F11 go to the active window); ``type`` keys text into the amount field, ``press``
    one key there, and ``wait_result`` spins the loop until the result screen shows. ``page`` is
    the screen itself, for what a test reads on it."""

    def __init__(self, ui: Any, gui: Any, *, activate: bool = True) -> None:
        self.ui = ui
        self.gui = gui
        page = gui.window.go(SalePage)
        assert isinstance(page, SalePage)
        if activate:
            # (waiting for it runs Qt events outside a run of the loop: only with no flow under way)
            gui.window.activateWindow()
            assert QTest.qWaitForWindowActive(gui.window, 2000)
        self.page: SalePage = page

    def type(self, text: str) -> None:
        QTest.keyClicks(self.page.amount, text)

    def press(self, key: Qt.Key,
              modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        QTest.keyClick(self.page.amount, key, modifier)

    def wait_result(self) -> Any:
        """The result screen is up: the tender ended the ticket (paid, or the sale's outcome)."""
        page = self.page
        self.ui.until(lambda: page.stack.currentWidget() is page.result_page, what="result screen")
        return page.result

    def wait_idle(self) -> None:
        """The tender ended and the ticket is back on screen (still open)."""
        page = self.page
        self.ui.until(lambda: page.task is not None and page.task.done()
                      and page.stack.currentWidget() is page.entry_page, what="entry screen")

    def add_line(self, name: str, digits: str) -> None:
        """Type the line's name and price on the keyboard, then + adds it."""
        page = self.page
        self.type(name + digits)
        self.press(Qt.Key.Key_Plus)
        self.ui.until(lambda: page.task is not None and page.task.done(), what="line added")

    def lines_committed(self) -> None:
        """The ticket's lines are committed and the journal's writer is idle (bounded wait on
        that event, ``Journal.lines_committed``): a line keyed now is written and drawn in the
        key's own event. Without it, a key that came while the flusher was committing (its fsync
        long under heavy load) went to the writer's thread and was drawn a pass later."""
        journal = self.gui.till.runtime.journal
        self.ui.until(lambda: journal.lines_committed, what="the ticket's lines committed")

    def prompt(self, kind: str) -> Any:
        """The training PIN pad's prompt of ``kind`` ("card", "tip"...), once it shows."""
        pinpad = self.gui.pinpad
        return self.ui.until(lambda: pinpad.prompt if pinpad.prompt is not None
                             and pinpad.prompt.kind == kind else None, what=f"{kind} prompt")


def approved_sale(ui: Any, gui: Any, keys_typed: str) -> Any:
    """A card sale rung up with keys (the amount typed, then F2) on a new ticket, approved: its
    journal entry. The window is made active before the screen opens (its refresh must not run
    while the wait spins Qt's events)."""
    keys_to(gui.window)
    sale = SaleDriver(ui, gui, activate=False)
    sale.page.new_sale()
    sale.type(keys_typed)
    sale.press(Qt.Key.Key_F2)
    result = sale.wait_result()
    assert result.outcome == "approved", result
    return result.entry
