"""The Sale screen's left side: the ticket as the core's ``Ticket`` says (its lines, its figures
with the tip keyed but not yet taken, its tenders) and its actions (remove a line, cancel, park,
the parked tickets)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QLocale, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui import a11y
from ui.i18n import format_money, tr
from ui.pages.sale.words import tender_text
from ui.widgets.amount import FitLabel

if TYPE_CHECKING:
    from cashier.flows.figures import Figures
    from cashier.flows.ticket import Ticket

FIGURES = ("subtotal", "tax", "tip", "total", "paid", "remaining")


class LinesTable(QTableWidget):
    """The ticket's lines; ``restyled`` is called when its font or style changed (text size,
    contrast), which changes how wide its amounts are."""

    restyled: Callable[[], None] | None = None

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if self.restyled is not None and event.type() in (QEvent.Type.FontChange,
                                                          QEvent.Type.StyleChange):
            self.restyled()


class FigureValue(FitLabel):
    """A figure's amount, drawn smaller where the column is narrower than it: "Remaining
    $999,998.00" at 150 % text made the ticket 80 px wider than 1024 px leaves it (issue #39)."""

    widest = 150


class TicketPanel(QWidget):
    def __init__(self, currency: str, actions: Sequence[QPushButton],
                 side_by_side: Sequence[QPushButton] = ()) -> None:
        super().__init__()
        self.currency = currency
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.title.setObjectName("Breakdown")
        col.addWidget(self.title)
        self.lines_list = LinesTable(0, 2)
        self.lines_list.setObjectName("TicketLines")
        self.lines_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.lines_list.horizontalHeader().setVisible(False)
        self.lines_list.verticalHeader().setVisible(False)
        self.lines_list.setShowGrid(False)
        self.lines_list.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.lines_list.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.lines_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.lines_list.setMinimumHeight(60)
        header = self.lines_list.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # the amounts' column as wide as its widest amount, kept by hand: Qt's ResizeToContents
        # measured every row again for each line added (a 200-line ticket's 200th line was 2.5
        # times as slow as its first)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        col.addWidget(self.lines_list, 3)
        grid = QGridLayout()
        grid.setVerticalSpacing(2)
        self.sum_labels: dict[str, tuple[QLabel, QLabel]] = {}
        for i, key in enumerate(FIGURES):
            name, value = QLabel(), FigureValue()
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            big = key in ("total", "remaining")
            for w in (name, value):
                w.setObjectName("TotalLine" if big else "Breakdown")
            grid.addWidget(name, i, 0)
            grid.addWidget(value, i, 1)
            self.sum_labels[key] = (name, value)
        # cash rounded to the profile's step (issue #38): shown only on a till that rounds cash
        self.cash_due_label, self.cash_due_value = QLabel(), QLabel()
        self.cash_due_label.setObjectName("Breakdown")
        self.cash_due_value.setObjectName("Breakdown")
        self.cash_due_value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        grid.addWidget(self.cash_due_label, len(FIGURES), 0)
        grid.addWidget(self.cash_due_value, len(FIGURES), 1)
        self._cash_due: Decimal | None = None
        self.show_cash_due(None)
        col.addLayout(grid)
        self.tenders_list = QListWidget()
        self.tenders_list.setObjectName("TicketTenders")
        self.tenders_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tenders_list.setWordWrap(True)
        self.tenders_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tenders_list.setMinimumHeight(40)
        col.addWidget(self.tenders_list, 1)
        # two a row (remove a line, cancel; park, the parked tickets): a third row made the
        # screen taller than 800 px at 150 % text
        self._key_rows = row = QGridLayout()
        row.setSpacing(4)
        self._actions = tuple(actions)
        for b in actions:
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._beside: QHBoxLayout | None = None
        if side_by_side:  # the small discount keys share one row under them (issue #38)
            self._beside = QHBoxLayout()
            self._beside.setSpacing(4)
            for b in side_by_side:
                b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                self._beside.addWidget(b)
        col.addLayout(row)
        self.keys = (*actions, *side_by_side)
        self._packed: tuple[QPushButton, ...] | None = None
        self.keep_keys(self.keys)
        self.ticket_id: int | None = None
        # the lines shown: id and what each costs (None: as sold), and their promotions by row
        self._line_ids: list[tuple[int, object]] = []
        self._named: dict[int, tuple[str, ...]] = {}
        self._style = ""  # how money was formatted when they were drawn
        self._amount_width = 0  # the widest amount shown (the amounts' column is that wide)
        self._figures_shown: tuple[object, ...] = ()
        self.lines_list.restyled = lambda: self._fit_amounts(0)
        self._tenders: list[str] = []
        self._ticket: Ticket | None = None  # the ticket shown (its rows are worded again in a new language)

    def keep_keys(self, kept: Collection[QPushButton]) -> None:
        """Only the keys in ``kept`` shown, the action keys two a row in their order. Once money
        is on the ticket its lines, discounts and tip are final: the keys that would change them
        give way to its tenders (at 1024x768 with 150 % text their three rows of disabled keys
        pushed the tenders below the fold after a partial approval, issue #39)."""
        packed = tuple(b for b in self.keys if b in kept)
        if packed == self._packed:
            return
        self._packed = packed
        grid = self._key_rows
        for b in self._actions:
            grid.removeWidget(b)
        shown = [b for b in self._actions if b in kept]
        for i, b in enumerate(shown):
            grid.addWidget(b, i // 2, i % 2)
        if self._beside is not None:
            grid.removeItem(self._beside)
            grid.addLayout(self._beside, (len(shown) + 1) // 2, 0, 1, 2)
        for b in self.keys:
            b.setVisible(b in kept)

    def show_ticket(self, ticket: Ticket | None, *, again: bool = False) -> None:
        """Show the lines and tenders of the core's ``Ticket`` (None: a new ticket). Only the rows
        that changed are written: a line added to a long ticket costs one row, not the table.
        The very ticket on screen is not looked at again (a line's add shows it twice: on the
        journal's change and on the flow's answer) unless ``again`` (its words in a new language)."""
        if ticket is not None and ticket is self._ticket and not again:
            return
        cur = self.currency
        self._ticket = ticket
        self.ticket_id = ticket.id if ticket is not None else None
        self._title()
        # a line never changes once written (it is added or removed), so its id says whether
        # its row is still right; the money format and the language (its spoken row) redraw them all
        lines = () if ticket is None else ticket.lines
        # issue #38: a ticket something was taken off shows each line at what it now costs, with
        # its promotions by name (the core's pricing; a discount changes lines already drawn)
        # (a row is keyed by what it shows: its line, what it costs and its promotions; a line's
        # share of the tax changes with every line added to its class, and is not shown)
        pricing = None if ticket is None else ticket.pricing
        keys: list[tuple[int, object]] = list(zip(
            [line.id for line in lines], [None] * len(lines) if pricing is None else pricing.nets,
            strict=True))
        named: dict[int, tuple[str, ...]] = {} if pricing is None else pricing.named
        style = format_money(Decimal("1234.5"), cur) + QLocale().name()
        same = 0
        if style == self._style:
            for shown, key in zip(self._line_ids, keys, strict=False):
                if shown != key:
                    break
                same += 1
            if named is not self._named:  # the first row whose promotions changed
                same = min([same, *(i for i in named.keys() | self._named.keys()
                                    if named.get(i) != self._named.get(i))])
        if same < len(self._line_ids) or len(lines) != len(self._line_ids):
            removed = same < len(self._line_ids)
            self.lines_list.setRowCount(same)  # the rows from the first change on are redrawn
            self.lines_list.setRowCount(len(lines))
            for index in range(same, len(lines)):
                line = lines[index]
                name = f"{line.quantity}× {line.label}" if line.quantity > 1 else line.label
                promotions = () if pricing is None else pricing.line_promotions(index)
                if promotions:
                    name += f" ({', '.join(promotions)})"
                amount = QTableWidgetItem(format_money(
                    line.amount if pricing is None else pricing.line_net(index), cur))
                amount.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                first = QTableWidgetItem(name)
                a11y.row(first, line_words(line, cur))
                self.lines_list.setItem(index, 0, first)
                self.lines_list.setItem(index, 1, amount)
            self._line_ids = keys
            self._style = style
            self._named = named
            self._fit_amounts(0 if removed else same)
            if len(lines) > same:
                self.lines_list.scrollToBottom()
        tenders = [] if ticket is None else [tender_text(t, cur) for t in ticket.tenders]
        if tenders != self._tenders:
            self.tenders_list.clear()
            self.tenders_list.addItems(tenders)
            self._tenders = tenders
            self._fit_tenders()

    def _fit_tenders(self) -> None:
        """The tenders' list as tall as its first three entries (then it scrolls), the lines
        having the rest: held to 40 px, "Card …1119 $109.50 PARTIAL" lost its second line at
        150 % text (issue #39)."""
        box = self.tenders_list
        box.doItemsLayout()  # wrapped at the list's width (sizeHintForRow measures one line)
        rows = sum(box.visualItemRect(box.item(i)).height() for i in range(min(box.count(), 3)))
        box.setMinimumHeight(max(40, rows + 2 * box.frameWidth() + 2))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._tenders:
            self._fit_tenders()  # wrapped at a new width, an entry may take a line more or less

    def _fit_amounts(self, first: int) -> None:
        """The amounts' column as wide as its widest amount: the rows from ``first`` on are
        measured (0: all of them, after a row went or the text size changed)."""
        table = self.lines_list
        widest = self._amount_width if first else 0
        for row in range(first, table.rowCount()):
            widest = max(widest, table.sizeHintForIndex(table.model().index(row, 1)).width())
        if widest != self._amount_width or not first:
            self._amount_width = widest
            table.horizontalHeader().resizeSection(1, widest)

    def show_figures(self, figures: Figures, *, tax_shown: bool, paid_shown: bool) -> None:
        """The figures (``cashier.flows.ticket.Figures``) as they are: no sum is made here.
        Typing, adding a line and the ticket's answer each ask again (~8 times a line): the
        same figures in the same language are not formatted again."""
        drawn = (figures, tax_shown, paid_shown, QLocale().name())
        if drawn == self._figures_shown:
            return
        self._figures_shown = drawn
        names = figure_names()
        for key, (_name, value) in self.sum_labels.items():
            value.setText(format_money(getattr(figures, key), self.currency))
            a11y.name(value, f"{names[key]}: {value.text()}", figure_about(key))
        for key, shown in (("tax", tax_shown), ("paid", paid_shown)):
            for w in self.sum_labels[key]:
                w.setVisible(shown)

    def show_cash_due(self, amount: Decimal | None) -> None:
        """What cash for all that remains pays, rounded (``SaleEntry.fields``); None: hidden."""
        self._cash_due = amount
        for w in (self.cash_due_label, self.cash_due_value):
            w.setVisible(amount is not None)
        if amount is not None:
            self.cash_due_value.setText(format_money(amount, self.currency))
            a11y.name(self.cash_due_value, f"{tr('Cash due')}: {self.cash_due_value.text()}",
                      tr("What the customer pays in cash: what remains, rounded to the till's "
                         "cash step."))

    def _title(self) -> None:
        self.title.setText(f"{tr('Ticket')} {self.ticket_id}" if self.ticket_id is not None
                           else tr("New ticket"))

    def changeEvent(self, event: QEvent) -> None:
        """The text size changed: each key at least as high as its two lines. Squeezed to what
        the column had left once a notice showed across the screen, their words were cut at
        150 % text (issue #39)."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange):
            QTimer.singleShot(0, self, self._keys_fit)  # once the keys have their new style

    def _keys_fit(self) -> None:
        for b in self.keys:
            b.setMinimumHeight(0)
            b.setMinimumHeight(b.sizeHint().height())

    def retranslate(self) -> None:
        names = figure_names()
        for key, (name, _value) in self.sum_labels.items():
            name.setText(names[key])
        self.cash_due_label.setText(tr("Cash due"))
        self.show_cash_due(self._cash_due)
        a11y.name(self.lines_list, tr("Ticket lines"),
                  tr("One row per line: its name, quantity and price, and amount. Delete removes the "
                     "last line."))
        a11y.name(self.tenders_list, tr("Tenders"),
                  tr("One row per tender: what paid, the card's last digits, the amount and the outcome."))
        self.show_ticket(self._ticket, again=True)  # its rows (and tenders) in the new language


def line_words(line: Any, currency: str) -> str:  # a journal.tickets line (Ticket.lines)
    """A ticket line as one phrase for a screen reader: ``Coffee, 2 at $3.50, $7.00`` (the
    amounts are the core's: the line's unit price and amount)."""
    if line.quantity > 1:
        return tr("{name}, {quantity} at {price}, {amount}").format(
            name=line.label, quantity=line.quantity, price=format_money(line.unit_price, currency),
            amount=format_money(line.amount, currency))
    return tr("{name}, {amount}").format(name=line.label, amount=format_money(line.amount, currency))


def figure_names() -> dict[str, str]:
    """The figures' names (subtotal ... remaining) in the window's language."""
    return {"subtotal": tr("Subtotal"), "tax": tr("Tax"), "tip": tr("Tip"), "total": tr("Total"),
            "paid": tr("Paid"), "remaining": tr("Remaining")}


def figure_about(key: str) -> str:
    """What a figure of the ticket means, for a screen reader."""
    return {"subtotal": tr("The lines added up, before tax and tip."),
            "tax": tr("The tax on the ticket, as the till's tax rule says."),
            "tip": tr("The tip: keyed by the cashier or chosen on the PIN pad."),
            "total": tr("What the customer pays: the lines, tax and tip."),
            "paid": tr("What the tenders so far have paid."),
            "remaining": tr("What the customer still owes: the next tender's amount.")}.get(key, "")
