"""Migrations from each older version with data, invoice numbers under concurrency and crashes,
and the async facade keeping the event loop free."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import time
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal as D
from pathlib import Path

import pytest

from cashier.journal import Journal, JournalError, JournalRecorder, Kind, State
from cashier.journal.model import NewEntry
from cashier.journal.schema import LATEST, MIGRATIONS, migrate, version_of
from tests.support.forked_cli import start_python


def _at_version(path: Path, version: int) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None)
    migrate(conn, target=version)
    assert version_of(conn) == version
    return conn


V1_ROW = ("INSERT INTO entries(till_id, kind, state, op, invoice, currency, requested_minor, "
          "approved_minor, card, card_last4, created_at, updated_at, business_date) VALUES "
          "('t', ?, ?, 'sale', ?, 'USD', ?, ?, '432100XXXXXX1119', '1119', '2025-01-01T10:00:00.000+00:00', "
          "'2025-01-01T10:00:00.000+00:00', '2025-01-01')")


def test_migrate_v1_with_data_to_latest(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = _at_version(path, 1)
    conn.execute(V1_ROW, ("sale", "approved", "0100000001", 1234, 1234))
    conn.execute(V1_ROW, ("sale", "unknown", "0100000002", 500, 0))
    conn.execute(V1_ROW, ("authorization", "approved", "0100000003", 9000, 9000))
    conn.execute("INSERT INTO counters VALUES ('invoice', 3)")
    conn.close()
    store = JournalRecorder(path, till_number=1)
    assert version_of(store.conn) == LATEST
    assert store.get(1).approved == D("12.34") and store.get(1).batch_no == 0
    totals = store.totals()  # v3 backfilled the running totals from existing rows
    assert (totals.amount("sale"), totals.amount("auth_open"), totals.unresolved) == (
        D("12.34"), D("90.00"), 1)
    assert store.create(NewEntry(Kind.SALE, D("1.00"), actor="7")).invoice == "0100000004"
    entry, job = store.request_void(2, reason="01", actor="7")  # v2's jobs work on old rows
    assert entry.state is State.VOIDING and job.entry_id == 2
    store.close()


def test_migrate_v2_with_jobs_to_latest(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = _at_version(path, 2)
    conn.execute(V1_ROW, ("sale", "voiding", "0100000001", 700, 700))
    conn.execute("INSERT INTO jobs(entry_id, kind, reason, next_at, created_at, created_by) VALUES "
                 "(1, 'void', '03', '2025-01-01', '2025-01-01', '7')")
    conn.close()
    store = JournalRecorder(path)
    assert [j.entry_id for j in store.pending_jobs()] == [1]
    assert store.totals().amount("sale") == D("7.00")  # voiding still counts until voided
    assert store.totals().unresolved == 1
    store.close()


def test_each_migration_step_is_atomic(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    conn = _at_version(path, 1)
    conn.execute("CREATE TABLE jobs (x INTEGER)")  # make v2 fail half-way
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn)
    assert version_of(conn) == 1
    cols = [r[1] for r in conn.execute("PRAGMA table_info(entries)")]
    assert "reversal_reason" not in cols  # the ALTER of the failed step was rolled back


def test_newer_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    JournalRecorder(path).close()
    conn = sqlite3.connect(str(path))
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.close()
    with pytest.raises(JournalError, match="newer than this program"):
        JournalRecorder(path)


def _allocate(path: str, n: int) -> list[str]:
    store = JournalRecorder(path, till_number=42)
    out = [str(store.create(NewEntry(Kind.SALE, D("1.00"), actor="7")).invoice) for _ in range(n)]
    store.close()
    return out


def test_concurrent_allocation_across_processes_is_unique(tmp_path: Path) -> None:
    path = str(tmp_path / "j.sqlite")
    JournalRecorder(path, till_number=42).close()
    with ProcessPoolExecutor(4) as pool:
        results = list(pool.map(_allocate, [path] * 4, [60] * 4))
    invoices = [i for r in results for i in r]
    assert len(invoices) == len(set(invoices)) == 240
    assert sorted(invoices) == [f"42{n:08d}" for n in range(1, 241)]


def _open_at(path: str, at: float) -> int:
    time.sleep(max(0.0, at - time.time()))
    store = JournalRecorder(path, till_number=42)
    version = version_of(store.conn)
    store.close()
    return version


def test_processes_opening_a_new_journal_at_once_all_open_it(tmp_path: Path) -> None:
    """Each one migrates after taking the write lock, so none runs a step another already ran."""
    with ProcessPoolExecutor(4) as pool:
        for round_ in range(3):
            path = str(tmp_path / f"new-{round_}.sqlite")
            at = time.time() + 0.3
            assert list(pool.map(_open_at, [path] * 4, [at] * 4)) == [LATEST] * 4


CRASHER = """
import sys
from decimal import Decimal
from cashier.journal import JournalRecorder, Kind, NewEntry
s = JournalRecorder(sys.argv[1], till_number=5)
while True:
    e = s.create(NewEntry(Kind.SALE, Decimal("1.00"), actor="7", sent=True))
    print(e.invoice, flush=True)
"""


def test_invoice_numbers_survive_a_kill_9(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    seen: list[str] = []
    for _ in range(2):
        proc = start_python(CRASHER, str(path))
        assert proc.stdout is not None
        target = len(seen) + 40
        while len(seen) < target:
            seen.append(proc.stdout.readline().strip())
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    store = JournalRecorder(path, till_number=5)
    assert store.integrity_check() == "ok"
    # every number a crashed process reported as committed is in the journal, none twice
    assert all(store.by_invoice(i) is not None for i in seen)
    assert len(seen) == len(set(seen))
    following = store.create(NewEntry(Kind.SALE, D("1.00"), actor="7")).invoice
    assert following is not None and following > max(seen)
    left = {e.state for e in store.unresolved() if e.invoice != following}
    assert left == {State.SENT}  # recovery has work to do
    store.close()


async def test_async_journal_keeps_the_loop_free(tmp_path: Path) -> None:
    journal = await Journal.open(tmp_path / "j.sqlite", till_number=9)
    changes: list[State] = []
    journal.subscribe(lambda e: changes.append(e.state))
    lags: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - t - 0.005)

    task = asyncio.create_task(ticker())
    for _ in range(100):
        e = await journal.create(NewEntry(Kind.SALE, D("2.00"), actor="7", sent=True))
        await journal.transition(e.id, State.APPROVED, actor="7", approved=D("2.00"))
    stop.set()
    await task
    assert (await journal.totals()).amount("sale") == D("200.00")
    assert (await journal.by_invoice("0900000100")) is not None
    assert changes.count(State.APPROVED) == 100
    assert max(lags) < 0.05, f"loop blocked for {max(lags) * 1000:.1f} ms"
    await journal.close()


async def test_totals_stay_fast_on_many_rows(tmp_path: Path) -> None:
    store = JournalRecorder(tmp_path / "j.sqlite")
    rows = [("t", "sale", "approved", f"{i:010d}", "USD", 100 + i % 50, 100 + i % 50,
             "2025-01-01T00:00:00.000+00:00", "2025-01-01T00:00:00.000+00:00", "2025-01-01")
            for i in range(20000)]
    with store.transaction() as conn:
        conn.executemany("INSERT INTO entries(till_id, kind, state, invoice, currency, requested_minor, "
                         "approved_minor, created_at, updated_at, business_date) VALUES "
                         "(?,?,?,?,?,?,?,?,?,?)", rows)
        from cashier.journal.totals import rebuild_totals

        rebuild_totals(conn)
    t = time.perf_counter()
    totals = store.totals()
    elapsed = time.perf_counter() - t
    assert totals.count("sale") == 20000
    assert elapsed < 0.05
    store.close()


def test_export_cli_style_json_is_valid(tmp_path: Path) -> None:
    from cashier.journal.export import export_json

    store = JournalRecorder(tmp_path / "j.sqlite")
    store.create(NewEntry(Kind.REFUND, D("3.00"), actor="7", original_invoice="0100000001"))
    data = json.loads(export_json(store))
    assert data["entries"][0]["kind"] == "refund"
    store.close()
