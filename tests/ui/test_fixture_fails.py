"""The UI fixture's own promise: a UI test fails when the window hit an exception in a task (the
crash reporter saw it, no dialog showed it) and when it leaves a top-level widget alive."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QWidget

from tests.support.ui_harness import check_clean, crashes_seen, live_top_level_widgets


def test_an_exception_inside_a_window_task_fails_the_test(ui: Any, make_gui: Any) -> None:
    gui = make_gui(start=False)

    async def broken() -> None:
        raise RuntimeError("a bug in a window task")

    gui.till.tasks.spawn(broken(), "broken")
    ui.until(lambda: crashes_seen(gui), what="the crash reporter to see the task's error")
    before = live_top_level_widgets()
    with pytest.raises(AssertionError, match="a bug in a window task"):
        check_clean(crashes_seen(gui), before, live_top_level_widgets())
    gui.reporter.seen.clear()  # seen and proven: the fixture's own check may pass now
    check_clean(crashes_seen(gui), before, live_top_level_widgets())


def test_a_leaked_top_level_widget_fails_even_when_another_closed(ui: Any) -> None:
    closing = QWidget()
    closing.show()
    before = live_top_level_widgets()
    closing.close()
    closing.deleteLater()
    leaked = QWidget()
    leaked.setWindowTitle("left open")
    leaked.show()
    try:
        after = live_top_level_widgets()
        assert len(after) <= len(before)  # a count alone would not see it
        with pytest.raises(AssertionError, match="left open"):
            check_clean([], before, after)
    finally:
        leaked.close()
        leaked.deleteLater()
        live_top_level_widgets()
