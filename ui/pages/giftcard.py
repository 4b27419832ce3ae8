"""Gift card: balance (with history), activate, reload, deactivate, reactivate, cash-out, and
cancel the last request. The number is typed or scanned (a scanner types like a keyboard and
ends with Enter); after Enter only the masked number stays on screen. Empty number: the PIN pad
reads the card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QVBoxLayout,
)

from cashier.errors import CashierError, ValidationError
from cashier.redact import mask_pan
from ui import a11y
from ui.i18n import format_money, tr
from ui.keys import GIVE_BACK
from ui.pages.base import Page, hint
from ui.receipt import kind_name, reason_text, state_name
from ui.widgets.amount import AmountPanel

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.till import Till


class GiftCardPage(Page):
    nav_key = "Ctrl+3"

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.number: str | None = None  # in memory only, for the next request
        self.last_invoice: str | None = None
        self.last_what = ""  # the last request's kind and amount, named when F12 asks
        self.last_amount = ""
        self._cancel_armed: str | None = None
        self._history: list[Any] = []  # the last balance's history lines (worded again on a switch)
        row = QHBoxLayout()
        left = QVBoxLayout()
        self.card_label = QLabel()
        self.card_label.setWordWrap(True)
        self.card_field = QLineEdit()
        self.card_field.setMaxLength(19)
        self.card_field.returnPressed.connect(self.take_number)
        self.card_label.setBuddy(self.card_field)  # the label names the field for a screen reader
        self.card_shown = QLabel()
        self.card_shown.setObjectName("Breakdown")
        left.addWidget(self.card_label)
        left.addWidget(self.card_field)
        left.addWidget(self.card_shown)
        self.amount_panel = AmountPanel(till.currency, caption=True)
        self.amount_label = self.amount_panel.caption
        self.amount, self.keypad = self.amount_panel.display, self.amount_panel.keypad
        grid = QGridLayout()
        self.balance_button = self.button(lambda: tr("Balance"), "F2", lambda: self.act("balance"), "Primary")
        self.activate_button = self.button(lambda: tr("Activate"), "F3", lambda: self.act("activate"))
        self.reload_button = self.button(lambda: tr("Reload"), "F4", lambda: self.act("reload"))
        self.deactivate_button = self.button(lambda: tr("Deactivate"), "F6", lambda: self.act("deactivate"))
        self.reactivate_button = self.button(lambda: tr("Reactivate"), "F7", lambda: self.act("reactivate"))
        self.cashback_button = self.button(lambda: tr("Cash out"), "F5", lambda: self.act("cashback"))
        self.cancel_button = self.button(lambda: tr("Cancel last request"), GIVE_BACK, self.cancel_last,
                                         "Danger", stacked=True)  # the key under: fits in Spanish
        buttons = [self.balance_button, self.activate_button, self.reload_button, self.deactivate_button,
                   self.reactivate_button, self.cashback_button]
        for i, b in enumerate(buttons):  # two a row: three did not fit 1024x768 in Spanish
            grid.addWidget(b, i // 2, i % 2)
        grid.addWidget(self.cancel_button, 3, 0, 1, 2)
        left.addLayout(grid)
        self.result_title = QLabel()
        self.result_title.setObjectName("ResultTitle")
        self.result_text = hint()
        for label in (self.result_title, self.result_text):
            a11y.live(label)  # what the host answered: approved, balance, not done
        left.addWidget(self.result_title)
        left.addWidget(self.result_text)
        self.history = QListWidget()
        self.history.setMaximumHeight(160)
        left.addWidget(self.history)
        left.addStretch(1)
        row.addLayout(left, 3)
        right = QVBoxLayout()  # the amount and its keys: the same panel as on every money screen
        right.addWidget(self.amount_panel)
        right.addStretch(1)
        row.addLayout(right, 2)
        self.layout_.addLayout(row, 1)
        self.retranslate()

    @classmethod
    def title(cls) -> str:
        return tr("Gift card")

    def retranslate(self) -> None:
        super().retranslate()
        self.card_label.setText(
            tr("Gift card number: type or scan, then Enter (empty: the PIN pad reads it)"))
        self.amount_label.setText(tr("Amount (activate, reload)"))
        a11y.name_view(self.history, tr("Gift card history"),
                       tr("One row per movement on the card: when, what and how much."))
        self._fill_history()
        self.amount_panel.retranslate()
        self._show_card()

    def _fill_history(self) -> None:
        """The card's movements, each in the window's words (the host names them in English)."""
        cur = self.till.currency
        self.history.clear()
        for line in self._history:
            what = history_words().get(line.type, line.type)
            self.history.addItem(f"{line.date_time or ''}  {what}  {format_money(line.amount, cur)}")

    def entered(self) -> None:
        self.card_field.setFocus()

    def take_number(self) -> None:
        """Keep the typed or scanned number in memory only; show it masked."""
        from cashier.flows.giftcards import GiftCard

        text = self.card_field.text().strip()
        # setText, not clear(): clear() is an edit Ctrl+Z could undo, bringing the number back
        self.card_field.setText("")
        if not text:
            self.number = None
        else:
            try:
                GiftCard(number=text)
            except ValidationError as exc:
                self.say_in(self.result_title, lambda: tr("Not sent"))
                self.say_refusal(self.result_text, exc)
                return
            self.number = text
        self._show_card()
        self.amount.setFocus()

    def _show_card(self) -> None:
        self.card_shown.setText(tr("Card:") + " " + (mask_pan(self.number) if self.number
                                                     else tr("read on the PIN pad")))

    def _card(self) -> Any:
        from cashier.flows.giftcards import GiftCard

        return GiftCard(number=self.number) if self.number else GiftCard()

    def act(self, op: str) -> None:
        if not self.till.ready:
            return
        if self.card_field.text().strip():
            self.take_number()
        from cashier.flows import giftcards

        ctx = self.till.ctx
        try:
            card = self._card()
            if op == "balance":
                coro: Any = giftcards.balance(ctx, card, history=True)
            elif op == "activate":
                coro = giftcards.activate(ctx, card, self.amount.value if self.amount.entered else None)
            elif op == "reload":
                coro = giftcards.reload(ctx, card, self.amount.value)
            elif op == "deactivate":
                coro = giftcards.deactivate(ctx, card)
            elif op == "reactivate":
                coro = giftcards.reactivate(ctx, card)
            else:
                coro = giftcards.cashback(ctx, card)
        except Exception as exc:
            self._failed(exc)
            return
        self.say_in(self.result_title, lambda: tr("Working…"))
        self.result_text.clear()
        self._history = []
        self._fill_history()
        self.till.run(coro, f"gift card {op}", done=self._done, failed=self._failed)

    def _done(self, outcome: Any) -> None:
        from cashier.flows.giftcards import Balance

        cur = self.till.currency
        if isinstance(outcome, Balance):
            # one masking on the screen: the number typed, masked as the card line above shows it;
            # the host's own masked form only for a card read on the pad
            card = mask_pan(self.number) if self.number else (outcome.card or "-")
            self.say_in(self.result_title, lambda: tr("Balance") + ": " + (
                format_money(outcome.balance, cur) if outcome.balance is not None else "—"))
            self.say_in(self.result_text, lambda: self._balance_words(outcome, card))
            self._history = list(outcome.history or ())
            self._fill_history()
            return
        entry = outcome.entry
        self.last_invoice = entry.invoice
        self._cancel_armed = None
        self.last_what = kind_name(str(entry.kind))
        self.last_amount = format_money(entry.approved or entry.requested, entry.currency)
        self.say_in(self.result_title,
                    lambda: f"{kind_name(str(entry.kind))}: {state_name(str(entry.state))}")

        def words() -> str:
            parts = [f"{tr('Invoice')}: {entry.invoice}"]
            if outcome.balance is not None:
                parts.append(f"{tr('Balance')}: {format_money(outcome.balance, cur)}")
            from cashier.entry_rules import reason  # loaded with the runtime (test_startup_imports)

            said = reason_text(reason(entry), entry.currency)
            if said:
                parts.append(said)
            return "  ".join(parts)
        self.say_in(self.result_text, words)
        self.amount.clear()

    @staticmethod
    def _balance_words(balance: Any, card: str) -> str:
        """The balance's card line: the card, its state (and why), what to do when inactive."""
        state = {"active": tr("active"), "deactivated": tr("deactivated"),
                 "not activated": tr("not activated")}.get(balance.state, balance.state)
        why = f" ({balance.deactivation_reason})" if balance.deactivation_reason else ""
        then = (" — " + tr("This gift card is not active: activate it first (F3).")
                if balance.state == "not activated" else "")
        return f"{tr('Card')}: {card}  {state}{why}{then}"

    def _failed(self, exc: BaseException) -> None:
        if not isinstance(exc, CashierError):
            raise exc
        self.say_in(self.result_title, lambda: tr("Not done"))
        self.say_refusal(self.result_text, exc)

    def cancel_last(self) -> None:
        """Undo this till's last gift card request (the flow checks it is the card's last)."""
        if not self.till.ready or not self.last_invoice:
            self.say_in(self.result_text,
                        lambda: tr("No gift card request to cancel in this session."))
            return
        if self._cancel_armed != self.last_invoice:
            self._cancel_armed = self.last_invoice
            self.say_in(self.result_text, lambda:
                tr("Cancel %s of invoice %s (%s)? It cannot be undone. Press %s again to confirm.")
                % (self.last_what, self.last_invoice, self.last_amount, GIVE_BACK))
            return
        self._cancel_armed = None
        from cashier.flows import giftcards

        self.till.run(giftcards.cancel(self.till.ctx, self.last_invoice), "gift card cancel",
                      done=self._done, failed=self._failed)


def history_words() -> dict[str, str]:
    """A gift card history's movement types (the host's words) in the window's language."""
    return {"Activate": tr("Activate"), "Reload": tr("Reload"), "Deactivate": tr("Deactivate"),
            "Reactivate": tr("Reactivate"), "Cashback": tr("Cash out"), "Sale": tr("Sale"),
            "Allocate": tr("Spent"), "Cancel": tr("Cancelled")}
