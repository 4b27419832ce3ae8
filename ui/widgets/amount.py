"""Amount entry the way a till does it: each digit shifts in from the right as cents.

"1", "2", "5", "0" gives 12.50; Backspace drops the last digit; Esc clears. The digits and what
they are worth are the core's (``cashier.money.CentsBuffer``): the window only shows them.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFocusEvent, QFont, QFontMetrics, QKeyEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from cashier.money import AmountBounds, CentsBuffer, minor_units
from ui import a11y
from ui.i18n import format_money, tr


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
        #: what this amount is, in the window's language: a screen reader says it with the amount
        #: ("Tip: $6.00"); the screen words it, ``refresh`` says it again
        self.what: Callable[[], str] = lambda: tr("Amount")
        #: a refused amount on screen: the next digit (keyboard or keypad) starts a new amount
        self.start_over = False
        self.setProperty("refused", "false")
        self.refresh()

    @property
    def value(self) -> Decimal:
        return self.buffer.value

    @property
    def entered(self) -> bool:
        """An amount was typed (more than zero): the screen may use it."""
        return self.buffer.entered

    def refresh(self) -> None:
        self.setText(format_money(self.buffer.value, self.currency))
        # its name carries the amount: a label with a name of its own is not re-read as it changes
        a11y.name(self, f"{self.what()}: {self.text()}")
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
        self.settle()

    def clear(self) -> None:
        self.buffer.clear()
        self.settle()

    def set_value(self, amount: Decimal) -> None:
        self.buffer.set(amount)
        self.settle()

    def settle(self) -> None:
        """Edited or replaced (here, or in the buffer by the Sale screen's model): no longer the
        refused amount; drawn again."""
        self.start_over = False
        self._mark(False)
        self.refresh()

    def redraw(self, taken: bool = True) -> None:
        """The buffer was edited by the screen's model, which already knows (one trip per key):
        drawn again without ``changed``; a digit not taken is said through ``refused``."""
        if not taken:
            self.refused.emit()
            return
        self.start_over = False
        self._mark(False)
        self.setText(format_money(self.buffer.value, self.currency))
        a11y.name(self, f"{self.what()}: {self.text()}")

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


class FitAmountDisplay(AmountDisplay):
    """A big amount drawn smaller when its column is narrower than its text at the theme's size
    (never cut or elided): the Sale screen's three panels fit 1024 px at 125 % text, and every
    amount panel 1024 px at 150 % (issue #39). ``widest``: the most width it asks for."""

    widest = 200

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.widest), hint.height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:
        QFrame.paintEvent(self, event)  # the theme's frame and background
        painter = QPainter(self)
        rect = self.contentsRect().adjusted(self.margin(), 0, -self.margin(), 0)
        font = QFont(self.font())
        width = QFontMetrics(font).horizontalAdvance(self.text())
        if width > rect.width() > 0:
            size = font.pixelSize() if font.pixelSize() > 0 else font.pointSizeF()
            scaled = max(8.0, size * rect.width() / width)
            if font.pixelSize() > 0:
                font.setPixelSize(int(scaled))
            else:
                font.setPointSizeF(scaled)
        painter.setFont(font)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment()), self.text())
        painter.end()


class FitLabel(QLabel):
    """A label (an amount) drawn smaller when its column is narrower than its text at the theme's
    size, never cut or elided, as ``FitAmountDisplay`` draws the amount (issue #39: the waiting
    amount of the QR and pay-by-link screens, the Sale ticket's figures, at 1024x768 and 150 %
    text). ``widest``: the most width it asks for."""

    widest = 300

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.widest), hint.height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:
        QFrame.paintEvent(self, event)  # the theme's frame and background
        painter = QPainter(self)
        rect = self.contentsRect().adjusted(self.margin(), 0, -self.margin(), 0)
        font = QFont(self.font())
        width = QFontMetrics(font).horizontalAdvance(self.text())
        if width > rect.width() > 0:
            size = font.pixelSize() if font.pixelSize() > 0 else font.pointSizeF()
            scaled = max(8.0, size * rect.width() / width)
            if font.pixelSize() > 0:
                font.setPixelSize(int(scaled))
            else:
                font.setPointSizeF(scaled)
        painter.setFont(font)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment()), self.text())
        painter.end()


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


class KeyButton(QPushButton):
    """A digit key: never narrower than its text nor than a fingertip (44 px), so a layout short
    of room scrolls (or gives the keys up, the Sale screen's compact keypad) rather than cut it."""

    def minimumSizeHint(self) -> QSize:
        hint = self.sizeHint()
        return QSize(max(hint.width(), 44), max(hint.height(), 44))


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
                button = KeyButton(label)
                button.setObjectName("Key")
                button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys never steal the keyboard
                button.clicked.connect(lambda _=False, k=label: self._press(k))
                grid.addWidget(button, r, c)
                self.keys[label] = button
        self.clear_button = QPushButton()
        # in the buttons' text size, on one line: as a digit key (its size, two lines at 150 %
        # text) it pushed itself under the fold at 1024x768 (issue #39)
        self.clear_button.setObjectName("ClearKey")
        self.clear_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.clear_button.clicked.connect(display.clear)
        grid.addWidget(self.clear_button, 4, 0, 1, 3)
        # the keys as narrow as their digits (the theme's 72 px minimum and wide padding made every
        # amount panel 320 px at 150 % text: the Gift card, QR and Open tabs screens scrolled
        # sideways at 1024 px, issue #39); they stretch with their column, and the text size
        # still comes from the theme
        self.setStyleSheet("QPushButton#Key { min-width: 0px; padding: 4px 6px; }")
        self.retranslate()

    def retranslate(self) -> None:
        self.clear_button.setText(tr("Clear") + "  [Esc]")
        self.keys["⌫"].setAccessibleName(tr("Backspace"))

    def _press(self, key: str) -> None:
        if key == "⌫":
            self.display.backspace()
        else:
            self.display.type_digit(key)


class AmountPanel(QWidget):
    """The one amount entry of the money screens (Sale, QR, Open tabs, Gift card): the big
    amount, digits shifting in as cents (Backspace, Esc clears, Enter submits), and the on-screen
    keys under it. The Sale screen shows its amount beside the ticket and hands it in
    (``display``); the keys then go to whichever field ``aim`` names (the amount or the tip)."""

    def __init__(self, currency: str = "USD", parent: QWidget | None = None, *,
                 display: AmountDisplay | None = None, bounds: AmountBounds | None = None,
                 caption: bool = False) -> None:
        super().__init__(parent)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        #: what the amount is for (the screen words it); shown only when asked for
        self.caption = QLabel(self)
        self.caption.setObjectName("Breakdown")
        self.caption.setWordWrap(True)
        if caption:
            col.addWidget(self.caption)
        else:
            self.caption.hide()
        self.display = display if display is not None else FitAmountDisplay(currency, bounds=bounds)
        if caption:  # the caption the screen words says what the amount is for
            self.display.what = lambda: self.caption.text() or tr("Amount")
        if display is None:
            col.addWidget(self.display)
        self.keypad = Keypad(self.display)
        col.addWidget(self.keypad)

    def aim(self, display: AmountDisplay) -> None:
        """The on-screen keys (and ``take_key``) go to ``display`` from now on."""
        self.keypad.display = display

    def take_key(self, event: QKeyEvent) -> bool:
        """A key for the amount the keys aim at: True when it was the amount's."""
        return handle_amount_key(self.keypad.display, event)

    def retranslate(self) -> None:
        self.keypad.retranslate()
        self.display.refresh()
