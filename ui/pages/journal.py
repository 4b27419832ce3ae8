"""Journal: today's transactions, searchable; refund (full or partial) and void from a row."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
)

from cashier.clerks import Action
from cashier.errors import CashierError, ValidationError
from cashier.money import parse_shown_amount
from ui import a11y
from ui.core_words import printer_words
from ui.i18n import format_money, format_time, tr
from ui.keys import EMAIL, GIVE_BACK
from ui.manager_prompt import ask_manager
from ui.pages.base import Page, hint, restyle
from ui.receipt import cash_words, kind_name, reason_text, receipt_lines, state_name
from ui.widgets.amount import FitAmountDisplay
from ui.widgets.tables import filling

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from ui.gui import Gui
    from ui.till import Till

SEARCH_FIELDS = ("invoice", "amount", "last4", "since")


class JournalPage(Page):

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.entries: list[Any] = []
        self._armed: int | None = None
        self._refund_armed: tuple[int, Decimal] | None = None  # (entry id, amount) F6 asked about
        #: the refund just made from the selected row: (that row's entry id, the refund's entry
        #: id); its receipt is what Ctrl+E sends while one of the two is chosen (issue #41)
        self._refunded: tuple[int, int] | None = None
        search = QHBoxLayout()
        self.search_by = QComboBox()
        for key in SEARCH_FIELDS:
            self.search_by.addItem("", key)
        self.search_text = QLineEdit()
        self.search_text.returnPressed.connect(self.refresh)
        self.today_only = QCheckBox()
        self.today_only.setChecked(True)
        self.today_only.toggled.connect(lambda _: self.refresh())
        self.search_button = self.button(lambda: tr("Search"), "Ctrl+F", self._search_key, stacked=True)
        self.clear_button = self.button(lambda: tr("Show all"), "Ctrl+L", self.clear_search, stacked=True)
        # two rows: what and where to search, then the keys (one row ran off 1024 in Spanish)
        search.addWidget(self.search_by)
        search.addWidget(self.search_text, 1)
        self.layout_.addLayout(search)
        search_keys = self.search_keys = QHBoxLayout()
        search_keys.addWidget(self.today_only)
        search_keys.addStretch(1)
        search_keys.addWidget(self.search_button)
        search_keys.addWidget(self.clear_button)
        self.layout_.addLayout(search_keys)
        self.search_error = hint()
        self.search_error.setObjectName("ErrorText")
        self.layout_.addWidget(self.search_error)
        self.table = QTableWidget(0, 7)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(40)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(6, QHeaderView.ResizeMode.Stretch)
        # one line a row: a long note (a host error text) is elided; the full text is its tooltip
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.itemSelectionChanged.connect(self._selected)
        self.search_text.installEventFilter(self)
        self.table.installEventFilter(self)
        self.layout_.addWidget(self.table, 1)
        actions = QHBoxLayout()
        self.refund_label = QLabel()
        self.refund_amount = FitAmountDisplay(till.currency)
        self.refund_amount.what = lambda: tr("Refund amount")
        self.refund_amount.setObjectName("SmallAmount")
        self.refund_amount.setMinimumHeight(52)
        self.refund_amount.setMinimumWidth(200)
        self.refund_button = self.button(lambda: tr("Refund"), "F6", self.refund, "Primary", stacked=True)
        self.void_button = self.button(lambda: tr("Void"), GIVE_BACK, self.void, "Danger", stacked=True)
        # the second row's keys go under their text: four side by side fit 1024 in Spanish
        self.refresh_button = self.button(lambda: tr("Refresh"), "F5", self.refresh, stacked=True)
        self.details_button = self.button(lambda: tr("Details"), "F9", self.show_details, stacked=True)
        self.reprint_button = self.button(lambda: tr("Reprint"), "F8", self.reprint, stacked=True)
        self.email_button = self.button(lambda: tr("E-mail receipt"), EMAIL, self.email_receipt, stacked=True)
        self.ticket_refund_button = self.button(lambda: tr("Refund ticket lines"), "F7",
                                                self.refund_ticket, stacked=True)
        self.ticket_dialog: Any = None
        # what the last action did, or the question a refund or void asks before it is sent: just
        # above the keys, in large type while it asks (it was small grey text at the bottom)
        self.message = hint()
        self.layout_.addWidget(self.message)
        actions.addWidget(self.refund_label)
        actions.addWidget(self.refund_amount)
        actions.addWidget(self.refund_button)
        actions.addWidget(self.void_button)
        actions.addStretch(1)
        self.layout_.addLayout(actions)
        more = QHBoxLayout()  # a second row: one row of seven cut the buttons off at 1024x768
        more.addWidget(self.details_button)
        more.addWidget(self.reprint_button)
        more.addWidget(self.ticket_refund_button)
        more.addStretch(1)
        self.layout_.addLayout(more)
        # Refresh beside Search and Show all (the list's own keys): in the row above, with
        # "Devolver líneas del ticket", it ran off 1024 px at 150 % text (issue #39)
        self.search_keys.addWidget(self.refresh_button)
        # the selected entry in full: every event with the host's codes (for the manager)
        self.details = QPlainTextEdit()
        self.details.setObjectName("Details")
        self.details.setReadOnly(True)
        self.details.setMaximumHeight(180)
        self.details.setVisible(False)
        self.layout_.addWidget(self.details)
        # F9 shows the entry, then Ctrl+E sends its receipt again: both button rows are full
        # at 1024 wide in Spanish, so the button shows with the details (and under a refund's
        # result, where it sends the refund's receipt)
        self.email_button.setVisible(False)
        self.layout_.addWidget(self.email_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.refund_amount.changed.connect(lambda _v: self._disarm_refund())
        self.print_button = self.reprint_button  # what Page.print_on_pad disables while printing
        self.result_message = self.message
        till.bridge.payment_changed.connect(self._changed)
        self.retranslate()
        self._selected()

    def retranslate(self) -> None:
        super().retranslate()
        names = {"invoice": tr("Invoice"), "amount": tr("Amount"), "last4": tr("Card last four"),
                 "since": tr("Since time (HH:MM)")}
        for i, key in enumerate(SEARCH_FIELDS):
            self.search_by.setItemText(i, names[key])
        self.search_text.setPlaceholderText(tr("What to look for"))
        self.today_only.setText(tr("Today only"))
        self.table.setHorizontalHeaderLabels([tr("Time"), tr("Invoice"), tr("Kind"), tr("Card"),
                                              tr("Amount"), tr("State"), tr("Notes")])
        a11y.name(self.search_by, tr("Search by"))
        a11y.name(self.search_text, tr("Search"),
                  tr("What to look for; Up and Down move through the entries found."))
        a11y.name_view(self.table, tr("Journal entries"),
                       tr("One row per payment: time, invoice, kind, card, amount, state and notes."))
        a11y.name(self.details, tr("Entry details"))
        self.refund_label.setText(tr("Refund amount"))
        self.refund_amount.refresh()
        self._fill()

    def entered(self) -> None:
        self.search_text.setFocus()  # typing searches at once
        self.refresh()

    def take_focus(self) -> None:
        self.search_text.setFocus()

    def take_key(self, event: QKeyEvent) -> bool:
        """A key that reached the window unfocused: text goes to the search."""
        if event.text() and event.text().isprintable():
            self.search_text.setFocus()
            self.search_text.insert(event.text())
            return True
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """In the search, Up and Down move through the rows; on a row, typing searches again."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key, text = event.key(), event.text()
            if watched is self.search_text and key in (Qt.Key.Key_Down, Qt.Key.Key_Up) and self.entries:
                row = self.table.currentRow()
                step = 1 if key == Qt.Key.Key_Down else -1
                self.table.setFocus()
                self.table.selectRow(max(0, min(len(self.entries) - 1, row + step if row >= 0 else 0)))
                return True
            if (watched is self.table and text and text.isprintable() and not text.isspace()
                    and not event.modifiers() & (Qt.KeyboardModifier.ControlModifier
                                                 | Qt.KeyboardModifier.AltModifier)):
                self.search_text.setFocus()
                self.search_text.insert(text)
                return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and (self._refund_armed or self._armed is not None):
            self.cancel_armed()
            event.accept()
            return
        super().keyPressEvent(event)

    def say_in(self, widget: Any, words: Callable[[], str]) -> None:
        if widget is self.message:
            restyle(self.message, "asking", "false")  # an answer, not a question: plain again
        super().say_in(widget, words)

    def ask(self, words: Callable[[], str]) -> None:
        """A refund or void asked before it is sent: the question (with the amount) in large type
        just above the keys, until it is answered or another action is said."""
        self.say_in(self.message, words)
        restyle(self.message, "asking", "true")

    def cancel_armed(self) -> None:
        """Esc: a refund or void asked about is not sent (the next press asks again)."""
        self._refund_armed = None
        self._armed = None
        self.say_in(self.message, lambda: tr("Not sent: nothing was given back."))

    def _search_key(self) -> None:
        self.search_text.setFocus()
        self.refresh()

    def clear_search(self) -> None:
        self.search_text.clear()
        self.refresh()

    def _changed(self, _entry: Any) -> None:
        if self.isVisible():
            self.refresh()

    # ---- searching -------------------------------------------------------------------------
    def filters(self) -> dict[str, Any]:
        """The search as journal filters; ValidationError names the field and the rule."""
        out: dict[str, Any] = {}
        if self.today_only.isChecked():
            out["day"] = datetime.now().astimezone().date().isoformat()
        text = self.search_text.text().strip()
        if not text:
            return out
        field = str(self.search_by.currentData())
        if field == "invoice":
            if not text.isdigit() or len(text) > 10:
                raise ValidationError("invoice", "must be 1 to 10 digits")
            out["invoice"] = text.zfill(10)
        elif field == "amount":
            out["amount"] = parse_shown_amount(text, self.till.currency, "amount")  # "$12.50" too
        elif field == "last4":
            if not (text.isdigit() and len(text) == 4):
                raise ValidationError("card last four", "must be exactly 4 digits")
            out["last4"] = text
        elif field == "since":
            try:
                at = datetime.strptime(text, "%H:%M")
            except ValueError:
                raise ValidationError("since", "must be a time such as 14:30") from None
            local = datetime.now().astimezone().replace(hour=at.hour, minute=at.minute, second=0,
                                                        microsecond=0)
            out["since"] = local.astimezone(UTC).isoformat(timespec="milliseconds")
        return out

    def refresh(self) -> None:
        if not self.till.ready:
            return
        try:
            filters = self.filters()
        except CashierError as exc:
            self.say_refusal(self.search_error, exc)
            return
        self.search_error.clear()

        searched = bool(self.search_text.text().strip())

        def got(entries: Any) -> None:
            self.entries = list(entries)
            self._fill()
            if self.entries and self.selected() is None:
                # the first row (found, or the latest), ready for F6, F8, F9 or Down
                self.table.selectRow(0)
            if not self.entries:
                self.say_in(self.search_error,
                            lambda: tr("Nothing found: no entry matches this search.") if searched
                            else tr("No entries yet."))

        def failed(exc: BaseException) -> None:
            if not isinstance(exc, CashierError):
                raise exc
            self.say_refusal(self.search_error, exc)
        self.till.run(self.till.ctx.journal.search(**filters), "journal search", done=got, failed=failed)

    def _fill(self) -> None:
        current = self.selected()
        with filling(self.table):
            self.table.setRowCount(len(self.entries))
            for r, e in enumerate(self.entries):
                amount = rules().shown_amount(e)
                values = [format_time(e.created_at), e.invoice or "", kind_name(str(e.kind)),
                          e.card or (f"…{e.card_last4}" if e.card_last4 else ""),
                          format_money(amount, e.currency), state_name(rules().shown_state(e)),
                          self._notes(e)]
                for c, v in enumerate(values):
                    item = QTableWidgetItem(v)
                    if c == 6 and v:
                        item.setToolTip(v)
                    if c == 4:
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    self.table.setItem(r, c, item)
                if current is not None and e.id == current.id:
                    self.table.selectRow(r)
        a11y.table_rows(self.table)
        self._selected()

    def _notes(self, e: Any) -> str:
        notes = []
        if e.training:
            notes.append(tr("TRAINING"))
        if e.partial:
            notes.append(tr("partial approval"))
        if e.refunded:
            notes.append(tr("refunded") + " " + format_money(e.refunded, e.currency))
        if e.tip:
            notes.append(tr("tip") + " " + format_money(e.tip, e.currency))
        if e.original_invoice:
            notes.append(tr("for invoice") + " " + e.original_invoice)
        said = reason_text(rules().reason(e), e.currency)
        if said and not e.partial:
            notes.append(said)  # the host's own text is in the details (F9)
        return "; ".join(notes)

    def selected(self) -> Any:
        model = self.table.selectionModel()
        rows = model.selectedRows() if model is not None else []
        if not rows or rows[0].row() >= len(self.entries):
            return None
        return self.entries[rows[0].row()]

    def select_invoice(self, invoice: str) -> bool:
        for r, e in enumerate(self.entries):
            if e.invoice == invoice:
                self.table.selectRow(r)
                return True
        return False

    def _selected(self) -> None:
        e = self.selected()
        if e is None or e.id != self._armed:
            self._armed = None
        if self._refunded is not None and (e is None or e.id not in self._refunded):
            self._refunded = None  # another row: Ctrl+E is that row's receipt again
        self._refund_armed = None
        refundable = e is not None and rules().can_refund(e)
        voidable = e is not None and rules().can_void(e)
        self.refund_button.setEnabled(refundable)
        self.refund_amount.setEnabled(refundable)
        self.void_button.setEnabled(voidable)
        self.details_button.setEnabled(e is not None)
        self.reprint_button.setEnabled(e is not None and (e.invoice is not None or e.ticket_id is not None))
        self.email_button.setEnabled(self.reprint_button.isEnabled() or self._refunded is not None)
        self.email_button.setVisible(self.details.isVisible() or self._refunded is not None)
        self.ticket_refund_button.setEnabled(e is not None and e.ticket_id is not None)
        if refundable:
            self.refund_amount.set_value(rules().refundable_amount(e))  # full; type less for partial
        else:
            self.refund_amount.clear()
        if self.details.isVisible():
            self.show_details()

    def _disarm_refund(self) -> None:
        if self._refund_armed is not None:  # Esc or another amount: what was asked is not sent
            self.say_in(self.message, lambda: tr("Not sent: nothing was given back."))
        self._refund_armed = None

    # ---- the entry in full ------------------------------------------------------------------
    def show_details(self) -> None:
        """Every event of the selected entry, with the host's codes and texts."""
        e = self.selected()
        if e is None or not self.till.ready:
            self.details.setVisible(False)
            self.email_button.setVisible(self._refunded is not None)
            return

        def got(events: Any) -> None:
            cash = rules().cash_given(events)  # cash said as on the Sale screen, not as a note
            said = (f"{tr('Host text')}: {e.message or '-'}" if cash is None else
                    cash_words(cash.given, e.approved, cash.change, e.currency))
            head = [f"{kind_name(str(e.kind))} {e.invoice or ''}  {state_name(str(e.state))}  "
                    f"{format_money(rules().shown_amount(e), e.currency)}",
                    f"{tr('Requested')}: {format_money(e.requested, e.currency)}  "
                    f"{tr('Approved')}: {format_money(e.approved, e.currency)}  "
                    f"{tr('Tip')}: {format_money(e.tip, e.currency)}  "
                    f"{tr('Refunded')}: {format_money(e.refunded, e.currency)}",
                    f"{tr('Card')}: {e.card or '-'}  {tr('Approval code')}: {e.auth_code or '-'}  "
                    f"{tr('Response code')}: {e.response_code or '-'}  "
                    f"{tr('Host code')}: {e.host_code or '-'}",
                    said, ""]
            lines = [f"{format_time(ev.at)}  {ev.type}  {ev.actor}  {_event_data(ev.data)}"
                     for ev in events]
            self.details.setPlainText("\n".join(head + lines))
            self.details.setVisible(True)
            self.email_button.setVisible(True)
        self.till.run(self.till.ctx.journal.events(e.id), "journal details", done=got)

    def email_receipt(self) -> None:
        """The refund just made's receipt, else the selected entry's again, by e-mail (its
        ticket's when it has one)."""
        from ui.email_prompt import email_receipt

        if self._refunded is not None:
            email_receipt(self.gui, self, entry_id=self._refunded[1],
                          said=lambda text: self.say_in(self.message, lambda: text))
            return
        e = self.selected()
        if e is None or (e.invoice is None and e.ticket_id is None):
            return
        email_receipt(self.gui, self, entry_id=e.id, reprint=True,
                      said=lambda text: self.say_in(self.message, lambda: text))

    def reprint(self) -> None:
        """The selected entry's receipt again: its ticket's receipt when it belongs to one, on
        the receipt printer (the PIN pad's printer when the till has no cash desk)."""
        e = self.selected()
        if e is None or (e.invoice is None and e.ticket_id is None):
            return
        desk = self.gui.cashdesk if self.gui is not None else None
        if desk is not None and desk.printer is not None:
            try:
                _what, job, _queued = desk.reprint_entry(e.id)
            except CashierError as exc:
                self.say_refusal(self.message, exc)
                return
            self.reprint_button.setEnabled(False)
            self.say_in(self.message, lambda: tr("Printing the receipt…"))

            def said(result: Any) -> None:
                self.reprint_button.setEnabled(True)
                if result is not None and result.printed:
                    self.say_in(self.message, lambda: tr("Receipt printed."))
                else:
                    status = result.error if result is not None else desk.printer_status
                    self.say_in(self.message, lambda: tr("Could not print:") + " "
                                + printer_words(status).rstrip(".") + ". "
                                + tr("The receipt is in the journal; print it again later."))
            self.till.run(asyncio.to_thread(desk.wait_printed, job), "reprint", done=said)
            return
        if e.invoice is None:
            return
        p = self.till.profile
        self.print_on_pad(receipt_lines(e, p.company_name, p.till_id),
                          lambda: tr("The receipt is in the journal; try again when the PIN pad is "
                                     "free."))

    # ---- actions ---------------------------------------------------------------------------
    def _done(self, result: Any) -> None:
        e = result.entry

        def words() -> str:
            amount = format_money(e.approved or e.requested, e.currency)
            said = reason_text(rules().reason(e), e.currency)
            return (f"{kind_name(str(e.kind))} {e.invoice}: {state_name(str(e.state))} "
                    f"{amount}. {said}".strip())
        self.say_in(self.message, words)
        self.refresh()

    def _refund_done(self, source: int, result: Any, said: Callable[[Any], None]) -> None:
        """A refund's result (``said`` words it): its receipt offered by e-mail (Ctrl+E) when it
        gave money back."""
        if result.entry is not None and rules().took_money(str(result.outcome)):
            self._refunded = (source, result.entry.id)
            self.email_button.setEnabled(True)
            self.email_button.setVisible(True)
        said(result)

    def _charge_done(self, result: Any) -> None:
        e = result.entry

        def words() -> str:
            amount = format_money(e.refunded or e.requested, e.currency) if e is not None else ""
            what = tr("Phone/link refund") + (f" {result.charge_id}" if result.charge_id else "")
            state = state_name(str(e.state)) if e is not None else result.outcome
            note = "" if rules().is_approved(result.outcome) else result.message
            return f"{what}: {state} {amount}. {note}".strip()
        self.say_in(self.message, words)
        self.refresh()

    def _failed(self, exc: BaseException) -> None:
        if not isinstance(exc, CashierError):
            raise exc
        self.say_refusal(self.message, exc)
        self._selected()

    def refund(self) -> None:
        """Two presses: the first names what goes back and how much, the second sends it."""
        e = self.selected()
        if e is None:
            return
        amount: Decimal = self.refund_amount.value
        if self._refund_armed != (e.id, amount):
            self._refund_armed = (e.id, amount)
            what = e.invoice or e.auth_code or ""
            card = f" ({e.card})" if e.card else ""
            self.ask(lambda: tr("Refund %s of invoice %s to the card%s? Press F6 again to confirm.")
                     % (format_money(amount, e.currency), what, card))
            return
        self._refund_armed = None
        if rules().is_charge_api(e):
            from cashier.flows.card_not_present import refund_charge

            approval = ask_manager(self, self.till.ctx, Action.REFUND, amount)
            if not approval.go:
                self.say_in(self.message, lambda: approval.why)
                return
            self.refund_button.setEnabled(False)
            self.say_in(self.message, lambda: tr("Refunding…"))
            self.till.run(refund_charge(self.till.ctx, e, amount, manager=approval.manager),
                          "charge refund",
                          done=lambda result: self._refund_done(e.id, result, self._charge_done),
                          failed=self._failed)
            return
        from cashier.flows.payments import refund

        approval = ask_manager(self, self.till.ctx, Action.REFUND, amount)
        if not approval.go:
            self.say_in(self.message, lambda: approval.why)
            return
        self.refund_button.setEnabled(False)
        self.say_in(self.message, lambda: tr("Refunding…"))
        self.till.run(refund(self.till.ctx, amount, original_invoice=str(e.invoice),
                             manager=approval.manager), "refund",
                      done=lambda result: self._refund_done(e.id, result, self._done), failed=self._failed)

    def refund_ticket(self) -> None:
        """The selected payment's ticket, some of its lines or all of it, back to its tenders."""
        from cashier.flows.ticket import load

        e = self.selected()
        if e is None or e.ticket_id is None:
            return
        self.till.run(load(self.till.ctx, e.ticket_id), "ticket", done=self._choose_ticket_lines,
                      failed=self._failed)

    def _choose_ticket_lines(self, ticket: Any) -> None:
        from ui.ticket_refund import TicketRefundDialog

        dialog = TicketRefundDialog(ticket, self.till.currency, self)
        dialog.accepted.connect(lambda: self._send_ticket_refund(dialog))
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.ticket_dialog = dialog
        dialog.open()  # window-modal without a nested event loop: the flows keep running

    def _send_ticket_refund(self, dialog: Any) -> None:
        from cashier.flows.ticket import refund_ticket

        self.ticket_dialog = None
        ticket, lines, total = dialog.ticket, dialog.chosen_lines(), dialog.total
        approval = ask_manager(self, self.till.ctx, Action.REFUND, total)
        if not approval.go:
            self.say_in(self.message, lambda: approval.why)
            return
        before = {e.id for e in ticket.refunds}
        source = self.selected()
        self.say_in(self.message, lambda: tr("Refunding…"))

        def done(after: Any) -> None:
            back = after.given_back(excluding=before)
            made = [r for r in after.refunds if r.id not in before and r.approved]
            if made and source is not None:  # the ticket's receipt with its refund: Ctrl+E
                self._refunded = (source.id, made[-1].id)
                self.email_button.setEnabled(True)
                self.email_button.setVisible(True)
            cur = self.till.currency
            if after.gave_back_all(total, excluding=before):
                self.say_in(self.message, lambda: tr("Ticket %s: %s refunded.")
                            % (after.id, format_money(back, cur)))
            else:  # part of it refused: say how much of what was asked went back
                self.say_in(self.message, lambda: tr("Ticket %s: %s of %s refunded; the rest was not.")
                            % (after.id, format_money(back, cur), format_money(total, cur)))
            self.refresh()
        self.till.run(refund_ticket(self.till.ctx, ticket.id, lines=lines, manager=approval.manager),
                      "ticket refund", done=done, failed=self._failed)

    def void(self) -> None:
        """Two presses: a void reverses money, so the first press only asks to confirm."""
        e = self.selected()
        if e is None:
            return
        if self._armed != e.id:
            self._armed = e.id
            if rules().is_charge_api(e):
                self.ask(lambda: tr("Give back all of charge %s (%s)? Press %s again "
                                    "to confirm.")
                            % (e.auth_code, format_money(rules().refundable_amount(e), e.currency),
                               GIVE_BACK))
                return
            self.ask(lambda: tr("Void invoice %s (%s)? Press %s again to confirm.")
                     % (e.invoice, format_money(rules().shown_amount(e), e.currency), GIVE_BACK))
            return
        self._armed = None
        if rules().is_charge_api(e):  # no void on the Charge API: a full refund (releases an auth)
            from cashier.flows.card_not_present import refund_charge

            approval = ask_manager(self, self.till.ctx, Action.REFUND, rules().refundable_amount(e))
            if not approval.go:
                self.say_in(self.message, lambda: approval.why)
                return
            self.void_button.setEnabled(False)
            self.say_in(self.message, lambda: tr("Refunding…"))
            self.till.run(refund_charge(self.till.ctx, e, manager=approval.manager),
                          "charge give back", done=self._charge_done, failed=self._failed)
            return
        from cashier.flows.recovery import void

        approval = ask_manager(self, self.till.ctx, Action.VOID, e.approved)
        if not approval.go:
            self.say_in(self.message, lambda: approval.why)
            return
        self.void_button.setEnabled(False)
        self.say_in(self.message, lambda: tr("Voiding…"))
        self.till.run(void(self.till.ctx, str(e.invoice), manager=approval.manager), "void",
                      done=self._done, failed=self._failed)


def _event_data(data: dict[str, Any]) -> str:
    """An event's fields on one line (the journal never holds a full card number)."""
    return ", ".join(f"{k}={v}" for k, v in data.items() if v not in (None, "", {}))


def rules() -> ModuleType:
    """``cashier.entry_rules``, loaded with the first journal row rather than at start-up: it
    brings the journal package (~54 ms of imports measured with ``-X importtime``), which the
    first paint must not wait for (``tests/ui/test_startup_imports.py`` checks it stays out)."""
    from cashier import entry_rules

    return entry_rules
