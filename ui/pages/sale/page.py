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
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from cashier.clerks import Action
from cashier.flows.figures import FiguresOfTheLastAsked
from ui import a11y, keys
from ui.core_words import error_words
from ui.i18n import format_money, tr
from ui.manager_prompt import ask_manager
from ui.pages.base import Page, PartStack, hint
from ui.pages.sale.keypad_panel import KeypadPanel
from ui.pages.sale.payment_panel import TIP_KEYED, PaymentPanel
from ui.pages.sale.ticket_panel import TicketPanel
from ui.pages.sale.words import TENDER_TITLES, tender_text, terminal_state_name
from ui.receipt import reason_text, state_name
from ui.widgets.amount import AmountDisplay, handle_amount_key

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.till import Till


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
        self._waiting_for_all = False  # the tender on the PIN pad takes all that remains
        self._resumed = False  # the tickets a crash left open were looked for
        self._resuming: Any = None
        self._figures = FiguresOfTheLastAsked()
        #: What ``_update_totals`` last laid out: the ticket, its figures and the states shown.
        self._totals_ticket: Any = None
        self._totals_figures: Any = None
        self._totals_shown: tuple[bool, ...] | None = None
        self.stack = PartStack()
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

    @classmethod
    def title(cls) -> str:
        return tr("Sale")

    # ---- entry -----------------------------------------------------------------------------
    def _build_entry(self) -> None:
        """The ticket, what is typed, the keypad side by side; the tenders in a row under them."""
        page = QWidget(self.stack)
        grid = QGridLayout(page)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(8)
        self.remove_line_button = self.button(lambda: tr("Remove line"), "Del", self.remove_last_line,
                                              stacked=True)
        self.cancel_ticket_button = self.button(lambda: tr("Cancel ticket"), keys.GIVE_BACK,
                                                self.cancel_ticket, "Danger", stacked=True)
        #: (ticket id, amount paid) the first F12 asked about; the second press cancels
        self._cancel_armed: tuple[int, Decimal] | None = None
        self.ticket_panel = TicketPanel(self.till.currency,
                                        (self.remove_line_button, self.cancel_ticket_button))
        self.payment_panel = PaymentPanel(self)
        pay = self.payment_panel
        # the names the rest of the screen (and its tests) use
        self.lines_list, self.tenders_list = self.ticket_panel.lines_list, self.ticket_panel.tenders_list
        self.sum_labels = self.ticket_panel.sum_labels
        self.total_label, self.total_value = self.sum_labels["total"]
        self.remaining_value = self.sum_labels["remaining"][1]
        self.description, self.amount, self.tip = pay.description, pay.amount, pay.tip
        self.notice, self.error_label = pay.notice, pay.error_label
        self.add_line_button = pay.add_line_button
        self.card_button, self.gift_button = pay.card_button, pay.gift_button
        self.qr_button, self.cash_button = pay.qr_button, pay.cash_button
        self.keypad_panel = KeypadPanel(self, self.amount)
        self.keypad, self.ready_hint = self.keypad_panel.keypad, self.keypad_panel.ready_hint
        self.amount_field, self.tip_field = self.keypad_panel.amount_field, self.keypad_panel.tip_field
        self.active: AmountDisplay = self.amount
        grid.addWidget(self.ticket_panel, 0, 0)
        grid.addWidget(self.payment_panel, 0, 1)
        grid.addWidget(self.keypad_panel, 0, 2)
        grid.addWidget(pay.tenders, 1, 0, 1, 3)
        grid.setColumnStretch(0, 4)
        grid.setColumnStretch(1, 4)
        grid.setColumnStretch(2, 3)
        grid.setRowStretch(0, 1)
        self.heading.setVisible(False)  # the navigation names the screen: its height is the ticket's
        self.layout_.setContentsMargins(8, 8, 8, 8)  # 12 at the sides scrolled Spanish at 125 % by 6 px
        grid.setHorizontalSpacing(8)
        # the keypad's keys as narrow as their digits (the theme's 72 px minimum is for screens
        # with room): three panels side by side then fit 1024 px at 125 % text; sizes of text
        # still come from the theme, so the text size setting applies
        self.keypad_panel.setStyleSheet(
            "QPushButton#Key { min-width: 0px; padding: 4px 6px; } "
            "QPushButton { padding: 4px 6px; }")
        self.payment_panel.setStyleSheet("#AmountDisplay { padding: 4px 10px; } "
                                         "QPushButton { padding: 4px 6px; }")
        self.ticket_panel.setStyleSheet("QPushButton { padding: 4px 6px; }")
        pay.tip_mode_box.currentIndexChanged.connect(lambda _i: self._tip_mode_changed())
        self.amount.changed.connect(lambda _v: self._amount_changed())
        self.tip.changed.connect(lambda _v: self._tip_changed())
        for display in (self.amount, self.tip):
            display.installEventFilter(self)  # the entry's keys go through the ticket's rules
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

    def select_field(self, display: AmountDisplay) -> None:
        if display is self.tip and not self.tip.isEnabled():
            return
        self.active = display
        self.keypad_panel.entry.aim(display)
        for button, target in ((self.amount_field, self.amount), (self.tip_field, self.tip)):
            button.setChecked(target is display)
        display.setFocus()

    def key_tip_field(self) -> None:
        """F7: the tip is keyed (switching the tip mode to keyed when it was not)."""
        if self.tip_mode() != TIP_KEYED:
            self.set_tip_mode(TIP_KEYED)
        self.select_field(self.tip)

    def tip_mode(self) -> str:
        return self.payment_panel.tip_mode()

    def set_tip_mode(self, mode: str) -> None:
        self.payment_panel.set_tip_mode(mode)

    def _tip_mode_changed(self) -> None:
        keyed = self.tip_mode() == TIP_KEYED
        taken = self.ticket is not None and self.ticket.tip_asked
        self.tip.setEnabled(keyed and not taken)
        self.tip.setVisible(keyed)  # the keyed tip's line only when the tip is keyed
        if not keyed and not taken:
            self.tip.clear()
            if self.active is self.tip:
                self.select_field(self.amount)
        self._update_totals()

    def _keyed_tip(self) -> Decimal:
        """The tip typed in the Tip field (keyed mode), not yet taken by the ticket."""
        return self.tip.value if self.tip_mode() == TIP_KEYED else Decimal(0)

    def figures(self) -> Any:
        """What the ticket panel shows: the core's figures for the ticket, the amount typed (with
        no line yet) and the keyed tip."""
        typed = Decimal(0) if self.prefilled else self.amount.value
        return self._figures.of(self.ticket, typed=typed, keyed_tip=self._keyed_tip())

    def _amount_changed(self) -> None:
        if self.prefilled and not self.figures().is_remaining(self.amount.value):
            self.prefilled = False  # edited (Backspace, the keypad): it is the amount typed now
        self._update_totals()

    def _tip_changed(self) -> None:
        """The pre-filled amount follows the keyed tip, so it and Remaining agree."""
        if self.prefilled:
            self.amount.set_value(self.figures().remaining)
        self._update_totals()

    def _update_totals(self) -> None:
        """The ticket panel: what the core's figures say; the tenders as they may be used."""
        from cashier.flows.figures import cash_offers

        t = self.ticket
        figures = self.figures()
        busy = self._busy()
        on_entry = self.stack.currentWidget() is self.entry_page
        # a key or a line asks up to four times in one event: what is already on screen (the
        # same ticket, the same figures object from the core's memo, the same states) is not
        # laid out again; the error line still goes, as each ask clears it
        shown = (busy, on_entry, self.amount.entered, self.prefilled)
        if (t is self._totals_ticket and figures is self._totals_figures
                and shown == self._totals_shown):
            self.error_label.clear()
            return
        self._totals_ticket, self._totals_figures, self._totals_shown = t, figures, shown
        self.ticket_panel.show_figures(figures, tax_shown=bool(figures.tax) or bool(t and t.record.tax_rate),
                                       paid_shown=bool(t and t.tenders))
        has_amount = figures.due
        for b in (self.card_button, self.gift_button, self.qr_button, self.cash_button):
            b.setEnabled(not busy)  # with nothing to pay, the key says so (see _check_ready)
            b.setProperty("ready", has_amount)
        self.payment_panel.show_cash_offers(
            cash_offers(figures.remaining, self.till.profile.ticket.notes, self.till.currency),
            enabled=has_amount and not busy and on_entry)
        self.add_line_button.setEnabled(self.amount.entered and not self.prefilled and not busy)
        open_ticket = t is not None and t.is_open
        self.remove_line_button.setEnabled(bool(open_ticket and t.lines and not t.lines_locked)
                                           and not busy)
        self.cancel_ticket_button.setEnabled(open_ticket and not busy)
        self.error_label.clear()

    def _too_long(self) -> None:
        cur = self.till.currency  # the core's one bound (the profile's max_amount), in its currency
        self.say_in(self.error_label, lambda: tr("Amount: at most {max}, this till's max_amount; the "
                                                 "extra digit was not taken.").format(
            max=format_money(self.till.profile.bounds.ceiling(cur), cur)))

    def _show_ticket(self, ticket: Any) -> None:
        """Redraw the ticket panel from the core's ``Ticket``."""
        self.ticket = ticket
        self.ticket_panel.show_ticket(ticket)
        if (ticket is not None and self._waiting_for_all
                and self.stack.currentWidget() is self.waiting_page):
            # the ticket's own figure (with tax and tip) once the quick path journaled them
            self.wait_amount.setText(format_money(ticket.remaining, self.till.currency))
        self._tip_mode_changed()
        self.ticket_changed.emit(ticket)

    def _prefill_remaining(self) -> None:
        """What remains (with a keyed tip) in the entry: typing replaces it, F2 charges it all."""
        t = self.ticket
        self.prefilled = False
        figures = self.figures()
        if t is not None and t.is_open and t.lines and figures.due:
            self.amount.set_value(figures.remaining)
            self.prefilled = True
        else:
            self.amount.clear()
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

    def take_focus(self) -> None:
        if self.stack.currentWidget() is self.entry_page:
            self.select_field(self.active)
        elif self.stack.currentWidget() is self.result_page:
            self.new_button.setFocus()

    def take_key(self, event: QKeyEvent) -> bool:
        """A key that reached the window unfocused: the entry takes the keyboard and the key."""
        if self.stack.currentWidget() is not self.entry_page:
            return False
        self.select_field(self.active)
        return self._entry_key(event)

    def _entry_key(self, event: QKeyEvent) -> bool:
        key, text = event.key(), event.text()
        if self.active is self.amount:
            if text and text.isdigit() and text.isascii():
                if self.prefilled:
                    # typing replaces what remains (a part of it, for a split); a refused amount
                    # starts over by itself (AmountDisplay.show_refused)
                    self.prefilled = False
                    self.amount.clear()
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
            elif key == Qt.Key.Key_Backspace and not self.amount.entered and self.description.text():
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
        self._run_ticket(self._add_line(product.name, product.price), "add product", eager=True)
        return True

    # ---- the ticket's lines ------------------------------------------------------------------
    async def _session(self, tenders: Any = ()) -> Any:
        """The open ticket's session, or a new ticket (the ``tenders`` about to pay it checked
        first by the core, so a refused one leaves nothing journaled)."""
        from cashier.flows.ticket import TicketSession, TicketSettings

        if self.session is None or (self.ticket is not None and not self.ticket.is_open):
            settings = TicketSettings.of(self.till.profile)
            self.session = await TicketSession.start(self.till.ctx, settings, tenders)
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
        if not self.amount.entered:
            self.say_in(self.error_label, lambda: tr("Amount: type the line's price first (it must be "
                                                     "greater than zero)."))
            return
        name = self.description.text().strip() or tr("Item")
        self.description.clear()
        self.amount.clear()
        # started inside the key's event: the line is journaled and drawn before the next paint
        # (docs/decisions/009-the-ticket.md, "A scanned line shows in one paint")
        self._run_ticket(self._add_line(name, price), "add line", eager=True)

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
        if self.session is None or self.ticket is None or not self.ticket.is_open:
            return
        if not self._can_start():
            return
        paid = self.ticket.paid
        if self.ticket.money_taken and self._cancel_armed != (self.ticket.id, paid):
            # money already taken goes back: ask once, naming the ticket and the amount
            self._cancel_armed = (self.ticket.id, paid)
            ticket_id = self.ticket.id
            self._say("partial", lambda: tr(
                "Cancel ticket {id}? {paid} already paid goes back (card, gift card and QR tenders "
                "voided, cash given back). Press F12 again to confirm.").format(
                id=ticket_id, paid=format_money(paid, self.till.currency)))
            return
        self._cancel_armed = None
        approval = (ask_manager(self, self.till.ctx, Action.CANCEL_TICKET, paid)
                    if self.ticket.money_taken else None)
        if approval is not None and not approval.go:
            self._say("partial", lambda: approval.why)
            return
        manager = approval.manager if approval is not None else None

        async def cancel() -> Any:
            ticket = await self.session.cancel(manager=manager)
            self._show_ticket(ticket)
            self._say("cancelled", lambda: tr("Ticket cancelled: approved tenders voided, cash given "
                                              "back ({cash}).").format(
                cash=format_money(ticket.cash_taken, self.till.currency)))
            self.session = None
            self.ticket = None
            self._show_ticket(None)
            self._prefill_remaining()
        self._run_ticket(cancel(), "cancel ticket")

    def _run_ticket(self, coro: Any, name: str, *, eager: bool = False) -> None:
        self.task = self.till.run(coro, name, done=lambda _r: self._update_totals(), failed=self._failed,
                                  eager=eager)
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
            self.say_in(self.error_label, lambda: tr("The till is still starting; try again in a moment."))
            return False
        return not self._busy()

    # ---- tenders ---------------------------------------------------------------------------
    def _check_ready(self) -> bool:
        if not self._can_start():
            return False
        if not self.figures().due:
            self.say_in(self.error_label,
                        lambda: tr("Amount: type the amount first (it must be greater than zero)."))
            return False
        return True

    def charge_card(self, purpose: str = "card") -> None:
        if self.stack.currentWidget() is not self.entry_page or not self._check_ready():
            return
        self._tender("giftcard" if purpose == "gift card" else "card")

    def charge_gift_card(self) -> None:
        # A gift card pays like a card: the PIN pad reads it (swipe or scan), the host decides.
        self.charge_card("gift card")

    def charge_qr(self) -> None:
        if self.stack.currentWidget() is not self.entry_page or not self._check_ready():
            return
        if not self._has_open_lines():
            # the quick path: the QR screen shows the code large for the typed amount, as today
            self.qr_requested.emit(self.amount.value, Decimal(0))
            return
        self._tender("qr")

    def pay_cash(self) -> None:
        """F11: the amount typed is what the customer hands over (what remains when pre-filled)."""
        if self.stack.currentWidget() is self.entry_page and self._check_ready():
            self._tender("cash")

    def quick_cash(self, handed: Decimal | None) -> None:
        """A quick cash key: "Exact" (None: what remains) or a note amount the customer hands over."""
        if self.stack.currentWidget() is self.entry_page and self._check_ready():
            self._tender("cash", handed=handed, chosen=True)

    def _has_open_lines(self) -> bool:
        t = self.ticket
        return t is not None and t.is_open and bool(t.lines)

    def _tender(self, kind: str, *, handed: Decimal | None = None, chosen: bool = False) -> None:
        """One tender for the amount typed, or all that remains when it is pre-filled or cleared.
        With no line yet, the typed amount becomes the ticket's line first (the quick path, run by
        the core's ``quick_pay``, as the command line runs it)."""
        from cashier.flows.ticket import Tender

        typed = self.amount.value
        quick = not self._has_open_lines()
        all_remaining = quick or self.prefilled or not self.amount.entered  # nothing typed
        amount = handed if chosen else (None if all_remaining else typed)
        tender = Tender(kind, amount)  # type: ignore[arg-type]
        keyed_tip = self._keyed_tip() if self.tip_mode() == TIP_KEYED else None
        mode = self.tip_mode()
        lines = [(self.description.text().strip() or tr("Amount"), typed, 1)] if quick else []
        before = len(self.ticket.tenders) if self.ticket is not None and not quick else 0

        async def run() -> Any:
            session = await self._session([tender])
            session.settings = replace(session.settings, tip_mode=mode)
            if lines:
                self.description.clear()
            ticket = await session.quick_pay([tender], lines=lines, tip=keyed_tip)
            return before, ticket

        if kind != "cash":
            self._waiting_for_all = amount is None
            self._show_waiting(self.figures().remaining if amount is None else amount, kind)
        self.task = self.till.run(run(), f"{kind} tender", done=self._tender_done,
                                  failed=self._tender_failed)
        self._update_totals()

    def _tender_failed(self, exc: BaseException) -> None:
        """A refused tender: said in one line; the amount stays in sight, and the next digit
        starts a new amount rather than adding to the refused one."""
        self.stack.setCurrentWidget(self.entry_page)
        self._failed(exc)
        self.amount.show_refused()

    def _tender_done(self, answer: Any) -> None:
        from cashier.entry_rules import is_checking
        from cashier.flows.base import FlowResult

        before, ticket = answer
        self._show_ticket(ticket)
        tender = ticket.tenders[before] if len(ticket.tenders) > before else None
        entry = None
        if tender is not None:
            entry = self._entry_of(tender)
        result = FlowResult(entry, tender.flow_outcome, entry.message or ""
                            ) if entry is not None and tender is not None else None
        if result is not None and is_checking(result.outcome):
            self.show_result(result)
            return
        if ticket.is_paid and result is not None:
            self.show_result(result)
            return
        self.stack.setCurrentWidget(self.entry_page)
        self._prefill_remaining()
        self.select_field(self.amount)
        tone = ("declined" if tender is None else "partial" if tender.is_partial
                else "paid-part" if tender.is_approved else "declined")
        self._say(tone, lambda: self._tender_words(ticket, tender, entry))
        self.result = result

    def _tender_words(self, ticket: Any, tender: Any, entry: Any) -> str:
        """What came of a tender that left the ticket open, in the window's language."""
        cur = self.till.currency
        remaining = format_money(ticket.remaining, cur)
        if tender is None:
            return tr("Nothing was charged. Remaining {rest}.").format(rest=remaining)
        if tender.is_partial:
            return tr("PARTIALLY APPROVED: {got} of {asked} on {what}. Remaining balance {rest}: "
                      "choose another tender.").format(
                got=format_money(tender.amount, cur), asked=format_money(tender.requested, cur),
                what=tr(TENDER_TITLES.get(tender.kind, tender.kind)), rest=remaining)
        if tender.is_approved and tender.is_cash:  # cash is taken, not approved
            return tr("Cash taken: {got}. Remaining {rest}.").format(
                got=format_money(tender.amount, cur), rest=remaining)
        if tender.is_approved:
            return tr("{what} approved: {got}. Remaining {rest}.").format(
                what=tr(TENDER_TITLES.get(tender.kind, tender.kind)),
                got=format_money(tender.amount, cur), rest=remaining)
        from cashier.entry_rules import is_cancelled, reason  # loaded with the runtime

        cancelled = entry is not None and is_cancelled(entry)
        title = tr("Cancelled: not charged") if cancelled else {
            "declined": tr("Declined"), "error": tr("Not charged")}.get(tender.outcome,
                                                                       state_name(tender.outcome))
        why = reason_text(reason(entry), cur) if entry is not None and not cancelled else ""
        if why:  # the reason says what happened and what to do: said once, no title, no advice
            return why + " " + tr("The ticket stays open: remaining {rest}.").format(rest=remaining)
        return f"{title}. " + tr("The ticket stays open: remaining {rest}. Try another card or "
                                 "tender.").format(rest=remaining)

    def _entry_of(self, tender: Any) -> Any:
        """The journal entry of a tender, as the ticket read it."""
        return next((e for e in self.ticket.record.entries if e.id == tender.entry_id), None)

    def _say(self, tone: str, words: Callable[[], str]) -> None:
        """A notice under the ticket in ``tone``; said again after a language switch."""
        self.notice.setProperty("tone", tone)
        self.notice.style().unpolish(self.notice)
        self.notice.style().polish(self.notice)
        self.say_in(self.notice, words)
        self.notice.setVisible(bool(self.notice.text()) and not self.error_label.text())
        self._describe_amount()

    def _result_summary(self) -> str:
        """The result on screen as one phrase: its title, amount, change due and message."""
        return ". ".join(text for text in (
            self.result_title.text(), self.result_amount.text(),
            self.change_due.text() if self.change_due.isVisibleTo(self.result_page) else "",
            self.result_message.text()) if text)

    # Where the focus lands says what just happened before what it does: New sale the result,
    # the amount the notice (a declined card, a partial approval). Both are announced too; this is
    # for a reader that takes no announcements (Orca 43, Debian 12's), which reads the focused
    # widget's description, and its description again when it changes.
    def _describe_result(self) -> None:
        """New sale's description: the result on screen, then what the key does (set before
        the key takes the focus: said once)."""
        plain = tr("The next customer: a new ticket.")
        summary = self._result_summary() if self.result is not None else ""
        self.new_button.setAccessibleDescription(f"{summary}. {plain}" if summary else plain)

    def _describe_amount(self) -> None:
        """The amount's description: the notice under the ticket, if any, then how to type."""
        hint = self.ready_hint.text()
        said = self.notice.text()
        self.amount.setAccessibleDescription(f"{said} {hint}" if said else hint)

    def _failed(self, exc: BaseException) -> None:
        from cashier.errors import CashierError

        self.stack.setCurrentWidget(self.entry_page)
        self._update_totals()
        if isinstance(exc, CashierError):
            self.say_refusal(self.error_label, exc)
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
        for label in (self.wait_title, self.prompt_text):
            a11y.live(label)  # what the customer is asked, said as the pad asks it
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
        self.say_in(self.wait_title, lambda: {"giftcard": tr("Paying by gift card"),
                                              "qr": tr("Paying by QR code")}.get(kind, tr("Paying by card")))
        self.say_in(self.prompt_text, lambda: tr("The customer scans the code on the PIN pad.")
                    if kind == "qr" else tr("Sending to the PIN pad…"))
        self.terminal_line.setText("")
        self.cancel_button.setEnabled(kind != "qr")
        self._clear_of_the_pad(self.waiting_page, 32)
        self.stack.setCurrentWidget(self.waiting_page)
        self.cancel_button.setFocus()

    def _terminal_event(self, event: Any) -> None:
        if self.stack.currentWidget() is not self.waiting_page:
            return
        from ui.pinpad import describe_prompt

        prompt = event.prompt
        if prompt is not None:
            def sees() -> str:
                return tr("Customer sees:") + " " + describe_prompt(prompt)
            if sees() != self.prompt_text.text():  # the pad says its prompt again: said once
                self.say_in(self.prompt_text, sees)
            amount = getattr(prompt, "amount", None)
            if prompt.kind == "card" and isinstance(amount, Decimal) and amount:  # the pad shows one
                # the pad's amount (with the tip the customer chose) is the one on screen too
                self.wait_amount.setText(format_money(amount, self.till.currency))
        self.say_in(self.terminal_line,
                    lambda: tr("PIN pad:") + " " + terminal_state_name(event.state))

    def _device_prompt(self, event: Any) -> None:
        if self.stack.currentWidget() is self.waiting_page and not self.till.status.training:
            self.say_in(self.prompt_text, lambda: tr("Customer sees:") + " " + tr("Present card"))

    def _other_event(self, event: Any) -> None:
        from cashier.flows.ticket import TicketChanged

        mine = self.session is not None and isinstance(event, TicketChanged)
        if mine and event.ticket.id == self.session.id:
            self._show_ticket(event.ticket)

    def _payment_changed(self, entry: Any) -> None:
        from cashier.entry_rules import is_checking, is_unknown

        if (self.stack.currentWidget() is self.result_page and self.result is not None
                and self.result.entry.id == entry.id and is_checking(self.result.outcome)
                and not entry.unresolved):
            # recovery settled the payment the cashier is looking at: show the real outcome
            from cashier.flows.base import FlowResult, outcome_of

            self.show_result(FlowResult(entry, outcome_of(entry), entry.message or ""))
            if self.session is not None:
                self.till.run(self.session.settle(), "ticket refresh",
                              done=lambda t: self._show_ticket(t))
            return
        if self.stack.currentWidget() is self.waiting_page and is_unknown(entry):
            self.say_in(self.wait_title, lambda: tr("Checking with the host…"))
            self.say_in(self.prompt_text, lambda: tr("The answer was lost. The till is asking the host "
                                                     "what happened; do not charge again."))
            self.cancel_button.setEnabled(False)

    def cancel_payment(self) -> None:
        """Ask the flow to reset the PIN pad; the tender then ends as cancelled (not charged)."""
        if self.task is None or self.task.done() or not self.cancel_button.isEnabled():
            return
        from cashier.flows.pinpad import cancel_prompt

        self.cancel_button.setEnabled(False)
        self.say_in(self.prompt_text, lambda: tr("Cancelling on the PIN pad…"))
        self.till.run(cancel_prompt(self.till.ctx), "cancel prompt", failed=self._cancel_failed)

    def _cancel_failed(self, exc: BaseException) -> None:
        self.cancel_button.setEnabled(True)
        self.say_in(self.terminal_line,
                    lambda: tr("Could not cancel:") + " " + error_words(exc, self.till.currency))

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
        # wrapped: at 1024 wide the PIN pad lies over the result's right side, and a long tender
        # line ("Cash $5.00 taken tendered $10.00, change $5.00") made the screen scroll sideways
        for label in (self.result_title, self.change_due, self.result_details):
            label.setWordWrap(True)
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
        buttons = QGridLayout()  # two a row: four side by side made the screen wider than 1024 px
        # Return is handled by keyPressEvent: a window-wide Return shortcut would swallow the
        # entry's Return (the quick path: type an amount, press Return, the card is charged)
        # the key under the words: at 1024 wide the PIN pad lies over the result's right side,
        # and two Spanish buttons side by side made the screen scroll sideways
        self.new_button = self.button(lambda: tr("New sale") + "\n[Return]", "", self.new_sale, "Primary",
                                      stacked=True)
        self.print_button = self.button(lambda: tr("Print receipt"), "F8", self.print_receipt,
                                        stacked=True)
        self.show_receipt_button = self.button(lambda: tr("Show receipt"), "F9", self.show_receipt,
                                               stacked=True)
        self.check_button = self.button(lambda: tr("Check now"), "F10", self.check_now, stacked=True)
        for i, b in enumerate((self.new_button, self.print_button, self.show_receipt_button,
                               self.check_button)):
            buttons.addWidget(b, i // 2, i % 2)
        col.addLayout(buttons)
        self.stack.addWidget(page)
        self.result_page = page

    def show_result(self, result: Any) -> None:
        self.result = result
        entry = result.entry
        outcome = result.outcome
        from cashier.entry_rules import is_cancelled, is_checking, shown_amount, took_money

        cancelled = is_cancelled(entry)
        view = "cancelled" if cancelled else outcome
        ticket = self.ticket if self.ticket is not None and self.ticket.is_paid else None
        gives_change = ticket is not None and ticket.gives_change
        self.say_in(self.result_title, lambda: self._result_words(result, ticket)[0])
        self.result_page.setProperty("outcome", {"captured": "approved"}.get(view, view))  # its colour
        self.result_page.style().unpolish(self.result_page)
        self.result_page.style().polish(self.result_page)
        cur = entry.currency
        shown = ticket.total if ticket is not None else shown_amount(entry)
        self.result_amount.setText(format_money(shown, cur))
        self.change_due.setVisible(gives_change)
        change = ticket.change if ticket is not None else Decimal(0)
        self.say_in(self.change_due, lambda: tr("Change due: {change}").format(
            change=format_money(change, cur)))
        self.say_in(self.result_details, lambda: self._result_words(result, ticket)[1])
        self.say_in(self.result_message, lambda: self._result_words(result, ticket)[2])
        approved = took_money(outcome)
        # the cashier's focus goes to New sale: the outcome is announced, a refusal at once, and
        # is the key's description (a reader without announcements, Orca 43, says it on focus)
        a11y.announce(self, self._result_summary(), urgent=not approved)
        self.print_button.setEnabled(approved)
        self.show_receipt_button.setEnabled(approved)
        self.check_button.setVisible(is_checking(outcome))
        self.check_button.setEnabled(True)
        self.receipt_view.setVisible(False)
        self._clear_of_the_pad(self.result_page, 32)
        self._describe_result()
        self.stack.setCurrentWidget(self.result_page)
        self.new_button.setFocus()
        self.result_shown.emit(result)

    @staticmethod
    def _result_words(result: Any, ticket: Any) -> tuple[str, str, str]:
        """A payment's result in the window's language: its title, details and message
        (``ticket``: the paid ticket it closed, else None)."""
        from cashier.entry_rules import is_cancelled, is_checking, reason, took_money

        entry, outcome = result.entry, result.outcome
        cancelled = is_cancelled(entry)
        view = "cancelled" if cancelled else outcome
        # why it ended, in the cashier's words; the host's own text stays in the journal's details
        message = reason_text(reason(entry), entry.currency)
        if not message and took_money(outcome) and ticket is None:
            # the core's own note, e.g. "already approved"; a paid ticket's tenders are listed
            # below it (cash tendered and change said once, not again as "cash tendered 12.50")
            message = result.message or ""
        titles = {"approved": tr("Approved"), "declined": tr("Declined"),
                  "error": tr("Not charged"), "unknown": tr("Checking with the host…"),
                  "cancelled": tr("Cancelled: not charged"), "voided": tr("Voided"),
                  "voiding": tr("Voiding…"), "captured": tr("Captured")}
        title = titles.get(view, state_name(outcome))
        if ticket is not None and ticket.paid_in_cash_only and took_money(outcome):
            title = tr("Paid")  # cash is taken, not approved
        if ticket is not None and ticket.gives_change:
            title = tr("Paid: give the change")
            message = ""  # the change is on screen in large type; the journal keeps the note
        cur = entry.currency
        details = []
        if ticket is not None:
            details.append(f"{tr('Ticket')}: {ticket.id}")
            details += [tender_text(t, cur) for t in ticket.tenders if not t.is_declined]
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
        if is_checking(outcome):
            message = tr("The host has not answered yet. Recovery keeps asking; the journal shows "
                         "the outcome when it is known. Do not charge again.")
        return title, "\n".join(details), message

    def _clear_of_the_pad(self, page: QWidget, margin: int) -> None:
        """Training on a small screen: the PIN pad comes to the front over the window's right
        edge while the customer is asked and while the result shows, so this screen's words and
        buttons stay left of it (seen at 1024x768: the amount and Cancel [Esc] under the pad)."""
        window = self.window()
        covered = int(getattr(window, "covered_right", 0))
        gap = window.width() - self.stack.mapTo(window, QPoint(self.stack.width(), 0)).x()
        layout = page.layout()
        if layout is not None:
            m = layout.contentsMargins()
            layout.setContentsMargins(m.left(), m.top(), margin + max(0, covered - gap), m.bottom())

    def last_outcome(self) -> str | None:
        return None if self.result is None else str(self.result.outcome)

    def new_sale(self) -> None:
        """The next customer: a paid ticket is left behind; an open one stays on screen."""
        if self.task is not None and not self.task.done():
            return
        if self.ticket is not None and not self.ticket.is_open:
            self.session = None
            self.ticket = None
            self._show_ticket(None)
        self.amount.clear()
        self.tip.clear()
        self.description.clear()
        self.prefilled = False
        self.set_tip_mode(self.till.profile.tip_mode)
        self.result = None
        self._say("", lambda: "")
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
            ticket = session.ticket
            self._say("partial", lambda: tr("Ticket {id} was left open: remaining {rest}. Finish it "
                                            "or cancel it (F12).").format(
                id=ticket.id, rest=format_money(ticket.remaining, self.till.currency)))
        self._resuming = self.till.run(resume(), "resume ticket", done=show)

    def receipt(self) -> list[str]:
        from ui.receipt import receipt_lines, ticket_receipt_lines

        p = self.till.profile
        if self.ticket is not None and self.ticket.is_paid:  # training: marked by the layout
            return ticket_receipt_lines(self.ticket, p.company_name, p.till_id)
        return receipt_lines(self.result.entry, p.company_name, p.till_id) if self.result else []

    def show_receipt(self) -> None:
        if self.result is None:
            return
        self.receipt_view.setPlainText("\n".join(self.receipt()))
        self.receipt_view.setVisible(True)

    def print_receipt(self) -> None:
        if self.result is None:
            return
        self.print_on_pad(self.receipt(), lambda: tr("Show the receipt on screen instead."))

    # ---- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        super().retranslate()
        a11y.name(self.receipt_view, tr("Receipt"), tr("The receipt as it prints, line by line."))
        for button, about in (
                (self.remove_line_button, tr("Removes the ticket's last line.")),
                (self.cancel_ticket_button, tr("Cancels the ticket: approved tenders are voided and "
                                               "cash is given back; asks again when money was taken.")),
                (self.cancel_button, tr("Cancels the payment waiting on the PIN pad: nothing is "
                                        "charged.")),
                (self.print_button, tr("Prints the receipt on the PIN pad's printer.")),
                (self.show_receipt_button, tr("Shows the receipt on screen.")),
                (self.check_button, tr("Asks the host again what became of the payment."))):
            button.setAccessibleDescription(about)
        self.ticket_panel.retranslate()
        self.payment_panel.retranslate()
        self.keypad_panel.retranslate()
        self._totals_shown = None  # the figures are worded again in the new language
        self._describe_result()
        self._describe_amount()
        self._update_totals()

    def entered(self) -> None:
        if self.stack.currentWidget() is self.entry_page:
            self.select_field(self.active)
        if self.till.ready and not self._resumed and self.till.status.started:
            self._resume_open_ticket()

