"""The Sale screen: the amount first, then a tender; live PIN pad status; the result.

Keyboard: digits build cents (1 2 5 0 -> 12.50), Backspace, Esc clears (or cancels a payment
waiting on the PIN pad), Enter charges the card. F2 card, F3 gift card, F4 QR; F6/F7 move the
keypad to the tax or tip line and F5 back to the amount.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QRadioButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ui.i18n import format_money, tr
from ui.pages.base import Page, hint
from ui.receipt import receipt_lines, state_name
from ui.widgets.amount import AmountDisplay, Keypad, handle_amount_key

if TYPE_CHECKING:
    from ui.app import Gui
    from ui.till import Till

#: How the tip is taken: none, the customer on the PIN pad, or keyed by the cashier.
TIP_NONE, TIP_PAD, TIP_KEYED = "none", "pad", "keyed"


class SalePage(Page):
    nav_key = "Ctrl+1"
    qr_requested = Signal(object, object)  # amount, tax
    result_shown = Signal(object)  # FlowResult

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.result: Any = None
        self.task: Any = None
        self.stack = QStackedWidget()
        self.layout_.addWidget(self.stack, 1)
        self._build_entry()
        self._build_waiting()
        self._build_result()
        till.bridge.terminal_event.connect(self._terminal_event)
        till.bridge.device_prompt.connect(self._device_prompt)
        till.bridge.payment_changed.connect(self._payment_changed)
        self.retranslate()

    def title(self) -> str:
        return tr("Sale")

    # ---- entry -----------------------------------------------------------------------------
    def _build_entry(self) -> None:
        page = QWidget()
        row = QHBoxLayout(page)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(24)
        left = QVBoxLayout()
        cur = self.till.currency
        self.amount = AmountDisplay(cur)
        self.tax = AmountDisplay(cur)
        self.tip = AmountDisplay(cur)
        for small in (self.tax, self.tip):
            small.setObjectName("SmallAmount")
            small.setMinimumHeight(52)
        self.active = self.amount
        left.addWidget(self.amount)
        lines = QGridLayout()
        self.tax_label = QLabel()
        self.tip_label = QLabel()
        self.total_label = QLabel()
        self.total_value = QLabel()
        for w in (self.tax_label, self.tip_label):
            w.setObjectName("Breakdown")
        self.total_label.setObjectName("TotalLine")
        self.total_value.setObjectName("TotalLine")
        self.total_value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        lines.addWidget(self.tax_label, 0, 0)
        lines.addWidget(self.tax, 0, 1)
        lines.addWidget(self.tip_label, 1, 0)
        lines.addWidget(self.tip, 1, 1)
        lines.addWidget(self.total_label, 2, 0)
        lines.addWidget(self.total_value, 2, 1)
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
        self.tip_buttons[TIP_NONE].setChecked(True)
        self.tip_group.buttonToggled.connect(lambda *_: self._tip_mode_changed())
        left.addLayout(tips)
        self.error_label = QLabel()
        self.error_label.setObjectName("Hint")
        self.error_label.setStyleSheet("color: #b71c1c; font-weight: 600;")
        self.error_label.setWordWrap(True)
        left.addWidget(self.error_label)
        tenders = QHBoxLayout()
        self.card_button = self.button(lambda: tr("Card"), "F2", self.charge_card, "Tender", stacked=True)
        self.gift_button = self.button(lambda: tr("Gift card"), "F3", self.charge_gift_card, "Tender",
                                       stacked=True)
        self.qr_button = self.button(lambda: tr("QR"), "F4", self.charge_qr, "Tender", stacked=True)
        for b in (self.card_button, self.gift_button, self.qr_button):
            b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            tenders.addWidget(b)
        left.addLayout(tenders)
        self.ready_hint = hint()
        left.addWidget(self.ready_hint)
        left.addStretch(1)
        row.addLayout(left, 3)
        right = QVBoxLayout()
        self.keypad = Keypad(self.amount)
        fields = QHBoxLayout()
        self.amount_field = self.button(lambda: tr("Amount"), "F5", lambda: self.select_field(self.amount),
                                        stacked=True)
        self.tax_field = self.button(lambda: tr("Tax"), "F6", lambda: self.select_field(self.tax),
                                     stacked=True)
        self.tip_field = self.button(lambda: tr("Tip"), "F7", lambda: self.select_field(self.tip),
                                     stacked=True)
        for b in (self.amount_field, self.tax_field, self.tip_field):
            b.setCheckable(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            fields.addWidget(b)
        right.addLayout(fields)
        right.addWidget(self.keypad)
        right.addStretch(1)
        row.addLayout(right, 2)
        for display in (self.amount, self.tax, self.tip):
            display.changed.connect(lambda _v: self._update_totals())
            display.submitted.connect(self.charge_card)
        self.stack.addWidget(page)
        self.entry_page = page
        self.setTabOrder(self.amount, self.card_button)
        self.setTabOrder(self.card_button, self.gift_button)
        self.setTabOrder(self.gift_button, self.qr_button)
        self._tip_mode_changed()
        self.select_field(self.amount)

    def select_field(self, display: AmountDisplay) -> None:
        if display is self.tip and not self.tip.isEnabled():
            return
        self.active = display
        self.keypad.display = display
        for button, target in ((self.amount_field, self.amount), (self.tax_field, self.tax),
                               (self.tip_field, self.tip)):
            button.setChecked(target is display)
        display.setFocus()

    def tip_mode(self) -> str:
        checked = self.tip_group.checkedButton()
        return str(checked.property("tip_mode")) if checked is not None else TIP_NONE

    def set_tip_mode(self, mode: str) -> None:
        self.tip_buttons[mode].setChecked(True)

    def _tip_mode_changed(self) -> None:
        keyed = self.tip_mode() == TIP_KEYED
        self.tip.setEnabled(keyed)
        self.tip_field.setEnabled(keyed)
        if not keyed:
            self.tip.clear()
            if self.active is self.tip:
                self.select_field(self.amount)
        self._update_totals()

    def _update_totals(self) -> None:
        cur = self.till.currency
        self.total_value.setText(format_money(self.amount.value + self.tip.value, cur))
        has_amount = self.amount.value > 0
        for b in (self.card_button, self.gift_button, self.qr_button):
            b.setEnabled(has_amount)
        self.error_label.clear()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Keys typed anywhere on the entry screen go to the active amount line."""
        if self.stack.currentWidget() is self.entry_page and handle_amount_key(self.active, event):
            event.accept()
            return
        if self.stack.currentWidget() is self.waiting_page and event.key() == Qt.Key.Key_Escape:
            self.cancel_payment()
            event.accept()
            return
        if self.stack.currentWidget() is self.result_page and event.key() in (
                Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.new_sale()
            event.accept()
            return
        super().keyPressEvent(event)

    # ---- tenders ---------------------------------------------------------------------------
    def _check_ready(self) -> bool:
        if self.amount.value <= 0:
            self.error_label.setText(tr("Amount: type the amount first (it must be greater than zero)."))
            return False
        if self.tax.value > self.amount.value:
            self.error_label.setText(tr("Tax: must not be more than the amount."))
            return False
        if not self.till.ready:
            self.error_label.setText(tr("The till is still starting; try again in a moment."))
            return False
        return self.task is None or self.task.done()

    def charge_card(self, purpose: str = "card") -> None:
        if self.stack.currentWidget() is not self.entry_page or not self._check_ready():
            return
        from cashier.flows.payments import sale

        mode = self.tip_mode()
        tip = self.tip.value if mode == TIP_KEYED and self.tip.value > 0 else None
        amount, tax = self.amount.value, self.tax.value
        self._show_waiting(amount + (tip or 0), purpose)
        self.task = self.till.run(
            sale(self.till.ctx, amount, tip=tip, tax=tax, prompt_tip=(mode == TIP_PAD)),
            "sale", done=self.show_result, failed=self._failed)

    def charge_gift_card(self) -> None:
        # A gift card pays like a card: the PIN pad reads it (swipe or scan), the host decides.
        self.charge_card("gift card")

    def charge_qr(self) -> None:
        if not self._check_ready():
            return
        self.qr_requested.emit(self.amount.value, self.tax.value)

    def _failed(self, exc: BaseException) -> None:
        from cashier.errors import CashierError

        self.stack.setCurrentWidget(self.entry_page)
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
        col.addStretch(1)
        self.cancel_button = self.button(lambda: tr("Cancel payment"), "Esc", self.cancel_payment, "Danger")
        col.addWidget(self.cancel_button)
        self.stack.addWidget(page)
        self.waiting_page = page

    def _show_waiting(self, total: Decimal, purpose: str) -> None:
        self.wait_amount.setText(format_money(total, self.till.currency))
        self.wait_title.setText(tr("Paying by gift card") if purpose == "gift card" else tr("Paying by card"))
        self.prompt_text.setText(tr("Sending to the PIN pad…"))
        self.terminal_line.setText("")
        self.cancel_button.setEnabled(True)
        self.stack.setCurrentWidget(self.waiting_page)
        self.cancel_button.setFocus()

    def _terminal_event(self, event: Any) -> None:
        if self.stack.currentWidget() is not self.waiting_page:
            return
        from ui.pinpad import describe_prompt

        if event.prompt is not None:
            self.prompt_text.setText(tr("Customer sees:") + " " + describe_prompt(event.prompt))
        self.terminal_line.setText(tr("PIN pad:") + " " + terminal_state_name(event.state))

    def _device_prompt(self, event: Any) -> None:
        if self.stack.currentWidget() is self.waiting_page and not self.till.status.training:
            self.prompt_text.setText(tr("Customer sees:") + " " + tr("Present card"))

    def _payment_changed(self, entry: Any) -> None:
        if (self.stack.currentWidget() is self.result_page and self.result is not None
                and self.result.entry.id == entry.id and self.result.outcome == "unknown"
                and not entry.unresolved):
            # recovery settled the payment the cashier is looking at: show the real outcome
            from cashier.flows.base import FlowResult, outcome_of

            self.show_result(FlowResult(entry, outcome_of(entry), entry.message or ""))
            return
        if self.stack.currentWidget() is self.waiting_page and str(entry.state) == "unknown":
            self.wait_title.setText(tr("Checking with the host…"))
            self.prompt_text.setText(tr("The answer was lost. The till is asking the host what "
                                        "happened; do not charge again."))
            self.cancel_button.setEnabled(False)

    def cancel_payment(self) -> None:
        """Ask the flow to reset the PIN pad; the sale then ends as cancelled (not charged)."""
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
        self.result_details = QLabel()
        self.result_details.setObjectName("Breakdown")
        self.result_details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_message = hint()
        col.addWidget(self.result_title)
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
        self.new_button = self.button(lambda: tr("New sale"), "Return", self.new_sale, "Primary")
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
        message = result.message or ""
        cancelled = outcome == "error" and "CANCEL" in (message.upper())
        view = "cancelled" if cancelled else outcome
        titles = {"approved": tr("Approved"), "declined": tr("Declined"),
                  "error": tr("Not charged"), "unknown": tr("Checking with the host…"),
                  "cancelled": tr("Cancelled: not charged"), "voided": tr("Voided"),
                  "voiding": tr("Voiding…"), "captured": tr("Captured")}
        if entry.partial:
            self.result_title.setText(tr("Partially approved: collect the rest another way"))
        else:
            self.result_title.setText(titles.get(view, state_name(outcome)))
        self.result_page.setProperty("outcome", "approved" if view == "captured" else view)
        self.result_page.style().unpolish(self.result_page)
        self.result_page.style().polish(self.result_page)
        cur = entry.currency
        shown = entry.approved if entry.approved > 0 else entry.requested
        self.result_amount.setText(format_money(shown, cur))
        details = [f"{tr('Invoice')}: {entry.invoice or '-'}"]
        if entry.partial:
            details.append(f"{tr('Approved')}: {format_money(entry.approved, cur)} "
                           f"{tr('of')} {format_money(entry.requested, cur)}")
        if entry.tip:
            details.append(f"{tr('Tip')}: {format_money(entry.tip, cur)}")
        if entry.tax:
            details.append(f"{tr('Tax')}: {format_money(entry.tax, cur)}")
        if entry.card:
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
        if self.task is not None and not self.task.done():
            return
        for display in (self.amount, self.tax, self.tip):
            display.clear()
        self.set_tip_mode(TIP_NONE)
        self.result = None
        self.stack.setCurrentWidget(self.entry_page)
        self.select_field(self.amount)

    def receipt(self) -> list[str]:
        p = self.till.profile
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
        self.tax_label.setText(tr("Tax (included)"))
        self.tip_label.setText(tr("Tip"))
        self.total_label.setText(tr("Total"))
        self.tip_buttons[TIP_NONE].setText(tr("No tip"))
        self.tip_buttons[TIP_PAD].setText(tr("Tip on PIN pad"))
        self.tip_buttons[TIP_KEYED].setText(tr("Tip keyed"))
        self.keypad.retranslate()
        self.ready_hint.setText(tr("Type the amount (1 2 5 0 = 12.50), then Enter or F2 for card."))
        self.amount.refresh()
        self.tax.refresh()
        self.tip.refresh()
        self._update_totals()

    def entered(self) -> None:
        if self.stack.currentWidget() is self.entry_page:
            self.select_field(self.active)


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
