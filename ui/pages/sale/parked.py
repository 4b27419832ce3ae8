"""The parked tickets (Shift+F1 on the Sale screen): a list, oldest first; Return recalls the one
chosen, Esc closes it. The rule (which tickets are parked, who may take one back) is the core's
(``cashier.flows.ticket.parked_tickets``, ``recall``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui import a11y
from ui.i18n import format_money, tr

if TYPE_CHECKING:
    from cashier.flows.ticket import Ticket


class ParkedDialog(QDialog):
    chosen = Signal(int)  # the ticket id to recall

    def __init__(self, tickets: Sequence[Ticket], currency: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ParkedTickets")
        self.setWindowTitle(tr("Parked tickets"))
        col = QVBoxLayout(self)
        self.heading = QLabel(tr("Parked tickets: choose one and press Return to recall it.")
                              if tickets else tr("No ticket is parked."))
        self.heading.setWordWrap(True)
        col.addWidget(self.heading)
        self.list = QListWidget()
        for t in tickets:
            lines = len(t.lines)
            text = tr("Ticket {ticket}: {lines} lines, {total}").format(
                ticket=t.id, lines=lines, total=format_money(t.total, currency))
            names = ", ".join(line.name for line in t.lines[:3])
            item = QListWidgetItem(f"{text} · {names}" if names else text)
            item.setData(Qt.ItemDataRole.UserRole, t.id)
            self.list.addItem(item)
        a11y.name(self.list, tr("Parked tickets"), self.heading.text())
        self.list.itemActivated.connect(lambda _item: self.accept())
        col.addWidget(self.list)
        std = QDialogButtonBox.StandardButton
        buttons = QDialogButtonBox(std.Ok | std.Cancel)
        ok = buttons.button(std.Ok)
        ok.setText(tr("Recall") + "  [Return]")
        ok.setEnabled(bool(tickets))
        buttons.button(std.Cancel).setText(tr("Close") + "  [Esc]")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        col.addWidget(buttons)
        if tickets:
            self.list.setCurrentRow(0)
        self.list.setFocus()
        self.resize(520, 360)

    def accept(self) -> None:
        item = self.list.currentItem()
        super().accept()
        if item is not None:
            self.chosen.emit(int(item.data(Qt.ItemDataRole.UserRole)))
