"""The Sale screen's middle: what is typed (the line's name, the amount, the keyed tip), how the
tip is taken, what the screen has to say, and the tenders, with the quick cash keys ("Exact" and
the next notes up, from the profile's ``[ticket] notes``)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ui.i18n import format_money, tr
from ui.pages.base import hint, labelled
from ui.widgets.amount import AmountDisplay

if TYPE_CHECKING:
    from ui.pages.sale.page import SalePage

#: How the tip is taken: none, the customer on the PIN pad, or keyed by the cashier.
TIP_NONE, TIP_PAD, TIP_KEYED = "none", "pad", "keyed"
#: The quick cash keys: "Exact" then the next notes up.
EXACT_KEY = "Alt+E"
NOTE_KEYS = ("Alt+1", "Alt+2", "Alt+3")


class PaymentPanel(QWidget):
    def __init__(self, page: SalePage) -> None:
        super().__init__()
        cur = page.till.currency
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(8)
        self.description = QLineEdit()
        self.description.setObjectName("LineDescription")
        self.description.setMaxLength(40)
        self.description.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        col.addWidget(self.description)
        self.amount = AmountDisplay(cur)
        self.amount.setMinimumHeight(72)
        col.addWidget(self.amount)
        self.tip = AmountDisplay(cur)
        self.tip.setObjectName("SmallAmount")
        self.tip.setMinimumHeight(44)
        tip_row = QGridLayout()
        self.tip_label = QLabel()
        self.tip_label.setObjectName("Breakdown")
        tip_row.addWidget(self.tip_label, 0, 0)
        tip_row.addWidget(self.tip, 0, 1)
        tip_row.setColumnStretch(1, 1)
        col.addLayout(tip_row)
        # the three tip modes one under the other: side by side they do not fit in Spanish
        tips = QVBoxLayout()
        tips.setSpacing(2)
        self.tip_group = QButtonGroup(self)
        self.tip_buttons: dict[str, QRadioButton] = {}
        for key in (TIP_NONE, TIP_PAD, TIP_KEYED):
            radio = QRadioButton()
            radio.setProperty("tip_mode", key)
            self.tip_group.addButton(radio)
            tips.addWidget(radio)
            self.tip_buttons[key] = radio
        self.tip_buttons[page.till.profile.tip_mode].setChecked(True)
        col.addLayout(tips)
        self.notice = QLabel()
        self.notice.setObjectName("TicketNotice")
        self.notice.setWordWrap(True)
        self.notice.setVisible(False)
        col.addWidget(self.notice)
        self.error_label = QLabel()
        self.error_label.setObjectName("Hint")
        self.error_label.setStyleSheet("color: #b71c1c; font-weight: 600;")
        self.error_label.setWordWrap(True)
        col.addWidget(self.error_label)
        self.add_line_button = page.button(lambda: tr("Add line"), "Ins", page.add_line)
        self.add_line_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        col.addWidget(self.add_line_button)
        tenders = QGridLayout()
        self.card_button = page.button(lambda: tr("Card"), "F2", page.charge_card, "Tender", stacked=True)
        self.gift_button = page.button(lambda: tr("Gift card"), "F3", page.charge_gift_card, "Tender",
                                       stacked=True)
        self.qr_button = page.button(lambda: tr("QR"), "F4", page.charge_qr, "Tender", stacked=True)
        self.cash_button = page.button(lambda: tr("Cash"), "F11", page.pay_cash, "Tender", stacked=True)
        for i, b in enumerate((self.card_button, self.gift_button, self.qr_button, self.cash_button)):
            b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            tenders.addWidget(b, i // 2, i % 2)
        col.addLayout(tenders)
        cash = QGridLayout()
        cash.setSpacing(6)
        self.exact_button = page.button(lambda: tr("Exact"), EXACT_KEY, lambda: page.quick_cash(None),
                                        "QuickCash", stacked=True)
        self.offers: list[Decimal] = []
        self.note_buttons: list[QPushButton] = []
        for i, key in enumerate(NOTE_KEYS):
            b = page.button(self._offer_text(i), key, self._offer_slot(page, i), "QuickCash",
                            stacked=True)
            self.note_buttons.append(b)
        for i, b in enumerate((self.exact_button, *self.note_buttons)):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            cash.addWidget(b, 0, i)
        col.addLayout(cash)
        self.ready_hint = hint()
        col.addWidget(self.ready_hint)
        col.addStretch(1)
        self.currency = cur

    def _offer_text(self, i: int) -> Callable[[], str]:
        return lambda: format_money(self.offers[i], self.currency) if i < len(self.offers) else "—"

    def _offer_slot(self, page: SalePage, i: int) -> Callable[[], None]:
        def pay() -> None:
            if i < len(self.offers):
                page.quick_cash(self.offers[i])
        return pay

    def show_cash_offers(self, offers: list[Decimal], enabled: bool) -> None:
        """The quick cash keys for what remains (the core's ``cash_offers``)."""
        self.offers = offers
        for i, (b, key) in enumerate(zip(self.note_buttons, NOTE_KEYS, strict=True)):
            b.setText(labelled(self._offer_text(i)(), key, True))
            b.setEnabled(enabled and i < len(offers))
        self.exact_button.setEnabled(enabled)

    def tip_mode(self) -> str:
        checked = self.tip_group.checkedButton()
        return str(checked.property("tip_mode")) if checked is not None else TIP_NONE

    def retranslate(self) -> None:
        self.tip_label.setText(tr("Tip"))
        self.tip_buttons[TIP_NONE].setText(tr("No tip"))
        self.tip_buttons[TIP_PAD].setText(tr("Tip on PIN pad"))
        self.tip_buttons[TIP_KEYED].setText(tr("Tip keyed"))
        self.description.setPlaceholderText(tr("Line name (type letters), then the price and +"))
        self.ready_hint.setText(tr("Type the amount (1 2 5 0 = 12.50), then Return or F2 for card; "
                                   "+ adds it as a line."))
        self.amount.refresh()
        self.tip.refresh()
