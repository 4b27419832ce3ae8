"""A line added to a long ticket with promotions in force writes one row of the Sale screen's
lines, not the table: each row is keyed by what it shows (its line, what it costs, its
promotions), not by its share of the tax, which every line added to its class changes (a
200-line ticket redrew 200 rows per line; docs/decisions/017-run-time-and-benchmarks.md, stop 50)."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

from PySide6.QtWidgets import QPushButton

from cashier.discounts import Promotion
from cashier.journal.model import TicketLine, TicketRecord
from cashier.journal.ticket_model import Ticket
from ui.pages.sale.ticket_panel import TicketPanel

BUNS = Promotion("3 buns for 6", "quantity_price", skus=("BUN",), quantity=3, price=D("6.00"))


def line(n: int, sku: str | None = None) -> TicketLine:
    return TicketLine(n, f"Item {n}", 1, D("1.99") if sku is None else D("2.50"), sku, None,
                      "standard", D("8.25"), category=None if sku is None else "bakery")


def test_a_line_added_to_a_long_ticket_writes_one_row(ui: Any) -> None:
    record = TicketRecord(id=1, state="open", currency="USD", tax_rate=D("8.25"),
                          tax_included=False, tip_mode="none", tip=D(0), tip_asked=False,
                          training=True, clerk="1", created_at="", closed_at=None,
                          lines=(*(line(n, "BUN") for n in range(1, 4)),
                                 *(line(n) for n in range(4, 120))),
                          entries=(), cash={}, promotions=(BUNS,))
    panel = TicketPanel("USD", [QPushButton()])
    ticket = Ticket.of(record)
    panel.show_ticket(ticket)
    table = panel.lines_list
    rows = [table.item(row, 1) for row in range(table.rowCount())]
    assert rows[0] is not None
    first = table.item(0, 0)
    assert first is not None and first.text() == "Item 1 (3 buns for 6)"
    assert rows[0].text() == "$2.00"
    for n in range(120, 125):
        ticket = Ticket.of(ticket.record.changed(lines=(*ticket.record.lines, line(n))))
        panel.show_ticket(ticket)
        assert table.rowCount() == n
        # the rows already there are the very items drawn before: none was written again
        assert [table.item(row, 1) for row in range(n - 1)] == rows
        rows.append(table.item(n - 1, 1))
        assert rows[-1] is not None and rows[-1].text() == "$1.99"
    # the earlier lines' shares of the tax did change (what the rows were keyed by before)
    assert [x.tax for x in ticket.priced.lines[:119]] != [x.tax for x in Ticket.of(record).priced.lines]


def test_a_line_that_brings_a_promotion_redraws_the_rows_it_changed(ui: Any) -> None:
    record = TicketRecord(id=1, state="open", currency="USD", tax_rate=D("8.25"),
                          tax_included=False, tip_mode="none", tip=D(0), tip_asked=False,
                          training=True, clerk="1", created_at="", closed_at=None,
                          lines=(line(1, "BUN"), line(2), line(3, "BUN"), line(4)), entries=(),
                          cash={}, promotions=(BUNS,))
    panel = TicketPanel("USD", [QPushButton()])
    ticket = Ticket.of(record)
    panel.show_ticket(ticket)
    table = panel.lines_list
    second = table.item(1, 1)

    def row(n: int) -> list[str]:
        return [item.text() for item in (table.item(n, 0), table.item(n, 1)) if item is not None]

    assert row(0) == ["Item 1", "$2.50"] and row(2) == ["Item 3", "$2.50"]
    panel.show_ticket(Ticket.of(ticket.record.changed(lines=(*ticket.record.lines, line(5, "BUN")))))
    assert [row(n) for n in range(5)] == [
        ["Item 1 (3 buns for 6)", "$2.00"], ["Item 2", "$1.99"], ["Item 3 (3 buns for 6)", "$2.00"],
        ["Item 4", "$1.99"], ["Item 5 (3 buns for 6)", "$2.00"]]
    assert table.item(1, 1) is not second  # the rows from the first that changed are written


def test_the_ticket_on_screen_shown_again_is_not_read_again(ui: Any, monkeypatch: Any) -> None:
    """A line's add shows its ticket twice (the journal's change, then the flow's answer): the
    second time, the very ticket on screen, nothing is formatted or compared again."""
    import ui.pages.sale.ticket_panel as ticket_panel
    from ui.i18n import format_money

    record = TicketRecord(id=1, state="open", currency="USD", tax_rate=D("8.25"),
                          tax_included=False, tip_mode="none", tip=D(0), tip_asked=False,
                          training=True, clerk="1", created_at="", closed_at=None,
                          lines=tuple(line(n) for n in range(1, 200)), entries=(), cash={},
                          promotions=(BUNS,))
    panel = TicketPanel("USD", [QPushButton()])
    ticket = Ticket.of(record)
    panel.show_ticket(ticket)
    formatted: list[object] = []

    def counted(amount: Any, currency: str) -> str:
        formatted.append(amount)
        return format_money(amount, currency)
    monkeypatch.setattr(ticket_panel, "format_money", counted)
    panel.show_ticket(ticket)
    assert formatted == [] and panel.lines_list.rowCount() == 199
    grown = Ticket.of(record.changed(lines=(*record.lines, line(200))))
    panel.show_ticket(grown)  # another ticket: read, its one new row written
    assert panel.lines_list.rowCount() == 200 and formatted
    item = panel.lines_list.item(199, 1)
    assert item is not None and item.text() == "$1.99"
