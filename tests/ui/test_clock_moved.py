"""Issue 27: a clock jump of more than a few minutes is journaled by the core and shown in the
window's status bar. The clock is moved through the journal's clock seam (``JournalRecorder.clock``);
the sale that notices it is rung up with real keys."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import Qt

from tests.support.sale_screen import SaleDriver


def test_a_clock_moved_forward_is_journaled_and_shown_in_the_status_bar(ui: Any,
                                                                          make_gui: Any) -> None:
    gui = make_gui()
    window = gui.window
    sale = SaleDriver(ui, gui)
    page = sale.page
    assert not window.clock_pill.isVisible()

    def two_hours_ahead() -> datetime:
        return datetime.now(UTC) + timedelta(hours=2)

    # the writer of the window's journal and the cash desk's both read the moved clock
    gui.till.ctx.journal.recorder.clock = two_hours_ahead
    gui.cashdesk.recorder.clock = two_hours_ahead
    sale.type("700")
    sale.press(Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)  # Alt+E: exact cash
    sale.wait_result()
    ui.until(window.clock_pill.isVisible, what="the clock pill")
    text = window.clock_pill.text()
    assert text.startswith("Clock moved forward 1 h") or text.startswith("Clock moved forward 2 h"), text
    moved = [e.data["_note"] for e in ui.run(gui.till.ctx.journal.events())
             if e.type == "clock_moved"]
    assert moved and all(7000 < m["by_s"] < 7400 for m in moved), moved
    assert page.ticket is not None
    assert page.ticket.state == "paid"  # the sale itself went through
