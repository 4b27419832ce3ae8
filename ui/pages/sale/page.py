"""The Sale screen is the ticket: lines on the left, the total and what remains large, the
tenders (Card, Gift card, QR, Cash), change due after cash; live PIN pad status; the result.

Keyboard: digits build cents (1 2 5 0 -> 12.50); letters name the next line; + or Insert adds the
line; a barcode scanned (digits then Return) adds the profile's product. Return (or F2) charges
the card; Esc clears what was typed (or cancels a payment waiting on the PIN pad). F3 gift card,
F4 QR, F11 cash, F7 keyed tip, Delete removes the last line, F12 cancels the ticket (asking
first when money was taken); * makes the number typed the next line's quantity, F1 parks the
ticket and Shift+F1 lists the parked ones to recall. Ctrl+D a discount on the last line, Alt+D on
the ticket, Ctrl+P a price over the last line's (issue #38: the manager's prompt when the core's
rule wants).
The quick path stays: type an amount, press Return, the card is charged.

What is typed, scanned, pre-filled and armed, which amount a tender takes and what the screen
shows are the core's ``SaleEntry`` (``cashier.flows.sale_entry``); the widgets and how they draw
it are ``view.SaleView``; this page hands the model its keys and runs what the cashier asks.
"""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent

from cashier.clerks import Action
from cashier.flows.sale_entry import Act, Key
from ui.core_words import error_words
from ui.i18n import tr
from ui.manager_prompt import ask_manager
from ui.pages.sale.entry_stage import key_of
from ui.pages.sale.ticket_keys import TicketKeys
from ui.pages.sale.words import cancel_question, cancelled_words, left_open_words, tender_words
from ui.receipt import receipt_lines, ticket_receipt_lines

if TYPE_CHECKING:
    from cashier.flows.catalog_grid import Pick
    from cashier.flows.ticket import TicketResult, TicketSession
    from ui.gui import Gui
    from ui.till import Till


class SalePage(TicketKeys):

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self._resumed = False  # the tickets a crash left open were looked for
        self._resuming: asyncio.Task[Any] | None = None
        self.stages(self._build_entry(self), self._build_waiting(self), self._build_result(self))
        self._tip_mode_changed()
        self.select_field(self.amount)
        till.bridge.terminal_event.connect(self._terminal_event)
        till.bridge.device_prompt.connect(self._device_prompt)
        till.bridge.payment_changed.connect(self._payment_changed)
        till.bridge.other_event.connect(self._other_event)
        till.recovery_finished.connect(lambda _report: self._resume_open_ticket())
        self.retranslate()
        # the first screen shows without being entered from the navigation: the Cash key looks
        # as the drawer is once the till has started (it looked ready with the drawer closed);
        # not at build, whose first paint stays free of the journal
        till.started.connect(self.drawer_changed)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.KeyPress and watched in (self.amount, self.tip)
                and self.on_entry and isinstance(event, QKeyEvent) and self.entry_key(event)):
            event.accept()
            return True
        return super().eventFilter(watched, event)

    def take_key(self, event: QKeyEvent) -> bool:
        """A key that reached the window unfocused: the entry takes the keyboard and the key."""
        if not self.on_entry:
            return False
        self.select_field(self.active)
        return self.entry_key(event)

    def entry_key(self, event: QKeyEvent) -> bool:
        """Keys typed on the entry: the model says what each does (and edits the amount), in one
        trip; the widgets draw it."""
        key = key_of(event)
        pressed = self.model.press(key, event.text(), on_tip=self.active is self.tip,
                                   named=bool(self.description.text()), start_over=self.active.start_over)
        act = pressed.act
        if act is Act.ADD_LINE:
            self.add_line()
        elif act is Act.QUANTITY:
            self._quantity_set(pressed.taken)
        elif act is Act.SCAN and self.model.product is not None:
            self.amount.settle()
            self._run_ticket(self.model.add_scanned(), "add product", eager=True)
        elif act in (Act.PICK, Act.GRID, Act.NO_MATCH):
            self.grid_key(act)
        elif act is Act.NAME_BACK:
            self.description.backspace()
        elif act is Act.NAME_TYPE:
            self.description.insert(event.text())  # letters name the next line
        elif act is Act.NONE:
            return False
        else:
            if act is Act.NAME_CLEAR:
                self.description.clear()
            if key is Key.RETURN:
                self.active.submitted.emit()
                return True
            if pressed.taken:
                self.entry_stage.show_fields(pressed.fields, self._busy(), self.on_entry)
                self.error_label.clear()
                self.amount.redraw()  # the tip moves a pre-filled amount with it
            self.active.redraw(pressed.taken)
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
        # (docs/decisions/009-the-ticket.md, "A scanned line shows in one paint")
        self._run_ticket(self.model.add_line(name, price), "add line", eager=True)

    def grid_key(self, act: Act) -> None:
        """A key the product grid took: redrawn, and its product added (or none named, said)."""
        self.product_grid.redraw()
        pick = self.model.take_pick()
        if act is Act.NO_MATCH:
            self.say_in(self.error_label, lambda: tr("No product's name holds what was typed: type "
                                                     "its price and press + to add it as a line."))
        elif pick is not None:
            self.add_pick(pick)

    def add_pick(self, pick: Pick) -> None:
        """The grid's product (and its modifiers) as a new line; the letters that found it go."""
        if not self._can_start():
            return
        self.description.clear()
        self.amount.settle()
        self._run_ticket(self.model.add_product(pick), "add product", eager=True)

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

        async def run() -> TicketResult:
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

    def _tender_done(self, outcome: TicketResult) -> None:
        if outcome.ends:  # paid (a comp: no tender, no result), or being checked
            self.show_result(outcome.result)
            self._offer_email(outcome.result)
            return
        self.stack.setCurrentWidget(self.entry_page)
        self._prefill_remaining()
        self.select_field(self.amount)
        self._say(outcome.tone, lambda: tender_words(outcome, self.till.currency))
        self.result = outcome.result

    def _offer_email(self, result: Any) -> None:
        """``[email] offer_on_pad``: after a card payment the PIN pad offers the customer to type
        an address (the core decides: ``cashier.mail.pad.offers_after``)."""
        from cashier.mail.pad import offers_after

        if result is not None and offers_after(self.till.profile, result):
            self.email_receipt(pad_first=True)

    # ---- the wait, the result, the next customer -------------------------------------------
    def cancel_payment(self) -> None:
        """Ask the flow to reset the PIN pad; the tender then ends as cancelled (not charged)."""
        if self.task is None or self.task.done() or not self.cancel_button.isEnabled():
            return
        from cashier.flows.pinpad import cancel_prompt

        self.waiting.cancelling()
        self.till.run(cancel_prompt(self.till.ctx), "cancel prompt",
                      failed=lambda exc: self.waiting.not_cancelled(error_words(exc, self.till.currency)))

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
        if self.has_receipt():
            self.result_stage.show_receipt(self.receipt())

    def email_receipt(self, *, pad_first: bool = False) -> None:
        """The result's receipt by e-mail: the paid ticket's, else the payment's own."""
        from ui.email_prompt import email_receipt

        if not self.has_receipt():
            return
        ticket = self.ticket if self.ticket is not None and self.ticket.is_paid else None
        email_receipt(self.gui, self, entry_id=None if self.result is None else self.result.entry.id,
                      ticket_id=None if ticket is None else ticket.id, pad_first=pad_first,
                      said=lambda text: self._say("", lambda: text))

    def print_receipt(self) -> None:
        if self.has_receipt():
            self.print_on_pad(self.receipt(), lambda: tr("Show the receipt on screen instead."))

    def entered(self) -> None:
        self.drawer_changed()
        self.follow_catalog()
        if self.on_entry:
            self.select_field(self.active)
        if self.till.ready and not self._resumed and self.till.status.started:
            self._resume_open_ticket()
