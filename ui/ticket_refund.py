"""Refund a paid ticket from the Journal (F7): the customer brings back one item of three.

The dialog lists the ticket's lines to tick (Space); none ticked is the whole ticket. Before
anything is asked or sent it shows, from the core's ``refund_plan``, how much goes back and to
which tender (the card it was paid with, cash from the drawer). Return refunds, Esc leaves.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from cashier.errors import ValidationError
from cashier.flows.ticket import Ticket, plan_total, refund_plan
from ui import a11y
from ui.core_words import error_words
from ui.i18n import format_money, tr
from ui.receipt import TENDER_TITLES


class TicketRefundDialog(QDialog):
    def __init__(self, ticket: Ticket, currency: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("TicketRefund")
        self.ticket = ticket
        self.currency = currency
        self.plan: list[tuple[Any, Decimal]] = []
        col = QVBoxLayout(self)
        self.how = QLabel()
        col.addWidget(self.how)
        self.lines = QListWidget()
        self.how.setBuddy(self.lines)
        for number, line in enumerate(ticket.lines, start=1):
            count = f" ×{line.quantity}" if line.quantity != 1 else ""
            item = QListWidgetItem(f"{number}. {line.name}{count}   {format_money(line.amount, currency)}")
            if ticket.line_refunded(number - 1):  # given back once: never ticked again
                item.setText(f"{item.text()}   ({tr('refunded')})")
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsUserCheckable
                              & ~Qt.ItemFlag.ItemIsEnabled)
            else:
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Unchecked)
            self.lines.addItem(item)
        self.lines.setCurrentRow(0)
        self.lines.itemChanged.connect(lambda _item: self._ticked())
        col.addWidget(self.lines, 1)
        self.summary = QLabel()
        self.summary.setObjectName("Big")
        self.summary.setWordWrap(True)
        col.addWidget(self.summary)
        self.error = QLabel()
        self.error.setObjectName("ErrorText")
        self.error.setWordWrap(True)
        col.addWidget(self.error)
        buttons = QDialogButtonBox()
        self.refund_button = buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.refund_button.setDefault(True)
        self.cancel_button = buttons.addButton("", QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        col.addWidget(buttons)
        self.resize(520, 420)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Refund ticket %s") % self.ticket.id)
        self.how.setText(tr("Tick the lines that come back (Space); none ticked: the whole ticket."))
        a11y.name_view(self.lines, tr("Lines of the ticket"), self.how.text())
        self.refund_button.setText(tr("Refund [Return]"))
        self.cancel_button.setText(tr("Cancel [Esc]"))
        self.update_plan()

    def changeEvent(self, event: QEvent) -> None:
        """The window's language changed while the dialog is open: it says itself in the new one."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()

    def chosen_lines(self) -> list[int] | None:
        """The ticked lines (0-based, as the core counts them); None: the whole ticket."""
        ticked = [row for row in range(self.lines.count())
                  if self.lines.item(row).flags() & Qt.ItemFlag.ItemIsUserCheckable
                  and self.lines.item(row).checkState() is Qt.CheckState.Checked]
        return ticked or None

    @property
    def total(self) -> Decimal:
        return plan_total(self.plan)

    def _ticked(self) -> None:
        """A line ticked or unticked: what goes back now, said to a screen reader too."""
        self.update_plan()
        a11y.announce(self.summary, self.summary.text() or self.error.text())

    def update_plan(self) -> None:
        try:
            self.plan = refund_plan(self.ticket, lines=self.chosen_lines())
        except ValidationError as exc:
            self.plan = []
            self.summary.setText("")
            self.error.setText(error_words(exc, self.currency))
            self.refund_button.setEnabled(False)
            return
        where = ", ".join(
            f"{tr(TENDER_TITLES.get(t.kind, t.kind))}{' …' + t.card[-4:] if t.card else ''} "
            f"{format_money(part, self.currency)}" for t, part in self.plan)
        self.summary.setText(tr("Goes back: %s (%s)") % (format_money(self.total, self.currency), where))
        self.error.setText("")
        self.refund_button.setEnabled(bool(self.plan))  # the plan holds only parts that go back
