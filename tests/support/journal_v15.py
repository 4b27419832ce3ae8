"""A journal as a till wrote it before journal v16 (decision 011, "Refunds journaled before
their tax"): made by today's code, then its tickets' refunds carry no tax (their rows and their
events, as the till wrote them), v16's list gone, version 15."""

from __future__ import annotations

import sqlite3
from pathlib import Path

#: A refund of a ticket (a host refund or money given back by another tender).
REFUNDS = "(kind = 'refund' OR COALESCE(op, '') = 'refund') AND ticket_id IS NOT NULL"


def refunds_without_tax(path: Path) -> None:
    """The closed journal at ``path`` as version 15 left it: its tickets' refunds with no tax."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute("BEGIN")
        conn.execute(f"UPDATE entries SET tax_minor = 0 WHERE {REFUNDS}")
        guards = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND "
                              "tbl_name = 'events'").fetchall()
        for name, _sql in guards:  # the log is append-only: written here as v15 wrote it
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(f"UPDATE events SET data = json_set(data, '$.tax_minor', 0) WHERE entry_id IN "
                     f"(SELECT id FROM entries WHERE {REFUNDS}) AND "
                     "json_extract(data, '$.tax_minor') IS NOT NULL")
        for _name, sql in guards:
            conn.execute(sql)
        conn.execute("COMMIT")
        back_to_v15(conn)
    finally:
        conn.close()


def back_to_v15(conn: sqlite3.Connection) -> None:
    """The journal on ``conn`` set back to version 15: no list of v16's."""
    conn.execute("DROP TABLE IF EXISTS refund_tax_due")
    conn.execute("PRAGMA user_version = 15")
