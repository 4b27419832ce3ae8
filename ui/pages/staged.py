"""The payment screens' one shape: an entry, a wait (the PIN pad or the customer's phone) and a
result, on one stack, with the same keys: the entry's keys while typing, Esc cancels the wait,
Return on the result starts a new sale. The Sale, QR, Gift card and Phone/link screens build on
it; the last two show their result on the entry (the cashier goes on from what the host said).
A result that moved money carries "E-mail receipt" (Ctrl+E, issue #41): ``email_button`` makes
it, ``emailable`` names the entry whose receipt it sends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.i18n import tr
from ui.keys import EMAIL
from ui.pages.base import Page, PartStack, hint, restyle
from ui.widgets.amount import FitLabel

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.till import Till


class ResultStage(QFrame):
    """The result: its title (coloured as the outcome), the amount, the details, a message and
    the buttons two a row (four side by side made the screen wider than 1024 px in Spanish)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("Result")
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(32, 24, 32, 24)
        self.title = QLabel()
        self.title.setObjectName("ResultTitle")
        self.amount = QLabel()
        self.amount.setObjectName("TotalLine")
        self.details = QLabel()
        self.details.setObjectName("Breakdown")
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        self.message = hint()
        for w in (self.title, self.amount, self.details, self.message):
            self.column.addWidget(w)

    def add_buttons(self, buttons: Sequence[QPushButton]) -> None:
        self.column.addStretch(1)
        grid = QGridLayout()
        for i, b in enumerate(buttons):
            grid.addWidget(b, i // 2, i % 2)
        self.column.addLayout(grid)

    def show_title(self, text: str, style_key: str) -> None:
        """The title, the page coloured as the outcome's style (approved, cancelled, error...)."""
        self.title.setText(text)
        restyle(self, "outcome", style_key)


def wait_labels() -> tuple[QLabel, QLabel, QLabel]:
    """The wait's amount (large), its title and what the customer is asked."""
    amount, title, text = FitLabel(), QLabel(), QLabel()
    amount.setObjectName("AmountDisplay")
    title.setObjectName("ResultTitle")
    text.setObjectName("PromptText")
    title.setWordWrap(True)
    text.setWordWrap(True)
    return amount, title, text


class StagedPage(Page):
    """A payment screen of three stages; a subclass builds them and adds them with ``stages``."""

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.stack = PartStack()  # the part shown takes the keyboard at once (issue #45)
        self.layout_.addWidget(self.stack, 1)
        self._emailable: int | None = None
        self._email_line: QLabel | None = None
        self.email_result_button: QPushButton | None = None

    def email_button(self, line: QLabel) -> QPushButton:
        """The result's "E-mail receipt" (Ctrl+E): the same prompt and core path as the Sale
        screen's (``ui.email_prompt``); ``line``: where the result says what became of it."""
        self._email_line = line
        self.email_result_button = self.button(lambda: tr("E-mail receipt"), EMAIL,
                                               self.email_receipt, stacked=True)
        self.email_result_button.setEnabled(False)
        return self.email_result_button

    def emailable(self, entry_id: int | None) -> None:
        """The entry whose receipt the result's button sends (None: the result has none)."""
        self._emailable = entry_id
        if self.email_result_button is not None:
            self.email_result_button.setEnabled(entry_id is not None)

    def email_receipt(self) -> None:
        from ui.email_prompt import email_receipt

        line = self._email_line
        if self._emailable is None or line is None:
            return
        email_receipt(self.gui, self, entry_id=self._emailable,
                      said=lambda text: self.say_in(line, lambda: text))

    def stages(self, entry: QWidget, waiting: QWidget, result: QWidget | None = None) -> None:
        """The three stages; ``result`` None: the result shows on the entry."""
        self.entry_page, self.waiting_page = entry, waiting
        self.result_page = entry if result is None else result
        for page in dict.fromkeys((entry, waiting, self.result_page)):
            self.stack.addWidget(page)

    def wait(self, focus: QWidget | None = None) -> None:
        """The wait on screen (``focus`` takes the keyboard: its Cancel)."""
        self.stack.setCurrentWidget(self.waiting_page)
        if focus is not None:
            focus.setFocus()

    def back_to_entry(self) -> None:
        """The entry on screen again (a result on the entry shows there)."""
        self.stack.setCurrentWidget(self.entry_page)

    @property
    def on_entry(self) -> bool:
        return self.stack.currentWidget() is self.entry_page

    @property
    def on_waiting(self) -> bool:
        return self.stack.currentWidget() is self.waiting_page

    @property
    def on_result(self) -> bool:
        return self.stack.currentWidget() is self.result_page

    def entry_key(self, event: QKeyEvent) -> bool:
        """A key typed on the entry: True when the entry took it."""
        return False

    def cancel_payment(self) -> None:
        """Esc while waiting."""

    def new_sale(self) -> None:
        """Return on the result."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.on_entry and self.entry_key(event):
            event.accept()
            return
        if self.on_waiting and event.key() == Qt.Key.Key_Escape:
            self.cancel_payment()
            event.accept()
            return
        if self.on_result and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.new_sale()
            event.accept()
            return
        super().keyPressEvent(event)

    def clear_of_the_pad(self, page: QWidget, margin: int) -> None:
        """Training on a small screen: the PIN pad comes to the front over the window's left
        edge (its navigation) while the customer is asked and while the result shows, so this
        screen's words and buttons stay right of it (seen at 1024x768: the amount and Cancel
        [Esc] under the pad; at 150 % text "Present card ($219.00)" too, issue #39)."""
        window = self.window()
        covered = int(getattr(window, "covered_left", 0))
        gap = self.stack.mapTo(window, QPoint(0, 0)).x()  # the navigation, left of this screen
        layout = page.layout()
        if layout is not None:
            m = layout.contentsMargins()
            layout.setContentsMargins(margin + max(0, covered - gap), m.top(), m.right(), m.bottom())
