"""Every control speaks (issue #45; WCAG 2.2, 4.1.2 name, role, value): on every screen and state
``make screens`` reaches, each interactive widget of every window shown (the till, the training
PIN pad and printer, the refund dialog) has a name as a screen reader reads it through Qt's
accessibility interface (what AT-SPI hands Orca), in English and in Spanish, and none is left in
English after the switch; every row of a list or table says what it is. A sale by keys is
announced: approved, declined, partial, offline; the ticket's rows say ``Coffee, 2 at $3.50,
$7.00``.

The walk is ``scripts/screens.py``'s own (``walk``): one window across the states, both languages
read at each."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QScrollBar,
    QTabBar,
    QTableView,
    QTextEdit,
    QWidget,
)

from ui import a11y
from ui.i18n import TRANSLATIONS_DIR
from ui.i18n_tool import read_ts

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
ES = read_ts(TRANSLATIONS_DIR / "cashier_es.ts")
#: What a person presses, types into, chooses from or reads through (a scroll bar belongs to its
#: view); a widget that takes the keyboard by Tab counts too (the Sale screen's amount).
INTERACTIVE = (QAbstractButton, QLineEdit, QComboBox, QAbstractItemView, QAbstractSpinBox, QTextEdit,
               QPlainTextEdit, QAbstractSlider, QTabBar)
#: Window words whose Spanish differs, as whole words: one of them in a name that reads the same
#: in both languages was left in English.
_ENGLISH = re.compile(r"\b(?:" + "|".join(
    re.escape(s) for s in sorted((s for s, t in ES.items() if t != s and len(s) > 3 and "{" not in s
                                  and "%" not in s), key=len, reverse=True)) + r")\b")
#: Rows that begin with the cashier's own words: a ticket line's name (the quick path names its
#: line "Amount" in the language of the moment, and the journal keeps it so).
DATA_ROWS = frozenset({"TicketPanel.lines_list"})
NAME, DESCRIPTION = QAccessible.Text.Name, QAccessible.Text.Description


@pytest.fixture(autouse=True)
def reader_listening() -> Iterator[None]:
    """Accessibility on, as when a screen reader is connected: Qt then keeps what it exposes up to
    date (a list refilled is read anew; with nobody listening it skips the updates)."""
    QAccessible.setActive(True)
    try:
        yield
    finally:
        QAccessible.setActive(False)


def interactive(window: QWidget) -> list[QWidget]:
    """The interactive widgets shown in ``window`` (not those of a window over it)."""
    found = []
    for w in window.findChildren(QWidget):
        if w.window() is not window or not w.isVisible():
            continue
        if (isinstance(w, INTERACTIVE) and not isinstance(w, QScrollBar)) \
                or w.focusPolicy() & Qt.FocusPolicy.TabFocus:
            found.append(w)
    return found


def spoken(w: QWidget) -> tuple[str, str]:
    """(name, description) as a screen reader gets them from Qt. A combo box is named by its
    current item on Linux: its purpose is the label it is the buddy of (the labelled-by
    relation Orca reads), so that is its name here."""
    iface = QAccessible.queryAccessibleInterface(w)
    assert iface is not None, w
    if isinstance(w, QComboBox):
        labels = [rel[0].text(NAME) for rel in iface.relations(QAccessible.RelationFlag.Label)]
        return " ".join(label for label in labels if label), iface.text(DESCRIPTION)
    return iface.text(NAME), iface.text(DESCRIPTION)


def rows(view: QAbstractItemView, limit: int = 40) -> list[str]:
    """What a reader says for each row (its first cell; a list's item) and, a table with its titles
    shown, for each column's title: the view's accessible children, as AT-SPI walks them."""
    iface = QAccessible.queryAccessibleInterface(view)
    assert iface is not None, view
    said = []
    header = not isinstance(view, QTableView) or view.horizontalHeader().isVisible()
    Role = QAccessible.Role
    for k in range(iface.childCount()):
        child = iface.child(k)
        if child is None:
            continue
        role = child.role()
        if role == Role.ColumnHeader and header:
            said.append(child.text(NAME))
        elif role == Role.Cell:
            cell = child.tableCellInterface()
            if cell is not None and cell.columnIndex() == 0:
                said.append(child.text(NAME))
        elif role in (Role.ListItem, Role.TreeItem):
            said.append(child.text(NAME))
        if len(said) >= limit:
            break
    return said


def where(w: QWidget) -> str:
    """The widget as a person finds it in the code: the attribute that holds it, else its class."""
    parent = w.parentWidget()
    while parent is not None:
        for key, value in vars(parent).items():
            if value is w:
                return f"{type(parent).__name__}.{key}"
        parent = parent.parentWidget()
    return f"{type(w).__name__} {w.objectName()!r} in {type(w.parentWidget()).__name__}"


@dataclass
class Ear:
    """Reads every window shown at each state the walk visits, in both languages."""

    build_gui: Callable[..., Any]
    guis: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    states: int = 0
    widgets: set[int] = field(default_factory=set)
    readings: int = 0

    def build(self, **overrides: Any) -> Any:
        gui = self.build_gui(start=False, drawer_float=None, **overrides)
        self.guis.append(gui)
        return gui

    def read(self, state: str) -> dict[int, tuple[str, str, str, list[str]]]:
        heard: dict[int, tuple[str, str, str, list[str]]] = {}
        for window in QApplication.topLevelWidgets():
            if not window.isVisible():
                continue
            for w in interactive(window):
                name, about = spoken(w)
                said = rows(w) if isinstance(w, QAbstractItemView) and not isinstance(w, QHeaderView) else []
                heard[id(w)] = (where(w), name, about, said)
                self.widgets.add(id(w))
                self.readings += 1
                if not name.strip():
                    self.problems.append(f"{state}: {where(w)} has no name")
                if not all(s.strip() for s in said):
                    self.problems.append(f"{state}: {where(w)} has a row or column that says nothing: {said}")
        return heard

    async def visit(self, _widget: Any, state: str) -> None:
        self._visit(state)

    def _visit(self, state: str) -> None:
        self.states += 1
        gui = self.guis[-1]
        first = gui.language.code
        other = "es" if first == "en" else "en"
        heard = {first: self.read(f"{state} ({first})")}
        for code in (other, first):
            gui.set_language(code)
            # a dialog says itself again on Qt's posted LanguageChange, and the PIN pad's answers
            # made again replace the old ones: both delivered now, with no paint between
            for posted in (QEvent.Type.LanguageChange, QEvent.Type.DeferredDelete):
                QCoreApplication.sendPostedEvents(None, posted)
            if code == other:
                heard[other] = self.read(f"{state} ({other})")
        for key, (at, name, about, said) in heard["en"].items():
            if key not in heard["es"]:
                continue
            _, es_name, es_about, es_said = heard["es"][key]
            if at in DATA_ROWS:
                said, es_said = [], []
            for english, spanish in ((name, es_name), (about, es_about), *zip(said, es_said, strict=False)):
                if english == spanish and (left := _ENGLISH.search(english)):
                    self.problems.append(f"{state}: {at} says {english!r} in Spanish too "
                                         f"({left.group()!r})")


@contextmanager
def screens_script() -> Iterator[Any]:
    """``scripts/screens.py`` (and the ``screens_cash.py`` beside it), as ``make screens`` runs."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        import screens

        yield screens
    finally:
        sys.path.remove(str(SCRIPTS))


def _heard_nothing_wrong(ear: Ear) -> None:
    problems = sorted(set(ear.problems))
    assert problems == [], f"{len(problems)} unnamed or English-only:\n" + "\n".join(problems)
    print(f"a11y: {ear.states} states, {len(ear.widgets)} interactive widgets, "
          f"{ear.readings} readings in en and es")


def test_every_control_of_every_screen_and_state_has_a_name_in_both_languages(
        ui: Any, make_gui: Any) -> None:
    """The walk of ``make screens`` (``make long``: ~15 s; every screen at rest stays in the quick
    run, below)."""
    ear = Ear(make_gui)
    with screens_script() as screens:
        ui.run(screens.walk(ear.visit, ear.build, looks=False, store=False), timeout_s=120)
    _heard_nothing_wrong(ear)
    # the walk reached what ``make screens`` shows (the store's pictures need PostgreSQL: the
    # Store part is read as it stands unlinked)
    assert ear.states >= 55 and len(ear.widgets) >= 150, (ear.states, len(ear.widgets))


def test_every_screen_at_rest_has_names_in_both_languages(ui: Any, make_gui: Any) -> None:
    """Every screen as it opens, the training PIN pad and printer beside it: the walk's own last
    pass (``screens.every_screen``)."""
    ear = Ear(make_gui)
    gui = make_gui()
    ear.guis.append(gui)
    with screens_script() as screens:
        ui.run(screens.every_screen(gui, ear.visit, looks=False))
    _heard_nothing_wrong(ear)
    assert ear.states == len(gui.window.pages) and len(ear.widgets) >= 100, (ear.states,
                                                                             len(ear.widgets))


# ---- a sale followed by ear -------------------------------------------------------------------
def _sale(ui: Any, gui: Any) -> Any:
    from ui.pages.sale import SalePage

    page = gui.window.go(SalePage)
    gui.window.activateWindow()
    assert QTest.qWaitForWindowActive(gui.window, 2000)
    return page


def _idle(ui: Any, page: Any) -> None:
    ui.until(lambda: page.task is not None and page.task.done()
             and page.stack.currentWidget() is page.entry_page, what="entry screen")


def _heard_since(mark: int) -> list[str]:
    return list(a11y.heard)[mark:] if mark <= len(a11y.heard) else list(a11y.heard)


def test_a_sale_by_keys_is_announced_approved_declined_partial_offline(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    pad = gui.pinpad
    page = _sale(ui, gui)
    a11y.heard.clear()
    pad.auto.setChecked(True)
    focused: list[QWidget] = []
    app = QApplication.instance()
    assert isinstance(app, QApplication)

    def moved(_old: QWidget | None, new: QWidget | None) -> None:
        if new is not None:
            focused.append(new)
    app.focusChanged.connect(moved)
    QTest.keyClicks(page.amount, "1250")
    QTest.keyClick(page.amount, Qt.Key.Key_Return)  # the quick path: the card is charged
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="result")
    said = list(a11y.heard)
    assert "Approved. $12.50" in said[-1], said
    assert any(s.startswith("Paying by card") for s in said), said  # the wait, as it began
    # where the focus lands says it too (a reader without announcements reads it on focus)
    assert spoken(page.new_button)[1].startswith("Approved. $12.50"), spoken(page.new_button)
    QTest.keyClick(page.new_button, Qt.Key.Key_Return)
    # the focus goes where the cashier is, each step read once: never by the navigation's keys
    assert focused == [page.cancel_button, page.new_button, page.amount], [where(w) for w in focused]
    app.focusChanged.disconnect(moved)
    a11y.heard.clear()
    QTest.keyClicks(page.amount, "99999800")  # the vendor's decline trigger
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    _idle(ui, page)
    assert any(s.startswith("Declined") and "remaining $999,998.00" in s for s in a11y.heard), \
        list(a11y.heard)
    assert spoken(page.amount)[1].startswith("Declined"), spoken(page.amount)
    QTest.keyClick(page.amount, Qt.Key.Key_F12)  # nothing was taken: the ticket goes at once
    ui.until(lambda: page.task.done() and page.ticket is None, what="ticket cancelled")
    a11y.heard.clear()
    QTest.keyClicks(page.amount, "21900")  # a partial approval of half
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    _idle(ui, page)
    assert any(s.startswith("PARTIALLY APPROVED: $109.50 of $219.00") for s in a11y.heard), \
        list(a11y.heard)
    # the refusal of a key with nothing to pay is said too (the screen shows no change)
    gui.set_language("es")
    a11y.heard.clear()
    page.new_sale()
    QTest.keyClick(page.amount, Qt.Key.Key_F12)
    QTest.keyClick(page.amount, Qt.Key.Key_F12)
    ui.until(lambda: page.task.done() and page.ticket is None, what="ticket cancelled")
    a11y.heard.clear()
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    assert list(a11y.heard) == [ES["Amount: type the amount first (it must be greater than zero)."]]
    gui.set_language("en")
    # the till goes offline (the manager's switch): said at once, wherever the focus is
    from ui.pages.manager import ManagerPage

    manager = gui.window.go(ManagerPage)
    manager.pin.setText("1234")
    manager.unlock()
    a11y.heard.clear()
    manager.set_mode(True)
    ui.until(lambda: gui.till.status.offline, what="offline")
    # the pill says what is stored since issue 40 ("Offline: cards stored — 0 for $0.00")
    assert any(said.startswith("Offline: cards stored") for said in a11y.heard), list(a11y.heard)
    manager.set_mode(False)
    ui.until(lambda: not gui.till.status.offline, what="online")
    assert "Online" in a11y.heard, list(a11y.heard)


def test_the_ticket_rows_say_what_each_line_is_in_the_window_language(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    page = _sale(ui, gui)
    ui.run(page.model.add_line("Coffee", Decimal("3.50"), 2))
    ui.run(page.model.add_line("Mug", Decimal("7.50")))
    assert rows(page.lines_list) == ["Coffee, 2 at $3.50, $7.00", "Mug, $7.50"]
    remaining = QAccessible.queryAccessibleInterface(page.remaining_value)
    assert remaining.text(NAME) == "Remaining: $14.50"
    assert remaining.text(DESCRIPTION) == "What the customer still owes: the next tender's amount."
    gui.set_language("es")
    assert rows(page.lines_list)[0] == ES["{name}, {quantity} at {price}, {amount}"].format(
        name="Coffee", quantity=2, price="$3.50", amount="$7.00")
    assert QAccessible.queryAccessibleInterface(page.remaining_value).text(NAME) == \
        f"{ES['Remaining']}: $14.50"
    assert QAccessible.queryAccessibleInterface(page.lines_list).text(NAME) == ES["Ticket lines"]
    assert QAccessible.queryAccessibleInterface(page.amount).text(NAME) == f"{ES['Amount']}: $14.50"
    gui.set_language("en")
