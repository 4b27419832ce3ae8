"""Journal v5: the Charge API's ids leave auth_code and token for columns of their own, moved
in SQL by the migration; the entries still read as before for readers not yet moved."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import cashier.journal.schema as schema
from cashier.journal import JournalRecorder

V4_ROWS = [  # kind, op, idempotency key, token, auth_code, as v4 code wrote them
    ("sale", "sale", None, "~12345678_90121119", "OK6FV2"),
    ("charge", "charge", "k1", "tok_abc", "char_1"),
    ("charge", "charge", "link:char_2", "plink_9", "char_2"),
    ("charge", "charge", "k3", "cust_7", "char_3"),
    ("charge", "capture", "k4", "char_1", "char_1"),
    ("charge", "refund", "k5", "char_1", "re_5"),
    ("charge", "void", "k6", "char_3", "re_6"),
    ("charge", "charge", "k7", None, "char_declined"),
]


def test_v5_moves_each_id_to_its_column_and_entries_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    conn = sqlite3.connect(str(path), isolation_level=None)
    schema.migrate(conn, target=4)
    for n, (kind, op, key, token, auth) in enumerate(V4_ROWS):
        conn.execute(
            "INSERT INTO entries(till_id, kind, state, op, invoice, idempotency_key, currency, "
            "token, auth_code, created_at, updated_at, business_date) "
            "VALUES ('t', ?, 'approved', ?, ?, ?, 'USD', ?, ?, 'x', 'x', 'd')",
            (kind, op, None if key else f"{n:010d}", key, token, auth))
    assert schema.migrate(conn) == schema.LATEST
    columns = conn.execute("SELECT op, token, auth_code, charge_id, refund_id, payment_link_id, "
                           "customer_id FROM entries ORDER BY id").fetchall()
    assert columns == [
        ("sale", "~12345678_90121119", "OK6FV2", None, None, None, None),
        ("charge", "tok_abc", None, "char_1", None, None, None),
        ("charge", None, None, "char_2", None, "plink_9", None),
        ("charge", None, None, "char_3", None, None, "cust_7"),
        ("capture", None, None, "char_1", None, None, None),
        ("refund", None, None, "char_1", "re_5", None, None),
        ("void", None, None, "char_3", "re_6", None, None),
        ("charge", None, None, "char_declined", None, None, None),
    ]
    assert conn.execute("SELECT sql FROM sqlite_master WHERE name = 'entries_charge'").fetchone()[0] \
        .strip().endswith("entries(charge_id) WHERE kind = 'charge'")
    conn.close()
    store = JournalRecorder(path, reader=True)
    try:
        read = [(e.token, e.auth_code) for e in (store.get(i) for i in range(1, len(V4_ROWS) + 1))]
    finally:
        store.close()
    assert read == [(t.replace("~", "").replace("_", "") if t and t.startswith("~") else t, a)
                    for _, _, _, t, a in V4_ROWS]
