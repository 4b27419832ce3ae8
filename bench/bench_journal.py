"""Journal figures: batch totals and reconciliation on 100,000 rows (goal <= 50 ms)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from cashier.journal.recorder import JournalRecorder
from cashier.journal.totals import rebuild_totals

GOALS = {"batch_totals_100k_rows_ms": ("<=", 50.0)}
ROWS = 100_000


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = JournalRecorder(Path(tmp) / "bench.sqlite", till_number=1)
        kinds = ("sale", "sale", "sale", "refund", "authorization")
        # a realistic day: a handful of unresolved entries among 100,000
        states = ("approved", "approved", "approved", "declined", "voided", "approved")
        rows = [("t", kinds[i % 5], "unknown" if i % 20_000 == 7 else states[i % 6], f"{i:010d}", "USD",
                 100 + i % 9000,
                 100 + i % 9000 if states[i % 6] == "approved" else 0, str(i % 9999).zfill(4),
                 "2025-01-01T00:00:00.000+00:00", "2025-01-01T00:00:00.000+00:00", "2025-01-01")
                for i in range(ROWS)]
        with store.transaction() as conn:
            conn.executemany("INSERT INTO entries(till_id, kind, state, invoice, currency, requested_minor, "
                             "approved_minor, card_last4, created_at, updated_at, business_date) "
                             "VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
            rebuild_totals(conn)
        reader = JournalRecorder(store.path, reader=True)
        times = []
        for _ in range(20):
            t = time.perf_counter()
            totals = reader.totals(0)
            reader.unresolved()  # reconciliation also lists what blocks a close
            times.append((time.perf_counter() - t) * 1000)
        assert totals.count("sale") > 0
        reader.close()
        store.close()
    return {"batch_totals_100k_rows_ms": statistics.median(times)}
