"""Amount entry the way a till does it: each digit shifts in from the right as cents.

"1", "2", "5", "0" gives 12.50; Backspace drops the last digit; Esc clears. The buffer holds
digits only, so no text parsing (and no float) is ever involved.
"""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QWidget

from cashier.errors import ValidationError
from cashier.money import AmountBounds, minor_units, parse_amount
from ui.i18n import format_money, tr

#: Longest digit string a buffer holds; the core's amount rule (``max_amount``) refuses the rest.
MAX_DIGITS = 12


class CentsBuffer:
    """Digits typed so far; the value is those digits read as minor units."""

    def __init__(self, minor_units: int = 2, max_digits: int = MAX_DIGITS,
                 currency: str = "USD", bounds: AmountBounds | None = None) -> None:
        self.minor_units = minor_units
        self.max_digits = max_digits
        self.currency = currency
        #: the till's amounts a human can mean (``max_amount``); None: the host's limit only
        self.bounds = bounds
        self.digits = ""

    def push(self, digit: str) -> bool:
        """Add one digit (or "00"); False when refused: the core's amount rule decides."""
        candidate = (self.digits + digit).lstrip("0")
        if len(candidate) > self.max_digits or not (digit.isascii() and digit.isdigit()):
            return False
        typed = f"{Decimal(int(candidate or '0')).scaleb(-self.minor_units):f}"
        try:
            if self.bounds is not None:
                self.bounds.parse(typed, self.currency, "amount", allow_zero=True)
            else:
                parse_amount(typed, self.currency, "amount", allow_zero=True)
        except ValidationError:
            return False
        self.digits = candidate
        return True

    def backspace(self) -> None:
        self.digits = self.digits[:-1]

    def clear(self) -> None:
        self.digits = ""

    def set(self, amount: Decimal) -> None:
        scaled = amount.scaleb(self.minor_units)
        if scaled != scaled.to_integral_value() or scaled < 0:
            raise ValueError("amount: must be positive with at most the currency's decimals")
        self.digits = str(int(scaled)).lstrip("0")[: self.max_digits]

    @property
    def value(self) -> Decimal:
        return Decimal(int(self.digits or "0")).scaleb(-self.minor_units)


class AmountDisplay(QLabel):
    """The big amount; the keyboard goes here while the Sale screen is up."""

    changed = Signal(object)  # Decimal
    submitted = Signal()
    refused = Signal()  # a digit beyond what the host accepts was typed (and not taken)

    def __init__(self, currency: str = "USD", parent: QWidget | None = None, *,
                 bounds: AmountBounds | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("AmountDisplay")
        self.currency = currency
        self.buffer = CentsBuffer(minor_units(currency), currency=currency, bounds=bounds)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumHeight(96)
        self.setAccessibleName(tr("Amount"))
        #: a refused amount on screen: the next digit (keyboard or keypad) starts a new amount
        self.start_over = False
        self.setProperty("refused", "false")
        self.refresh()

    @property
    def value(self) -> Decimal:
        return self.buffer.value

    def refresh(self) -> None:
        self.setText(format_money(self.buffer.value, self.currency))
        self.changed.emit(self.buffer.value)

    def show_refused(self) -> None:
        """The amount was refused (its tender said why): it stays in sight, marked, and is not
        added to; the next digit starts a new amount."""
        self.start_over = True
        self._mark(True)

    def _mark(self, refused: bool) -> None:
        if self.property("refused") != ("true" if refused else "false"):
            self.setProperty("refused", "true" if refused else "false")
            self.style().unpolish(self)
            self.style().polish(self)

    def type_digit(self, digit: str) -> None:
        if self.start_over and digit.isdigit():
            self.buffer.clear()
        if self.buffer.push(digit):
            self.start_over = False
            self._mark(False)
            self.refresh()
        elif digit.isdigit():
            self.refused.emit()

    def backspace(self) -> None:
        self.buffer.backspace()
        self._settled()

    def clear(self) -> None:
        self.buffer.clear()
        self._settled()

    def set_value(self, amount: Decimal) -> None:
        self.buffer.set(amount)
        self._settled()

    def _settled(self) -> None:
        """Edited or replaced: no longer the refused amount."""
        self.start_over = False
        self._mark(False)
        self.refresh()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if handle_amount_key(self, event):
            event.accept()
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        self.setProperty("focus", "true")
        self.style().polish(self)
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.setProperty("focus", "false")
        self.style().polish(self)
        super().focusOutEvent(event)


def handle_amount_key(display: AmountDisplay, event: QKeyEvent) -> bool:
    """Digits, Backspace, Esc, Enter: True when the key was the amount's."""
    key = event.key()
    text = event.text()
    if text and text.isdigit() and text.isascii():
        display.type_digit(text)
        return True
    if key == Qt.Key.Key_Backspace:
        display.backspace()
        return True
    if key == Qt.Key.Key_Escape:
        display.clear()
        return True
    if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
        display.submitted.emit()
        return True
    return False


class Keypad(QWidget):
    """On-screen keys for touch: 7 8 9 / 4 5 6 / 1 2 3 / 00 0 ⌫ and Clear."""

    def __init__(self, display: AmountDisplay, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.display = display
        grid = QGridLayout(self)
        grid.setSpacing(8)
        grid.setContentsMargins(0, 0, 0, 0)
        rows = (("7", "8", "9"), ("4", "5", "6"), ("1", "2", "3"), ("00", "0", "⌫"))
        self.keys: dict[str, QPushButton] = {}
        for r, row in enumerate(rows):
            for c, label in enumerate(row):
                button = QPushButton(label)
                button.setObjectName("Key")
                button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys never steal the keyboard
                button.clicked.connect(lambda _=False, k=label: self._press(k))
                grid.addWidget(button, r, c)
                self.keys[label] = button
        self.clear_button = QPushButton()
        self.clear_button.setObjectName("Key")
        self.clear_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.clear_button.clicked.connect(display.clear)
        grid.addWidget(self.clear_button, 4, 0, 1, 3)
        self.retranslate()

    def retranslate(self) -> None:
        self.clear_button.setText(tr("Clear") + "  [Esc]")
        self.keys["⌫"].setAccessibleName(tr("Backspace"))

    def _press(self, key: str) -> None:
        if key == "⌫":
            self.display.backspace()
        else:
            self.display.type_digit(key)
