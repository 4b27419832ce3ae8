"""A window deleted while a check of its own is queued (its sideways fit after a page change)
ends quietly: the check finds no window and does nothing, instead of raising inside Qt's loop."""

from __future__ import annotations

import sys
import traceback
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QRect


def _flush_deletes() -> None:
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()


def test_a_fit_check_queued_before_the_window_is_deleted_does_nothing(
        ui: Any, tmp_path: Path, monkeypatch: Any) -> None:
    from cashier.config import load_profile
    from ui.app import build_gui
    from ui.cash import place_training_windows

    raised: list[str] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, value, tb: raised.append(
        repr(value) + "".join(traceback.format_tb(tb))))
    gui = build_gui(load_profile(None, journal_path=tmp_path / "j.sqlite"), show_dialogs=False)
    gui.window.show()
    place_training_windows(gui, QRect(0, 0, 1024, 768))
    window = gui.window
    others = [w for w in gui.windows() if w is not window]
    window.go(type(window.pages[1]))  # a page change queues the fit check
    window.deleteLater()  # the window goes before the queued check runs
    _flush_deletes()
    ui.spin(0.05)
    for widget in others:
        widget.deleteLater()
    _flush_deletes()
    if gui.cashdesk is not None:
        gui.cashdesk.close()
        gui.cashdesk.recorder.close()
    assert raised == []
