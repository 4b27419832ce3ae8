"""What a screen reader says (WCAG 2.2, 4.1.2 name, role, value): how the screens name their
controls, say what each row of a list is, and announce a change that matters.

Names follow the window's language: each screen sets them from its ``retranslate``, and a field
beside a label is named by that label (``QLabel.setBuddy``), which its ``retranslate`` words. A
combo box is Qt's exception on Linux: it is named by its current item, and an AT-SPI reader (Orca)
takes its purpose from the label it is the buddy of, so ``name`` gives one with no label in sight
a label of its own, never shown.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QLabel, QTableView, QTableWidget, QWidget

from ui.i18n import tr

#: The role a row's words go in: what Qt's accessibility reads for a cell or a list item.
ROW_TEXT = Qt.ItemDataRole.AccessibleTextRole
#: The announcements made, the latest last (a few: what was just said, for the window's tests).
heard: deque[str] = deque(maxlen=50)


def name(widget: QWidget, text: str, about: str | None = None) -> None:
    """``widget`` is called ``text`` (and described by ``about``: what a key does, what a figure
    means) by a screen reader; called again from ``retranslate`` in the new language."""
    if widget.accessibleName() != text:
        widget.setAccessibleName(text)
    if about is not None and widget.accessibleDescription() != about:
        widget.setAccessibleDescription(about)
    if isinstance(widget, QComboBox):
        _combo_label(widget, text)


def _combo_label(box: QComboBox, text: str) -> None:
    """The hidden label whose buddy ``box`` is: its name for AT-SPI (see the module's note)."""
    parent = box.parentWidget()
    if parent is None:
        return
    for child in parent.findChildren(QLabel, options=Qt.FindChildOption.FindDirectChildrenOnly):
        if child.buddy() is box:
            if child.objectName() == "SpokenLabel" and child.text() != text:
                child.setText(text)
            return  # a label the screen shows names it already
    label = QLabel(text, parent)
    label.setObjectName("SpokenLabel")
    label.setBuddy(box)
    label.hide()


def name_view(view: QAbstractItemView, text: str, about: str | None = None) -> None:
    """A list or table and (a table) its header rows, named as ``name`` does."""
    name(view, text, about)
    if isinstance(view, QTableView):
        name(view.horizontalHeader(), tr("{name}: column titles").format(name=text))
        name(view.verticalHeader(), tr("{name}: row numbers").format(name=text))


def table_rows(table: QTableWidget) -> None:
    """Each row of ``table`` said as one phrase on its first cell, every value after its
    column's title (``Invoice: 0042, Card: …1119, Amount: $60.00``); called once it is filled."""
    titles = []
    for column in range(table.columnCount()):
        head = table.horizontalHeaderItem(column)
        titles.append(head.text() if head is not None else "")
    for r in range(table.rowCount()):
        first = table.item(r, 0)
        if first is None:
            continue
        parts = []
        for column, title in enumerate(titles):
            cell = table.item(r, column)
            if cell is not None and cell.text():
                parts.append(f"{title}: {cell.text()}" if title else cell.text())
        row(first, ", ".join(parts))


def row(item: Any, text: str) -> None:
    """What a row (a list item, a table's first cell) is, said as one phrase: ``Coffee, 2 at
    $3.50, $7.00`` rather than its cells' bare figures."""
    item.setData(ROW_TEXT, text)


def live(widget: QWidget, *, urgent: bool = False) -> None:
    """``widget`` is a live region: what a screen says in it (``Page.say_in``) is announced, as
    ARIA's ``aria-live`` (``urgent``: assertive, for a refusal or a decline)."""
    widget.setProperty("live", "assertive" if urgent else "polite")


def say_if_live(widget: QWidget, text: str) -> None:
    """Announce ``text`` when ``widget`` is a live region (see ``live``)."""
    how = widget.property("live")
    if how:
        announce(widget, text, urgent=how == "assertive")


def announce(widget: QWidget, text: str, *, urgent: bool = False) -> None:
    """Say ``text`` now, wherever the reader's focus is: an outcome (approved, declined,
    partial), the till going offline. ``urgent`` interrupts what is being read."""
    if not text:
        return
    heard.append(text)
    event = QAccessibleAnnouncementEvent(widget, text)
    event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive if urgent
                        else QAccessible.AnnouncementPoliteness.Polite)
    QAccessible.updateAccessibility(event)
