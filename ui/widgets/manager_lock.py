"""The manager's PIN lock, one panel for every screen behind it (Manager, Reports): a line of
text, the PIN field (Return tries it), an optional Unlock button and hint, one error line. The
check is the screen's (its roster); the panel only asks and shows."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from ui import a11y
from ui.widgets.hint import hint


class ManagerLock(QWidget):
    def __init__(self, check: Callable[[str], str | None], on_open: Callable[[], None],
                 unlock_button: QPushButton | None = None) -> None:
        """``check(pin)`` says why the PIN is refused (None: a manager's); ``on_open`` runs when
        it is accepted."""
        super().__init__()
        self._check = check
        self._on_open = on_open
        col = QVBoxLayout(self)
        self.text = QLabel()
        self.text.setObjectName("Breakdown")
        self.pin = QLineEdit()
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setMaxLength(8)
        self.pin.setMaximumWidth(260)
        self.pin.returnPressed.connect(self.try_pin)
        self.text.setBuddy(self.pin)  # the line of text names the PIN field for a screen reader
        self.error = hint()
        self.error.setObjectName("ErrorText")
        self.hint = hint()
        col.addWidget(self.text)
        col.addWidget(self.pin)
        if unlock_button is not None:
            unlock_button.setMaximumWidth(260)
            col.addWidget(unlock_button)
        col.addWidget(self.error)
        col.addWidget(self.hint)
        col.addStretch(1)

    def try_pin(self) -> bool:
        """The PIN typed, checked once: cleared either way, the screen opened when accepted."""
        why = self._check(self.pin.text())
        self.pin.clear()
        if why is not None:
            self.error.setText(why)
            a11y.announce(self.error, why, urgent=True)
            return False
        self.error.clear()
        self._on_open()
        return True
