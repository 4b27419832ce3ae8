"""Issue 22, training's three windows on the tills' screens: 1024x768 at 100 % and 125 % text and
1280x800 at 150 %, in English and Spanish. Placed by the till (``place_training_windows``), no
screen of the till's window scrolls sideways, no control lies outside it, and every window is
within the screen; the PIN pad and printer lie beside the till when its screens fit there, over
its right edge when they do not. ``TRAINING_SHOTS=dir`` saves each screen as PNG to look at."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QTabWidget

from tests.ui.test_geometry import SIZES, _settle, _unlock, layout_problems


def _shot(gui: Any, where: str, name: str) -> None:
    """The screen as a trainer sees it: the till's window with the pad and printer over it."""
    shots = os.environ.get("TRAINING_SHOTS")
    if not shots:
        return
    from PySide6.QtGui import QPainter, QPixmap

    screen = QRect(0, 0, 1280, 800)
    canvas = QPixmap(screen.size())
    canvas.fill()
    painter = QPainter(canvas)
    for w in gui.windows():
        painter.drawPixmap(w.geometry().topLeft(), w.grab())
    painter.end()
    Path(shots).mkdir(parents=True, exist_ok=True)
    canvas.save(str(Path(shots) / f"{where.replace(' ', '-')}-{name}.png"))


@pytest.mark.parametrize("language", ["en", "es"])
def test_no_screen_scrolls_sideways_beside_the_training_windows(ui: Any, make_gui: Any,
                                                                language: str) -> None:
    from ui.cash import place_training_windows
    from ui.pages.manager import ManagerPage
    from ui.pages.reports import ReportsPage

    gui = make_gui()
    gui.set_language(language)
    window, pad, printer = gui.window, gui.pinpad, gui.printer_window
    assert pad is not None and printer is not None
    problems: list[str] = []
    try:
        for (width, height), scale in SIZES:
            screen = QRect(0, 0, width, height)
            where = f"{language} {width}x{height} {round(scale * 100)}%"
            gui.set_theme(high_contrast=False, font_scale=scale)
            place_training_windows(gui, screen)
            _settle(ui)
            for w in gui.windows():
                if not screen.contains(w.frameGeometry()):
                    problems.append(f"{where}: {w.objectName() or type(w).__name__} at "
                                    f"{w.frameGeometry()} runs off the screen")
            problems += [f"{where} {w.objectName()}: {p}" for w in (pad, printer)
                         for p in layout_problems(w)]
            if width == 1024 and not (pad.front.overlapping() and printer.front.overlapping()):
                # no room beside a till that fits 1024: the pad and printer lie over its edge
                problems.append(f"{where}: the till is narrowed for a column beside it")
            for index, page in enumerate(window.pages):
                window.show_page(index)
                _settle(ui)
                if isinstance(page, ManagerPage | ReportsPage):
                    _unlock(ui, page)
                    _settle(ui)
                for tabs, tab in [(t, i) for t in page.findChildren(QTabWidget)
                                  for i in range(t.count())] or [(None, 0)]:
                    name = type(page).__name__
                    if tabs is not None:  # every tab of a screen with tabs
                        tabs.setCurrentIndex(tab)
                        _settle(ui)
                        name += f" tab {tab}"
                    _shot(gui, where, name.replace(" ", "-"))
                    sideways = page.scroll_area.horizontalScrollBar().maximum()
                    if sideways > 0:
                        problems.append(f"{where} {name}: scrolls sideways by {sideways} px")
                    problems += [f"{where} {name}: {p}" for p in layout_problems(window)]
                if isinstance(page, ManagerPage | ReportsPage):
                    page.lock()
    finally:
        gui.set_theme(font_scale=1.0)
    assert not problems, "\n".join(problems[:60])
