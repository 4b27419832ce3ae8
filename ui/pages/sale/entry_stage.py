"""The Sale screen's entry: the ticket, what is typed and the keypad side by side, the tenders in
a row under them, drawn from the model's ``Fields``; and the keys as the model tells them apart."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGridLayout, QScrollArea, QWidget

from cashier.flows.sale_entry import Key
from ui import keys
from ui.i18n import tr
from ui.pages.sale import keypad_panel, payment_panel
from ui.pages.sale.keypad_panel import KeypadPanel
from ui.pages.sale.payment_panel import PaymentPanel
from ui.pages.sale.ticket_panel import TicketPanel

if TYPE_CHECKING:
    from cashier.flows.catalog_grid import Pick
    from cashier.flows.sale_entry import Fields
    from ui.widgets.amount import AmountDisplay

#: Issue #39: the ticket on the counter set aside for the next customer, and the list to recall it.
PARK, PARKED = "F1", "Shift+F1"  # F6 switches the product grid and the keypad

_KEYS: dict[int, Key] = {Qt.Key.Key_Plus: Key.ADD, Qt.Key.Key_Insert: Key.ADD, Qt.Key.Key_Return: Key.RETURN,
                         Qt.Key.Key_Enter: Key.RETURN, Qt.Key.Key_Escape: Key.ESCAPE,
                         Qt.Key.Key_Backspace: Key.BACKSPACE, Qt.Key.Key_Asterisk: Key.TIMES,
                         Qt.Key.Key_PageUp: Key.PAGE_UP, Qt.Key.Key_PageDown: Key.PAGE_DOWN,
                         Qt.Key.Key_Up: Key.UP, Qt.Key.Key_Down: Key.DOWN}


def key_of(event: QKeyEvent) -> Key:
    """A key as the Sale screen's model tells it apart."""
    text = event.text()
    if text and text.isdigit() and text.isascii():
        return Key.DIGIT
    if (key := _KEYS.get(event.key())) is not None:
        return key
    return Key.TEXT if text and text.isprintable() and not text.isdigit() else Key.OTHER


class SalePage(payment_panel.SalePage, keypad_panel.SalePage, Protocol):
    """What the entry asks of the Sale page (the page builds it: no import back up)."""

    def remove_last_line(self) -> None: ...
    def cancel_ticket(self) -> None: ...
    def park_ticket(self) -> None: ...
    def show_parked(self) -> None: ...
    def discount_line(self) -> None: ...
    def discount_ticket(self) -> None: ...
    def override_price(self) -> None: ...
    def add_pick(self, pick: Pick) -> None: ...


class EntryStage(QWidget):
    def __init__(self, page: SalePage, parent: QWidget | None = None) -> None:
        # built inside its parent (the stack): added to it afterwards, the whole tree of panels
        # was styled again on the move, ~30 ms of the window's start
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(8)
        self.remove_line_button = page.button(lambda: tr("Remove line"), "Del", page.remove_last_line,
                                              stacked=True)
        self.cancel_ticket_button = page.button(lambda: tr("Cancel ticket"), keys.GIVE_BACK,
                                                page.cancel_ticket, "Danger", stacked=True)
        self.park_button = page.button(lambda: tr("Park"), PARK, page.park_ticket, stacked=True)
        self.parked_button = page.button(lambda: tr("Parked"), PARKED, page.show_parked, stacked=True)
        # issue #38: a discount on the last line or the ticket, a price typed over the last line's
        self.discount_line_button = page.button(lambda: tr("Line %"), keys.DISCOUNT_LINE,
                                                page.discount_line, stacked=True)
        self.discount_ticket_button = page.button(lambda: tr("Ticket %"), keys.DISCOUNT_TICKET,
                                                  page.discount_ticket, stacked=True)
        self.price_button = page.button(lambda: tr("Price"), keys.OVERRIDE_PRICE,
                                        page.override_price, stacked=True)
        self.discount_buttons = (self.discount_line_button, self.discount_ticket_button,
                                 self.price_button)
        self.ticket_panel = TicketPanel(page.till.currency,
                                        (self.remove_line_button, self.cancel_ticket_button,
                                         self.park_button, self.parked_button),
                                        self.discount_buttons)
        self.payment_panel = pay = PaymentPanel(page)
        self.amount, self.tip = pay.amount, pay.tip
        self.tender_buttons = (pay.card_button, pay.gift_button, pay.qr_button, pay.cash_button)
        self.keypad_panel = KeypadPanel(page, pay.amount)
        for i, panel in enumerate((self.ticket_panel, self.payment_panel, self.keypad_panel)):
            grid.addWidget(panel, 0, i)
            grid.setColumnStretch(i, (4, 4, 3)[i])
        grid.addWidget(pay.said, 1, 0, 1, 3)  # what came of a tender, over the tenders
        for row in (pay.said, pay.tenders):  # shown, grown or moved: the tenders brought into sight
            row.installEventFilter(self)
        grid.addWidget(pay.tenders, 2, 0, 1, 3)
        grid.setRowStretch(0, 1)
        # the keypad's keys as narrow as their digits (the theme's 72 px minimum is for screens
        # with room): three panels side by side then fit 1024 px at 125 % text; sizes of text
        # still come from the theme, so the text size setting applies
        self.keypad_panel.setStyleSheet(
            "QPushButton#Key { min-width: 0px; padding: 4px 6px; } QPushButton { padding: 4px 6px; }")
        pay.setStyleSheet("#AmountDisplay { padding: 4px 10px; } QPushButton { padding: 4px 6px; }")
        self.ticket_panel.setStyleSheet("QPushButton { padding: 4px 6px; }")
        for first, then in zip((pay.amount, *self.tender_buttons), self.tender_buttons, strict=False):
            QWidget.setTabOrder(first, then)
        self._scrolled_by: QScrollArea | None = None  # the screen's scroll area, once watched
        #: What ``show_fields`` last laid out: the model's fields, busy, on the entry.
        self._shown: tuple[Fields, bool, bool] | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched in (self.payment_panel.said, self.payment_panel.tenders) and event.type() in (
                QEvent.Type.Show, QEvent.Type.Resize, QEvent.Type.Move):
            QTimer.singleShot(0, self, self._tenders_in_sight)  # once the screen is laid out
        return super().eventFilter(watched, event)

    def _tenders_in_sight(self) -> None:
        """What was said and the tenders under it in sight: where the screen is too short for
        all of it (1024x768 with 150 % text, a decline's three lines of words, issue #39) it
        scrolls down just enough, the tenders being what the cashier needs next; the ticket's
        top scrolls back once the words are gone (the screen is short again)."""
        said = self.payment_panel.said
        area = self.parent()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parent()
        if not isinstance(area, QScrollArea):
            return
        if self._scrolled_by is not area:  # the screen's height settles after the row's: again then
            self._scrolled_by = area
            area.verticalScrollBar().rangeChanged.connect(
                lambda _low, _high: QTimer.singleShot(0, self, self._tenders_in_sight))
        if said.isVisible():
            area.ensureWidgetVisible(self.payment_panel.tenders, 0, 0)

    def fit(self, room: int) -> None:
        """The three panels side by side in ``room`` px, else the keypad's column compact (its
        digit keys give way): never a sideways scroll, at any text size or window width, and
        again at each change of either (issue #39: 150 % to 100 % at run time re-lays it)."""
        grid = self.layout()
        spacing = grid.horizontalSpacing() if isinstance(grid, QGridLayout) else 8
        full = (self.ticket_panel.minimumSizeHint().width() + self.payment_panel.minimumSizeHint().width()
                + self.keypad_panel.full_width() + 2 * spacing)
        full = max(full, self.payment_panel.tenders.minimumSizeHint().width())
        compact = room < full + 8  # a little to spare: a frame, a rounding
        beside = (self.ticket_panel.minimumSizeHint().width() + self.payment_panel.minimumSizeHint().width()
                  + self.keypad_panel.compact_width() + 2 * spacing)
        column = room - self.ticket_panel.minimumSizeHint().width() \
            - self.payment_panel.minimumSizeHint().width() - 2 * spacing  # compact: the rest
        self.keypad_panel.set_compact(compact, narrowest=room < beside + 8, column=column)
        if self.payment_panel.narrow != compact:
            self.payment_panel.narrow = compact
            self.payment_panel.updateGeometry()
        if isinstance(grid, QGridLayout):
            # compact, the room left over is the grid's (two columns of products rather than
            # one where it can); else the three share it as they always did
            for i, stretch in enumerate((0, 0, 1) if compact else (4, 4, 3)):
                if grid.columnStretch(i) != stretch:
                    grid.setColumnStretch(i, stretch)

    def aim(self, display: AmountDisplay) -> None:
        """The keys (and the keypad) go to ``display``: the amount or the keyed tip."""
        k = self.keypad_panel
        k.entry.aim(display)
        for button, target in ((k.amount_field, self.amount), (k.tip_field, self.tip)):
            button.setChecked(target is display)
        display.setFocus()

    def show_fields(self, fields: Fields, busy: bool, on_entry: bool) -> None:
        """The ticket panel's figures and the tenders as they may be used. A key or a line asks
        up to four times in one event: what is already on screen is not laid out again."""
        last = self._shown
        if last is not None and last[0] is fields and last[1:] == (busy, on_entry):
            return
        self._shown = (fields, busy, on_entry)
        self.ticket_panel.show_figures(fields.figures, tax_shown=fields.tax_shown,
                                       paid_shown=fields.paid_shown)
        self.ticket_panel.show_cash_due(fields.cash_due)
        for b in self.tender_buttons:
            b.setEnabled(not busy)  # with nothing to pay, the key says so (the page's _check_ready)
            b.setProperty("ready", fields.ready)
        # the Cash key looks inactive with the drawer closed (pressed, the refusal says why)
        cash = self.tender_buttons[-1]
        drawer = "open" if fields.drawer_open else "closed"
        if cash.property("drawer") != drawer:
            cash.setProperty("drawer", drawer)
            cash.style().unpolish(cash)
            cash.style().polish(cash)
        self.payment_panel.show_cash_offers(list(fields.cash_offers),
                                            enabled=fields.ready and fields.drawer_open and not busy
                                            and on_entry)
        self.payment_panel.add_line_button.setEnabled(fields.can_add_line and not busy)
        self.remove_line_button.setEnabled(fields.can_remove_line and not busy)
        self.cancel_ticket_button.setEnabled(fields.can_cancel and not busy)
        self.park_button.setEnabled(fields.can_park and not busy)
        self.parked_button.setEnabled(not busy)
        # money on the ticket: its lines are final, the keys that change them give way (issue #39)
        locked = fields.lines_locked
        editing = (self.remove_line_button, self.park_button, *self.discount_buttons)
        self.ticket_panel.keep_keys([b for b in self.ticket_panel.keys if not (locked and b in editing)])
        for w in (self.payment_panel.description, self.payment_panel.add_line_button):
            if w.isVisibleTo(self) == locked:
                w.setVisible(not locked)
        self.keypad_panel.show_lines_locked(locked)
        self.keypad_panel.show_quantity(fields.quantity)
        for b in self.discount_buttons:
            b.setEnabled(fields.can_discount and not busy)

    def retranslate(self) -> None:
        self.ticket_panel.retranslate()
        self.payment_panel.retranslate()
        self.keypad_panel.retranslate()
        self._shown = None  # the figures are worded again in the new language
