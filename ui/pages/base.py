"""What every screen shares: a title, a retranslate hook, helpers for big buttons with shortcuts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from ui.app import Gui
    from ui.till import Till


class Page(QWidget):
    """One screen of the window. ``retranslate`` sets every visible text (language switch)."""

    nav_key = ""

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__()
        self.till = till
        self.gui = gui
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(24, 16, 24, 16)
        self.layout_.setSpacing(12)
        self.heading = QLabel()
        self.heading.setObjectName("PageTitle")
        self.layout_.addWidget(self.heading)
        self._buttons: list[tuple[QPushButton, Callable[[], str], str]] = []

    def title(self) -> str:
        raise NotImplementedError

    def retranslate(self) -> None:
        self.heading.setText(self.title())
        for button, text, keys in self._buttons:
            button.setText(labelled(text(), keys, bool(button.property("stacked"))))

    def entered(self) -> None:
        """Called when the page becomes visible (refresh lists, take the keyboard)."""

    def button(self, text: Callable[[], str], keys: str, slot: Callable[[], object],
               object_name: str = "", stacked: bool = False) -> QPushButton:
        """A button whose shortcut is shown on it (under the text when ``stacked``, for narrow
        buttons in long languages) and works while this page is visible."""
        b = QPushButton(labelled(text(), keys, stacked))
        b.setProperty("stacked", stacked)
        if object_name:
            b.setObjectName(object_name)
        b.clicked.connect(lambda _=False: slot())
        if keys:
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(lambda: b.click() if b.isEnabled() and b.isVisible() else None)
        self._buttons.append((b, text, keys))
        return b


def labelled(text: str, keys: str, stacked: bool = False) -> str:
    if not keys:
        return text
    return f"{text}\n[{keys}]" if stacked else f"{text}  [{keys}]"


def hint(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName("Hint")
    label.setWordWrap(True)
    return label
