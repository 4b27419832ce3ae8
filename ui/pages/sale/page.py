"""The Sale screen is the ticket: lines on the left, the total and what remains large, the
tenders (Card, Gift card, QR, Cash), change due after cash; live PIN pad status; the result.

Keyboard: digits build cents (1 2 5 0 -> 12.50); letters name the next line; + or Insert adds the
line; a barcode scanned (digits then Return) adds the profile's product. Return (or F2) charges
the card; Esc clears what was typed (or cancels a payment waiting on the PIN pad). F3 gift card,
F4 QR, F11 cash, F7 keyed tip, Delete removes the last line, F12 cancels the ticket (asking
first when money was taken).
The quick path stays: type an amount, press Return, the card is charged.

What is typed, scanned, pre-filled and armed, which amount a tender takes and what the screen
shows are the core's ``SaleEntry`` (``cashier.flows.sale_entry``): this page keeps the widgets,
hands the model its keys and draws what it says.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QWidget

from cashier.clerks import Action
from cashier.flows.sale_entry import TIP_KEYED, Act, SaleEntry
from ui.core_words import error_words
from ui.i18n import format_money, tr
from ui.manager_prompt import ask_manager
from ui.pages.sale.entry_stage import EntryStage, key_of
from ui.pages.sale.stages import SaleResult, WaitingStage
from ui.pages.sale.words import cancel_question, cancelled_words, left_open_words, tender_words
from ui.pages.staged import StagedPage, restyle
from ui.receipt import receipt_lines, ticket_receipt_lines
from ui.widgets.amount import AmountDisplay, handle_amount_key

if TYPE_CHECKING:
    from cashier.flows.base import FlowContext, FlowResult
    from cashier.flows.figures import Figures
    from cashier.flows.sale_entry import TenderOutcome
    from cashier.flows.ticket import Ticket, TicketSession, TicketSettings
    from cashier.journal.model import Entry
    from ui.gui import Gui
    from ui.till import Till

class SalePage(StagedPage):
    nav_key = "Ctrl+1"
    qr_requested = Signal(object, object)  # amount, tax (kept for the QR screen's own sales)
    result_shown = Signal(object)  # FlowResult of the tender that ended the ticket
    ticket_changed = Signal(object)  # cashier.flows.ticket.Ticket

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.task: asyncio.Task[Any] | None = None
        self._resumed = False  # the tickets a crash left open were looked for
        self._resuming: asyncio.Task[Any] | None = None
        self.stages(self._build_entry(), self._build_waiting(), self._build_result())
        self._tip_mode_changed()
        self.select_field(self.amount)
        till.bridge.terminal_event.connect(self._terminal_event)
        till.bridge.device_prompt.connect(self._device_prompt)
        till.bridge.payment_changed.connect(self._payment_changed)
        till.bridge.other_event.connect(self._other_event)
        till.recovery_finished.connect(lambda _report: self._resume_open_ticket())
        self.retranslate()

    @classmethod
    def title(cls) -> str:
        return tr("Sale")

    # the model's state, under the names the window and its tests use
    @property
    def ticket(self) -> Ticket | None:
        return self.model.ticket

    @property
    def session(self) -> TicketSession | None:
        return self.model.session

    @property
    def prefilled(self) -> bool:
        return self.model.prefilled

    @prefilled.setter
    def prefilled(self, prefilled: bool) -> None:
        self.model.prefilled = prefilled

    @property
    def result(self) -> FlowResult | None:
        return self.model.result

    @result.setter
    def result(self, result: FlowResult | None) -> None:
        self.model.result = result

    def _context(self) -> tuple[FlowContext, TicketSettings]:
        from cashier.flows.ticket import TicketSettings

        return self.till.ctx, TicketSettings.of(self.till.profile)

    # ---- entry -----------------------------------------------------------------------------
    def _build_entry(self) -> QWidget:
        e = self.entry_stage = EntryStage(self)
        # the names the rest of the window (and its tests) use
        t, pay, k = self.ticket_panel, self.payment_panel, self.keypad_panel = (
            e.ticket_panel, e.payment_panel, e.keypad_panel)
        self.lines_list, self.tenders_list, self.sum_labels = t.lines_list, t.tenders_list, t.sum_labels
        self.total_label, self.total_value = self.sum_labels["total"]
        self.remaining_value = self.sum_labels["remaining"][1]
        self.remove_line_button, self.cancel_ticket_button = e.remove_line_button, e.cancel_ticket_button
        self.amount: AmountDisplay = pay.amount
        self.description, self.tip = pay.description, pay.tip
        self.notice, self.error_label, self.add_line_button = pay.notice, pay.error_label, pay.add_line_button
        self.card_button, self.gift_button, self.qr_button, self.cash_button = e.tender_buttons
        self.keypad, self.ready_hint = k.keypad, k.ready_hint
        self.amount_field, self.tip_field = k.amount_field, k.tip_field
        self.active: AmountDisplay = self.amount
        p = self.till.profile
        self.model = SaleEntry(self.amount.buffer, self.tip.buffer, products=p.products,
                               tip_mode=pay.tip_mode(), notes=p.ticket.notes, currency=self.till.currency,
                               context=self._context, shown=self._show_ticket)
        self.heading.setVisible(False)  # the navigation names the screen: its height is the ticket's
        self.layout_.setContentsMargins(8, 8, 8, 8)  # 12 at the sides scrolled Spanish at 125 % by 6 px
        pay.tip_mode_box.currentIndexChanged.connect(lambda _i: self._tip_mode_changed())
        self.amount.changed.connect(lambda _v: self._amount_changed())
        self.tip.changed.connect(lambda _v: self._tip_changed())
        for display in (self.amount, self.tip):
            display.installEventFilter(self)  # the entry's keys go through the ticket's rules
            display.submitted.connect(self.charge_card)
            display.refused.connect(self._too_long)
        return e

    def select_field(self, display: AmountDisplay) -> None:
        if display is not self.tip or self.tip.isEnabled():
            self.active = display
            self.entry_stage.aim(display)

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
        dropped = self.model.tip_mode_set(self.tip_mode())
        fields = self.model.fields()
        self.tip.setEnabled(fields.tip_open)
        self.tip.setVisible(fields.tip_keyed)  # the keyed tip's line only when the tip is keyed
        if dropped:
            self.tip.settle()
            if self.active is self.tip:
                self.select_field(self.amount)
        self._update_totals()

    def figures(self) -> Figures:
        """What the ticket panel shows (the core's figures of the ticket and the entry)."""
        return self.model.figures()

    def _amount_changed(self) -> None:
        self.model.amount_edited()
        self._update_totals()

    def _tip_changed(self) -> None:
        if self.model.tip_edited():
            self.amount.settle()
        self._update_totals()

    def _update_totals(self) -> None:
        """The entry as the model's fields say; the error line goes, as each ask clears it."""
        self.entry_stage.show_fields(self.model.fields(), self._busy(), self.on_entry)
        self.error_label.clear()

    def _too_long(self) -> None:
        cur = self.till.currency  # the core's one bound (the profile's max_amount), in its currency
        self.say_in(self.error_label, lambda: tr("Amount: at most {max}, this till's max_amount; the "
                                                 "extra digit was not taken.").format(
            max=format_money(self.till.profile.bounds.ceiling(cur), cur)))

    def _show_ticket(self, ticket: Ticket | None, prefill: bool = False) -> None:
        """Redraw the ticket panel from the core's ``Ticket`` (``prefill``: and what remains)."""
        self.model.ticket = ticket
        self.ticket_panel.show_ticket(ticket)
        if ticket is not None and self.model.waiting_for_all and self.on_waiting:
            # the ticket's own figure (with tax and tip) once the quick path journaled them
            self.waiting.amount.setText(format_money(ticket.remaining, self.till.currency))
        self._tip_mode_changed()
        self.ticket_changed.emit(ticket)
        if prefill:
            self._prefill_remaining()

    def _prefill_remaining(self) -> None:
        """What remains (with a keyed tip) in the entry: typing replaces it, F2 charges it all."""
        self.model.prefill()
        self.amount.settle()
        self._update_totals()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.KeyPress and watched in (self.amount, self.tip)
                and self.on_entry and isinstance(event, QKeyEvent) and self.entry_key(event)):
            event.accept()
            return True
        return super().eventFilter(watched, event)

    def take_focus(self) -> None:
        if self.on_entry:
            self.select_field(self.active)
        elif self.on_result:
            self.new_button.setFocus()

    def take_key(self, event: QKeyEvent) -> bool:
        """A key that reached the window unfocused: the entry takes the keyboard and the key."""
        if not self.on_entry:
            return False
        self.select_field(self.active)
        return self.entry_key(event)

    def entry_key(self, event: QKeyEvent) -> bool:
        """Keys typed on the entry: the model says what each does, the widgets do it."""
        act = self.model.key(key_of(event), event.text(), on_tip=self.active is self.tip,
                             named=bool(self.description.text()))
        if act is Act.ADD_LINE:
            self.add_line()
        elif act is Act.SCAN and self.model.product is not None:
            self.amount.settle()
            product = self.model.product
            self._run_ticket(self.model.add_line(product.name, product.price), "add product", eager=True)
        elif act is Act.NAME_BACK:
            self.description.backspace()
        elif act is Act.NAME_TYPE:
            self.description.insert(event.text())  # letters name the next line
        elif act is Act.NONE:
            return False
        else:
            if act is Act.RETYPE:
                self.amount.settle()  # what remains goes: the digit starts the amount
            elif act is Act.NAME_CLEAR:
                self.description.clear()
            return handle_amount_key(self.active, event)
        return True

    # ---- the ticket's lines ------------------------------------------------------------------
    def add_line(self) -> None:
        """The typed amount (and the typed name) as a new line of the ticket."""
        if not self._can_start() or self.prefilled:
            return
        price = self.model.line()
        if price is None:
            self.say_in(self.error_label, lambda: tr("Amount: type the line's price first (it must be "
                                                     "greater than zero)."))
            return
        name = self.description.text().strip() or tr("Item")
        self.description.clear()
        self.amount.settle()
        # started inside the key's event: the line is journaled and drawn before the next paint
        # (docs/decisions.md, "A scanned line shows in one paint")
        self._run_ticket(self.model.add_line(name, price), "add line", eager=True)

    def remove_last_line(self) -> None:
        if self.ticket is not None and self.ticket.lines and self._can_start():
            self._run_ticket(self.model.remove_last_line(), "remove line")

    def cancel_ticket(self) -> None:
        """Every approved tender voided, cash given back, the ticket closed as cancelled."""
        ticket = self.model.ticket
        if self.session is None or ticket is None or not ticket.is_open or not self._can_start():
            return
        if self.model.arm_cancel():  # money already taken goes back: ask once, naming it
            self._say("partial", lambda: cancel_question(ticket, self.till.currency))
            return
        approval = (ask_manager(self, self.till.ctx, Action.CANCEL_TICKET, ticket.paid)
                    if ticket.money_taken else None)
        if approval is not None and not approval.go:
            self._say("partial", lambda: approval.why)
            return

        async def cancel() -> None:
            cancelled = await self.model.cancel(approval.manager if approval is not None else None)
            self._say("cancelled", lambda: cancelled_words(cancelled, self.till.currency))
            self.model.show(None, prefill=True)
        self._run_ticket(cancel(), "cancel ticket")

    def _run_ticket(self, coro: Coroutine[Any, Any, object], name: str, *, eager: bool = False) -> None:
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
        if not self.on_entry or not self._can_start():
            return False
        if not self.model.fields().ready:
            self.say_in(self.error_label,
                        lambda: tr("Amount: type the amount first (it must be greater than zero)."))
            return False
        return True

    def charge_card(self, purpose: str = "card") -> None:
        if self._check_ready():
            self._tender("giftcard" if purpose == "gift card" else "card")

    def charge_gift_card(self) -> None:
        # A gift card pays like a card: the PIN pad reads it (swipe or scan), the host decides.
        self.charge_card("gift card")

    def charge_qr(self) -> None:
        if not self._check_ready():
            return
        if not self.model.has_open_lines:
            # the quick path: the QR screen shows the code large for the typed amount, as today
            self.qr_requested.emit(self.amount.value, Decimal(0))
            return
        self._tender("qr")

    def pay_cash(self) -> None:
        """F11: the amount typed is what the customer hands over (what remains when pre-filled)."""
        if self._check_ready():
            self._tender("cash")

    def quick_cash(self, handed: Decimal | None) -> None:
        """A quick cash key: "Exact" (None: what remains) or a note amount the customer hands over."""
        if self._check_ready():
            self._tender("cash", handed=handed, chosen=True)

    def _tender(self, kind: str, *, handed: Decimal | None = None, chosen: bool = False) -> None:
        """One tender as the model asks for it; with no line yet, the typed amount becomes the
        ticket's line first (the quick path, run by the core's ``quick_pay``, as the command line
        runs it)."""
        request = self.model.tender_request(kind, handed=handed, chosen=chosen,
                                            name=self.description.text().strip() or tr("Amount"))

        async def run() -> TenderOutcome:
            session = await self.model.session_for([request.tender])
            if request.lines:
                self.description.clear()
            return await self.model.pay(session, request)

        if request.on_pad:
            self._show_waiting(request.shown, kind)
        self.task = self.till.run(run(), f"{kind} tender", done=self._tender_done,
                                  failed=self._tender_failed)
        self._update_totals()

    def _tender_failed(self, exc: BaseException) -> None:
        """A refused tender: said in one line; the amount stays in sight, and the next digit
        starts a new amount rather than adding to the refused one."""
        self.stack.setCurrentWidget(self.entry_page)
        self._failed(exc)
        self.amount.show_refused()

    def _tender_done(self, outcome: TenderOutcome) -> None:
        if outcome.ends and outcome.result is not None:
            self.show_result(outcome.result)
            return
        self.stack.setCurrentWidget(self.entry_page)
        self._prefill_remaining()
        self.select_field(self.amount)
        self._say(outcome.tone, lambda: tender_words(outcome, self.till.currency))
        self.result = outcome.result

    def _say(self, tone: str, words: Callable[[], str]) -> None:
        """A notice under the ticket in ``tone``; said again after a language switch."""
        restyle(self.notice, "tone", tone)
        self.say_in(self.notice, words)
        self.notice.setVisible(bool(self.notice.text()) and not self.error_label.text())

    def _failed(self, exc: BaseException) -> None:
        from cashier.errors import CashierError

        self.stack.setCurrentWidget(self.entry_page)
        self._update_totals()
        if isinstance(exc, CashierError):
            self.say_refusal(self.error_label, exc)
            return
        raise exc

    # ---- waiting on the PIN pad ------------------------------------------------------------
    def _build_waiting(self) -> QWidget:
        w = self.waiting = WaitingStage(self, self.till.currency)
        self.wait_amount, self.wait_title, self.prompt_text = w.amount, w.title, w.prompt
        self.terminal_line, self.cancel_button = w.terminal_line, w.cancel_button
        return w

    def _show_waiting(self, total: Decimal, kind: str) -> None:
        self.waiting.start(total, kind)
        self.clear_of_the_pad(self.waiting_page, 32)
        self.stack.setCurrentWidget(self.waiting_page)
        self.cancel_button.setFocus()

    def _terminal_event(self, event: object) -> None:
        if self.on_waiting:
            self.waiting.pad_event(event)

    def _device_prompt(self, _event: object) -> None:
        if self.on_waiting and not self.till.status.training:
            self.waiting.present_card()

    def _other_event(self, event: object) -> None:
        ticket = self.model.changed_ticket(event)
        if ticket is not None:
            self._show_ticket(ticket)

    def _payment_changed(self, entry: Entry) -> None:
        settled = self.model.settled(entry) if self.on_result else None
        if settled is not None:  # recovery settled the payment on screen: the real outcome
            self.show_result(settled)
            if self.session is not None:
                self.till.run(self.session.settle(), "ticket refresh", done=self._show_ticket)
            return
        from cashier.entry_rules import is_unknown

        if self.on_waiting and is_unknown(entry):
            self.waiting.lost()

    def cancel_payment(self) -> None:
        """Ask the flow to reset the PIN pad; the tender then ends as cancelled (not charged)."""
        if self.task is None or self.task.done() or not self.cancel_button.isEnabled():
            return
        from cashier.flows.pinpad import cancel_prompt

        self.waiting.cancelling()
        self.till.run(cancel_prompt(self.till.ctx), "cancel prompt",
                      failed=lambda exc: self.waiting.not_cancelled(error_words(exc, self.till.currency)))

    # ---- result ----------------------------------------------------------------------------
    def _build_result(self) -> QWidget:
        r = self.result_stage = SaleResult(self)
        self.new_button, self.print_button, self.check_button = r.new_button, r.print_button, r.check_button
        self.show_receipt_button, self.receipt_view = r.show_receipt_button, r.receipt_view
        self.result_title, self.result_amount, self.change_due = r.title, r.amount, r.change_due
        self.result_details, self.result_message = r.details, r.message
        return r

    def show_result(self, result: FlowResult) -> None:
        self.result = result
        ticket = self.ticket if self.ticket is not None and self.ticket.is_paid else None
        self.result_stage.show_result(result, ticket, self.model.result_style(result))
        self.clear_of_the_pad(self.result_page, 32)
        self.stack.setCurrentWidget(self.result_page)
        self.new_button.setFocus()
        self.result_shown.emit(result)

    def last_outcome(self) -> str | None:
        return None if self.result is None else str(self.result.outcome)

    def new_sale(self) -> None:
        """The next customer: a paid ticket is left behind; an open one stays on screen."""
        if self.task is not None and not self.task.done():
            return
        if self.model.leave_closed():
            self.model.show(None)
        self.amount.clear()
        self.tip.clear()
        self.description.clear()
        self.set_tip_mode(self.till.profile.tip_mode)
        self.result = None
        self._say("", lambda: "")
        self.stack.setCurrentWidget(self.entry_page)
        self._prefill_remaining()
        self.select_field(self.amount)

    def _resume_open_ticket(self) -> None:
        """After start-up recovery: the latest ticket a crash left open comes back on screen."""
        if self._resumed or (self._resuming is not None and not self._resuming.done()):
            return

        def show(session: TicketSession | None) -> None:
            self._resumed = True
            ticket = None if session is None else session.ticket
            if session is None or ticket is None or self.session is not None:
                return
            self.model.session = session
            self.model.show(ticket, prefill=True)
            self._say("partial", lambda: left_open_words(ticket, self.till.currency))
        self._resuming = self.till.run(self.model.resume(), "resume ticket", done=show)

    def receipt(self) -> list[str]:
        p = self.till.profile
        if self.ticket is not None and self.ticket.is_paid:  # training: marked by the layout
            return ticket_receipt_lines(self.ticket, p.company_name, p.till_id)
        return receipt_lines(self.result.entry, p.company_name, p.till_id) if self.result else []

    def show_receipt(self) -> None:
        if self.result is not None:
            self.result_stage.show_receipt(self.receipt())

    def print_receipt(self) -> None:
        if self.result is not None:
            self.print_on_pad(self.receipt(), lambda: tr("Show the receipt on screen instead."))

    # ---- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        super().retranslate()
        self.entry_stage.retranslate()
        self._update_totals()

    def entered(self) -> None:
        if self.on_entry:
            self.select_field(self.active)
        if self.till.ready and not self._resumed and self.till.status.started:
            self._resume_open_ticket()
