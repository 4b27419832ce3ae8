"""Open tabs: authorizations waiting for capture; open a tab, add to it, close it with a tip."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from cashier.errors import CashierError
from ui import a11y
from ui.i18n import format_money, format_time, tr
from ui.pages.base import Page, hint
from ui.receipt import reason_text, state_name
from ui.widgets.amount import AmountPanel
from ui.widgets.tables import filling

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.till import Till


class TabsPage(Page):

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        # the navigation names the screen, as on the Sale screen: at 1024x768 with 150 % text the
        # heading's height kept Refresh [F5] and Clear [Esc] below the fold (issue #39)
        self.heading.setVisible(False)
        self.entries: list[Any] = []
        self._no_tip_armed: str | None = None  # the invoice F4 was pressed for with no tip typed
        row = QHBoxLayout()
        left = QVBoxLayout()
        self.table = QTableWidget(0, 4)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(44)
        # whole values in every column (the card's last four, the amount): the table scrolls
        # sideways before it cuts one
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.setWordWrap(False)
        self.table.itemSelectionChanged.connect(self._selected)
        # digits typed while a row is selected are the tip: the table passes them to the amount
        self.table.installEventFilter(self)
        left.addWidget(self.table, 1)
        self.empty = hint()
        left.addWidget(self.empty)
        # what the amount is for, under the tabs: above the keys its three lines put Clear [Esc]
        # under the fold at 1280x800 (150 %) under a title bar
        self.amount_hint = hint()
        left.addWidget(self.amount_hint)
        row.addLayout(left, 3)
        right = QVBoxLayout()
        self.amount_panel = AmountPanel(till.currency, caption=True)
        self.field_label = self.amount_panel.caption
        self.amount, self.keypad = self.amount_panel.display, self.amount_panel.keypad
        right.addWidget(self.amount_panel)
        grid = QGridLayout()  # under the tabs, so the keypad and the actions both fit at 1024x768
        # side by side under the tabs: the key under the text, so both fit in long languages
        self.open_button = self.button(lambda: tr("Open tab"), "F2", self.open_tab, "Primary",
                                       stacked=True)
        self.add_button = self.button(lambda: tr("Add to tab"), "F3", self.add_to_tab, stacked=True)
        self.capture_button = self.button(lambda: tr("Close with this tip"), "F4", self.capture, "Tender",
                                          stacked=True)
        self.refresh_button = self.button(lambda: tr("Refresh"), "F5", self.refresh)
        grid.addWidget(self.open_button, 0, 0)
        grid.addWidget(self.add_button, 0, 1)
        grid.addWidget(self.capture_button, 1, 0, 1, 2)
        grid.addWidget(self.refresh_button, 2, 0, 1, 2)
        left.addLayout(grid)
        self.message = hint()
        a11y.live(self.message)  # what came of opening, adding to or closing a tab
        left.addWidget(self.message)
        right.addStretch(1)
        row.addLayout(right, 2)
        self.layout_.addLayout(row, 1)
        self.amount.submitted.connect(self.capture)
        self.amount.changed.connect(lambda _v: setattr(self, "_no_tip_armed", None))
        till.bridge.on_entries(self._changed, kinds={"authorization"})
        self.retranslate()
        self._selected()

    def retranslate(self) -> None:
        super().retranslate()
        self.table.setHorizontalHeaderLabels([tr("Invoice"), tr("Opened"), tr("Card"), tr("Authorized")])
        a11y.name_view(self.table, tr("Open tabs"),
                       tr("One row per open tab; digits typed on a row are the tip, F4 closes it."))
        self.field_label.setText(tr("Amount"))
        self.amount_hint.setText(tr("Amount: the tab to open, the amount to add, or the tip at close"))
        self.amount_panel.retranslate()
        self._fill()

    def entered(self) -> None:
        self.refresh()
        self.amount.setFocus()

    def _changed(self, entry: Any) -> None:
        if str(entry.kind) == "authorization" and self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        if not self.till.ready:
            return

        def got(entries: Any) -> None:
            self.entries = list(entries)
            self._fill()
        self.till.run(self.till.ctx.journal.open_authorizations(), "tabs", done=got)

    def _fill(self) -> None:
        current = self.selected()
        with filling(self.table):
            self.table.setRowCount(len(self.entries))
            for r, e in enumerate(self.entries):
                card = f"{e.card_type or ''} …{e.card_last4}".strip() if e.card_last4 else (e.card or "")
                values = [e.invoice or "", format_time(e.created_at), card,
                          format_money(e.approved, e.currency)]
                for c, v in enumerate(values):
                    item = QTableWidgetItem(v)
                    if c == 3:
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    self.table.setItem(r, c, item)
                if current is not None and e.invoice == current.invoice:
                    self.table.selectRow(r)
        self.empty.setText("" if self.entries else tr("No open tabs."))
        a11y.table_rows(self.table)
        self._selected()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table and event.type() == QEvent.Type.KeyPress \
                and isinstance(event, QKeyEvent) and self.amount_panel.take_key(event):
            self.amount.setFocus()
            return True
        if watched is self.table and event.type() == QEvent.Type.FocusIn \
                and self.selected() is None and self.table.rowCount():
            # the row the keyboard lands on is the one chosen (Qt would only outline it)
            self.table.selectRow(max(self.table.currentRow(), 0))
        return super().eventFilter(watched, event)

    def selected(self) -> Any:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows or rows[0].row() >= len(self.entries):
            return None
        return self.entries[rows[0].row()]

    def _selected(self) -> None:
        self._no_tip_armed = None
        tab = self.selected()
        has = tab is not None
        self.add_button.setEnabled(has)
        self.capture_button.setEnabled(has)
        if tab is not None:
            from cashier.flows.payments import capture_bound  # the flows come with the runtime

            _most, most_tip = capture_bound(self.till.ctx, tab)   # the core's bound, shown
            self.empty.setText(tr("Tab %s: %s authorized; the tip may be up to %s.") % (
                tab.invoice, format_money(tab.approved, tab.currency), format_money(most_tip, tab.currency)))
        elif self.entries:
            self.empty.setText("")

    # ---- actions (each one flow) -----------------------------------------------------------
    def _busy(self, words: Callable[[], str] | None) -> None:
        """Buttons off while a flow runs; ``words`` say what it does (None: the line stays)."""
        if words is not None:
            self.say_in(self.message, words)
        for b in (self.open_button, self.add_button, self.capture_button):
            b.setEnabled(False)

    def _done(self, result: Any) -> None:
        from cashier.entry_rules import reason  # loaded with the runtime (see test_startup_imports)

        e = result.entry
        self.say_in(self.message, lambda: f"{tr('Invoice')} {e.invoice}: {state_name(str(e.state))} "
                             f"{format_money(e.captured or e.approved, e.currency)} "
                             f"{reason_text(reason(e), e.currency)}".strip())
        self.amount.clear()
        self.open_button.setEnabled(True)
        self.refresh()

    def _failed(self, exc: BaseException) -> None:
        self.open_button.setEnabled(True)
        self._selected()
        if not isinstance(exc, CashierError):
            raise exc
        self.say_refusal(self.message, exc)

    def open_tab(self) -> None:
        if not self.till.ready or not self.amount.entered:
            self.say_in(self.message, lambda: tr("Amount: type the amount of the tab first."))
            return
        from cashier.flows.ticket import TicketSettings, open_tab

        self._busy(lambda: tr("Opening the tab: the customer presents the card on the PIN pad…"))
        settings = TicketSettings.of(self.till.profile)  # an open tab is a ticket
        self.till.run(open_tab(self.till.ctx, settings, self.amount.value), "open tab",
                      done=self._done, failed=self._failed)

    def add_to_tab(self) -> None:
        entry = self.selected()
        if entry is None or not self.amount.entered:
            self.say_in(self.message, lambda: tr("Choose a tab and type the amount to add."))
            return
        from cashier.flows.ticket import add_to_tab

        self._busy(lambda: tr("Adding to the tab…"))
        self.till.run(add_to_tab(self.till.ctx, str(entry.invoice), self.amount.value), "add to tab",
                      done=self._done, failed=self._failed)

    def capture(self) -> None:
        """Close the selected tab for its authorized amount plus the tip typed (0: no tip)."""
        entry = self.selected()
        if entry is None:
            self.say_in(self.message, lambda: tr("Choose a tab to close."))
            return
        from cashier.flows.ticket import close_tab

        tip: Decimal = self.amount.value
        if not self.amount.entered and self._no_tip_armed != entry.invoice:
            # never close a tab silently without the tip: no tip typed is asked once
            self._no_tip_armed = entry.invoice
            self.say_in(self.message,
                        lambda: tr("No tip typed: close tab %s for %s with no tip? Press F4 again "
                                    "to confirm, or type the tip first.")
                                 % (entry.invoice, format_money(entry.approved, entry.currency)))
            return
        self._no_tip_armed = None
        self.say_in(self.message, lambda: tr("Closing tab %s: %s plus tip %s…") % (
            entry.invoice, format_money(entry.approved, entry.currency),
            format_money(tip, entry.currency)))
        self._busy(None)
        self.till.run(close_tab(self.till.ctx, str(entry.invoice), tip), "capture",
                      done=self._done, failed=self._failed)
