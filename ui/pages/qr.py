"""QR payment: the code large on screen for the customer's phone, the amount, the status as the
flow reports it, Cancel (Esc), and the result (paid with its approval, cancelled, expired,
reversed).

Everything happens in ``cashier.flows.qr``: this screen starts ``qr.pay`` (or ``qr.cancel`` for a
reversal) as a task and shows its ``QrShown`` / ``QrStatusChanged`` events, so the window repaints
and takes keys while the flow polls. Started from the Sale screen's QR tender (F4) with the typed
amount, or here with the keypad.

Keyboard: digits build cents, Enter or F2 shows the code; Esc cancels while the customer has the
code; Return after the result goes back to a new sale; F12 (twice) reverses a paid payment.
"""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from cashier.errors import CashierError
from ui import a11y
from ui.core_words import error_words, say
from ui.i18n import format_money, tr
from ui.keys import GIVE_BACK
from ui.pages.base import hint, labelled
from ui.pages.sale import SalePage
from ui.pages.staged import ResultStage, StagedPage, wait_labels
from ui.receipt import reason_text, receipt_lines
from ui.widgets.amount import AmountPanel
from ui.widgets.qrcode import ScanCode

if TYPE_CHECKING:
    from cashier.entry_rules import QrEnd
    from cashier.flows.qr import QrPolling, QrResult
    from ui.gui import Gui
    from ui.till import Till



class QrPage(StagedPage):
    result_shown = Signal(object)  # QrResult, or None when nothing was sent
    status_shown = Signal(str)  # the flow's status: pending, paid, cancelling, cancelled, ...

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        #: How the flow polls; None is the flow's default (tests make it faster).
        self.polling: QrPolling | None = None
        self.task: asyncio.Task[Any] | None = None
        self.cancel_event: asyncio.Event | None = None
        self.entry_id: int | None = None
        self.code = ""
        self.amount_value = Decimal(0)
        self.outcome: QrResult | None = None
        self.from_sale = False
        self._reverse_armed = False
        self.stages(self._build_entry(), self._build_waiting(), self._build_result())
        from cashier.flows import events  # the flows package stays out of the screens' import

        till.bridge.on((events.QrShown, events.QrStatusChanged), self._flow_event)
        till.bridge.payment_changed.connect(self._payment_changed)
        self.retranslate()

    # ---- entry (when opened from the navigation) -------------------------------------------
    def _build_entry(self) -> QWidget:
        page = QWidget()
        row = QHBoxLayout(page)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(24)
        left = QVBoxLayout()
        self.amount_panel = AmountPanel(self.till.currency)
        self.amount, self.keypad = self.amount_panel.display, self.amount_panel.keypad
        self.error_label = QLabel()
        self.error_label.setObjectName("ErrorText")
        self.error_label.setWordWrap(True)
        a11y.live(self.error_label, urgent=True)
        self.amount.submitted.connect(self.start_typed)
        self.amount.changed.connect(lambda _v: self.error_label.clear())
        left.addWidget(self.error_label)
        self.start_button = self.button(lambda: tr("Show QR code"), "F2", self.start_typed, "Tender",
                                        stacked=True)  # its key under it: 1024 px at 150 % text
        left.addWidget(self.start_button)
        self.entry_hint = hint()
        left.addWidget(self.entry_hint)
        left.addStretch(1)
        row.addLayout(left, 3)
        right = QVBoxLayout()  # the amount and its keys: the same panel as on every money screen
        right.addWidget(self.amount_panel)
        right.addStretch(1)
        row.addLayout(right, 2)
        return page

    # ---- waiting for the customer ----------------------------------------------------------
    def _build_waiting(self) -> QWidget:
        page = QFrame()
        page.setObjectName("StatusPanel")
        row = QHBoxLayout(page)
        row.setContentsMargins(24, 24, 24, 24)
        row.setSpacing(24)
        self.scan = ScanCode()
        row.addWidget(self.scan, 3)
        col = QVBoxLayout()
        col.setSpacing(14)
        self.wait_amount, self.wait_title, self.wait_text = wait_labels()
        self.wait_invoice = hint()
        for label in (self.wait_title, self.wait_text):
            a11y.live(label)  # the code's state as the host says it
        for w in (self.wait_amount, self.wait_title, self.wait_text, self.wait_invoice):
            col.addWidget(w)
        col.addStretch(1)
        self.customer_pays_button = self.button(lambda: tr("Customer pays (training)"), "F11",
                                                self.customer_pays, stacked=True)
        # a training tool, never mistaken for a cashier's action: the training banner's colours
        self.customer_pays_button.setStyleSheet(
            "QPushButton { background: #ffcc33; color: #3a2a00; border: 2px dashed #3a2a00; "
            "font-weight: 700; } QPushButton:disabled { background: #f3e3b0; color: #8a7a50; }")
        self.training_hint = hint()
        col.addWidget(self.customer_pays_button)
        col.addWidget(self.training_hint)
        self.cancel_button = self.button(lambda: tr("Cancel payment"), "Esc", self.cancel_payment, "Danger")
        col.addWidget(self.cancel_button)
        row.addLayout(col, 2)
        return page

    # ---- result ----------------------------------------------------------------------------
    def _build_result(self) -> QWidget:
        r = self.result_stage = ResultStage()
        self.result_title, self.result_amount = r.title, r.amount
        self.result_details, self.result_message = r.details, r.message
        self.new_button = self.button(lambda: tr("New sale"), "Return", self.new_sale, "Primary")
        self.print_button = self.button(lambda: tr("Print receipt"), "F8", self.print_receipt)
        # its key under its words: on one line it was 490 px and the paid result scrolled sideways
        # at 1024x768 with 150 % text (issue #39)
        self.reverse_button = self.button(lambda: tr("Cancel payment (give back)"), GIVE_BACK, self.reverse,
                                          "Danger", stacked=True)
        self.check_button = self.button(lambda: tr("Check now"), "F10", self.check_now)
        email = self.email_button(self.result_message)
        # two by two: four in a row do not fit 1024x768 in Spanish
        r.add_buttons((self.new_button, self.print_button, self.reverse_button, self.check_button,
                       email))
        return r

    # ---- starting --------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def open_payment(self) -> str | None:
        if not self.busy or not self.on_waiting:
            return None
        return tr("a QR payment of %s") % format_money(self.amount_value, self.till.currency)

    def cancel_open_payment(self) -> None:
        self.cancel_payment()

    def start_from_sale(self, amount: Decimal, tax: Decimal) -> None:
        """The Sale screen's QR tender: this screen, the code for the typed amount."""
        if self.busy:
            return
        if self.gui is not None:
            self.gui.window.go(QrPage)
        self.from_sale = True
        self.start(amount, tax)

    def start_typed(self) -> None:
        if not self.on_entry or self.busy:
            return
        if not self.amount.entered:
            self.say_in(self.error_label,
                        lambda: tr("Amount: type the amount first (it must be greater than zero)."))
            return
        self.from_sale = False
        self.start(self.amount.value, Decimal(0))

    def start(self, amount: Decimal, tax: Decimal = Decimal(0)) -> None:
        if self.busy:
            return
        if not self.till.ready:
            self.say_in(self.error_label, lambda: tr("The till is still starting; try again in a moment."))
            self.stack.setCurrentWidget(self.entry_page)
            return
        from cashier.flows import qr

        self.entry_id = None
        self.code = ""
        self.outcome = None
        self._reverse_armed = False
        self.amount_value = amount
        self.cancel_event = asyncio.Event()
        self.scan.show_code("")
        self.wait_amount.setText(format_money(amount, self.till.currency))
        self.say_in(self.wait_title, lambda: tr("Asking the host for a QR code…"))
        self.wait_text.setText("")
        self.wait_invoice.setText("")
        training = self.till.runtime is not None and self.till.runtime.sandbox is not None
        self.customer_pays_button.setVisible(training)
        self.training_hint.setVisible(training)
        self.customer_pays_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.stack.setCurrentWidget(self.waiting_page)
        self.cancel_button.setFocus()
        self.task = self.till.run(
            qr.pay(self.till.ctx, amount, tax=tax, polling=self.polling, cancel=self.cancel_event),
            "qr payment", done=self.show_result, failed=self._failed)

    def _failed(self, exc: BaseException) -> None:
        if not isinstance(exc, CashierError):
            raise exc
        self.outcome = None
        self.result_stage.show_title(tr("Not sent"), "error")
        self.result_amount.setText(format_money(self.amount_value, self.till.currency))
        self.result_details.setText("")
        self.say_refusal(self.result_message, exc)
        self._result_buttons(None)
        self.stack.setCurrentWidget(self.result_page)
        self.new_button.setFocus()
        self.result_shown.emit(None)

    # ---- the flow's events -----------------------------------------------------------------
    def _flow_event(self, event: Any) -> None:
        from cashier.flows.qr import QrShown, QrStatusChanged

        if isinstance(event, QrShown):
            # one QR payment at a time from this screen: the first code after Start is ours
            if not self.busy or self.entry_id not in (None, event.entry_id):
                return
            self.entry_id = event.entry_id
            self.code = event.code
            self.scan.show_code(event.code)
            self.say_in(self.wait_invoice, lambda: f"{tr('Invoice')}: {event.invoice}")
            self.customer_pays_button.setEnabled(True)
        elif isinstance(event, QrStatusChanged) and event.entry_id == self.entry_id:
            self._show_status(event.status)

    def _show_status(self, status: str) -> None:
        if self.on_waiting:
            self.say_in(self.wait_title, lambda: self._status_words(status)[0])
            self.say_in(self.wait_text, lambda: self._status_words(status)[1])
            from cashier.entry_rules import qr_can_cancel, qr_can_customer_pay

            if not qr_can_customer_pay(status):
                self.customer_pays_button.setEnabled(False)
            if not qr_can_cancel(status):
                self.cancel_button.setEnabled(False)
        self.status_shown.emit(status)

    @staticmethod
    def _status_words(status: str) -> tuple[str, str]:
        """The code's status while the customer pays: a title and what it means."""
        titles = {"pending": tr("Waiting for the customer"),
                  "paid": tr("Paid"), "cancelling": tr("Cancelling the code…"),
                  "cancelled": tr("Cancelled"), "reversed": tr("Reversed"),
                  "unknown": tr("Checking with the host…")}
        texts = {"pending": tr("The customer scans the code with their phone and pays there."),
                 "cancelling": tr("The code is being cancelled at the host; it can no longer be "
                                  "paid once this ends."),
                 "unknown": tr("The host's answer is not clear yet; do not take the payment "
                               "another way.")}
        return titles.get(status, status), texts.get(status, "")

    def _payment_changed(self, entry: Any) -> None:
        if (self.on_result and self.outcome is not None
                and self.outcome.entry.id == entry.id and self._checking(self.outcome)
                and not entry.unresolved):
            # recovery settled the payment on screen: show the real outcome
            from cashier.flows.base import FlowResult, outcome_of
            from cashier.flows.qr import QrResult

            self.show_result(QrResult(FlowResult(entry, outcome_of(entry), entry.message or ""),
                                       self.outcome.code))

    # ---- cashier's actions while the code is shown -----------------------------------------
    def cancel_payment(self) -> None:
        """Ask the flow to stop waiting: it cancels the code (or reverses it if paid meanwhile)."""
        if not self.busy or self.cancel_event is None or not self.cancel_button.isEnabled():
            return
        self.cancel_event.set()
        self.cancel_button.setEnabled(False)
        self.customer_pays_button.setEnabled(False)
        self.say_in(self.wait_title, lambda: tr("Cancelling the code…"))

    def customer_pays(self) -> None:
        """Training only: the sandbox's customer phone pays the code on screen."""
        runtime = self.till.runtime
        if not self.code or runtime is None or runtime.sandbox is None or not self.busy:
            return
        self.customer_pays_button.setEnabled(False)
        self.say_in(self.training_hint, lambda: tr("Training: the test customer's phone is paying…"))
        from cashier.sandbox import training_customer_pays

        self.till.run(training_customer_pays(runtime.sandbox, self.code), "training customer pays",
                      done=self._customer_paid, failed=self._customer_failed)

    def _customer_paid(self, answer: tuple[int, str]) -> None:
        status, text = answer
        if status == 200:
            self.say_in(self.training_hint, lambda: tr("Training: the test customer paid; the till "
                                                       "sees it at its next status check."))
        else:
            self.say_in(self.training_hint,
                        lambda: tr("Training: the sandbox refused the payment:") + " " + say(text))

    def _customer_failed(self, exc: BaseException) -> None:
        self.say_in(self.training_hint,
                    lambda: tr("Training: the sandbox refused the payment:") + " " + error_words(exc))

    # ---- the result ------------------------------------------------------------------------
    def view_of(self, outcome: QrResult) -> QrEnd:
        """Which end the journal entry records (the rule is the core's ``qr_end``)."""
        from cashier.entry_rules import qr_end  # loaded with the runtime (test_startup_imports)

        return qr_end(outcome.entry)

    def show_result(self, outcome: QrResult, *, announce: bool = True) -> None:
        """The payment's end; ``announce``: said to a screen reader too (not when only worded
        again in a new language)."""
        self.outcome = outcome
        self._reverse_armed = False
        entry = outcome.entry
        from cashier.entry_rules import QrEnd, shown_amount  # loaded with the runtime

        view = self.view_of(outcome)
        titles = {QrEnd.PAID: tr("Approved: paid by QR code"), QrEnd.CANCELLED: tr("Cancelled: not charged"),
                  QrEnd.EXPIRED: tr("Expired: not paid in time, not charged"),
                  QrEnd.REVERSED: tr("Reversed: the payment was given back"),
                  QrEnd.NOT_CHARGED: tr("Not charged"), QrEnd.CHECKING: tr("Checking with the host…")}
        styles = {QrEnd.PAID: "approved", QrEnd.REVERSED: "cancelled", QrEnd.EXPIRED: "cancelled",
                  QrEnd.CANCELLED: "cancelled", QrEnd.NOT_CHARGED: "error", QrEnd.CHECKING: "unknown"}
        self.result_stage.show_title(titles[view], styles[view])
        cur = entry.currency
        self.result_amount.setText(format_money(shown_amount(entry), cur))
        details = [f"{tr('Invoice')}: {entry.invoice or '-'}"]
        if entry.tax:
            details.append(f"{tr('Tax')}: {format_money(entry.tax, cur)}")
        if entry.card:
            details.append(f"{tr('Paid with')}: {entry.card}")
        if entry.auth_code:
            details.append(f"{tr('Approval code')}: {entry.auth_code}")
        self.result_details.setText("\n".join(details))
        messages = {QrEnd.CANCELLED: tr("The code was cancelled at the host and can no longer be paid."),
                    QrEnd.EXPIRED: tr("The customer did not pay within the wait; the code was cancelled "
                                "at the host."),
                    QrEnd.REVERSED: tr("The customer's payment was reversed at the host."),
                    QrEnd.CHECKING: tr("The host has not answered yet. Recovery keeps asking; the journal "
                                 "shows the outcome when it is known. Do not take the payment "
                                 "another way.")}
        from cashier.entry_rules import reason  # loaded with the runtime (test_startup_imports)

        self.say_in(self.result_message, lambda: messages.get(view, reason_text(reason(entry), cur)))
        self.scan.show_code("")  # a finished code is never left on screen to be scanned
        self._result_buttons(view)
        if announce:
            a11y.announce(self, ". ".join(text for text in (
                self.result_title.text(), self.result_amount.text(), self.result_message.text())
                if text), urgent=view is not QrEnd.PAID)
        self.stack.setCurrentWidget(self.result_page)
        self.new_button.setFocus()
        self.result_shown.emit(outcome)

    def _result_buttons(self, view: QrEnd | None) -> None:
        paid = view is not None and view.paid
        self.print_button.setEnabled(paid)
        self.emailable(self.outcome.entry.id if paid and self.outcome is not None else None)
        self.reverse_button.setVisible(paid)
        self.reverse_button.setEnabled(paid)
        self.reverse_button.setText(labelled(tr("Cancel payment (give back)"), GIVE_BACK, stacked=True))
        self.check_button.setVisible(view is not None and view.checking)
        self.check_button.setEnabled(True)

    @staticmethod
    def _checking(outcome: QrResult) -> bool:
        from cashier.entry_rules import is_checking  # loaded with the runtime (test_startup_imports)

        return is_checking(outcome.outcome)

    def reverse(self) -> None:
        """Two presses: a reversal gives money back, so the first press only asks to confirm."""
        from cashier.entry_rules import is_approved  # loaded with the runtime (test_startup_imports)

        if self.outcome is None or not is_approved(self.outcome.outcome) or self.busy:
            return
        if not self._reverse_armed:
            self._reverse_armed = True
            entry = self.outcome.entry
            self.say_in(self.result_message, lambda: tr("Give back the QR payment of %s, invoice %s? "
                                                        "Press %s again to confirm.")
                        % (format_money(entry.approved, entry.currency), entry.invoice, GIVE_BACK))
            self.reverse_button.setText(labelled(tr("Confirm: give back"), GIVE_BACK, stacked=True))
            return
        from cashier.flows import qr

        self._reverse_armed = False
        self.reverse_button.setEnabled(False)
        self.say_in(self.result_message, lambda: tr("Reversing at the host…"))
        self.task = self.till.run(qr.cancel(self.till.ctx, str(self.outcome.entry.invoice)),
                                  "qr reversal", done=self.show_result, failed=self._reverse_failed)

    def _reverse_failed(self, exc: BaseException) -> None:
        if not isinstance(exc, CashierError):
            raise exc
        self.reverse_button.setEnabled(True)
        self.say_in(self.result_message,
                    lambda: tr("Could not reverse:") + " " + error_words(exc, self.till.currency))

    def last_outcome(self) -> str | None:
        return None if self.outcome is None else str(self.outcome.outcome)

    def print_receipt(self) -> None:
        if self.outcome is None:
            return
        p = self.till.profile
        self.print_on_pad(receipt_lines(self.outcome.entry, p.company_name, p.till_id))

    def new_sale(self) -> None:
        """Back to an empty Sale screen (or this screen's entry when opened on its own)."""
        if self.busy:
            return
        self.outcome = None
        self.amount.clear()
        self.error_label.clear()
        self.stack.setCurrentWidget(self.entry_page)
        if self.from_sale and self.gui is not None:
            self.gui.window.go(SalePage).new_sale()
            self.from_sale = False
        else:
            self.amount.setFocus()

    # ---- keys and language -----------------------------------------------------------------
    def entry_key(self, event: QKeyEvent) -> bool:
        return self.amount_panel.take_key(event)

    def retranslate(self) -> None:
        super().retranslate()
        self.amount_panel.retranslate()
        self.entry_hint.setText(tr("Type the amount (1 2 5 0 = 12.50), then Enter or F2: the customer "
                                   "scans the code with their phone."))
        self.amount.setAccessibleDescription(self.entry_hint.text())
        a11y.name(self.scan, tr("QR code"), tr("The customer scans it with their phone to pay."))
        if id(self.training_hint) not in self._said:  # else the sandbox's last answer, said again
            self.say_in(self.training_hint,
                        lambda: tr("Training tool: pays the code as a test customer's phone would."))
        if self.outcome is not None and self.on_result:
            self.show_result(self.outcome, announce=False)

    def entered(self) -> None:
        if self.on_entry:
            self.amount.setFocus()
