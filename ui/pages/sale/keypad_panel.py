"""The Sale screen's right side: which field the keys go to (the amount, F5, or the keyed tip,
F7) and the shared amount panel's keys for touch (``ui.widgets.amount.AmountPanel``; the amount
itself is shown beside the ticket), or in their place the catalog's product grid (F6 switches
between the two; the grid shows while the catalog has products, until the cashier asks for the
keys)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QStackedWidget, QVBoxLayout, QWidget

from ui.i18n import tr
from ui.pages.base import hint, labelled
from ui.pages.sale.product_grid import BUTTON_W
from ui.widgets.amount import AmountDisplay, AmountPanel

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtWidgets import QPushButton


class SalePage(Protocol):
    """What the keypad panel asks of the Sale page (the page builds the panel: no import back up)."""

    @property
    def amount(self) -> AmountDisplay: ...

    def button(self, text: Callable[[], str], keys: str, slot: Callable[[], object],
               object_name: str = "", stacked: bool = False) -> QPushButton: ...
    def select_field(self, display: AmountDisplay) -> None: ...
    def key_tip_field(self) -> None: ...
    def times(self) -> None: ...


class KeypadPanel(QWidget):
    def __init__(self, page: SalePage, amount: AmountDisplay) -> None:
        super().__init__()
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        fields = self.fields = QGridLayout()
        fields.setSpacing(6)
        self.amount_field = page.button(lambda: tr("Amount"), "F5", lambda: page.select_field(page.amount),
                                        stacked=True)
        self.tip_field = page.button(lambda: tr("Tip"), "F7", page.key_tip_field, stacked=True)
        for i, b in enumerate((self.amount_field, self.tip_field)):
            b.setCheckable(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            fields.addWidget(b, 0, i)
        self.compact = self.narrowest = self.by_switch = False
        self.lines_locked = False  # money on the ticket: Tip and the quantity key give way
        #: the keypad column's width the screen gives it when compact (``set_compact``)
        self.column = 0
        col.addLayout(fields)
        self.entry = AmountPanel(amount.currency, display=amount)
        self.keypad = self.entry.keypad
        self.stack = QStackedWidget()
        self.keys_page = QWidget()  # the keys at their own height, as before the grid
        keys_col = QVBoxLayout(self.keys_page)
        keys_col.setContentsMargins(0, 0, 0, 0)
        keys_col.addWidget(self.entry)
        keys_col.addStretch(1)
        self.stack.addWidget(self.keys_page)
        col.addWidget(self.stack, 1)
        # the quantity key: the number typed is how many of the next line (issue #39)
        self.quantity = 1
        self.times_button = page.button(self._times_text, "*", page.times, stacked=True)
        self.times_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.times_button.setCheckable(True)
        # beside Clear, under the digits (a row of its own made the screen taller than 800 px at
        # 150 % text); with the digits gone or the grid in their place, beside Amount (``_place``)
        self.keys_grid = self.keypad.layout()
        if isinstance(self.keys_grid, QGridLayout):
            self.keys_grid.addWidget(self.keypad.clear_button, 4, 0, 1, 2)
        self.grid: QWidget | None = None
        self._place()
        self.keys_chosen = False  # F6 asked for the keys while the grid could show
        self.switch_button = page.button(lambda: tr("Keypad") if self.grid_shown() else tr("Products"),
                                         "F6", self.switch)
        self.switch_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.switch_button.setVisible(False)
        self.switch_row = QHBoxLayout()  # F6, and the quantity key beside it when narrowest
        self.switch_row.setSpacing(fields.horizontalSpacing())
        self.switch_row.addWidget(self.switch_button, 1)
        col.addLayout(self.switch_row)
        # how to type, said on the amount itself (a tooltip and for screen readers): a paragraph
        # under the keys made the screen taller than 768 px in Spanish at 125 % text
        self.ready_hint = hint()
        self.ready_hint.setVisible(False)
        col.addWidget(self.ready_hint)

    def add_grid(self, grid: QWidget) -> None:
        """The product grid, in the keypad's place while it has products to show."""
        self.grid = grid
        self.stack.addWidget(grid)

    def grid_shown(self) -> bool:
        return self.grid is not None and self.stack.currentWidget() is self.grid

    def show_grid(self, has_products: bool) -> None:
        """The grid when the catalog has products and the cashier did not ask for the keys."""
        if self.grid is None:
            return
        self.switch_button.setVisible(has_products)
        self.stack.setCurrentWidget(self.grid if has_products and not self.keys_chosen
                                    else self.keys_page)
        self._place()
        self._word_switch()

    def switch(self) -> None:
        """F6: the keypad or the grid, whichever is not shown."""
        if self.grid is None or not self.switch_button.isVisible():
            return
        self.keys_chosen = self.grid_shown()
        self.stack.setCurrentWidget(self.keys_page if self.keys_chosen else self.grid)
        self._place()
        self._word_switch()

    def _word_switch(self) -> None:
        keys = self.grid_shown()
        # its key under its word when compact: "Productos  [F6]" on one line was 3 px too wide
        # for the column at 150 % text (Spanish, after a partial approval)
        self.switch_button.setText(labelled(tr("Keypad") if keys else tr("Products"), "F6",
                                            stacked=self.compact))
        self.switch_button.setAccessibleDescription(
            tr("Shows the keypad in the products' place.") if keys
            else tr("Shows the catalog's products in the keypad's place."))

    def full_width(self) -> int:
        """How wide the column is with the on-screen keys and Amount beside Tip (and, with a
        grid, the quantity key beside them and two columns of products): the same whichever of
        the grid and the keys shows, so F6 never lays the screen out again."""
        gap = self.fields.horizontalSpacing()
        fields = self.amount_field.sizeHint().width() + self.tip_field.sizeHint().width() + gap
        if self.grid is None:
            return max(fields, self.keypad.sizeHint().width())
        return max(fields + gap + self.times_button.sizeHint().width(), self.keypad.sizeHint().width(),
                   2 * BUTTON_W + gap, self.switch_button.sizeHint().width())

    def compact_width(self) -> int:
        """How wide the column is compact with the quantity key beside Amount."""
        return self.amount_field.sizeHint().width() + self.fields.horizontalSpacing() \
            + self.times_button.sizeHint().width()

    def set_compact(self, compact: bool, narrowest: bool = False, column: int = 0) -> None:
        """Compact (issue #39: 1024 px at 150 % text): the on-screen digit keys give way, the
        keyboard types the digits; Amount, Tip and Quantity stay, Tip under Amount. Narrowest
        (a ticket of 999,998.00, high contrast): the quantity key beside F6's key while the grid
        shows and both fit the ``column`` (px) the screen gives, else under Tip; never beside
        Amount."""
        narrowest = compact and narrowest
        self.column = column
        by_switch = self._times_by_switch(narrowest)
        if (compact, narrowest, by_switch) == (self.compact, self.narrowest, self.by_switch):
            return
        self.narrowest = narrowest
        if compact == self.compact:
            self._place()
            return
        self.compact = compact
        self.keypad.setVisible(not compact)
        self._word_switch()
        # the keys' page measured again though hidden behind the grid (its layout kept the digit
        # keys' 382 px and made the column, and the screen, taller than 768 px at 150 % text)
        for page in (self.entry, self.keys_page):
            layout = page.layout()
            if layout is not None:
                layout.invalidate()
            page.updateGeometry()
        self._place()

    def _times_by_switch(self, narrowest: bool) -> bool:
        """Narrowest, with the grid shown: the quantity key beside F6's ("Keypad", not bold, is
        narrower than the checked Amount) rather than on a row of its own under Tip, a row the
        products need (issue #39: high contrast at 150 % text left the grid one row)."""
        if not narrowest or not self.grid_shown() or self.switch_button.isHidden():
            return False
        wide = self.switch_button.sizeHint().width() + self.switch_row.spacing() \
            + self.times_button.sizeHint().width()
        return wide + 8 <= self.column  # a little to spare, as the screen's ``fit``

    def _place(self) -> None:
        """Amount, Tip and the quantity key where they cost least and stay in sight (issue #39:
        with the grid shown the quantity key was under it, out of sight): beside Clear under the
        digit keys; else Amount and Tip in a row with it, or (compact) the narrow quantity key
        beside Amount and Tip under both, so the column is as narrow as the grid's."""
        f = self.fields
        keys_shown = self.grid is None or not self.grid_shown()
        self.by_switch = self._times_by_switch(self.narrowest)
        at: tuple[tuple[QWidget, int, int, int, int], ...]
        if self.by_switch:
            self.switch_row.addWidget(self.times_button)
            at = ((self.amount_field, 0, 0, 1, 1), (self.tip_field, 1, 0, 1, 1))
        elif not self.compact and keys_shown and isinstance(self.keys_grid, QGridLayout):
            self.keys_grid.addWidget(self.times_button, 4, 2)
            at = ((self.amount_field, 0, 0, 1, 1), (self.tip_field, 0, 1, 1, 1))
        elif not self.compact:
            at = ((self.amount_field, 0, 0, 1, 1), (self.tip_field, 0, 1, 1, 1),
                  (self.times_button, 0, 2, 1, 1))
        elif self.narrowest:
            at = ((self.amount_field, 0, 0, 1, 1), (self.tip_field, 1, 0, 1, 1),
                  (self.times_button, 2, 0, 1, 1))
        else:
            at = ((self.amount_field, 0, 0, 1, 1), (self.times_button, 0, 1, 1, 1),
                  (self.tip_field, 1, 0, 1, 2))
        for widget, row, column, rows, columns in at:
            f.addWidget(widget, row, column, rows, columns)
        # the words' keys share what is left; the quantity key is as narrow as its mark
        stretch = [0, 0, 0]
        for widget, _row, column, _rows, _columns in at:
            stretch[column] = 0 if widget is self.times_button else 1
        if self.by_switch:
            stretch = [1, 0, 0]
        for column, factor in enumerate(stretch):
            f.setColumnStretch(column, factor)
        for key in (self.times_button, self.tip_field):
            key.setVisible(not self.lines_locked)

    def show_lines_locked(self, locked: bool) -> None:
        """Once money is on the ticket its tip and lines are final: Tip and the quantity key
        give way (at 1024x768 with 150 % text the product grid, squeezed under them, drew its
        buttons over its page arrows after a partial approval, issue #39)."""
        if locked != self.lines_locked:
            self.lines_locked = locked
            self._place()

    def _times_text(self) -> str:
        return "×" if self.quantity == 1 else f"× {self.quantity}"  # a key as narrow as a digit's

    def show_quantity(self, quantity: int) -> None:
        """The quantity the next line takes, on its key (checked while it is not one)."""
        if quantity == self.quantity:
            return
        self.quantity = quantity
        self.times_button.setText(labelled(self._times_text(), "*", stacked=True))
        self.times_button.setChecked(quantity != 1)

    def retranslate(self) -> None:
        self.entry.retranslate()
        self.times_button.setText(labelled(self._times_text(), "*", stacked=True))
        self.times_button.setAccessibleDescription(
            tr("The number typed is how many of the next line: 2, then *, then its price and +."))
        # its key under the word: the column is as narrow as three keys
        self.keypad.clear_button.setText(labelled(tr("Clear"), "Esc", stacked=True))
        self.ready_hint.setText(tr("Type the amount (1 2 5 0 = 12.50), then Return or F2 for card; "
                                   "+ adds it as a line."))
        # the amount's own (the keys may aim at the tip just now)
        self.entry.display.setToolTip(self.ready_hint.text())
        self.entry.display.setAccessibleDescription(self.ready_hint.text())
        self.amount_field.setAccessibleDescription(tr("The keys type the amount."))
        self.tip_field.setAccessibleDescription(tr("The keys type the tip (the tip is then keyed)."))
        self._word_switch()
