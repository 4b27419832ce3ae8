"""Phone and link: card-not-present work on the Charge API. A phone order (the card read over the
phone, only to make a token), pay by link (the link large as a QR code, its charges as they
arrive, deactivate), and customers with saved cards (find, charge the default card, add a card).

Everything happens in ``cashier.flows.card_not_present``; this screen starts its functions as tasks and shows
their results and events. The card number lives in its field only until Charge is pressed: the
fields are cleared before the request goes, and nothing else on this screen ever holds it.

Keyboard: digits build the amount; F2 charges the phone order, F3 creates a link, F12 (or Esc
while the customer has it) deactivates it, F4 charges the customer's default card.

On the payment screens' stages (``ui.pages.staged``): the entry (the amount, the three tabs and
the last result under them), the wait while the customer's phone has the link (the code large,
its charges as they arrive), and the result on the entry. The screen's state (the link, its
charges and end, the customers found, the last result) is the core's ``PhoneLinkEntry``
(``cashier.flows.phone_link_entry``), which also tells which events are about the link on screen.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from cashier.flows.phone_link_entry import LinkNews, PhoneLinkEntry
from ui import a11y
from ui.core_words import error_words
from ui.i18n import format_money, tr
from ui.pages.base import hint, restyle
from ui.pages.staged import StagedPage, wait_labels
from ui.widgets.amount import FitAmountDisplay, handle_amount_key
from ui.widgets.qrcode import QrView

if TYPE_CHECKING:
    from cashier.flows.card_not_present import (
        CardNotPresentResult,
        Customer,
        LinkResult,
        LinkWatch,
        PaymentLink,
    )
    from cashier.flows.events import LinkChargeSeen
    from ui.gui import Gui
    from ui.till import Till

#: Test cards named on the phone order form in training (from the sandbox's table).
TRAINING_CARDS = ("success", "card_declined", "insufficient_funds")


def training_card_words() -> dict[str, str]:
    """What the training cards do (the sandbox's outcomes), as the Phone/link screen says it."""
    return {"success": tr("approved"), "card_declined": tr("declined"),
            "insufficient_funds": tr("declined: not enough funds on the card")}


class PhoneLinkPage(StagedPage):
    result_shown = Signal(object)  # CardNotPresentResult, or None when nothing was sent
    link_finished = Signal(object)  # LinkResult
    customers_shown = Signal(object)  # list[Customer]

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        #: How a link's charges are polled; None is the flow's default (tests make it faster).
        self.link_watch: LinkWatch | None = None
        self.link_task: asyncio.Task[Any] | None = None
        self.link_cancel: asyncio.Event | None = None
        self.stages(self._build_entry(), self._build_waiting())
        from cashier.flows import events  # the flows package stays out of the screens' import

        till.bridge.on((events.LinkChargeSeen, events.LinkStatus), self._flow_event)
        till.started.connect(self._started)
        self.retranslate()
        if till.ready:  # built after the till started (a screen is built when first shown)
            self._started()

    # the model's state, under the names the window, its tests and ``make screens`` use
    @property
    def link(self) -> PaymentLink | None:
        return self.model.link

    @property
    def link_outcome(self) -> LinkResult | None:
        return self.model.outcome

    @property
    def link_seen(self) -> list[LinkChargeSeen]:
        return self.model.seen

    @property
    def customers(self) -> list[Customer]:
        return self.model.customers

    @property
    def result(self) -> CardNotPresentResult | None:
        return self.model.result

    @result.setter
    def result(self, result: CardNotPresentResult | None) -> None:
        self.model.result = result

    # ---- entry (the result shows under the tabs) -------------------------------------------
    def _build_entry(self) -> QWidget:
        page = QWidget()
        col = QVBoxLayout(page)
        col.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.amount_label = QLabel()
        self.amount = FitAmountDisplay(self.till.currency)
        self.amount.setMinimumWidth(200)  # drawn smaller, never cut, when 1024 px is short (#39)
        self.model = PhoneLinkEntry(self.amount.buffer)
        top.addWidget(self.amount_label)
        top.addWidget(self.amount, 1)
        col.addLayout(top)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._build_phone(), "")
        self.tabs.addTab(self._build_link(), "")
        self.tabs.addTab(self._build_customer(), "")
        col.addWidget(self.tabs, 1)
        self.result_box = QFrame()
        self.result_box.setObjectName("Result")
        box = QVBoxLayout(self.result_box)
        box.setContentsMargins(16, 8, 16, 8)
        self.result_title = QLabel()
        self.result_title.setObjectName("ResultTitle")
        self.result_title.setWordWrap(True)
        self.result_text = hint()
        self.result_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for label in (self.result_title, self.result_text):
            a11y.live(label)  # what the Charge API answered
        box.addWidget(self.result_title)
        box.addWidget(self.result_text)
        col.addWidget(self.result_box)
        return page

    # ---- phone order -----------------------------------------------------------------------
    def _build_phone(self) -> QWidget:
        page = QWidget()
        col = QVBoxLayout(page)
        form = QFormLayout()
        self.number = QLineEdit()
        self.number.setMaxLength(23)
        # shown while typed (to read it back to the caller), hidden once the cashier moves on
        self.number.setEchoMode(QLineEdit.EchoMode.PasswordEchoOnEdit)
        self.expiry = QLineEdit()
        self.expiry.setMaxLength(7)
        self.expiry.setPlaceholderText("MM/YY")
        self.cvc = QLineEdit()
        self.cvc.setMaxLength(4)
        self.cvc.setEchoMode(QLineEdit.EchoMode.Password)
        self.postal = QLineEdit()
        self.postal.setMaxLength(10)
        self.number_label, self.expiry_label, self.cvc_label, self.postal_label = (
            QLabel(), QLabel(), QLabel(), QLabel())
        for label, field in ((self.number_label, self.number), (self.expiry_label, self.expiry),
                             (self.cvc_label, self.cvc), (self.postal_label, self.postal)):
            label.setBuddy(field)  # the label names the field for a screen reader
            form.addRow(label, field)
        col.addLayout(form)
        row = QGridLayout()  # the box over the key: side by side they ran off 1024 px at 150 % text
        self.authorize_only = QCheckBox()
        self.charge_button = self.button(lambda: tr("Charge card"), "F2", self.charge_phone, "Tender",
                                         stacked=True)  # its key under it: 1024 px at 150 % text
        row.addWidget(self.authorize_only, 0, 0)
        row.addWidget(self.charge_button, 1, 0, Qt.AlignmentFlag.AlignRight)
        col.addLayout(row)
        self.phone_hint = hint()
        self.cards_hint = hint()
        col.addWidget(self.phone_hint)
        col.addWidget(self.cards_hint)
        col.addStretch(1)
        return page

    def card_fields(self) -> list[QLineEdit]:
        return [self.number, self.expiry, self.cvc, self.postal]

    def clear_card(self) -> None:
        # setText, not clear(): clear() is an edit Ctrl+Z can undo; setText also drops the undo history
        for field in self.card_fields():
            field.setText("")

    def charge_phone(self) -> None:
        from cashier.errors import CashierError
        from cashier.flows import card_not_present

        if not self._usable():
            return
        amount = self.amount.value
        try:
            if not self.amount.entered:
                raise CashierError(tr("Amount: type the amount first (it must be greater than zero)."))
            card = card_not_present.CardDetails.parse(self.number.text(), self.expiry.text(), self.cvc.text(),
                                            self.postal.text())
        except CashierError as exc:
            self._not_sent(exc)  # nothing was sent: the fields stay for the cashier to correct
            return
        self.clear_card()  # the number leaves the screen before the request goes
        self.charge_button.setEnabled(False)
        self._working(lambda: tr("Charging the card…"))
        self.till.run(card_not_present.phone_order(self.till.ctx, amount, card, currency=self.till.currency,
                                         authorize_only=self.authorize_only.isChecked()),
                      "phone order", done=self.show_result, failed=self._failed)

    # ---- pay by link -----------------------------------------------------------------------
    def _build_link(self) -> QWidget:
        page = QWidget()
        col = QVBoxLayout(page)
        self.create_link_button = self.button(lambda: tr("Create payment link"), "F3", self.create_link,
                                              "Tender", stacked=True)
        col.addWidget(self.create_link_button)
        col.addStretch(1)
        return page

    # ---- waiting for the customer's phone (the link) ---------------------------------------
    def _build_waiting(self) -> QWidget:
        page = QFrame()
        page.setObjectName("StatusPanel")
        row = QHBoxLayout(page)
        row.setContentsMargins(24, 24, 24, 24)
        self.scan = QrView()
        row.addWidget(self.scan, 3)
        col = QVBoxLayout()
        self.wait_amount, self.wait_title, self.wait_text = wait_labels()
        self.link_url = QLabel()
        self.link_url.setWordWrap(True)
        self.link_url.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.link_status = QLabel()
        self.link_status.setObjectName("Breakdown")
        self.link_status.setWordWrap(True)
        a11y.live(self.link_status)
        self.link_charges = QListWidget()
        self.link_charges.setMaximumHeight(110)
        # "(training)" on a line of its own: one line was 480-500 px and the screen scrolled
        # sideways at 1024x768 with 150 % text while the link waited (issue #39)
        self.pays_button = self.button(
            lambda: tr("Customer pays the link (training)").replace(" (", "\n(", 1), "F11",
            self.customer_pays, stacked=True)
        self.pays_button.setStyleSheet(
            "QPushButton { background: #ffcc33; color: #3a2a00; border: 2px dashed #3a2a00; "
            "font-weight: 700; } QPushButton:disabled { background: #f3e3b0; color: #8a7a50; }")
        self.deactivate_button = self.button(lambda: tr("Deactivate link"), "F12", self.deactivate_link,
                                             "Danger")
        for w in (self.wait_amount, self.wait_title, self.wait_text, self.link_url, self.link_status,
                  self.link_charges, self.pays_button, self.deactivate_button):
            col.addWidget(w)
        col.addStretch(1)
        row.addLayout(col, 2)
        self._link_buttons()
        return page

    @property
    def watching(self) -> bool:
        return self.link_task is not None and not self.link_task.done()

    def create_link(self) -> None:
        from cashier.flows import card_not_present

        if not self._usable() or self.watching:
            return
        if not self.amount.entered:
            self._not_sent(tr("Amount: type the amount first (it must be greater than zero)."))
            return
        self.model.new_link()
        self._list_charges()
        self.create_link_button.setEnabled(False)
        self._working(lambda: tr("Creating the payment link…"))
        self.till.run(card_not_present.create_link(self.till.ctx, self.amount.value,
                                                   currency=self.till.currency,
                                                   name=self.till.profile.company_name),
                      "payment link", done=self._link_created, failed=self._link_failed)

    def _link_created(self, link: PaymentLink) -> None:
        from cashier.flows import card_not_present, qr

        self.model.link_created(link)
        self.scan.show_code(link.url)
        self.link_url.setText(link.url)
        self.say_in(self.link_status, lambda: tr("Waiting for the customer to pay the link…"))
        self.say_in(self.result_title,
                    lambda: tr("Payment link for") + " " + format_money(link.amount, link.currency))
        self.say_in(self.result_text,
                    lambda: tr("Send the address to the customer or let them scan the code."))
        self._outcome_style("unknown")
        self.wait_amount.setText(format_money(link.amount, link.currency))
        self.say_in(self.wait_title, lambda: tr("Waiting for the customer"))
        self.say_in(self.wait_text,
                    lambda: tr("Send the address to the customer or let them scan the code."))
        self.clear_of_the_pad(self.waiting_page, 24)
        self.link_cancel = asyncio.Event()
        self.link_task = self.till.run(
            card_not_present.watch_link(self.till.ctx, link, cancel=self.link_cancel, watch=self.link_watch,
                              pad_form=qr.DEFAULT_PAD_FORM),
            "payment link watch", done=self._link_done, failed=self._link_failed)
        self._link_buttons()
        self.wait(self.deactivate_button)

    def _link_failed(self, exc: BaseException) -> None:
        self.link_task = None
        self._failed(exc)
        self._link_buttons()
        self._back_unless_active()

    def _back_unless_active(self) -> None:
        """The wait ends with the link: back to the entry, where the result shows (a link that
        may still be paid stays on screen, to be deactivated)."""
        if self.on_waiting and not self.model.link_active:
            self.back_to_entry()
            self.amount.setFocus()

    def cancel_payment(self) -> None:
        """Esc while the customer has the link: it is deactivated (nobody can pay it any more)."""
        if self.deactivate_button.isEnabled():
            self.deactivate_link()

    def _link_done(self, outcome: LinkResult) -> None:
        self.link_task = None  # called from inside the ending task: the watch is over
        self.model.link_done(outcome)
        link = outcome.link
        if outcome.paid_by_link:
            entry = outcome.paid[-1]
            self.say_in(self.result_title, lambda: tr("Approved: paid by link"))
            self.say_in(self.result_text,
                        lambda: f"{format_money(entry.approved, entry.currency)}  {entry.card or ''}  "
                                     f"{tr('Charge')}: {entry.auth_code}")
            self._outcome_style("approved")
            self.amount.clear()
        elif outcome.ended_unpaid:
            self.say_in(self.result_title, lambda: tr("Link deactivated: not paid") if link.active is False
                                      else tr("The link may still be active: deactivate it again"))
            self._outcome_style("cancelled" if not link.active else "unknown")
            self.say_in(self.result_text,
                        lambda: tr("The customer can no longer pay this link.") if not link.active
                                     else tr("The payment service did not confirm the deactivation."))
        self.say_in(self.link_status, lambda: tr("Link active") if link.active else tr("Link deactivated"))
        if not link.active:
            self.scan.show_code("")  # a finished link is never left on screen to be scanned
        self._link_buttons()
        self._back_unless_active()
        self.link_finished.emit(outcome)

    def customer_pays(self) -> None:
        """Training only: the test customer pays the link the way its payment page would."""
        from cashier.flows import card_not_present

        if self.link is None or not self.watching or not self.training:
            return
        self.pays_button.setEnabled(False)
        self.say_in(self.link_status, lambda: tr("Training: the test customer is paying the link…"))
        self.till.run(card_not_present.training_customer_pays_link(self.till.ctx, self.link),
                      "training link pays",
                      failed=self._failed)

    def deactivate_link(self) -> None:
        from cashier.flows import card_not_present

        if self.link is None:
            return
        self.deactivate_button.setEnabled(False)
        self.say_in(self.link_status, lambda: tr("Deactivating the link…"))
        if self.watching and self.link_cancel is not None:
            self.link_cancel.set()  # the watch deactivates it and looks once more for a payment
            return
        self.till.run(card_not_present.deactivate_link(self.till.ctx, self.link.id), "deactivate link",
                      done=self._deactivated, failed=self._link_failed)

    def _deactivated(self, link: PaymentLink) -> None:
        self.model.link_deactivated(link)
        self.say_in(self.link_status, lambda: tr("Link deactivated"))
        self.scan.show_code("")
        self._link_buttons()
        self._back_unless_active()

    def _link_buttons(self) -> None:
        self.create_link_button.setEnabled(not self.watching)
        self.pays_button.setVisible(self.training)
        self.pays_button.setEnabled(self.watching)
        self.deactivate_button.setEnabled(self.watching or self.model.link_active)

    # ---- customers -------------------------------------------------------------------------
    def _build_customer(self) -> QWidget:
        page = QWidget()
        col = QVBoxLayout(page)
        row = QHBoxLayout()
        self.customer_query = QLineEdit()
        self.customer_query.returnPressed.connect(self.find_customer)
        # keys under their words: side by side with the field they ran off 1024 px at 150 % text
        self.find_button = self.button(lambda: tr("Find"), "F5", self.find_customer, stacked=True)
        self.new_customer_button = self.button(lambda: tr("New customer"), "F6", self.new_customer,
                                               stacked=True)
        row.addWidget(self.customer_query, 1)
        row.addWidget(self.find_button)
        row.addWidget(self.new_customer_button)
        col.addLayout(row)
        self.customer_list = QListWidget()
        self.customer_list.setMaximumHeight(120)
        self.customer_list.currentRowChanged.connect(lambda _r: self._customer_buttons())
        col.addWidget(self.customer_list)
        # the token on a row of its own, the keys under their words: a token and two buttons on
        # one row made this tab scroll sideways by 156 px at 1024x768 in Spanish at 125 % text
        self.token_field = QLineEdit()
        col.addWidget(self.token_field)
        self.add_card_button = self.button(lambda: tr("Add card from token"), "F7", self.add_card,
                                           stacked=True)
        self.charge_customer_button = self.button(lambda: tr("Charge default card"), "F4",
                                                  self.charge_customer, "Primary", stacked=True)
        # one over the other: side by side they ran off 1024 px in Spanish at 150 % text (#39)
        keys = QGridLayout()
        keys.addWidget(self.add_card_button, 0, 0, Qt.AlignmentFlag.AlignLeft)
        keys.addWidget(self.charge_customer_button, 1, 0, Qt.AlignmentFlag.AlignLeft)
        col.addLayout(keys)
        col.addStretch(1)
        self._customer_buttons()
        return page

    def _list_customers(self) -> None:
        """The customers found, one row each, in the window's language."""
        row = self.customer_list.currentRow()
        self.customer_list.clear()
        for c in self.customers:
            card = c.default_card
            self.customer_list.addItem(f"{c.email}  ({c.id})  " + (
                f"{tr('default card')}: {card.brand} {card.masked} {card.expiry}" if card
                else tr("no saved card")))
        if 0 <= row < len(self.customers):
            self.customer_list.setCurrentRow(row)

    def selected_customer(self) -> Customer | None:
        return self.model.customer(self.customer_list.currentRow())

    def find_customer(self) -> None:
        from cashier.flows import card_not_present

        if not self._usable():
            return
        self._working(lambda: tr("Looking up the customer…"))
        self.till.run(card_not_present.find_customers(self.till.ctx, self.customer_query.text()),
                      "find customer",
                      done=self._show_customers, failed=self._failed)

    def new_customer(self) -> None:
        from cashier.flows import card_not_present

        if not self._usable():
            return
        self.till.run(card_not_present.create_customer(self.till.ctx, self.customer_query.text()),
                      "new customer",
                      done=lambda c: self._show_customers([c]), failed=self._failed)

    def _show_customers(self, customers: list[Customer]) -> None:
        self.model.customers_found(customers)
        self._list_customers()
        if self.customers:
            self.customer_list.setCurrentRow(0)
        self.say_in(self.result_title, lambda: tr("Customers found:") + f" {len(self.customers)}")
        self.result_text.setText("")
        self._outcome_style("")
        self._customer_buttons()
        self.customers_shown.emit(self.customers)

    def add_card(self) -> None:
        from cashier.flows import card_not_present

        customer = self.selected_customer()
        if customer is None or not self._usable():
            return
        token = self.token_field.text().strip()
        self.token_field.clear()
        self.till.run(card_not_present.add_card(self.till.ctx, customer, token=token), "add card",
                      done=lambda c: self._replace_customer(c), failed=self._failed)

    def _replace_customer(self, customer: Customer) -> None:
        self.model.replace_customer(customer)
        self._show_customers(self.model.customers)

    def charge_customer(self) -> None:
        from cashier.flows import card_not_present

        customer = self.selected_customer()
        if customer is None or not self._usable():
            return
        if not self.amount.entered:
            self._not_sent(tr("Amount: type the amount first (it must be greater than zero)."))
            return
        self.charge_customer_button.setEnabled(False)
        self._working(lambda: tr("Charging the saved card…"))
        self.till.run(card_not_present.charge_customer(self.till.ctx, customer, self.amount.value,
                                             currency=self.till.currency),
                      "charge customer", done=self.show_result, failed=self._failed)

    def _customer_buttons(self) -> None:
        row = self.customer_list.currentRow()
        self.charge_customer_button.setEnabled(self.model.can_charge(row))
        self.add_card_button.setEnabled(self.model.customer(row) is not None)

    # ---- results ---------------------------------------------------------------------------
    def show_result(self, result: CardNotPresentResult) -> None:
        self.result = result
        self.say_in(self.result_title, lambda: {
            "approved": tr("Approved"), "declined": tr("Declined"), "error": tr("Not charged (error)"),
            "unknown": tr("Checking with the payment service…")}.get(result.outcome, result.outcome))
        self._outcome_style(result.outcome)
        from cashier.entry_rules import is_approved, is_checking  # loaded with the runtime

        def words() -> str:
            parts = []
            entry = result.entry
            if entry is not None:
                from cashier.entry_rules import shown_amount  # loaded with the runtime

                parts.append(format_money(shown_amount(entry), entry.currency))
            if result.card:
                parts.append(result.card)
            if result.charge_id:
                parts.append(f"{tr('Charge')}: {result.charge_id}")
            if not is_approved(result.outcome) and result.message:
                parts.append(result.message)
            if is_checking(result.outcome):
                parts.append(tr("Do not take the payment another way: recovery finds out what happened."))
            return "  ".join(parts)
        self.say_in(self.result_text, words)
        self.charge_button.setEnabled(True)
        self._customer_buttons()
        if is_approved(result.outcome):
            self.amount.clear()
        self.result_shown.emit(result)

    def _working(self, words: Callable[[], str]) -> None:
        self.say_in(self.result_title, words)
        self.result_text.setText("")
        self._outcome_style("")

    def _not_sent(self, exc: BaseException | str) -> None:
        self.say_in(self.result_title, lambda: tr("Not sent"))
        self.say_in(self.result_text, lambda: error_words(exc, self.till.currency)
                                 if isinstance(exc, BaseException) else exc)
        self._outcome_style("error")
        self.result_shown.emit(None)

    def _failed(self, exc: BaseException) -> None:
        from cashier.errors import CashierError

        if not isinstance(exc, CashierError):
            raise exc
        self._not_sent(exc)
        self.charge_button.setEnabled(True)
        self._customer_buttons()

    def _outcome_style(self, outcome: str) -> None:
        restyle(self.result_box, "outcome", outcome)

    def _flow_event(self, event: object) -> None:
        news = self.model.link_event(event)  # the core tells which events are the link's
        if news is LinkNews.CHARGE:
            self._list_charges()
        elif news is LinkNews.UNREACHABLE:
            self.say_in(self.link_status, lambda: tr("The payment service is not answering; still watching…"))

    def _list_charges(self) -> None:
        """The charges seen on the link, one row each, in the window's language."""
        self.link_charges.clear()
        for event in self.model.seen:
            state = {"successful": tr("paid"), "failed": tr("declined")}.get(event.status, event.status)
            self.link_charges.addItem(f"{format_money(event.amount, self.till.currency)}  {state}  "
                                      f"{event.card or ''}  {event.failure or ''}".strip())

    # ---- plumbing --------------------------------------------------------------------------
    @property
    def training(self) -> bool:
        return self.till.runtime is not None and self.till.runtime.sandbox is not None

    def _usable(self) -> bool:
        if not self.till.ready:
            self._not_sent(tr("The till is still starting; try again in a moment."))
            return False
        if self.till.ctx.charge_api is None:
            self._not_sent(tr("This till takes no phone or link payments: ask support to set them up."))
            return False
        return True

    def _started(self) -> None:
        self._link_buttons()
        self._training_cards()

    def _training_cards(self) -> None:
        if not self.training:
            self.cards_hint.setText("")
            return
        from cashier.sandbox import charge_api_test_cards

        rows = {r["outcome"]: r for r in reversed(charge_api_test_cards())}
        # what each card does, in the window's language (the sandbox describes them in English)
        self.say_in(self.cards_hint, lambda: tr("Training test cards:") + "  " + ";  ".join(
            f"{rows[o]['number']} ({training_card_words().get(o, rows[o]['description'])})"
            for o in TRAINING_CARDS if o in rows))

    def entry_key(self, event: QKeyEvent) -> bool:
        return handle_amount_key(self.amount, event)

    def entered(self) -> None:
        if self.on_waiting:
            self.deactivate_button.setFocus()
        else:
            self.amount.setFocus()

    def retranslate(self) -> None:
        super().retranslate()
        self.amount_label.setText(tr("Amount"))
        self.amount.refresh()
        self.tabs.setTabText(0, tr("Phone order"))
        self.tabs.setTabText(1, tr("Pay by link"))
        self.tabs.setTabText(2, tr("Customer"))
        self.number_label.setText(tr("Card number"))
        self.expiry_label.setText(tr("Expiry (MM/YY)"))
        self.cvc_label.setText(tr("Security code"))
        self.postal_label.setText(tr("Postal code"))
        self.authorize_only.setText(tr("Authorize only (capture later)"))
        self.phone_hint.setText(tr("Read the card over the phone. It is used once to make a token and "
                                   "cleared from the screen; it is never stored."))
        self.customer_query.setPlaceholderText(tr("Customer e-mail or id (cust_…)"))
        self.token_field.setPlaceholderText(tr("Card token (tok_…)"))
        a11y.name(self.tabs, tr("Phone order, pay by link or customer"))
        a11y.name(self.customer_query, tr("Find a customer"), self.customer_query.placeholderText())
        a11y.name(self.token_field, tr("Card token"), self.token_field.placeholderText())
        a11y.name_view(self.customer_list, tr("Customers found"))
        a11y.name_view(self.link_charges, tr("Charges on the link"))
        a11y.name(self.scan, tr("Payment link QR code"),
                  tr("The customer scans it with their phone to open the payment link."))
        self._list_customers()
        self._list_charges()
        self._training_cards()
