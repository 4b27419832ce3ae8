"""Manager: behind the manager PIN. Batch totals and reconciliation, batch close, unresolved
entries and their actions, offline/online mode, the till's settings and the PIN pad's status.

Manager actions run flows with the manager as the actor, so the journal records who did them.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from cashier.clerks import Action, Clerk, SignInError
from ui import a11y
from ui.core_words import error_words, say
from ui.i18n import format_money, format_time, tr
from ui.manager_prompt import ask_manager
from ui.pages.base import Page, PartStack, hint
from ui.pages.catalog import CatalogPart
from ui.receipt import kind_name, state_name
from ui.widgets.tables import filling

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.till import Till

#: Decision: one manager PIN per till, so the journal names the actor "manager".
MANAGER_ACTOR = "manager"


def compared_words(rec: Any, cur: str) -> str:
    """What a reconciliation compared and what matched, in plain words (``flows.batch.
    Reconciliation``: the journal's open batch against the host's totals, when it gives them)."""
    if rec.host is None:
        return tr("The payment host gives this till no batch totals: the figures above are the "
                  "till's own record of the open batch, not checked against the host.")
    h = rec.host
    host = tr("the host has sales: {sales} ({sales_amount}), refunds: {refunds} ({refunds_amount})"
              ).format(sales=h.sale_count, sales_amount=format_money(h.sale_amount, cur),
                       refunds=h.refund_count, refunds_amount=format_money(h.refund_amount, cur))
    if rec.matches:
        return tr("Compared the till's sales and refunds in the open batch with the payment host's "
                  "totals: they match ({host}).").format(host=host)
    return tr("Compared the till's sales and refunds in the open batch with the payment host's "
              "totals: they DIFFER ({host}). Run recovery, then compare again before closing.").format(
        host=host)


class ManagerPage(Page):

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.unlocked = False
        #: the manager whose PIN unlocked the screen: not asked again for an approval until the
        #: screen locks (Lock, idle, another clerk)
        self.manager: Clerk | None = None
        self.unresolved: list[Any] = []
        self.reconciliation: Any = None
        #: the open tabs the armed close named: the second press carries them over
        self._carry_over = False
        self.stack = PartStack()
        self.layout_.addWidget(self.stack, 1)
        self._build_lock()
        self._build_panel()
        from ui.idle_lock import IdleLock

        self.idle = IdleLock(self, self.lock, till.profile.manager_rules.lock_after_s)
        till.bridge.payment_changed.connect(self._changed)
        self.retranslate()

    # ---- the lock --------------------------------------------------------------------------
    def _build_lock(self) -> None:
        from ui.widgets.manager_lock import ManagerLock

        self.unlock_button = self.button(lambda: tr("Unlock"), "", self.unlock, "Primary")
        self.lock_page = ManagerLock(self._pin_refused, self._opened, self.unlock_button)
        lock = self.lock_page
        self.lock_text, self.pin, self.pin_error, self.pin_hint = lock.text, lock.pin, lock.error, lock.hint
        self.stack.addWidget(lock)

    def unlock(self) -> bool:
        return self.lock_page.try_pin()

    def _pin_refused(self, pin: str) -> str | None:
        roster = self.till.profile.roster  # the manager PIN, or a manager clerk's on a till with clerks
        if not roster.enabled and roster.manager_pin_hash is None:
            return tr("No manager PIN is set for this till: ask support to set one in its profile.")
        from cashier.approvals import manager_by_pin

        try:
            self.manager = manager_by_pin(self.till.profile.resolved_journal_path, roster, pin,
                                          "window manager screen")
        except SignInError as exc:
            return tr("Manager PIN: not accepted.") if "locked" not in str(exc) else say(str(exc))
        return None

    def _opened(self) -> None:
        self.unlocked = True
        self._show_pin_failures()
        self.idle.start()
        self.stack.setCurrentWidget(self.panel)
        self.refresh()

    def clerk_changed(self) -> None:
        if self.unlocked:
            self.lock()

    def lock(self) -> None:
        self.idle.stop()
        self.unlocked = False
        self.manager = None
        self.store_part.sign_out()
        self.stack.setCurrentWidget(self.lock_page)
        self.pin.setFocus()

    def entered(self) -> None:
        if self.unlocked:
            self.refresh()
        else:
            self.pin.setFocus()

    # ---- the panel -------------------------------------------------------------------------
    def _build_panel(self) -> None:
        # no scroll area of its own: the page scrolls (one inside the other kept a stale width
        # and scrolled sideways in Spanish at large text)
        inner = QWidget()
        grid = QGridLayout(inner)
        grid.setSpacing(12)
        # batch
        self.batch_box = QGroupBox()
        b = QVBoxLayout(self.batch_box)
        self.totals = QLabel()
        self.totals.setWordWrap(True)  # "Host totals: not offered…" is wider than 1024 at large text
        self.totals.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.batch_message = hint()
        a11y.live(self.batch_message)  # what the batch close asks, and how it ended
        row = QHBoxLayout()
        # three buttons share half the panel: shortcuts go under the text so nothing is cut off
        self.reconcile_button = self.button(lambda: tr("Reconcile"), "Alt+R", self.reconcile_now,
                                            stacked=True)
        self.close_button = self.button(lambda: tr("Close batch"), "Alt+B", self.close_batch, "Primary",
                                        stacked=True)
        self.override_button = self.button(lambda: tr("Close anyway"), "", self.close_anyway, "Danger",
                                           stacked=True)
        self.override_button.setVisible(False)
        self._close_armed = False  # Alt+B asked once and waits for the second press
        for w in (self.reconcile_button, self.close_button, self.override_button):
            row.addWidget(w)
        b.addWidget(self.totals)
        b.addLayout(row)
        b.addWidget(self.batch_message)
        grid.addWidget(self.batch_box, 0, 0)
        # unresolved
        self.unresolved_box = QGroupBox()
        u = QVBoxLayout(self.unresolved_box)
        self.unresolved_table = QTableWidget(0, 5)
        self.unresolved_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.unresolved_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.unresolved_table.verticalHeader().setVisible(False)
        self.unresolved_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.unresolved_table.horizontalHeader().setStretchLastSection(True)
        self.unresolved_table.setMinimumHeight(140)
        u.addWidget(self.unresolved_table)
        self.unresolved_empty = hint()
        u.addWidget(self.unresolved_empty)
        urow = QHBoxLayout()
        self.recover_button = self.button(lambda: tr("Run recovery"), "Alt+Y", self.run_recovery, "Primary",
                                          stacked=True)  # its key under it: 1024 px at 150 % (#39)
        self.void_unresolved_button = self.button(lambda: tr("Void selected"), "", self.void_selected,
                                                  "Danger")
        urow.addWidget(self.recover_button)
        urow.addWidget(self.void_unresolved_button)
        u.addLayout(urow)
        self.unresolved_message = hint()
        a11y.live(self.unresolved_message)
        u.addWidget(self.unresolved_message)
        self.corrections_hint = hint()  # payments the host held otherwise after all (issue 27)
        u.addWidget(self.corrections_hint)
        self.mismatches_hint = hint()  # answers that approved another payment (issue 46)
        u.addWidget(self.mismatches_hint)
        grid.addWidget(self.unresolved_box, 2, 0)
        # mode and terminal
        self.mode_box = QGroupBox()
        m = QVBoxLayout(self.mode_box)
        mrow = QHBoxLayout()
        self.offline_button = self.button(lambda: tr("Go offline"), "", lambda: self.set_mode(True))
        self.online_button = self.button(lambda: tr("Go online"), "", lambda: self.set_mode(False))
        mrow.addWidget(self.offline_button)
        mrow.addWidget(self.online_button)
        m.addLayout(mrow)
        self.mode_message = hint()
        m.addWidget(self.mode_message)
        # store and forward (issue 40): what is stored, and what the host declined at the forward
        self.offline_view = hint()
        a11y.live(self.offline_view)
        m.addWidget(self.offline_view)
        # one row per stored payment, then each declined at the forward with what to do
        self.offline_table = QTableWidget(0, 6)
        self.offline_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.offline_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.offline_table.verticalHeader().setVisible(False)
        self.offline_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.offline_table.horizontalHeader().setStretchLastSection(True)
        self.offline_table.setWordWrap(True)  # what to do wraps (1024 wide, in Spanish)
        self.offline_table.horizontalHeader().sectionResized.connect(
            lambda *_: self.offline_table.resizeRowsToContents())
        self.offline_table.setMinimumHeight(120)
        self.offline_table.setVisible(False)
        self._offline_now: dict[str, Any] | None = None
        m.addWidget(self.offline_table)
        self.terminal_button = self.button(lambda: tr("PIN pad status"), "", self.terminal_status)
        m.addWidget(self.terminal_button)
        self.terminal_view = QPlainTextEdit()
        self.terminal_view.setReadOnly(True)
        self.terminal_view.setObjectName("ReceiptView")
        self.terminal_view.setMinimumHeight(90)
        m.addWidget(self.terminal_view)
        # one column: side by side, the two boxes' buttons did not fit 1024 wide at large text
        grid.addWidget(self.mode_box, 1, 0)
        # settings
        self.settings_box = QGroupBox()
        s = QVBoxLayout(self.settings_box)
        self.settings_view = QLabel()
        self.settings_view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.settings_view.setWordWrap(True)
        s.addWidget(self.settings_view)
        self.pin_failures_view = QLabel()  # failed manager PINs at this till (the core's record)
        self.pin_failures_view.setObjectName("Breakdown")
        self.pin_failures_view.setWordWrap(True)
        s.addWidget(self.pin_failures_view)
        self.mail_failures_view = QLabel()  # e-mailed receipts given up (the core's outbox)
        self.mail_failures_view.setObjectName("Breakdown")
        self.mail_failures_view.setWordWrap(True)
        s.addWidget(self.mail_failures_view)
        s.addStretch(1)
        grid.addWidget(self.settings_box, 3, 0)
        self.store_part = StorePart(self)
        grid.addWidget(self.store_part, 4, 0)
        self.catalog_part = CatalogPart(self)
        grid.addWidget(self.catalog_part, 5, 0)
        wrapper = QWidget()
        col = QVBoxLayout(wrapper)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(inner, 1)
        self.lock_button = self.button(lambda: tr("Lock"), "Alt+L", self.lock)
        col.addWidget(self.lock_button, 0, Qt.AlignmentFlag.AlignRight)
        self.stack.addWidget(wrapper)
        self.panel = wrapper

    def retranslate(self) -> None:
        super().retranslate()
        self.lock_text.setText(tr("Manager PIN"))
        if self.till.profile.is_training and not self.till.profile.manager_pin_hash:
            self.pin_hint.setText(tr("Training till: the manager PIN is 1234."))
        self.batch_box.setTitle(tr("Batch"))
        self.unresolved_box.setTitle(tr("Unresolved payments"))
        self.mode_box.setTitle(tr("Mode and PIN pad"))
        self.settings_box.setTitle(tr("Till settings"))
        self.store_part.retranslate()
        self.catalog_part.retranslate()
        self.unresolved_table.setHorizontalHeaderLabels([tr("Invoice"), tr("Kind"), tr("Amount"),
                                                         tr("State"), tr("Since")])
        a11y.name_view(self.unresolved_table, tr("Unresolved payments"),
                       tr("One row per payment the host has not settled yet."))
        a11y.name(self.terminal_view, tr("PIN pad status"))
        self.offline_table.setHorizontalHeaderLabels([tr("State"), tr("Ticket"), tr("Amount"),
                                                      tr("Card"), tr("Time"), tr("Left / to do")])
        a11y.name_view(self.offline_table, tr("Stored payments"),
                       tr("One row per card payment stored offline, with the hours left before "
                          "its limit, then each one the host declined when it was sent on, with "
                          "what to do."))
        if self._offline_now is not None:
            self._show_offline(self._offline_now)
        self._show_settings()
        self._show_totals()
        self._fill_unresolved()

    def _changed(self, _entry: Any) -> None:
        if self.unlocked and self.isVisible():
            self.refresh()

    def _show_settings(self) -> None:
        p = self.till.profile
        rows = [(tr("Till"), f"{p.till_id} (#{p.till_number})"),
                (tr("Host"), tr("embedded sandbox (training)") if p.is_training else p.host_url),
                (tr("PIN pad"), self.till.terminal_id), (tr("Currency"), p.currency),
                (tr("Clerk"), str(p.clerk_id)), (tr("Language"), p.language),
                (tr("Journal"), str(p.resolved_journal_path))]
        self.settings_view.setText("\n".join(f"{k}: {v}" for k, v in rows))
        self._show_pin_failures()
        self._show_mail_failures()

    def _show_mail_failures(self) -> None:
        """E-mailed receipts not sent after the retries, with the server's reason (the address
        masked by the core): the manager sends them again from the Journal."""
        mail = getattr(self.gui, "mail", None) if self.gui is not None else None
        failures = mail.failures() if mail is not None else []
        lines = [f"{format_time(f['queued_at'])} · {tr('receipt')} {f['receipt']} · {f['to']} · "
                 f"{f['reason']}" for f in failures[:10]]
        self.mail_failures_view.setVisible(mail is not None)
        self.mail_failures_view.setText(tr("E-mailed receipts not sent") + ": "
                                        + ("\n" + "\n".join(lines) if lines else tr("none")))

    def _show_pin_failures(self) -> None:
        """The till's latest failed manager PINs (the core's record in the journal)."""
        from cashier.approvals import pin_failures

        failures = pin_failures(self.till.profile.resolved_journal_path, 10)
        lines = [f"{format_time(f['at'])} · {tr('clerk')} {f['clerk']} · {f['command']}"
                 + (" · " + tr("locked") if f["locked"] else "") for f in failures]
        self.pin_failures_view.setText(tr("Failed manager PINs") + ": "
                                       + ("\n" + "\n".join(lines) if lines else tr("none")))

    # ---- data ------------------------------------------------------------------------------
    def refresh(self) -> None:
        if not self.till.ready:
            return
        self.reconcile()
        self.store_part.refresh()
        self._show_mail_failures()
        self.catalog_part.refresh()

        def got(entries: Any) -> None:
            self.unresolved = list(entries)
            self._fill_unresolved()
        self.till.run(self.till.ctx.journal.unresolved(), "unresolved", done=got)

        def corrected(notes: Any) -> None:
            self.corrections_hint.setText("\n".join(
                tr("Corrected: invoice {invoice} was {was}, the host holds it {now} (found by "
                   "{who}).").format(invoice=n.data["_note"].get("invoice") or n.entry_id,
                                     was=state_name(n.data["_note"]["was"]),
                                     now=state_name(n.data["_note"]["now"]),
                                     who=n.data["_note"]["found_by"]) for n in notes))
        self.till.run(self.till.ctx.journal.corrections(), "corrections", done=corrected)

        def mismatched(notes: Any) -> None:
            self.mismatches_hint.setText("\n".join(
                tr("Not this customer's: the host answered invoice {invoice} with an approval of "
                   "{total} on card ..{last4}, another payment under that number; settle it with "
                   "the host.").format(invoice=n.data["_note"].get("invoice") or n.entry_id,
                                       total=n.data["_note"].get("total") or "?",
                                       last4=n.data["_note"].get("card_last4") or "?")
                for n in notes))
        self.till.run(self.till.ctx.journal.mismatches(), "mismatches", done=mismatched)
        from cashier.flows.offline import status as offline_status

        self.till.run(offline_status(self.till.ctx), "offline status", done=self._show_offline)

    def _show_offline(self, now: dict[str, Any]) -> None:
        """Stored payments (count, amount, the oldest, hours before max_hours) and each payment
        the host declined at the forward with what to do: the core's ``offline.status``."""
        cur, stored = self.till.currency, now["stored"]
        lines: list[str] = []
        if now["offline"]:
            lines.append(tr("Offline by itself: the host could not be reached; back online by "
                            "itself when it answers.") if now["automatic"] else
                         tr("Offline: a manager's switch."))
        if stored["count"]:
            lines.append(tr("Stored, waiting for the host: {count} for {amount}; the oldest at "
                            "{oldest}, {left} h before the limit of {limit} h.").format(
                count=stored["count"], amount=format_money(Decimal(stored["amount"]), cur),
                oldest=format_time(stored["oldest_at"]), left=stored["hours_left"],
                limit=now["limits"]["max_hours"]))
        for d in now["declined_on_forward"]:
            lines.append(tr("Declined when sent on: invoice {invoice}, ticket {ticket}, {amount} on "
                            "card ..{last4} at {at}. Reach the customer and collect it.").format(
                invoice=d["invoice"], ticket=d["ticket"] or "—",
                amount=format_money(Decimal(d["amount"]), cur), last4=d["card_last4"] or "?",
                at=format_time(d["at"])))
        self.offline_view.setText("\n".join(lines) or tr("No payment stored offline."))
        self._offline_now = now
        self._fill_offline(now)

    def _fill_offline(self, now: dict[str, Any]) -> None:
        cur = self.till.currency
        rows = [[tr("Waiting"), str(p["ticket"] or "—"), format_money(Decimal(p["amount"]), cur),
                 "..%s" % (p["card_last4"] or "?"), format_time(p["at"]),
                 tr("{left} h left").format(left=p["hours_left"])]
                for p in now["stored"].get("payments", [])]
        rows += [[tr("Declined when sent on"), str(d["ticket"] or "—"),
                  format_money(Decimal(d["amount"]), cur), "..%s" % (d["card_last4"] or "?"),
                  format_time(d["at"]), tr("Reach the customer and collect it")]
                 for d in now["declined_on_forward"]]
        t = self.offline_table
        with filling(t):
            t.setRowCount(len(rows))
            for r, row in enumerate(rows):
                for c, v in enumerate(row):
                    t.setItem(r, c, QTableWidgetItem(v))
        a11y.table_rows(t)
        t.resizeRowsToContents()
        t.setVisible(bool(rows))

    def _fill_unresolved(self) -> None:
        t = self.unresolved_table
        with filling(t):
            t.setRowCount(len(self.unresolved))
            for r, e in enumerate(self.unresolved):
                for c, v in enumerate([e.invoice or "", kind_name(str(e.kind)),
                                       format_money(e.requested, e.currency), state_name(str(e.state)),
                                       format_time(e.updated_at)]):
                    t.setItem(r, c, QTableWidgetItem(v))
        a11y.table_rows(t)
        self.unresolved_empty.setText("" if self.unresolved else tr("Nothing is waiting for recovery."))
        self.void_unresolved_button.setEnabled(bool(self.unresolved))

    def reconcile(self) -> None:
        from cashier.flows.batch import reconcile

        def got(rec: Any) -> None:
            self.reconciliation = rec
            self._show_totals()
        self.till.run(reconcile(self.till.ctx), "reconcile", done=got, failed=self._batch_failed)

    def reconcile_now(self) -> None:
        """Alt+R: the comparison again, and what came of it said where the manager looks."""
        from cashier.flows.batch import reconcile

        self.say_in(self.batch_message, lambda: tr("Comparing the till's payments with the payment "
                                                   "host…"))

        def got(rec: Any) -> None:
            self.reconciliation = rec
            self._show_totals()
            at = datetime.now(UTC).isoformat()
            cur = self.till.currency
            self.say_in(self.batch_message, lambda: tr("Reconciled at %s.") % format_time(at) + " "
                        + compared_words(rec, cur))
        self.till.run(reconcile(self.till.ctx), "reconcile", done=got, failed=self._batch_failed)

    def _show_totals(self) -> None:
        rec = self.reconciliation
        if rec is None:
            self.totals.setText(tr("Totals appear after the first reconciliation."))
            return
        cur = self.till.currency
        lines = [f"{tr('Sales')}: {rec.sale_count}  {format_money(rec.sale_amount, cur)}",
                 f"{tr('Refunds')}: {rec.refund_count}  {format_money(rec.refund_amount, cur)}",
                 f"{tr('Net')}: {format_money(rec.net_amount, cur)}",
                 f"{tr('Unresolved')}: {rec.unresolved}"]
        if rec.corrections:
            lines.append(f"{tr('Corrections (the host held them otherwise)')}: {rec.corrections}  "
                         f"{format_money(rec.corrected_amount, cur)}")
        if rec.open_tabs:
            lines.append(f"{tr('Open tabs (not in the batch)')}: {len(rec.open_tabs)}")
        lines.append(compared_words(rec, cur))
        self.totals.setText("\n".join(lines))

    # ---- actions ---------------------------------------------------------------------------
    def close_batch(self, override: bool = False) -> None:
        """Two presses: the first names the batch's totals, the second closes it (no undo)."""
        from cashier.flows.batch import close_batch, reconcile

        if not override and not self._close_armed:
            def ask(rec: Any) -> None:
                self.reconciliation = rec
                self._show_totals()
                self._close_armed = True
                cur = self.till.currency
                self._carry_over = bool(rec.open_tabs)

                def words() -> str:
                    text = (tr("Close the batch? Sales: %s (%s); refunds: %s (%s); net %s. It "
                               "cannot be undone. Press Alt+B again to confirm.")
                            % (rec.sale_count, format_money(rec.sale_amount, cur), rec.refund_count,
                               format_money(rec.refund_amount, cur), format_money(rec.net_amount, cur)))
                    if rec.open_tabs:
                        tabs = ", ".join(f"{t.invoice} {format_money(t.approved, cur)}"
                                         for t in rec.open_tabs[:5])
                        text += " " + (tr("Open tabs not in this batch: %s (%s): capture or void "
                                          "them on Open tabs, or press Alt+B again to carry them over "
                                          "to the next batch.") % (len(rec.open_tabs), tabs))
                    return text
                self.say_in(self.batch_message, words)
            self.till.run(reconcile(self.till.ctx), "reconcile", done=ask, failed=self._batch_failed)
            return
        self._close_armed = False
        approval = ask_manager(self, self.till.ctx, Action.CLOSE_BATCH, known=self.manager)
        if not approval.go:
            self.say_in(self.batch_message, lambda: approval.why)
            return
        self.say_in(self.batch_message, lambda: tr("Closing the batch…"))

        def done(outcome: Any) -> None:
            batch_no, rec = outcome
            self.reconciliation = rec
            self._show_totals()
            self.override_button.setVisible(False)
            self.say_in(self.batch_message, lambda: (
                tr("Batch %s closed.") % batch_no + " " + tr("Sales") +
                f": {rec.sale_count} {format_money(rec.sale_amount, self.till.currency)}; " +
                tr("Refunds") + f": {rec.refund_count} "
                f"{format_money(rec.refund_amount, self.till.currency)}"))
            self.refresh()
        self.till.run(close_batch(self.till.ctx, override=override,
                                  manager_id=MANAGER_ACTOR if override else None,
                                  manager=approval.manager, carry_over=self._carry_over),
                      "close batch", done=done, failed=self._batch_failed)

    def close_anyway(self) -> None:
        self.close_batch(override=True)

    def _batch_failed(self, exc: BaseException) -> None:
        from cashier.errors import CashierError
        from cashier.flows.batch import BatchBlocked

        if not isinstance(exc, CashierError):
            raise exc
        self.say_refusal(self.batch_message, exc)
        self.override_button.setVisible(isinstance(exc, BatchBlocked))

    def run_recovery(self) -> None:
        from cashier.flows.recovery import recover

        self.say_in(self.unresolved_message, lambda: tr("Asking the host about every open payment…"))

        def done(report: Any) -> None:
            def words() -> str:
                text = tr("Recovery resolved %s; still open %s.") % (len(report.resolved),
                                                                      len(report.still_open))
                if report.corrected:
                    text += " " + tr("Corrected %s to what the host holds.") % len(report.corrected)
                if report.in_flight:
                    text += " " + (tr("%s in flight in another program, left to it.")
                                   % len(report.in_flight))
                return text
            self.say_in(self.unresolved_message, words)
            self.refresh()
        self.till.run(recover(self.till.ctx), "recovery", done=done, failed=self._unresolved_failed)

    def void_selected(self) -> None:
        rows = self.unresolved_table.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.unresolved):
            self.say_in(self.unresolved_message, lambda: tr("Choose a payment to void."))
            return
        entry = self.unresolved[rows[0].row()]
        from cashier.flows.recovery import void

        approval = ask_manager(self, self.till.ctx, Action.VOID, entry.approved, known=self.manager)
        if not approval.go:
            self.say_in(self.unresolved_message, lambda: approval.why)
            return

        def done(result: Any) -> None:
            self.say_in(self.unresolved_message, lambda: f"{entry.invoice}: "
                        f"{state_name(str(result.entry.state))} {result.message}")
            self.refresh()
        self.till.run(void(self.till.ctx, str(entry.invoice), manager=approval.manager), "void",
                      done=done, failed=self._unresolved_failed)

    def _unresolved_failed(self, exc: BaseException) -> None:
        from cashier.errors import CashierError

        if not isinstance(exc, CashierError):
            raise exc
        self.say_refusal(self.unresolved_message, exc)

    def set_mode(self, offline: bool) -> None:
        from cashier.flows.pinpad import set_offline

        def done(_result: Any) -> None:
            self.till.status.offline = offline
            self.till.status_changed.emit()
            self.say_in(self.mode_message,
                        lambda: tr("Offline mode is on.") if offline else tr("Back online."))

        def failed(exc: BaseException) -> None:
            from cashier.errors import CashierError
            from cashier.host.errors import HostError

            if not isinstance(exc, CashierError | HostError):
                raise exc
            self.say_refusal(self.mode_message, exc)
        self.till.run(set_offline(self.till.ctx, offline, manager_id=MANAGER_ACTOR), "mode",
                      done=done, failed=failed)

    def terminal_status(self) -> None:
        from cashier.flows.pinpad import terminal_info

        def done(info: Any) -> None:
            self.terminal_view.setPlainText(json.dumps(info, indent=1, default=str)[:4000])

        def failed(exc: BaseException) -> None:
            self.terminal_view.setPlainText(error_words(exc, self.till.currency))
        self.till.run(terminal_info(self.till.ctx), "terminal info", done=done, failed=failed)


class StorePart(QGroupBox):
    """The Store part: every till with its clerk, last seen, open tickets, unresolved payments and
    totals, polled from the store service every few seconds while the manager screen is open
    (decision: polling, see docs/decisions/011-the-store.md, "Live view: polling"), and the store-wide batch
    close."""

    POLL_MS = 3000
    COLUMNS = 8

    def __init__(self, page: ManagerPage) -> None:
        super().__init__()
        self.page = page
        self.totals: dict[str, Any] | None = None
        self.store_currency = page.till.currency
        self.reconciliation: Any = None
        self._fetching = False
        #: the store manager's session: the store checked the PIN; dropped when the page locks
        self.session: str | None = None
        col = QVBoxLayout(self)
        self.status = hint()
        signin = QHBoxLayout()
        self.manager_id = QLineEdit()
        self.manager_id.setMaxLength(5)
        self.manager_id.setMaximumWidth(140)
        self.manager_pin = QLineEdit()
        self.manager_pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.manager_pin.setMaxLength(8)
        self.manager_pin.setMaximumWidth(140)
        self.manager_pin.returnPressed.connect(self.sign_in)
        self.sign_in_button = page.button(lambda: tr("Sign in to the store"), "", self.sign_in)
        for field in (self.manager_id, self.manager_pin, self.sign_in_button):
            signin.addWidget(field)
        signin.addStretch(1)
        col.addLayout(signin)
        self.table = QTableWidget(0, self.COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setMinimumHeight(150)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        self.close_button = page.button(lambda: tr("Close store batch"), "Alt+W", self.close_store,
                                        "Primary")
        self.override_button = page.button(lambda: tr("Close store anyway"), "",
                                           lambda: self.close_store(override=True), "Danger")
        self.override_button.setVisible(False)
        row.addWidget(self.close_button)
        row.addWidget(self.override_button)
        self.message = hint()
        a11y.live(self.message)  # the store's answer to a sign-in or a batch close
        self.charts = self._chart_panel()  # a store manager's: the store, one bar per till
        for w in (self.status, self.table, self.summary, self.charts):
            col.addWidget(w)
        col.addLayout(row)
        col.addWidget(self.message)
        self.timer = QTimer(self)
        self.timer.setInterval(self.POLL_MS)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    @property
    def linked(self) -> bool:
        return bool(self.page.till.profile.store_url)

    def sign_in(self) -> None:
        """The store checks the manager's number and PIN against its own roster."""
        from cashier.store.close import sign_in_manager

        manager_id, pin = self.manager_id.text().strip(), self.manager_pin.text()
        self.manager_pin.clear()
        profile = self.page.till.profile

        def done(session: Any) -> None:
            self.session = str(session)
            self.page.say_in(self.message,
                             lambda: tr("Store manager %s signed in: every till's figures.") % manager_id)
            self._show_sign_in()
            self.refresh()

        def failed(exc: BaseException) -> None:
            from cashier.errors import CashierError

            if not isinstance(exc, CashierError):
                raise exc
            self.page.say_refusal(self.message, exc)
        self.page.till.run(asyncio.to_thread(sign_in_manager, profile, manager_id, pin),
                           "store sign-in", done=done, failed=failed)

    def sign_out(self) -> None:
        self.session = None
        self.totals = None
        self.charts.setVisible(False)
        self.charts.show_charts(())
        self._show_sign_in()

    def _show_sign_in(self) -> None:
        out = self.session is None and self.linked
        for field in (self.manager_id, self.manager_pin, self.sign_in_button):
            field.setVisible(out)
        self.close_button.setEnabled(self.linked and not self.page.till.profile.is_training
                                     and self.session is not None)

    def retranslate(self) -> None:
        self.setTitle(tr("Store"))
        self.manager_id.setPlaceholderText(tr("Store manager number"))
        self.manager_pin.setPlaceholderText(tr("PIN"))
        a11y.name(self.manager_id, tr("Store manager number"))
        a11y.name(self.manager_pin, tr("Store manager PIN"))
        a11y.name_view(self.table, tr("Every till's figures"),
                       tr("One row per till: clerk, last seen, open tickets, unresolved, sales, "
                          "refunds and net."))
        self.table.setHorizontalHeaderLabels([tr("Till"), tr("Clerk"), tr("Last seen"),
                                              tr("Open tickets"), tr("Unresolved"), tr("Sales"),
                                              tr("Refunds"), tr("Net")])
        self._show_sign_in()
        self.charts.redraw()  # the charts' words in the new language
        if self.linked and self.page.till.profile.is_training:
            self.message.setText(tr("Training till: it shows the store but never closes its batch."))
        self._show()

    def _poll(self) -> None:
        if self.page.unlocked and self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        if not self.linked or self._fetching or not self.page.till.ready:
            self._show()
            return
        from cashier.store.close import store_totals

        self._fetching = True
        profile = self.page.till.profile

        def done(totals: Any) -> None:
            self._fetching = False
            self.totals = totals
            self._show()

        def failed(exc: BaseException) -> None:
            from cashier.errors import CashierError

            self._fetching = False
            if not isinstance(exc, CashierError):
                raise exc
            self.page.say_refusal(self.status, exc)
        self.page.till.run(asyncio.to_thread(store_totals, profile, None, None, self.session),
                           "store totals", done=done, failed=failed)

    def _show(self) -> None:
        if not self.linked:
            self.page.say_in(self.status,
                             lambda: tr("This till is not linked to a store service."))
            return
        data = self.totals
        if data is None:
            self.page.say_in(self.status, lambda: tr("Asking the store…"))
            return
        cur = (data["store"] or {}).get("currency") or self.page.till.currency
        tills = data["tills"]
        with filling(self.table):
            self.table.setRowCount(len(tills))
            for r, (till_id, t) in enumerate(sorted(tills.items())):
                values = [till_id, t.get("clerk") or "", format_time(t["last_seen"]) if t["last_seen"] else
                          tr("never"), str(t["open_tickets"]), str(t["unresolved"]),
                          f"{t['sales']['count']}  {format_money(Decimal(t['sales']['amount']), cur)}",
                          f"{t['refunds']['count']}  {format_money(Decimal(t['refunds']['amount']), cur)}",
                          format_money(Decimal(t["net"]), cur)]
                for c, v in enumerate(values):
                    self.table.setItem(r, c, QTableWidgetItem(v))
        a11y.table_rows(self.table)
        s = data["store"]
        self._show_charts(data)
        if s is None:  # the till token alone: this till's figures, nothing of the others
            self.summary.setText(tr("This till only. A store manager signs in to see every till "
                                    "and to close the store's batch."))
            self._say_updated()
            return
        tenders = "; ".join(f"{kind_name(k)} {v['count']} {format_money(Decimal(v['amount']), cur)}"
                            for k, v in s["by_tender"].items()) or "–"
        brands = "; ".join(f"{k} {v['sales']['count']} {format_money(Decimal(v['sales']['amount']), cur)}"
                           for k, v in s["by_card_brand"].items()) or "–"
        lines = [f"{tr('Store')}: {tr('Sales')} {s['sales']['count']} "
                 f"{format_money(Decimal(s['sales']['amount']), cur)}; {tr('Refunds')} "
                 f"{s['refunds']['count']} {format_money(Decimal(s['refunds']['amount']), cur)}; "
                 f"{tr('Net')} {format_money(Decimal(s['net']), cur)}; {tr('Tips')} "
                 f"{format_money(Decimal(s['tips']), cur)}; {tr('Unresolved')} {s['unresolved']}",
                 f"{tr('By tender')}: {tenders}", f"{tr('By card brand')}: {brands}"]
        fixed = s.get("corrections") or {}
        if fixed.get("count"):
            lines.append(f"{tr('Corrections (the host held them otherwise)')}: {fixed['count']}  "
                         f"{format_money(Decimal(fixed['amount']), cur)}")
        if data.get("last_close"):
            lines.append(tr("Last store batch: %s") % data["last_close"]["batch_no"])
        self.summary.setText("\n".join(lines))
        self._say_updated()

    def _chart_panel(self) -> Any:
        from ui.widgets.charts import ChartPanel, chart_words, look_of

        panel = ChartPanel(chart_words(lambda: self.store_currency),
                           lambda words: self.page.say_in(self.message, words),
                           lambda: look_of(self.page.gui), columns=2)
        panel.setVisible(False)
        return panel

    def _show_charts(self, data: dict[str, Any]) -> None:
        """The store's charts (the core's ``cashier.day_report.store_report``), drawn again only
        when the store's figures changed (the part polls every few seconds)."""
        from cashier.day_report import store_report

        report = store_report(data)
        self.charts.setVisible(report is not None)
        if report is None:
            self.charts.show_charts(())
            return
        self.store_currency = report.currency
        if report.charts != self.charts.charts:
            self.charts.show_charts(report.charts)

    def _say_updated(self) -> None:
        at = datetime.now(UTC).isoformat()
        self.page.say_in(self.status, lambda: tr("Updated %s") % format_time(at))

    def close_store(self, override: bool = False) -> None:
        from cashier.store.close import close_store_batch

        till = self.page.till
        if self.session is None:
            self.page.say_in(self.message,
                             lambda: tr("A store manager signs in first: the store checks the PIN."))
            return
        approval = ask_manager(self.page, till.ctx, Action.CLOSE_BATCH, known=self.page.manager)
        if not approval.go:
            self.page.say_in(self.message, lambda: approval.why)
            return
        self.page.say_in(self.message, lambda: tr("Closing the store's batch…"))

        def done(outcome: Any) -> None:
            batch_no, rec = outcome
            self.reconciliation = rec
            self.override_button.setVisible(False)
            self.page.say_in(self.message,
                             lambda: tr("Store batch %s closed: one batch for every till.") % batch_no)
            self.refresh()

        def failed(exc: BaseException) -> None:
            from cashier.errors import CashierError
            from cashier.flows.batch import BatchBlocked
            from cashier.host.errors import HostError

            if not isinstance(exc, CashierError | HostError):
                raise exc
            self.page.say_refusal(self.message, exc)
            self.override_button.setVisible(isinstance(exc, BatchBlocked))
        till.run(close_store_batch(till.ctx, till.profile, session=self.session, override=override,
                                   manager_id=MANAGER_ACTOR if override else None,
                                   manager=approval.manager),
                 "store close", done=done, failed=failed)
