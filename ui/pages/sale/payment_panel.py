"""The Sale screen's middle: what is typed (the line's name, the amount, the keyed tip), how the
tip is taken, what the screen has to say, the quick cash keys ("Exact" and the next notes up,
from the profile's ``[ticket] notes``), and the row of tenders."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QLocale, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from cashier.flows.sale_entry import TIP_KEYED as TIP_KEYED  # how the tip is taken: the core's words
from cashier.flows.sale_entry import TIP_NONE as TIP_NONE
from cashier.flows.sale_entry import TIP_PAD as TIP_PAD
from ui import a11y
from ui.i18n import format_money, tr
from ui.pages.base import labelled
from ui.widgets.amount import AmountDisplay
from ui.widgets.amount import FitAmountDisplay as FitAmountDisplay

if TYPE_CHECKING:
    from ui.till import Till


class SalePage(Protocol):
    """What the panel asks of the Sale page (the page builds the panel: no import back up)."""

    till: Till

    def button(self, text: Callable[[], str], keys: str, slot: Callable[[], object],
               object_name: str = "", stacked: bool = False) -> QPushButton: ...
    def add_line(self) -> None: ...
    def quick_cash(self, handed: Decimal | None) -> None: ...
    def charge_card(self, purpose: str = "card") -> None: ...
    def charge_gift_card(self) -> None: ...
    def charge_qr(self) -> None: ...
    def pay_cash(self) -> None: ...

#: The quick cash keys: "Exact" then the next notes up.
EXACT_KEY = "Alt+E"
NOTE_KEYS = ("Alt+1", "Alt+2", "Alt+3")


class ErrorLine(QLabel):
    """The screen's refusal line; ``said`` tells whether it says something now."""

    said = Signal(bool)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.said.emit(bool(text))

    def clear(self) -> None:
        super().clear()
        self.said.emit(False)


class SaidRow(QWidget):
    """The notice and the refusal line across the screen: as high as their words wrapped at the
    width the row has. A wrapped label asks the grid for its height at its narrowest width (a
    word a line), and the Sale screen scrolled down by hundreds of pixels."""

    def hasHeightForWidth(self) -> bool:
        return False

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        layout = self.layout()
        if layout is not None:
            hint.setHeight(layout.heightForWidth(max(self.width(), 400)))
        return hint

    def sizeHint(self) -> QSize:
        return self.minimumSizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()  # its height follows the width it got


class ShownChoice(QComboBox):
    """A choice as wide as the item it shows (the list that opens shows every item whole): as wide
    as its longest, "Propina en la terminal", the Spanish Sale screen scrolled sideways at 150 %
    text (issue #39)."""

    def __init__(self) -> None:
        super().__init__()
        self.currentIndexChanged.connect(lambda _i: self.updateGeometry())

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        metrics = self.fontMetrics()
        longest = max((metrics.horizontalAdvance(self.itemText(i)) for i in range(self.count())), default=0)
        hint.setWidth(hint.width() - longest + metrics.horizontalAdvance(self.currentText()))
        return hint

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


class PaymentPanel(QWidget):
    """What is typed and how it is paid. The tenders are a row of their own (``tenders``) that the
    screen puts under all three panels: side by side with them they do not fit 1024 px."""

    def __init__(self, page: SalePage) -> None:
        super().__init__()
        cur = page.till.currency
        self.currency = cur
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(8)
        self.description = QLineEdit()
        self.description.setObjectName("LineDescription")
        self.description.setMaxLength(40)
        self.description.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        col.addWidget(self.description)
        self.amount = FitAmountDisplay(cur, bounds=page.till.profile.bounds)  # the till's max_amount
        self.amount.setMinimumHeight(72)
        col.addWidget(self.amount)
        # how the tip is taken, and the keyed tip under it (side by side they do not fit 1024 px
        # in Spanish at 125 % text)
        tip_row = QVBoxLayout()
        tip_row.setSpacing(4)
        self.tip_mode_box = ShownChoice()
        self.tip_mode_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay with the amount
        self.tip_mode_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for key in (TIP_NONE, TIP_PAD, TIP_KEYED):
            self.tip_mode_box.addItem("", key)
        self.set_tip_mode(page.till.profile.tip_mode)
        tip_row.addWidget(self.tip_mode_box)
        self.tip = AmountDisplay(cur, bounds=page.till.profile.bounds)
        self.tip.what = lambda: tr("Tip")
        self.tip.setObjectName("SmallAmount")
        self.tip.setMinimumHeight(44)
        tip_row.addWidget(self.tip)
        col.addLayout(tip_row)
        self.notice = QLabel()
        self.notice.setObjectName("TicketNotice")
        self.notice.setWordWrap(True)
        self.notice.setVisible(False)
        a11y.live(self.notice)  # what came of a tender: approved, partial, declined, cancelled
        # the notice and the refusal line: a row of the screen's own, across its width over the
        # tenders (``said``, placed by ``EntryStage``). In this column, wrapped at its width, a
        # partial approval's words took nine lines at 150 % text and pushed the tenders 279 px
        # below the fold at 1024x768 (issue #39)
        self.said = SaidRow()
        said = QVBoxLayout(self.said)
        said.setContentsMargins(0, 0, 0, 0)
        said.setSpacing(4)
        said.addWidget(self.notice)
        self.error_label = ErrorLine()
        self.error_label.setObjectName("Hint")
        self.error_label.setStyleSheet("color: #b71c1c; font-weight: 600;")
        self.error_label.setWordWrap(True)
        a11y.live(self.error_label, urgent=True)
        # one thing said at a time: a refusal covers the notice until it is cleared (both at once
        # did not fit the column at 125 % and 150 % text)
        self.error_label.said.connect(lambda refused: self.show_said())
        said.addWidget(self.error_label)
        self.said.setVisible(False)
        self.add_line_button = page.button(lambda: tr("Add line"), "Ins", page.add_line)
        self.add_line_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        col.addWidget(self.add_line_button)
        cash = QGridLayout()
        cash.setSpacing(6)
        self.exact_button = page.button(lambda: tr("Exact"), EXACT_KEY, lambda: page.quick_cash(None),
                                        "QuickCash", stacked=True)
        self.offers: list[Decimal] = []
        self._offers_shown: tuple[object, ...] = ()
        self.note_buttons: list[QPushButton] = []
        for i, key in enumerate(NOTE_KEYS):
            b = page.button(self._offer_text(i), key, self._offer_slot(page, i), "QuickCash",
                            stacked=True)
            self.note_buttons.append(b)
        for i, b in enumerate((self.exact_button, *self.note_buttons)):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            cash.addWidget(b, i // 2, i % 2)
        col.addLayout(cash)
        col.addStretch(1)
        self.tenders = QWidget()
        row = QHBoxLayout(self.tenders)
        row.setContentsMargins(0, 0, 0, 0)
        self.card_button = page.button(lambda: tr("Card"), "F2", page.charge_card, "Tender", stacked=True)
        self.gift_button = page.button(lambda: tr("Gift card"), "F3", page.charge_gift_card, "Tender",
                                       stacked=True)
        self.qr_button = page.button(lambda: tr("QR"), "F4", page.charge_qr, "Tender", stacked=True)
        self.cash_button = page.button(lambda: tr("Cash"), "F11", page.pay_cash, "Tender", stacked=True)
        for b in (self.card_button, self.gift_button, self.qr_button, self.cash_button):
            b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            row.addWidget(b)

    def show_said(self) -> None:
        """One thing said at a time: a refusal covers the notice until it is cleared; the row
        takes no room when neither says anything."""
        refused = bool(self.error_label.text())
        self.error_label.setVisible(refused)  # empty, it still asked a line's height
        self.notice.setVisible(not refused and bool(self.notice.text()))
        self.said.setVisible(refused or bool(self.notice.text()))

    def hasHeightForWidth(self) -> bool:
        """Its height does not follow its width for the screen's grid: the grid asked the wrapped
        notice's height at the column's narrowest and the Sale screen scrolled down by 46 to 156
        px whenever a notice or an error showed. Its minimum height is what it needs at the width
        it has (``minimumSizeHint``): the screen scrolls only when that does not fit."""
        return False

    #: the screen is short of width (``EntryStage.fit``): the panel asks no more than it needs, so
    #: the room left is the product grid's (the line's name field alone asked 260 px)
    narrow = False

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self.narrow:
            hint.setWidth(self.minimumSizeHint().width())
        return hint

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        layout = self.layout()
        if layout is not None and self.width() > 0:
            hint.setHeight(max(hint.height(), layout.heightForWidth(self.width())))
        return hint

    def _offer_text(self, i: int) -> Callable[[], str]:
        return lambda: format_money(self.offers[i], self.currency) if i < len(self.offers) else "—"

    def _offer_slot(self, page: SalePage, i: int) -> Callable[[], None]:
        def pay() -> None:
            if i < len(self.offers):
                page.quick_cash(self.offers[i])
        return pay

    def show_cash_offers(self, offers: list[Decimal], enabled: bool) -> None:
        """The quick cash keys for what remains (the core's ``cash_offers``); the same offers in
        the same language are not labelled again."""
        shown = (offers, enabled, QLocale().name())
        if shown == self._offers_shown:
            return
        self._offers_shown = shown
        self.offers = offers
        for i, (b, key) in enumerate(zip(self.note_buttons, NOTE_KEYS, strict=True)):
            b.setText(labelled(self._offer_text(i)(), key, True))
            b.setEnabled(enabled and i < len(offers))
        self.exact_button.setEnabled(enabled)

    def tip_mode(self) -> str:
        return str(self.tip_mode_box.currentData() or TIP_NONE)

    def set_tip_mode(self, mode: str) -> None:
        self.tip_mode_box.setCurrentIndex(max(0, self.tip_mode_box.findData(mode)))

    def retranslate(self) -> None:
        for i, text in enumerate((tr("No tip"), tr("Tip on PIN pad"), tr("Tip keyed"))):
            self.tip_mode_box.setItemText(i, text)
        self.tip_mode_box.updateGeometry()
        self.description.setPlaceholderText(tr("Line name (type letters), then the price and +"))
        a11y.name(self.description, tr("Line name"),
                  tr("Letters typed on the Sale screen name the next line; the price and + add it."))
        a11y.name(self.tip_mode_box, tr("How the tip is taken"),
                  tr("No tip, the customer chooses it on the PIN pad, or the cashier keys it (F7)."))
        self.tip.setAccessibleDescription(tr("The tip keyed by the cashier: F7 types it, F5 goes back "
                                             "to the amount."))
        self.add_line_button.setAccessibleDescription(
            tr("Adds the amount typed, with the name typed, as a line of the ticket."))
        self.exact_button.setAccessibleDescription(tr("Cash: the customer hands over exactly what "
                                                      "remains."))
        for b in self.note_buttons:
            b.setAccessibleDescription(tr("Cash: the customer hands over this note; the change is "
                                          "shown."))
        for b, about in ((self.card_button, tr("Charges the amount typed, or all that remains, on "
                                               "the PIN pad.")),
                         (self.gift_button, tr("The PIN pad reads a gift card for the amount typed, "
                                               "or all that remains.")),
                         (self.qr_button, tr("Shows a QR code the customer pays with their phone.")),
                         (self.cash_button, tr("The amount typed is the cash handed over (all that "
                                               "remains when none is typed); the change is shown."))):
            b.setAccessibleDescription(about)
        self.amount.refresh()
        self.tip.refresh()
