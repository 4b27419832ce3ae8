"""The Sale screen's wait on the PIN pad and its result, on the payment screens' shared stages
(``ui.pages.staged``): what each shows, worded through the page's ``say_in`` so a language
switch words it again."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtWidgets import QFrame, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout

from ui import a11y
from ui.i18n import format_money, tr
from ui.keys import EMAIL
from ui.pages.base import Sayable, hint, restyle
from ui.pages.sale.words import closed_words, result_words, terminal_state_name
from ui.pages.staged import ResultStage, wait_labels

if TYPE_CHECKING:
    from cashier.flows.base import FlowResult
    from cashier.flows.ticket import Ticket

Say = Callable[[Sayable, Callable[[], str]], None]


class SalePage(Protocol):
    """What the stages ask of the Sale page (the page builds them: no import back up)."""

    def button(self, text: Callable[[], str], keys: str, slot: Callable[[], object],
               object_name: str = "", stacked: bool = False) -> QPushButton: ...
    def say_in(self, widget: Sayable, words: Callable[[], str]) -> None: ...
    def cancel_payment(self) -> None: ...
    def new_sale(self) -> None: ...
    def print_receipt(self) -> None: ...
    def show_receipt(self) -> None: ...
    def email_receipt(self) -> None: ...
    def check_now(self) -> None: ...


class WaitingStage(QFrame):
    """The amount on the PIN pad, what the customer sees, the pad's state and Cancel (Esc)."""

    def __init__(self, page: SalePage, currency: str) -> None:
        super().__init__()
        self.setObjectName("StatusPanel")
        self.say, self.currency = page.say_in, currency
        self.cancel_button = page.button(lambda: tr("Cancel payment") + "  [Esc]", "", page.cancel_payment,
                                         "Danger")
        col = QVBoxLayout(self)
        col.setContentsMargins(32, 32, 32, 32)
        col.setSpacing(16)
        self.amount, self.title, self.prompt = wait_labels()
        self.title.setWordWrap(False)
        self.terminal_line = hint()
        for label in (self.title, self.prompt):
            a11y.live(label)  # what the customer is asked, said as the pad asks it
        for w in (self.amount, self.title, self.prompt, self.terminal_line):
            col.addWidget(w)
        # Esc is the screen's own key: a window-wide Esc shortcut would swallow the entry's Esc.
        # The button sits right under the prompt: the stack is as tall as the ticket page, so at
        # the bottom it fell below the fold at 1024x768 while the customer stood at the pad.
        col.addWidget(self.cancel_button)
        col.addStretch(1)

    def show_amount(self, amount: Decimal) -> None:
        self.amount.setText(format_money(amount, self.currency))

    def start(self, amount: Decimal, kind: str) -> None:
        """A tender of ``kind`` for ``amount`` goes to the PIN pad (a QR code: the pad shows it)."""
        self.show_amount(amount)
        self.say(self.title, lambda: {"giftcard": tr("Paying by gift card"),
                                      "qr": tr("Paying by QR code")}.get(kind, tr("Paying by card")))
        self.say(self.prompt, lambda: tr("The customer scans the code on the PIN pad.")
                 if kind == "qr" else tr("Sending to the PIN pad…"))
        self.terminal_line.setText("")
        self.cancel_button.setEnabled(kind != "qr")

    def pad_event(self, event: Any) -> None:  # cashier.sandbox.terminals.TerminalEvent
        """The training PIN pad's prompt and state, as the customer sees them."""
        from ui.pinpad import describe_prompt

        prompt = event.prompt
        if prompt is not None:
            def sees() -> str:
                return tr("Customer sees:") + " " + describe_prompt(prompt)
            if sees() != self.prompt.text():  # the pad says its prompt again: said once
                self.say(self.prompt, sees)
            amount = getattr(prompt, "amount", None)
            if prompt.kind == "card" and isinstance(amount, Decimal) and amount:  # the pad shows one
                # the pad's amount (with the tip the customer chose) is the one on screen too
                self.show_amount(amount)
        self.say(self.terminal_line, lambda: tr("PIN pad:") + " " + terminal_state_name(event.state))

    def present_card(self) -> None:
        self.say(self.prompt, lambda: tr("Customer sees:") + " " + tr("Present card"))

    def lost(self) -> None:
        """The answer was lost: the host is asked; no cancelling now."""
        self.say(self.title, lambda: tr("Checking with the host…"))
        self.say(self.prompt, lambda: tr("The answer was lost. The till is asking the host "
                                         "what happened; do not charge again."))
        self.cancel_button.setEnabled(False)

    def cancelling(self) -> None:
        self.cancel_button.setEnabled(False)
        self.say(self.prompt, lambda: tr("Cancelling on the PIN pad…"))

    def not_cancelled(self, why: str) -> None:
        self.cancel_button.setEnabled(True)
        self.say(self.terminal_line, lambda: tr("Could not cancel:") + " " + why)


class SaleResult(ResultStage):
    """The result with the change due (large) under the title and the receipt on demand."""

    def __init__(self, page: SalePage) -> None:
        super().__init__()
        self.say = page.say_in
        # Return is the screen's own key: a window-wide Return shortcut would swallow the entry's
        # Return (the quick path); the key under the words: at 1024 wide the PIN pad lies over
        # the result's right side, and two Spanish buttons side by side scrolled sideways
        self.new_button = page.button(lambda: tr("New sale") + "\n[Return]", "", page.new_sale, "Primary",
                                      stacked=True)
        self.print_button = page.button(lambda: tr("Print receipt"), "F8", page.print_receipt, stacked=True)
        self.show_receipt_button = page.button(lambda: tr("Show receipt"), "F9", page.show_receipt,
                                               stacked=True)
        self.check_button = page.button(lambda: tr("Check now"), "F10", page.check_now, stacked=True)
        self.email_button = page.button(lambda: tr("E-mail receipt"), EMAIL, page.email_receipt,
                                        stacked=True)
        self.change_due = QLabel()
        self.change_due.setObjectName("ChangeDue")
        self.change_due.setVisible(False)
        # wrapped: at 1024 wide the PIN pad lies over the result's right side, and a long tender
        # line (a ticket's tenders, cash given, taken and change) made the screen scroll sideways
        for label in (self.change_due, self.details):
            label.setWordWrap(True)
        self.column.insertWidget(1, self.change_due)
        self.receipt_view = QPlainTextEdit()
        self.receipt_view.setObjectName("ReceiptView")
        self.receipt_view.setReadOnly(True)
        self.receipt_view.setVisible(False)
        self.column.addWidget(self.receipt_view, 1)
        self.add_buttons((self.new_button, self.print_button, self.show_receipt_button,
                          self.email_button, self.check_button))

    def show_result(self, result: FlowResult | None, ticket: Ticket | None, style: str) -> None:
        """``ticket``: the paid ticket the result closed, else None; ``style``: its colour.
        ``result`` None: ``ticket`` closed with no tender (a comp: nothing to pay)."""
        from cashier.entry_rules import is_checking, shown_amount, took_money

        if result is None:
            assert ticket is not None
            closed = ticket

            def words() -> tuple[str, str, str]:
                return closed_words(closed)
            cur, shown, approved, checking = ticket.currency, ticket.total, True, False
        else:
            def words() -> tuple[str, str, str]:
                return result_words(result, ticket)
            entry, outcome = result.entry, result.outcome
            cur = entry.currency
            shown = ticket.total if ticket is not None else shown_amount(entry)
            approved, checking = took_money(outcome), is_checking(outcome)
        self.say(self.title, lambda: words()[0])
        restyle(self, "outcome", style)
        self.amount.setText(format_money(shown, cur))
        self.change_due.setVisible(ticket is not None and ticket.gives_change)
        change = ticket.change if ticket is not None else Decimal(0)
        self.say(self.change_due, lambda: tr("Change due: {change}").format(change=format_money(change, cur)))
        self.say(self.details, lambda: words()[1])
        self.say(self.message, lambda: words()[2])
        self.print_button.setEnabled(approved)
        self.show_receipt_button.setEnabled(approved)
        self.email_button.setEnabled(approved)
        self.check_button.setVisible(checking)
        self.check_button.setEnabled(True)
        self.receipt_view.setVisible(False)

    def show_receipt(self, lines: list[str]) -> None:
        self.receipt_view.setPlainText("\n".join(lines))
        self.receipt_view.setVisible(True)
