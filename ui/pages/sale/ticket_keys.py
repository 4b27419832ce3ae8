"""The Sale screen's keys that change the ticket on the counter without paying it: the quantity
key (*), parking and recalling a ticket (F1, Shift+F1; issue #39), a discount or a price typed
over a line's (Ctrl+D, Alt+D, Ctrl+P; issue #38). The core decides each (``SaleEntry``, the
ticket's rules); the window asks (the manager's prompt where the core's rule wants one) and says
what happened. ``SalePage`` builds on it."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QDialog, QInputDialog

from cashier.clerks import Action
from cashier.errors import ValidationError
from cashier.flows.sale_entry import Key
from ui.core_words import error_words
from ui.i18n import tr
from ui.manager_prompt import ask_manager
from ui.pages.sale.view import SaleView

if TYPE_CHECKING:
    from cashier.flows.ticket import Ticket


class TicketKeys(SaleView):
    #: the parked tickets' list, while it is open
    parked_dialog: QDialog | None = None

    # ---- the quantity key, parked tickets (issue #39) -----------------------------------------
    def times(self) -> None:
        """*: the number typed is how many of the next line (the model's rule)."""
        if self.on_entry and self.active is self.amount:
            self._quantity_set(self.model.press(Key.TIMES).taken)

    def _quantity_set(self, taken: bool) -> None:
        self.amount.settle()
        self._update_totals()
        if not taken:
            self.say_in(self.error_label, lambda: tr("Quantity: type how many (1 to 999), then *, "
                                                     "then the price."))

    def park_ticket(self) -> None:
        """F1: the ticket on the counter set aside (journaled); the next customer's starts empty."""
        ticket = self.model.ticket
        if ticket is None or not self.on_entry or not self._can_start():
            return
        number = ticket.id

        async def park() -> None:
            await self.model.park()
            self.description.clear()
            self._say("paid-part", lambda: tr("Ticket {ticket} parked: Shift+F1 recalls it.").format(
                ticket=number))
        self._run_ticket(park(), "park ticket")

    def show_parked(self) -> None:
        """Shift+F1: the parked tickets in a list; the one chosen comes back on the counter."""
        if not self.on_entry or not self._can_start():
            return
        from ui.pages.sale.parked import ParkedDialog

        def choose(tickets: list[Ticket]) -> None:
            self.parked_dialog = ParkedDialog(tickets, self.till.currency, self)
            self.parked_dialog.chosen.connect(self.recall_ticket)
            self.parked_dialog.open()
        self.till.run(self.model.parked(), "parked tickets", done=choose, failed=self._failed)

    def recall_ticket(self, ticket_id: int) -> None:
        """A parked ticket back on the counter (refused while another ticket with lines is on it)."""
        if not self._can_start():
            return

        async def recall() -> None:
            ticket = await self.model.recall(ticket_id)
            self.stack.setCurrentWidget(self.entry_page)
            self.select_field(self.amount)
            self._say("partial", lambda: tr("Ticket {ticket} recalled.").format(ticket=ticket.id))
        self._run_ticket(recall(), "recall ticket")

    # ---- discounts and price overrides (issue #38): the core decides, the window asks ----------
    def discount_line(self) -> None:
        self._discount(on_line=True)

    def discount_ticket(self) -> None:
        self._discount(on_line=False)

    def _ask(self, title: str, label: str) -> str | None:
        text, ok = QInputDialog.getText(self, title, label)
        return text.strip() if ok and text.strip() else None

    def _reason(self, title: str) -> str | None:
        reasons = list(self.model.reasons())
        reason, ok = QInputDialog.getItem(self, title, tr("Reason:"), reasons, 0, False)
        return reason if ok and reason else None

    def _discount(self, *, on_line: bool) -> None:
        if not self.model.can_discount() or not self._can_start():
            return
        title = tr("Discount on the last line") if on_line else tr("Discount on the ticket")
        text = self._ask(title, tr("Percent (10%) or amount (2.00):"))
        reason = self._reason(title) if text is not None else None
        if text is None or reason is None:
            return
        try:
            action, amount = self.model.discount_approval(text, on_line=on_line)
        except ValidationError as exc:
            refused = exc
            self.say_in(self.error_label, lambda: error_words(refused))
            return
        approval = ask_manager(self, self.till.ctx, action, amount)
        if not approval.go:
            self._say("partial", lambda: approval.why)
            return
        self._run_ticket(self.model.add_discount(text, reason, on_line=on_line,
                                                 manager=approval.manager), "discount")

    def override_price(self) -> None:
        """A price typed over the last line's catalog price: a reason, and always a manager."""
        if not self.model.can_discount() or not self._can_start():
            return
        try:
            self.model.check_price_override()
        except ValidationError as exc:
            refused = exc
            self.say_in(self.error_label, lambda: error_words(refused))
            return
        title = tr("Price of the last line")
        price = self._ask(title, tr("New price (2.50):"))
        reason = self._reason(title) if price is not None else None
        if price is None or reason is None:
            return
        approval = ask_manager(self, self.till.ctx, Action.PRICE_OVERRIDE)
        if not approval.go:
            self._say("partial", lambda: approval.why)
            return
        self._run_ticket(self.model.override_last_price(price, reason, approval.manager), "price")

    def _run_ticket(self, coro: Coroutine[Any, Any, object], name: str, *, eager: bool = False) -> None:
        self.task = self.till.run(coro, name, done=lambda _r: self._update_totals(), failed=self._failed,
                                  eager=eager)
        self._update_totals()

    def _can_start(self) -> bool:
        if not self.till.ready:
            self.say_in(self.error_label, lambda: tr("The till is still starting; try again in a moment."))
            return False
        return not self._busy()
