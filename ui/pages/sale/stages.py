"""The Sale screen's wait on the PIN pad and its result, on the payment screens' shared stages
(``ui.pages.staged``)."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout

from ui.pages.base import hint
from ui.pages.staged import ResultStage, wait_labels


class WaitingStage(QFrame):
    """The amount on the PIN pad, what the customer sees, the pad's state and Cancel (Esc)."""

    def __init__(self, cancel_button: QPushButton) -> None:
        super().__init__()
        self.setObjectName("StatusPanel")
        col = QVBoxLayout(self)
        col.setContentsMargins(32, 32, 32, 32)
        col.setSpacing(16)
        self.amount, self.title, self.prompt = wait_labels()
        self.title.setWordWrap(False)
        self.terminal_line = hint()
        for w in (self.amount, self.title, self.prompt, self.terminal_line):
            col.addWidget(w)
        # Esc is the screen's own key: a window-wide Esc shortcut would swallow the entry's Esc.
        # The button sits right under the prompt: the stack is as tall as the ticket page, so at
        # the bottom it fell below the fold at 1024x768 while the customer stood at the pad.
        col.addWidget(cancel_button)
        col.addStretch(1)


class SaleResult(ResultStage):
    """The result with the change due (large) under the title and the receipt on demand."""

    def __init__(self, buttons: tuple[QPushButton, ...]) -> None:
        super().__init__()
        self.change_due = QLabel()
        self.change_due.setObjectName("ChangeDue")
        self.change_due.setVisible(False)
        # wrapped: at 1024 wide the PIN pad lies over the result's right side, and a long tender
        # line ("Cash $5.00 taken tendered $10.00, change $5.00") made the screen scroll sideways
        for label in (self.change_due, self.details):
            label.setWordWrap(True)
        self.column.insertWidget(1, self.change_due)
        self.receipt_view = QPlainTextEdit()
        self.receipt_view.setObjectName("ReceiptView")
        self.receipt_view.setReadOnly(True)
        self.receipt_view.setVisible(False)
        self.column.addWidget(self.receipt_view, 1)
        self.add_buttons(buttons)
