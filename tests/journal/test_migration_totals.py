"""Released migrations count totals with their own frozen SQL, never today's code, and that SQL
agrees with today's bucket rule on every kind, op and state the journal had at v4."""

from __future__ import annotations

import ast
import itertools
import sqlite3
from pathlib import Path

import cashier.journal.schema as schema
from cashier.journal.totals import rebuild_totals

V4_KINDS = ("sale", "authorization", "refund", "manual_sale", "manual_authorization",
            "giftcard_reload", "giftcard_sale", "qr", "charge")
OPS = ("sale", "authorization", "capture", "refund", "void", "charge")
STATES = ("intent", "sent", "approved", "declined", "error", "unknown", "voiding", "voided", "captured")


def _rows(conn: sqlite3.Connection) -> list[tuple[object, ...]]:
    return conn.execute("SELECT * FROM totals ORDER BY batch_no, bucket, currency").fetchall()


def test_frozen_v4_totals_equal_todays_rule(tmp_path: Path) -> None:
    conn = sqlite3.connect(str(tmp_path / "j.sqlite"), isolation_level=None)
    schema.migrate(conn, target=4)
    amounts = [(0, 0, 0), (1000, 0, 0), (1000, 600, 0), (1000, 0, 250), (1000, 1000, 1000)]
    rows = [(kind, state, op, f"{n:010d}", "USD" if n % 3 else "CAD", approved, captured, refunded, n % 2)
            for n, (kind, op, state, (approved, captured, refunded)) in enumerate(
                itertools.product(V4_KINDS, OPS, STATES, amounts))]
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO entries(till_id, kind, state, op, invoice, currency, requested_minor, "
        "approved_minor, captured_minor, refunded_minor, created_at, updated_at, "
        "business_date, batch_no) VALUES ('t', ?, ?, ?, ?, ?, 1000, ?, ?, ?, 'x', 'x', 'd', ?)", rows)
    conn.execute("COMMIT")
    schema._totals_from_entries(conn, schema._V4_BUCKET, schema._V4_MINOR)
    frozen = _rows(conn)
    conn.execute("BEGIN")
    rebuild_totals(conn)
    conn.execute("COMMIT")
    assert frozen == [tuple(r) for r in _rows(conn)]
    assert len(frozen) > 10  # the product above really fills several buckets


def test_schema_module_imports_no_live_journal_code() -> None:
    tree = ast.parse(Path(schema.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert not {m for m in imported if m and m.startswith("cashier.journal.")} - {"cashier.journal.model"}
