"""Journal v14 (issue #38): a ticket written by v13 reads the same after the migration (no
discount, no promotion, no override, no rounding: the same figures); the migration carries its
own SQL."""

from __future__ import annotations

import sqlite3
from decimal import Decimal
from pathlib import Path

import cashier.journal.schema as schema
from cashier.journal import JournalRecorder
from cashier.journal.ticket_model import Ticket


def test_a_v13_ticket_reads_the_same_after_v14(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    conn = sqlite3.connect(str(path), isolation_level=None)
    schema.migrate(conn, target=13)
    conn.execute("INSERT INTO tickets(till_id, state, currency, tax_rate, tax_included, tip_mode, "
                 "training, clerk, created_at, updated_at, closed_at) VALUES ('training', 'paid', "
                 "'USD', '8.25', 0, 'none', 0, '101', 'x', 'x', 'x')")
    conn.execute("INSERT INTO ticket_lines(ticket_id, name, quantity, unit_price_minor, sku, "
                 "catalog_version, tax_class, tax_rate) VALUES (1, 'Latte', 2, 400, 'LATTE', 3, "
                 "'standard', '8.25')")
    assert schema.migrate(conn) == schema.LATEST >= 14
    conn.close()
    store = JournalRecorder(path, reader=True)
    try:
        ticket = Ticket.of(store.ticket(1))
    finally:
        store.close()
    assert (ticket.subtotal, ticket.discounts, ticket.tax, ticket.total) == (
        Decimal("8.00"), Decimal(0), Decimal("0.66"), Decimal("8.66"))
    assert ticket.record.discounts == () and ticket.record.promotions == ()
    assert ticket.record.rounding == 0 and ticket.lines[0].list_price is None
    shown = ticket.as_dict()
    assert (shown["discounts"], shown["promotions"], shown["rounding"]) == ([], [], "0.00")
