"""The window's screens in tests: reaching a screen with the keys, typing into a field or the
manager's PIN prompt, reading the journal on the loop, and what a cashier would see cut,
squeezed or covered on a screen."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QComboBox,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ui.pages.base import bold_extra


# ---- keys ----------------------------------------------------------------------------------------
def keys_to(window: Any) -> None:
    """Shortcuts go to the active window; the training PIN pad opened last took that."""
    window.activateWindow()
    assert QTest.qWaitForWindowActive(window, 2000)


def go_to(gui: Any, cls: type) -> Any:
    """The window's screen ``cls``, reached with the window active."""
    # activate first: waiting for the window spins Qt's events outside the asyncio loop, which
    # must not be when the page has just started its refresh
    keys_to(gui.window)
    return gui.window.go(cls)


def entries(ui: Any, gui: Any, **filters: Any) -> list[Any]:
    """The window's journal entries (``search(**filters)``), read on the loop."""
    return list(ui.run(gui.till.ctx.journal.search(**filters)))


def until_entry(ui: Any, gui: Any, predicate: Any, what: str, **filters: Any) -> Any:
    """The first journal entry matching ``predicate``, read on the loop until it appears."""
    async def wait() -> Any:
        while True:
            for entry in await gui.till.ctx.journal.search(**filters):
                if predicate(entry):
                    return entry
            await asyncio.sleep(0.02)
    return ui.run(wait(), timeout_s=15.0)


def keys(widget: Any, text: str, enter: bool = False) -> None:
    """Type ``text`` into ``widget`` (then Return)."""
    QTest.keyClicks(widget, text)
    if enter:
        QTest.keyClick(widget, Qt.Key.Key_Return)


def answer_prompt(seen: list[str], pin: str | None) -> None:
    """Type ``pin`` and Return into the manager prompt once it is up (None: Escape)."""
    def type_it() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(20, type_it)
            return
        field = dialog.findChild(QLineEdit)
        assert field is not None and field.echoMode() is QLineEdit.EchoMode.Password
        seen.append(dialog.labelText())
        if pin is None:
            QTest.keyClick(field, Qt.Key.Key_Escape)
            return
        QTest.keyClicks(field, pin)
        QTest.keyClick(field, Qt.Key.Key_Return)
    QTimer.singleShot(20, type_it)


def answer_save(seen: list[str], name: str | None = "") -> None:
    """Once the report's save dialog is up: type ``name`` over the file name it offers ("" keeps
    its name) and Return; None presses Escape. ``seen`` gets the name it offered."""
    from PySide6.QtWidgets import QFileDialog

    def type_it() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(20, type_it)
            return
        field = next(f for f in dialog.findChildren(QLineEdit) if f.objectName() == "fileNameEdit")
        seen.append(field.text())
        if name is None:
            QTest.keyClick(field, Qt.Key.Key_Escape)
            return
        if name:
            field.selectAll()
            QTest.keyClicks(field, name)
            completer = field.completer()
            popup = completer.popup() if completer is not None else None
            if popup is not None:  # the path's completions would take the Return
                popup.hide()
        QTest.keyClick(field, Qt.Key.Key_Return)
    QTimer.singleShot(20, type_it)


def walk_away_if_asked(seen: list[str], seconds: float = 5.0) -> Callable[[], None]:
    """Guard an action that must ask no manager: a prompt that shows has its question kept in
    ``seen`` and is cancelled (so the test fails instead of hanging). Call what it returns once
    the action is done (and the watch ends after ``seconds`` anyway): a watch left running
    would cancel the next test's prompt."""
    import time

    deadline = time.monotonic() + seconds
    stopped: list[bool] = []

    def watch() -> None:
        if stopped:
            return
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QInputDialog):
            seen.append(dialog.labelText())
            dialog.reject()
            return
        if time.monotonic() < deadline:
            QTimer.singleShot(20, watch)
    QTimer.singleShot(20, watch)
    return lambda: stopped.append(True)


# ---- what a cashier would see cut, squeezed or covered -------------------------------------------
#: what a window manager's title bar takes of the screen's height (openbox's is 23 px at its
#: default theme, other managers' up to 30): the windows are placed in what is left
TITLE_BAR = 30
#: What a cashier reads or presses; containers (frames, group boxes, scroll areas) hold them.
LEAVES = (QAbstractButton, QLabel, QLineEdit, QComboBox, QAbstractItemView)


def _rect(w: QWidget, window: QWidget) -> QRect:
    return QRect(w.mapTo(window, QPoint(0, 0)), w.size())


def _ancestors(w: QWidget, stop: QWidget) -> Iterator[QWidget]:
    parent = w.parentWidget()
    while parent is not None and parent is not stop:
        yield parent
        parent = parent.parentWidget()


def visible_leaves(root: QWidget) -> list[QWidget]:
    """What a cashier reads or presses in ``root``, as shown now."""
    leaves: list[QWidget] = []
    for w in root.findChildren(QWidget):
        if not isinstance(w, LEAVES) or not w.isVisible() or w.width() == 0:
            continue
        if any(isinstance(a, QAbstractItemView | QComboBox) for a in _ancestors(w, root)):
            continue  # a table's own header and editors, a combo box's popup
        if isinstance(w, QAbstractButton) and isinstance(w.parentWidget(), QAbstractScrollArea):
            continue  # a scroll area's corner button
        leaves.append(w)
    return leaves


def name_of(w: QWidget) -> str:
    """A widget as a problem names it: its text, else its object name, else its class."""
    text = getattr(w, "text", None)
    return (text() if callable(text) else "")[:40] or w.objectName() or type(w).__name__


def layout_problems(root: QWidget, window: QWidget | None = None) -> list[str]:
    """What a cashier would see cut, squeezed or covered in ``root`` (a page or a whole window)."""
    window = window or root.window()
    problems = []
    leaves = visible_leaves(root)
    bounds = window.rect()
    shown: list[tuple[QWidget, QRect]] = []  # what is on screen now (a scrolled page: its view)
    for w in leaves:
        hint = w.sizeHint()
        rect = _rect(w, window)
        scroller = next((a for a in _ancestors(w, window) if isinstance(a, QAbstractScrollArea)), None)
        if scroller is not None:
            view = _rect(scroller.viewport(), window)
            # a page scrolls up and down; sideways it must fit the view it is in
            if rect.left() < view.left() - 1 or rect.right() > view.right() + 1:
                problems.append(f"{name_of(w)!r} lies outside the window (sideways: {rect} in {view})")
            shown.append((w, rect.intersected(view)))
        else:
            shown.append((w, rect))
        if scroller is None and not bounds.contains(rect):
            problems.append(f"{name_of(w)!r} lies outside the window ({rect} in {bounds})")
        needs = hint.width()
        if isinstance(w, QAbstractButton) and w.isChecked():
            # the style sheet shows a checked button's text bold: Qt's size hint measures it plain
            needs = QPushButton.sizeHint(w).width() + bold_extra(w.font(), w.text()) \
                if isinstance(w, QPushButton) else needs
        if isinstance(w, QAbstractButton | QComboBox) and w.width() < needs - 1:
            problems.append(f"{type(w).__name__} {name_of(w)!r} is {w.width()} wide, needs {needs}")
        if isinstance(w, QAbstractButton) and w.height() < min(hint.height(), 44) - 1:
            problems.append(f"button {name_of(w)!r} is {w.height()} high, needs {hint.height()}")
        elif isinstance(w, QAbstractButton) and "\n" in w.text():
            # a name on several lines squeezed into one line's height (issue #39: the menu's names
            # at 150 % text): each of its lines must have its height
            lines = w.text().count("\n") + 1
            tall = int(QFontMetrics(w.font()).height() * lines * 0.9)  # the padding may take a little
            if w.height() < tall:
                problems.append(f"button {name_of(w)!r} is {w.height()} high, its {lines} lines "
                                f"need {tall}")
        if isinstance(w, QLabel) and w.text():
            if not w.wordWrap() and w.width() < hint.width() - 1:
                problems.append(f"label {name_of(w)!r} is cut: {w.width()} wide, needs {hint.width()}")
            elif w.wordWrap() and w.height() < w.heightForWidth(w.width()) - 1:
                problems.append(f"label {name_of(w)!r} is cut: {w.height()} high, needs "
                                f"{w.heightForWidth(w.width())}")
    for (a, ra), (b, rb) in itertools.combinations(shown, 2):
        overlap = ra.intersected(rb)
        if overlap.width() <= 2 or overlap.height() <= 2:
            continue
        if not (a in _ancestors(b, window) or b in _ancestors(a, window)):  # one holding the other
            problems.append(f"{type(a).__name__} {name_of(a)!r} overlaps {type(b).__name__} {name_of(b)!r}")
    return problems


def below_the_fold(page: Any) -> list[str]:
    """A screen's keys a cashier must scroll down to reach (its page at the top, as it opens):
    a page may scroll for a long list, never to reach an action (Drawer's Close [F10] was under
    the fold at 1280x800 under a title bar)."""
    viewport = page.scroll_area.viewport()
    view = viewport.rect()
    out = []
    for w in page.content.findChildren(QAbstractButton):
        if not w.isVisible() or w.width() == 0 or isinstance(w.parentWidget(), QAbstractScrollArea) \
                or any(isinstance(a, QAbstractItemView | QComboBox) for a in _ancestors(w, page)):
            continue
        rect = QRect(w.mapTo(viewport, QPoint(0, 0)), w.size())
        if rect.bottom() > view.bottom() + 1:
            out.append(f"{type(w).__name__} {name_of(w)!r} is {rect.bottom() - view.bottom()} px under "
                       "the fold")
    return out
