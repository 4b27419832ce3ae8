"""The Sale screen's right side: which field the keys go to (the amount, F5, or the keyed tip,
F7) and the shared amount panel's keys for touch (``ui.widgets.amount.AmountPanel``; the amount
itself is shown beside the ticket), or in their place the catalog's product grid (F6 switches
between the two; the grid shows while the catalog has products, until the cashier asks for the
keys)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QStackedWidget, QVBoxLayout, QWidget

from ui.i18n import tr
from ui.pages.base import hint, labelled
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


class KeypadPanel(QWidget):
    def __init__(self, page: SalePage, amount: AmountDisplay) -> None:
        super().__init__()
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        fields = QHBoxLayout()
        self.amount_field = page.button(lambda: tr("Amount"), "F5", lambda: page.select_field(page.amount),
                                        stacked=True)
        self.tip_field = page.button(lambda: tr("Tip"), "F7", page.key_tip_field, stacked=True)
        for b in (self.amount_field, self.tip_field):
            b.setCheckable(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            fields.addWidget(b)
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
        self.grid: QWidget | None = None
        self.keys_chosen = False  # F6 asked for the keys while the grid could show
        self.switch_button = page.button(lambda: tr("Keypad") if self.grid_shown() else tr("Products"),
                                         "F6", self.switch)
        self.switch_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.switch_button.setVisible(False)
        col.addWidget(self.switch_button)
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
        self._word_switch()

    def switch(self) -> None:
        """F6: the keypad or the grid, whichever is not shown."""
        if self.grid is None or not self.switch_button.isVisible():
            return
        self.keys_chosen = self.grid_shown()
        self.stack.setCurrentWidget(self.keys_page if self.keys_chosen else self.grid)
        self._word_switch()

    def _word_switch(self) -> None:
        keys = self.grid_shown()
        self.switch_button.setText(labelled(tr("Keypad") if keys else tr("Products"), "F6"))
        self.switch_button.setAccessibleDescription(
            tr("Shows the keypad in the products' place.") if keys
            else tr("Shows the catalog's products in the keypad's place."))

    def retranslate(self) -> None:
        self.entry.retranslate()
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
