"""The Sale screen is the ticket: lines on the left, the total and what remains large, the
tenders (Card, Gift card, QR, Cash), change due after cash; live PIN pad status; the result.

Keyboard: digits build cents (1 2 5 0 -> 12.50); letters name the next line; + or Insert adds the
line; a barcode scanned (digits then Return) adds the profile's product. Return (or F2) charges
the card; Esc clears what was typed (or cancels a payment waiting on the PIN pad). F3 gift card,
F4 QR, F11 cash, F7 keyed tip, Delete removes the last line, F12 cancels the ticket (asking
first when money was taken).
The quick path stays: type an amount, press Return, the card is charged.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QRadioButton,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from cashier.clerks import Action
from ui import keys
from ui.i18n import format_money, tr
from ui.manager_prompt import ask_manager
from ui.pages.base import Page, hint
from ui.receipt import reason_text, state_name
from ui.widgets.amount import AmountDisplay, Keypad, handle_amount_key

if TYPE_CHECKING:
    from ui.app import Gui
    from ui.till import Till

#: How the tip is taken: none, the customer on the PIN pad, or keyed by the cashier.
TIP_NONE, TIP_PAD, TIP_KEYED = "none", "pad", "keyed"
TENDER_TITLES = {"card": "Card", "gift": "Gift card", "qr": "QR", "cash": "Cash"}


class SalePage(Page):
    nav_key = "Ctrl+1"
    qr_requested = Signal(object, object)  # amount, tax (kept for the QR screen's own sales)
    result_shown = Signal(object)  # FlowResult of the tender that ended the ticket
    ticket_changed = Signal(object)  # cashier.flows.ticket.Ticket

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.result: Any = None
        self.task: Any = None
        self.session: Any = None  # cashier.flows.ticket.TicketSession of the open ticket
        self.ticket: Any = None  # its last Ticket
        self.prefilled = False  # the entry shows what remains (typing replaces it)
        self.scanned = ""  # digits as typed, for a barcode scanner acting as a keyboard
        self._resumed = False  # the tickets a crash left open were looked for
        self._resuming: Any = None
        self.stack = QStackedWidget()
        self.layout_.addWidget(self.stack, 1)
        self._build_entry()
        self._build_waiting()
        self._build_result()
        till.bridge.terminal_event.connect(self._terminal_event)
        till.bridge.device_prompt.connect(self._device_prompt)
        till.bridge.payment_changed.connect(self._payment_changed)
        till.bridge.other_event.connect(self._other_event)
        till.recovery_finished.connect(lambda _report: self._resume_open_ticket())
        self.retranslate()

    def title(self) -> str:
        return tr("Sale")

    # ---- entry -----------------------------------------------------------------------------
    def _build_entry(self) -> None:
        page = QWidget()
        row = QHBoxLayout(page)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(16)
        row.addLayout(self._build_ticket_panel(), 4)
        left = QVBoxLayout()
        cur = self.till.currency
        self.description = QLineEdit()
        self.description.setObjectName("LineDescription")
        self.description.setMaxLength(40)
        self.description.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        left.addWidget(self.description)
        self.amount = AmountDisplay(cur, bounds=self.till.profile.bounds)  # the till's max_amount
        self.tip = AmountDisplay(cur, bounds=self.till.profile.bounds)
        self.tip.setObjectName("SmallAmount")
        self.tip.setMinimumHeight(52)
        self.active = self.amount
        left.addWidget(self.amount)
        lines = QGridLayout()
        self.tip_label = QLabel()
        self.tip_label.setObjectName("Breakdown")
        lines.addWidget(self.tip_label, 0, 0)
        lines.addWidget(self.tip, 0, 1)
        lines.setColumnStretch(1, 1)
        left.addLayout(lines)
        tips = QHBoxLayout()
        self.tip_group = QButtonGroup(self)
        self.tip_buttons: dict[str, QRadioButton] = {}
        for key in (TIP_NONE, TIP_PAD, TIP_KEYED):
            radio = QRadioButton()
            radio.setProperty("tip_mode", key)
            self.tip_group.addButton(radio)
            tips.addWidget(radio)
            self.tip_buttons[key] = radio
        self.tip_buttons[self.till.profile.tip_mode].setChecked(True)
        self.tip_group.buttonToggled.connect(lambda *_: self._tip_mode_changed())
        left.addLayout(tips)
        self.notice = QLabel()
        self.notice.setObjectName("TicketNotice")
        self.notice.setWordWrap(True)
        self.notice.setVisible(False)
        left.addWidget(self.notice)
        self.error_label = QLabel()
        self.error_label.setObjectName("Hint")
        self.error_label.setStyleSheet("color: #b71c1c; font-weight: 600;")
        self.error_label.setWordWrap(True)
        left.addWidget(self.error_label)
        self.add_line_button = self.button(lambda: tr("Add line"), "Ins", self.add_line)
        self.add_line_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        left.addWidget(self.add_line_button)
        tenders = QGridLayout()
        self.card_button = self.button(lambda: tr("Card"), "F2", self.charge_card, "Tender", stacked=True)
        self.gift_button = self.button(lambda: tr("Gift card"), "F3", self.charge_gift_card, "Tender",
                                       stacked=True)
        self.qr_button = self.button(lambda: tr("QR"), "F4", self.charge_qr, "Tender", stacked=True)
        self.cash_button = self.button(lambda: tr("Cash"), "F11", self.pay_cash, "Tender", stacked=True)
        for i, b in enumerate((self.card_button, self.gift_button, self.qr_button, self.cash_button)):
            b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            tenders.addWidget(b, i // 2, i % 2)
        left.addLayout(tenders)
        self.ready_hint = hint()
        left.addWidget(self.ready_hint)
        left.addStretch(1)
        row.addLayout(left, 4)
        right = QVBoxLayout()
        self.keypad = Keypad(self.amount)
        fields = QHBoxLayout()
        self.amount_field = self.button(lambda: tr("Amount"), "F5", lambda: self.select_field(self.amount),
                                        stacked=True)
        self.tip_field = self.button(lambda: tr("Tip"), "F7", self.key_tip_field, stacked=True)
        for b in (self.amount_field, self.tip_field):
            b.setCheckable(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            fields.addWidget(b)
        right.addLayout(fields)
        right.addWidget(self.keypad)
        right.addStretch(1)
        row.addLayout(right, 3)
        for display in (self.amount, self.tip):
            display.installEventFilter(self)  # the entry's keys go through the ticket's rules
            display.changed.connect(lambda _v: self._update_totals())
            display.submitted.connect(self.charge_card)
            display.refused.connect(self._too_long)
        self.stack.addWidget(page)
        self.entry_page = page
        self.setTabOrder(self.amount, self.card_button)
        self.setTabOrder(self.card_button, self.gift_button)
        self.setTabOrder(self.gift_button, self.qr_button)
        self.setTabOrder(self.qr_button, self.cash_button)
        self._tip_mode_changed()
        self.select_field(self.amount)

    def _build_ticket_panel(self) -> QVBoxLayout:
        col = QVBoxLayout()
        self.ticket_title = QLabel()
        self.ticket_title.setObjectName("Breakdown")
        col.addWidget(self.ticket_title)
        self.lines_list = QTableWidget(0, 2)
        self.lines_list.setObjectName("TicketLines")
        self.lines_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.lines_list.horizontalHeader().setVisible(False)
        self.lines_list.verticalHeader().setVisible(False)
        self.lines_list.setShowGrid(False)
        self.lines_list.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.lines_list.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        header = self.lines_list.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        col.addWidget(self.lines_list, 3)
        grid = QGridLayout()
        self.sum_labels: dict[str, tuple[QLabel, QLabel]] = {}
        for i, key in enumerate(("subtotal", "tax", "tip", "total", "paid", "remaining")):
            name, value = QLabel(), QLabel()
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            big = key in ("total", "remaining")
            for w in (name, value):
                w.setObjectName("TotalLine" if big else "Breakdown")
            grid.addWidget(name, i, 0)
            grid.addWidget(value, i, 1)
            self.sum_labels[key] = (name, value)
        self.total_label, self.total_value = self.sum_labels["total"]
        self.remaining_value = self.sum_labels["remaining"][1]
        col.addLayout(grid)
        self.tenders_list = QListWidget()
        self.tenders_list.setObjectName("TicketTenders")
        self.tenders_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tenders_list.setWordWrap(True)
        self.tenders_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        col.addWidget(self.tenders_list, 1)
        actions = QVBoxLayout()
        self.remove_line_button = self.button(lambda: tr("Remove line"), "Del", self.remove_last_line)
        self.cancel_ticket_button = self.button(lambda: tr("Cancel ticket"), keys.GIVE_BACK,
                                                self.cancel_ticket, "Danger")
        #: (ticket id, amount paid) the first F12 asked about; the second press cancels
        self._cancel_armed: tuple[int, Decimal] | None = None
        for b in (self.remove_line_button, self.cancel_ticket_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            actions.addWidget(b)
        col.addLayout(actions)
        return col

    def select_field(self, display: AmountDisplay) -> None:
        if display is self.tip and not self.tip.isEnabled():
            return
        self.active = display
        self.keypad.display = display
        for button, target in ((self.amount_field, self.amount), (self.tip_field, self.tip)):
            button.setChecked(target is display)
        display.setFocus()

    def key_tip_field(self) -> None:
        """F7: the tip is keyed (switching the tip mode to keyed when it was not)."""
        if self.tip_mode() != TIP_KEYED:
            self.set_tip_mode(TIP_KEYED)
        self.select_field(self.tip)

    def tip_mode(self) -> str:
        checked = self.tip_group.checkedButton()
        return str(checked.property("tip_mode")) if checked is not None else TIP_NONE

    def set_tip_mode(self, mode: str) -> None:
        self.tip_buttons[mode].setChecked(True)

    def _tip_mode_changed(self) -> None:
        keyed = self.tip_mode() == TIP_KEYED
        taken = self.ticket is not None and self.ticket.tip_asked
        self.tip.setEnabled(keyed and not taken)
        self.tip.setVisible(keyed)  # the keyed tip's line only when the tip is keyed
        self.tip_label.setVisible(keyed)
        if not keyed and not taken:
            self.tip.clear()
            if self.active is self.tip:
                self.select_field(self.amount)
        self._update_totals()

    def _update_totals(self) -> None:
        """The ticket panel: what the core's ``Ticket`` says, plus what is typed but not added."""
        cur = self.till.currency
        t = self.ticket
        zero = Decimal(0)
        keyed_tip = self.tip.value if self.tip_mode() == TIP_KEYED and not (t and t.tip_asked) else zero
        if t is None or not t.lines:
            typed = zero if self.prefilled else self.amount.value
            values = {"subtotal": typed, "tax": zero, "tip": keyed_tip, "total": typed + keyed_tip,
                      "paid": zero, "remaining": typed + keyed_tip}
        else:
            values = {"subtotal": t.subtotal, "tax": t.tax, "tip": t.tip + keyed_tip,
                      "total": t.total + keyed_tip, "paid": t.paid,
                      "remaining": t.remaining + keyed_tip}
        for key, (_name, value) in self.sum_labels.items():
            value.setText(format_money(values[key], cur))
        self.sum_labels["tax"][0].setVisible(bool(values["tax"]) or bool(t and t.record.tax_rate))
        self.sum_labels["tax"][1].setVisible(self.sum_labels["tax"][0].isVisibleTo(self))
        self.sum_labels["paid"][0].setVisible(bool(t and t.tenders))
        self.sum_labels["paid"][1].setVisible(bool(t and t.tenders))
        has_amount = self.amount.value > 0 or bool(t and t.lines and t.remaining > 0)
        busy = self._busy()
        for b in (self.card_button, self.gift_button, self.qr_button, self.cash_button):
            b.setEnabled(not busy)  # with nothing to pay, the key says so (see _check_ready)
            b.setProperty("ready", has_amount)
        self.add_line_button.setEnabled(self.amount.value > 0 and not self.prefilled and not busy)
        open_ticket = t is not None and t.state == "open"
        self.remove_line_button.setEnabled(bool(open_ticket and t.lines and not t.lines_locked)
                                           and not busy)
        self.cancel_ticket_button.setEnabled(open_ticket and not busy)
        self.error_label.clear()

    def _too_long(self) -> None:
        cur = self.till.currency  # the core's one bound (the profile's max_amount), in its currency
        self.error_label.setText(tr("Amount: at most {max}, this till's max_amount; the extra "
                                    "digit was not taken.").format(
            max=format_money(self.till.profile.bounds.ceiling(cur), cur)))

    def _show_ticket(self, ticket: Any) -> None:
        """Redraw the ticket panel from the core's ``Ticket``."""
        self.ticket = ticket
        cur = self.till.currency
        self.ticket_title.setText(f"{tr('Ticket')} {ticket.id}" if ticket is not None else tr("New ticket"))
        self.lines_list.setRowCount(0)
        self.tenders_list.clear()
        if ticket is not None:
            self.lines_list.setRowCount(len(ticket.lines))
            for row, line in enumerate(ticket.lines):
                name = f"{line.quantity}× {line.name}" if line.quantity > 1 else line.name
                amount = QTableWidgetItem(format_money(line.amount, cur))
                amount.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.lines_list.setItem(row, 0, QTableWidgetItem(name))
                self.lines_list.setItem(row, 1, amount)
            self.lines_list.scrollToBottom()
            for t in ticket.tenders:
                self.tenders_list.addItem(tender_text(t, cur))
        self._tip_mode_changed()
        self.ticket_changed.emit(ticket)

    def _prefill_remaining(self) -> None:
        t = self.ticket
        if t is not None and t.state == "open" and t.lines and t.remaining > 0:
            self.amount.set_value(t.remaining)
            self.prefilled = True
        else:
            self.amount.clear()
            self.prefilled = False
        self.scanned = ""
        self._update_totals()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.KeyPress and watched in (self.amount, self.tip)
                and self.stack.currentWidget() is self.entry_page and isinstance(event, QKeyEvent)
                and self._entry_key(event)):
            event.accept()
            return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Keys typed anywhere on the entry screen: the amount (or tip), the line's name, +."""
        current = self.stack.currentWidget()
        if current is self.entry_page and self._entry_key(event):
            event.accept()
            return
        if current is self.waiting_page and event.key() == Qt.Key.Key_Escape:
            self.cancel_payment()
            event.accept()
            return
        if current is self.result_page and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.new_sale()
            event.accept()
            return
        super().keyPressEvent(event)

    def _entry_key(self, event: QKeyEvent) -> bool:
        key, text = event.key(), event.text()
        if self.active is self.amount:
            if text and text.isdigit() and text.isascii():
                if self.prefilled:  # typing replaces what remains: a part of it, for a split
                    self.amount.clear()
                    self.prefilled = False
                self.scanned += text
            elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Insert):
                self.add_line()
                return True
            elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self._scan_product():
                return True
            elif key == Qt.Key.Key_Escape:
                self.description.clear()
                self.scanned = ""
                self.prefilled = False
            elif key == Qt.Key.Key_Backspace and self.amount.value == 0 and self.description.text():
                self.description.backspace()
                return True
            elif text and text.isprintable() and not text.isdigit() and key not in (
                    Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Backspace):
                self.description.insert(text)  # letters name the next line
                return True
        if handle_amount_key(self.active, event):
            if not (text and text.isdigit()):
                self.scanned = ""
            return True
        return False

    def _scan_product(self) -> bool:
        """A barcode scanner types the code then Return: the product is added as a line."""
        code = self.scanned
        product = next((p for p in self.till.profile.products if p.barcode == code), None) if code else None
        if product is None:
            return False
        self.amount.clear()
        self.scanned = ""
        self._run_ticket(self._add_line(product.name, product.price), "add product")
        return True

    # ---- the ticket's lines ------------------------------------------------------------------
    async def _session(self) -> Any:
        from cashier.flows.ticket import TicketSession, TicketSettings

        if self.session is None or (self.ticket is not None and self.ticket.state != "open"):
            settings = TicketSettings.of(self.till.profile)
            self.session = await TicketSession.start(self.till.ctx, settings)
            self._show_ticket(self.session.ticket)
        return self.session

    async def _add_line(self, name: str, price: Decimal, quantity: int = 1) -> Any:
        session = await self._session()
        ticket = await session.add_line(name, price, quantity)
        self._show_ticket(ticket)
        self._prefill_remaining()
        return ticket

    def add_line(self) -> None:
        """The typed amount (and the typed name) as a new line of the ticket."""
        if not self._can_start() or self.prefilled:
            return
        price = self.amount.value
        if price <= 0:
            self.error_label.setText(tr("Amount: type the line's price first (it must be greater "
                                        "than zero)."))
            return
        name = self.description.text().strip() or tr("Item")
        self.description.clear()
        self.amount.clear()
        self._run_ticket(self._add_line(name, price), "add line")

    def remove_last_line(self) -> None:
        if self.ticket is None or not self.ticket.lines or not self._can_start():
            return

        async def remove() -> None:
            session = await self._session()
            self._show_ticket(await session.remove_line(len(session.ticket.lines) - 1))
            self._prefill_remaining()
        self._run_ticket(remove(), "remove line")

    def cancel_ticket(self) -> None:
        """Every approved tender voided, cash given back, the ticket closed as cancelled."""
        if self.session is None or self.ticket is None or self.ticket.state != "open":
            return
        if not self._can_start():
            return
        paid = self.ticket.paid
        if paid > 0 and self._cancel_armed != (self.ticket.id, paid):
            # money already taken goes back: ask once, naming the ticket and the amount
            self._cancel_armed = (self.ticket.id, paid)
            self._say("partial", tr("Cancel ticket {id}? {paid} already paid goes back (card, gift card "
                                    "and QR tenders voided, cash given back). Press F12 again to "
                                    "confirm.").format(id=self.ticket.id,
                                                       paid=format_money(paid, self.till.currency)))
            return
        self._cancel_armed = None
        approval = ask_manager(self, self.till.ctx, Action.CANCEL_TICKET, paid) if paid > 0 else None
        if approval is not None and not approval.go:
            self._say("partial", approval.why)
            return
        manager = approval.manager if approval is not None else None

        async def cancel() -> Any:
            ticket = await self.session.cancel(manager=manager)
            self._show_ticket(ticket)
            self._say("cancelled", tr("Ticket cancelled: approved tenders voided, cash given back "
                                      "({cash}).").format(cash=format_money(
                                          sum((t.amount for t in ticket.tenders if t.kind == "cash"),
                                              Decimal(0)), self.till.currency)))
            self.session = None
            self.ticket = None
            self._show_ticket(None)
            self._prefill_remaining()
        self._run_ticket(cancel(), "cancel ticket")

    def _run_ticket(self, coro: Any, name: str) -> None:
        self.task = self.till.run(coro, name, done=lambda _r: self._update_totals(), failed=self._failed)
        self._update_totals()

    def _busy(self) -> bool:
        """A flow of this screen is running (its own ``done`` callback does not count)."""
        if self.task is None or self.task.done():
            return False
        try:
            return self.task is not asyncio.current_task()
        except RuntimeError:  # no loop running: called from plain Qt
            return True

    def _can_start(self) -> bool:
        if not self.till.ready:
            self.error_label.setText(tr("The till is still starting; try again in a moment."))
            return False
        return not self._busy()

    # ---- tenders ---------------------------------------------------------------------------
    def _check_ready(self) -> bool:
        if not self._can_start():
            return False
        t = self.ticket
        if self.amount.value <= 0 and not (t is not None and t.lines and t.remaining > 0):
            self.error_label.setText(tr("Amount: type the amount first (it must be greater than zero)."))
            return False
        return True

    def charge_card(self, purpose: str = "card") -> None:
        if self.stack.currentWidget() is not self.entry_page or not self._check_ready():
            return
        self._tender("gift" if purpose == "gift card" else "card")

    def charge_gift_card(self) -> None:
        # A gift card pays like a card: the PIN pad reads it (swipe or scan), the host decides.
        self.charge_card("gift card")

    def charge_qr(self) -> None:
        if self.stack.currentWidget() is not self.entry_page or not self._check_ready():
            return
        t = self.ticket
        if t is None or not t.lines or t.state != "open":
            # the quick path: the QR screen shows the code large for the typed amount, as today
            self.qr_requested.emit(self.amount.value, Decimal(0))
            return
        self._tender("qr")

    def pay_cash(self) -> None:
        if self.stack.currentWidget() is self.entry_page and self._check_ready():
            self._tender("cash")

    def _tender(self, kind: str) -> None:
        """One tender for the typed amount (or what remains). With no line yet, the typed amount
        becomes the ticket's open-amount line first: the quick path."""
        from cashier.flows.ticket import Tender

        typed = self.amount.value
        t = self.ticket
        quick = t is None or not t.lines or t.state != "open"
        keyed_tip = self.tip.value if self.tip_mode() == TIP_KEYED and not (t and t.tip_asked) else None
        mode = self.tip_mode()
        name = self.description.text().strip() or tr("Amount")

        async def run() -> Any:
            if kind == "cash":  # refused before the ticket or its line is journaled
                await self.till.ctx.journal.require_cash_drawer()
            session = await self._session()
            session.settings = replace(session.settings, tip_mode=mode)
            if quick:
                await session.add_line(name, typed)
                self.description.clear()
            if keyed_tip is not None and not session.ticket.tip_asked:
                await session.key_tip(keyed_tip)
            ticket = session.ticket
            self._show_ticket(ticket)
            amount: Decimal | None = None if quick or typed == ticket.remaining else typed
            if kind == "cash":
                amount = ticket.remaining if quick else typed
            before = len(ticket.tenders)
            if kind != "cash":  # the ticket's own figure (with tax and tip) now that it is known
                self.wait_amount.setText(format_money(amount or ticket.remaining, self.till.currency))
            ticket = await session.pay(Tender(kind, amount))  # type: ignore[arg-type]
            return before, ticket

        if kind != "cash":
            self._show_waiting((typed or (t.remaining if t else Decimal(0))) + (keyed_tip or 0), kind)
        self.task = self.till.run(run(), f"{kind} tender", done=self._tender_done, failed=self._failed)
        self._update_totals()

    def _tender_done(self, answer: Any) -> None:
        from cashier.flows.base import FlowResult

        before, ticket = answer
        self._show_ticket(ticket)
        tender = ticket.tenders[before] if len(ticket.tenders) > before else None
        entry = None
        if tender is not None:
            entry = self._entry_of(tender)
        result = FlowResult(entry, tender.outcome if tender.outcome != "partial" else "approved",
                            entry.message or "") if entry is not None and tender is not None else None
        if result is not None and result.outcome == "unknown":
            self.show_result(result)
            return
        if ticket.state == "paid" and result is not None:
            self.show_result(result)
            return
        self.stack.setCurrentWidget(self.entry_page)
        self._prefill_remaining()
        self.select_field(self.amount)
        cur = self.till.currency
        remaining = format_money(ticket.remaining, cur)
        if tender is None:
            self._say("declined", tr("Nothing was charged. Remaining {rest}.").format(rest=remaining))
        elif tender.outcome == "partial":
            self._say("partial", tr("PARTIALLY APPROVED: {got} of {asked} on {what}. Remaining "
                                    "balance {rest}: choose another tender.").format(
                got=format_money(tender.amount, cur), asked=format_money(tender.requested, cur),
                what=tr(TENDER_TITLES.get(tender.kind, tender.kind)), rest=remaining))
        elif tender.outcome == "approved":
            self._say("paid-part", tr("{what} approved: {got}. Remaining {rest}.").format(
                what=tr(TENDER_TITLES.get(tender.kind, tender.kind)),
                got=format_money(tender.amount, cur), rest=remaining))
        else:
            from cashier.entry_rules import is_cancelled, reason  # loaded with the runtime

            cancelled = entry is not None and is_cancelled(entry)
            title = tr("Cancelled: not charged") if cancelled else {
                "declined": tr("Declined"), "error": tr("Not charged")}.get(tender.outcome,
                                                                           state_name(tender.outcome))
            why = reason_text(reason(entry), cur) if entry is not None and not cancelled else ""
            self._say("declined", " ".join(part for part in (
                f"{title}.", why, tr("The ticket stays open: remaining {rest}. Try another card or "
                                     "tender.").format(rest=remaining)) if part))
        self.result = result

    def _entry_of(self, tender: Any) -> Any:
        """The journal entry of a tender, as the ticket read it."""
        return next((e for e in self.ticket.record.entries if e.id == tender.entry_id), None)

    def _say(self, tone: str, text: str) -> None:
        self.notice.setProperty("tone", tone)
        self.notice.style().unpolish(self.notice)
        self.notice.style().polish(self.notice)
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def _failed(self, exc: BaseException) -> None:
        from cashier.errors import CashierError

        self.stack.setCurrentWidget(self.entry_page)
        self._update_totals()
        if isinstance(exc, CashierError):
            self.error_label.setText(str(exc))
            return
        raise exc

    # ---- waiting on the PIN pad ------------------------------------------------------------
    def _build_waiting(self) -> None:
        page = QFrame()
        page.setObjectName("StatusPanel")
        col = QVBoxLayout(page)
        col.setContentsMargins(32, 32, 32, 32)
        col.setSpacing(16)
        self.wait_amount = QLabel()
        self.wait_amount.setObjectName("AmountDisplay")
        self.wait_title = QLabel()
        self.wait_title.setObjectName("ResultTitle")
        self.prompt_text = QLabel()
        self.prompt_text.setObjectName("PromptText")
        self.prompt_text.setWordWrap(True)
        self.terminal_line = hint()
        col.addWidget(self.wait_amount)
        col.addWidget(self.wait_title)
        col.addWidget(self.prompt_text)
        col.addWidget(self.terminal_line)
        # Esc is handled by keyPressEvent: a window-wide Esc shortcut would swallow the entry's Esc.
        # The button sits right under the prompt: the stack is as tall as the ticket page, so at
        # the bottom it fell below the fold at 1024x768 while the customer stood at the pad.
        self.cancel_button = self.button(lambda: tr("Cancel payment") + "  [Esc]", "",
                                         self.cancel_payment, "Danger")
        col.addWidget(self.cancel_button)
        col.addStretch(1)
        self.stack.addWidget(page)
        self.waiting_page = page

    def _show_waiting(self, total: Decimal, kind: str) -> None:
        self.wait_amount.setText(format_money(total, self.till.currency))
        titles = {"gift": tr("Paying by gift card"), "qr": tr("Paying by QR code"),
                  "card": tr("Paying by card")}
        self.wait_title.setText(titles.get(kind, tr("Paying by card")))
        self.prompt_text.setText(tr("The customer scans the code on the PIN pad.") if kind == "qr"
                                 else tr("Sending to the PIN pad…"))
        self.terminal_line.setText("")
        self.cancel_button.setEnabled(kind != "qr")
        self.stack.setCurrentWidget(self.waiting_page)
        self.cancel_button.setFocus()

    def _terminal_event(self, event: Any) -> None:
        if self.stack.currentWidget() is not self.waiting_page:
            return
        from ui.pinpad import describe_prompt

        prompt = event.prompt
        if prompt is not None:
            self.prompt_text.setText(tr("Customer sees:") + " " + describe_prompt(prompt))
            amount = getattr(prompt, "amount", None)
            if prompt.kind == "card" and isinstance(amount, Decimal) and amount > 0:
                # the pad's amount (with the tip the customer chose) is the one on screen too
                self.wait_amount.setText(format_money(amount, self.till.currency))
        self.terminal_line.setText(tr("PIN pad:") + " " + terminal_state_name(event.state))

    def _device_prompt(self, event: Any) -> None:
        if self.stack.currentWidget() is self.waiting_page and not self.till.status.training:
            self.prompt_text.setText(tr("Customer sees:") + " " + tr("Present card"))

    def _other_event(self, event: Any) -> None:
        from cashier.flows.ticket import TicketChanged

        mine = self.session is not None and isinstance(event, TicketChanged)
        if mine and event.ticket.id == self.session.id:
            self._show_ticket(event.ticket)

    def _payment_changed(self, entry: Any) -> None:
        if (self.stack.currentWidget() is self.result_page and self.result is not None
                and self.result.entry.id == entry.id and self.result.outcome == "unknown"
                and not entry.unresolved):
            # recovery settled the payment the cashier is looking at: show the real outcome
            from cashier.flows.base import FlowResult, outcome_of

            self.show_result(FlowResult(entry, outcome_of(entry), entry.message or ""))
            if self.session is not None:
                self.till.run(self.session.settle(), "ticket refresh",
                              done=lambda t: self._show_ticket(t))
            return
        if self.stack.currentWidget() is self.waiting_page and str(entry.state) == "unknown":
            self.wait_title.setText(tr("Checking with the host…"))
            self.prompt_text.setText(tr("The answer was lost. The till is asking the host what "
                                        "happened; do not charge again."))
            self.cancel_button.setEnabled(False)

    def cancel_payment(self) -> None:
        """Ask the flow to reset the PIN pad; the tender then ends as cancelled (not charged)."""
        if self.task is None or self.task.done() or not self.cancel_button.isEnabled():
            return
        from cashier.flows.pinpad import cancel_prompt

        self.cancel_button.setEnabled(False)
        self.prompt_text.setText(tr("Cancelling on the PIN pad…"))
        self.till.run(cancel_prompt(self.till.ctx), "cancel prompt", failed=self._cancel_failed)

    def _cancel_failed(self, exc: BaseException) -> None:
        self.cancel_button.setEnabled(True)
        self.terminal_line.setText(tr("Could not cancel:") + f" {exc}")

    # ---- result ----------------------------------------------------------------------------
    def _build_result(self) -> None:
        page = QFrame()
        page.setObjectName("Result")
        col = QVBoxLayout(page)
        col.setContentsMargins(32, 24, 32, 24)
        self.result_title = QLabel()
        self.result_title.setObjectName("ResultTitle")
        self.result_amount = QLabel()
        self.result_amount.setObjectName("TotalLine")
        self.change_due = QLabel()
        self.change_due.setObjectName("ChangeDue")
        self.change_due.setVisible(False)
        self.result_details = QLabel()
        self.result_details.setObjectName("Breakdown")
        self.result_details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_message = hint()
        col.addWidget(self.result_title)
        col.addWidget(self.change_due)
        col.addWidget(self.result_amount)
        col.addWidget(self.result_details)
        col.addWidget(self.result_message)
        self.receipt_view = QPlainTextEdit()
        self.receipt_view.setObjectName("ReceiptView")
        self.receipt_view.setReadOnly(True)
        self.receipt_view.setVisible(False)
        col.addWidget(self.receipt_view, 1)
        col.addStretch(1)
        buttons = QHBoxLayout()
        # Return is handled by keyPressEvent: a window-wide Return shortcut would swallow the
        # entry's Return (the quick path: type an amount, press Return, the card is charged)
        self.new_button = self.button(lambda: tr("New sale") + "  [Return]", "", self.new_sale, "Primary")
        self.print_button = self.button(lambda: tr("Print receipt"), "F8", self.print_receipt)
        self.show_receipt_button = self.button(lambda: tr("Show receipt"), "F9", self.show_receipt)
        self.check_button = self.button(lambda: tr("Check now"), "F10", self.check_now)
        for b in (self.new_button, self.print_button, self.show_receipt_button, self.check_button):
            buttons.addWidget(b)
        col.addLayout(buttons)
        self.stack.addWidget(page)
        self.result_page = page

    def show_result(self, result: Any) -> None:
        self.result = result
        entry = result.entry
        outcome = result.outcome
        from cashier.entry_rules import is_cancelled, reason  # loaded with the runtime

        cancelled = is_cancelled(entry)
        view = "cancelled" if cancelled else outcome
        # why it ended, in the cashier's words; the host's own text stays in the journal's details
        message = reason_text(reason(entry), entry.currency)
        if not message and outcome in ("approved", "captured"):
            message = result.message or ""  # the core's own note, e.g. "already approved"
        titles = {"approved": tr("Approved"), "declined": tr("Declined"),
                  "error": tr("Not charged"), "unknown": tr("Checking with the host…"),
                  "cancelled": tr("Cancelled: not charged"), "voided": tr("Voided"),
                  "voiding": tr("Voiding…"), "captured": tr("Captured")}
        ticket = self.ticket if self.ticket is not None and self.ticket.state == "paid" else None
        change = ticket.change if ticket is not None else Decimal(0)
        title = titles.get(view, state_name(outcome))
        if change > 0:
            title = tr("Paid: give the change")
            message = ""  # the change is on screen in large type; the journal keeps the note
        self.result_title.setText(title)
        self.result_page.setProperty("outcome", "approved" if view == "captured" else view)
        self.result_page.style().unpolish(self.result_page)
        self.result_page.style().polish(self.result_page)
        cur = entry.currency
        shown = ticket.total if ticket is not None else (
            entry.approved if entry.approved > 0 else entry.requested)
        self.result_amount.setText(format_money(shown, cur))
        self.change_due.setVisible(change > 0)
        self.change_due.setText(tr("Change due: {change}").format(change=format_money(change, cur)))
        details = []
        if ticket is not None:
            details.append(f"{tr('Ticket')}: {ticket.id}")
            details += [tender_text(t, cur) for t in ticket.tenders if t.outcome != "declined"]
        else:
            details.append(f"{tr('Invoice')}: {entry.invoice or '-'}")
        if entry.tip or (ticket is not None and ticket.tip):
            details.append(f"{tr('Tip')}: {format_money(ticket.tip if ticket else entry.tip, cur)}")
        if ticket is not None and ticket.tax:
            details.append(f"{tr('Tax')}: {format_money(ticket.tax, cur)}")
        if entry.card and ticket is None:
            details.append(f"{tr('Card')}: {entry.card}")
        if entry.auth_code:
            details.append(f"{tr('Approval code')}: {entry.auth_code}")
        self.result_details.setText("\n".join(details))
        if outcome == "unknown":
            message = tr("The host has not answered yet. Recovery keeps asking; the journal shows "
                         "the outcome when it is known. Do not charge again.")
        self.result_message.setText(message)
        approved = outcome in ("approved", "captured")
        self.print_button.setEnabled(approved)
        self.show_receipt_button.setEnabled(approved)
        self.check_button.setVisible(outcome == "unknown")
        self.check_button.setEnabled(True)
        self.receipt_view.setVisible(False)
        self.stack.setCurrentWidget(self.result_page)
        self.new_button.setFocus()
        self.result_shown.emit(result)

    def last_outcome(self) -> str | None:
        return None if self.result is None else str(self.result.outcome)

    def new_sale(self) -> None:
        """The next customer: a paid ticket is left behind; an open one stays on screen."""
        if self.task is not None and not self.task.done():
            return
        if self.ticket is not None and self.ticket.state != "open":
            self.session = None
            self.ticket = None
            self._show_ticket(None)
        self.amount.clear()
        self.tip.clear()
        self.description.clear()
        self.prefilled = False
        self.set_tip_mode(self.till.profile.tip_mode)
        self.result = None
        self._say("", "")
        self.stack.setCurrentWidget(self.entry_page)
        self._prefill_remaining()
        self.select_field(self.amount)

    def _resume_open_ticket(self) -> None:
        """After start-up recovery: the latest ticket a crash left open comes back on screen."""
        from cashier.flows.ticket import TicketSettings, open_tickets

        async def resume() -> Any:
            sessions = await open_tickets(self.till.ctx, TicketSettings.of(self.till.profile))
            return sessions[-1] if sessions else None

        if self._resumed or (self._resuming is not None and not self._resuming.done()):
            return

        def show(session: Any) -> None:
            self._resumed = True
            if session is None or self.session is not None:
                return
            self.session = session
            self._show_ticket(session.ticket)
            self._prefill_remaining()
            self._say("partial", tr("Ticket {id} was left open: remaining {rest}. Finish it or "
                                    "cancel it (F12).").format(
                id=session.id, rest=format_money(session.ticket.remaining, self.till.currency)))
        self._resuming = self.till.run(resume(), "resume ticket", done=show)

    def receipt(self) -> list[str]:
        from cashier.flows.ticket import receipt_lines as ticket_receipt
        from ui.receipt import receipt_lines

        p = self.till.profile
        if self.ticket is not None and self.ticket.state == "paid":  # training: marked by the layout
            return ticket_receipt(self.ticket, p.company_name, p.till_id)
        return receipt_lines(self.result.entry, p.company_name, p.till_id) if self.result else []

    def show_receipt(self) -> None:
        if self.result is None:
            return
        self.receipt_view.setPlainText("\n".join(self.receipt()))
        self.receipt_view.setVisible(True)

    def print_receipt(self) -> None:
        if self.result is None:
            return
        self.print_on_pad(self.receipt(), tr("Show the receipt on screen instead."))

    # ---- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        super().retranslate()
        self.tip_label.setText(tr("Tip"))
        names = {"subtotal": tr("Subtotal"), "tax": tr("Tax"), "tip": tr("Tip"), "total": tr("Total"),
                 "paid": tr("Paid"), "remaining": tr("Remaining")}
        for key, (name, _value) in self.sum_labels.items():
            name.setText(names[key])
        self.tip_buttons[TIP_NONE].setText(tr("No tip"))
        self.tip_buttons[TIP_PAD].setText(tr("Tip on PIN pad"))
        self.tip_buttons[TIP_KEYED].setText(tr("Tip keyed"))
        self.description.setPlaceholderText(tr("Line name (type letters), then the price and +"))
        self.keypad.retranslate()
        self.ready_hint.setText(tr("Type the amount (1 2 5 0 = 12.50), then Return or F2 for card; "
                                   "+ adds it as a line."))
        self.ticket_title.setText(f"{tr('Ticket')} {self.ticket.id}" if self.ticket else tr("New ticket"))
        self.amount.refresh()
        self.tip.refresh()
        self._update_totals()

    def entered(self) -> None:
        if self.stack.currentWidget() is self.entry_page:
            self.select_field(self.active)
        if self.till.ready and not self._resumed and self.till.status.started:
            self._resume_open_ticket()


def tender_text(tender: Any, currency: str) -> str:
    """One tender as the ticket panel and the result list it."""
    what = tr(TENDER_TITLES.get(tender.kind, tender.kind))
    outcome = {"approved": tr("approved"), "partial": tr("PARTIAL"), "declined": tr("declined"),
               "error": tr("not charged"), "unknown": tr("checking"), "voided": tr("voided"),
               "returned": tr("given back")}.get(tender.outcome, tender.outcome)
    card = f"…{tender.card[-4:]}" if tender.card else ""
    text = f"{what} {card}".strip() + f"  {format_money(tender.amount, currency)}  {outcome}"
    if tender.kind == "cash" and tender.tendered is not None:
        change = tender.change or Decimal(0)
        text += "  " + tr("tendered {t}, change {c}").format(t=format_money(tender.tendered, currency),
                                                           c=format_money(change, currency))
    return text


def terminal_state_name(state: str) -> str:
    names = {"idle": tr("idle"), "waiting for card": tr("waiting for the card"),
             "waiting for tip": tr("waiting for the tip"),
             "waiting for signature": tr("waiting for the signature"),
             "waiting for confirmation": tr("waiting for a confirmation"),
             "waiting for terms": tr("waiting for the terms"), "waiting for input": tr("waiting for input"),
             "showing form": tr("showing a form"), "showing line items": tr("showing line items"),
             "showing text": tr("showing text"), "showing wait": tr("showing please wait"),
             "printing": tr("printing")}
    return names.get(state, state)
