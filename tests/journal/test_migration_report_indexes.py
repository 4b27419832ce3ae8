"""Journal v15 (issue #42): the day's reports read in the order of two indexes (the report groups
by hour summed as read, no sort; the tickets of a window found by when they closed, never by a
scan of every ticket's lines), and a v14 journal reports the same day after the migration."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from pathlib import Path

import cashier.journal.schema as schema
from cashier.clerks import ManagerRules, Roster
from cashier.day_report import day_report, day_window
from cashier.drawer import Drawer
from cashier.journal import JournalRecorder
from cashier.journal import report_rows as rows
from tests.support.training_day import write_day

V15_INDEXES = {"entries_report_hours", "tickets_closed"}


def _plan(conn: sqlite3.Connection, query: str,
          args: dict[str, str] | tuple[str, ...]) -> list[str]:
    return [str(r[3]) for r in conn.execute("EXPLAIN QUERY PLAN " + query, args)]


def test_the_day_reports_reads_follow_the_v15_indexes(tmp_path: Path) -> None:
    conn = sqlite3.connect(str(tmp_path / "j.sqlite"), isolation_level=None)
    assert schema.migrate(conn) == schema.LATEST >= 15
    args = {"till": "t1", "start": "2026-11-29T05:00", "end": "2026-11-30T05:00",
            "default_class": "standard"}
    hours = _plan(conn, rows._GROUPS_BY_HOUR, args)
    # one search of the index in the groups' own order: no sort, no scan
    assert len(hours) == 1 and "USING INDEX entries_report_hours" in hours[0], hours
    tax = _plan(conn, rows._TICKET_TAX_QUERY, args)
    assert any("USING INDEX tickets_closed" in step for step in tax), tax
    # each ticket's lines summed as read; the only sort is the tickets alike (a row per ticket)
    assert [s for s in tax if "TEMP B-TREE" in s] == ["USE TEMP B-TREE FOR GROUP BY"], tax
    lines = _plan(conn, rows._LINES_QUERY, (args["till"], args["start"], args["end"]))
    assert any("USING COVERING INDEX tickets_closed" in step for step in lines), lines
    for plan in (hours, tax, lines):  # the window's rows only, never the whole history's
        assert not [s for s in plan if s.startswith("SCAN") and s != "SCAN day"], plan
    conn.close()


def _report_of(path: Path, day: date, *, reader: bool = False) -> object:
    """The day's report; ``reader``: read as the journal is (a writer migrates it first)."""
    recorder = JournalRecorder(path, till_id="t1", reader=reader)
    try:
        return day_report(recorder, Drawer(recorder, Roster([], ManagerRules())), day)
    finally:
        recorder.close()


def test_a_v14_journal_reports_the_same_day_after_v15(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    today = date.today()
    recorder = JournalRecorder(path, till_id="t1")
    write_day(recorder, today - timedelta(days=7), tickets=12, seed=1)
    write_day(recorder, today, tickets=40, seed=2, catalog=True)  # discounts, promotions
    recorder.close()
    conn = sqlite3.connect(str(path), isolation_level=None)
    for index in V15_INDEXES:  # the journal as v14 left it: no index of v15's
        conn.execute(f"DROP INDEX {index}")
    conn.execute("PRAGMA user_version = 14")
    conn.close()
    before = _report_of(path, today, reader=True)  # at v14: no index of v15's to read by
    after = _report_of(path, today)  # the till's writer migrates the journal as it opens
    conn = sqlite3.connect(str(path), isolation_level=None)
    assert schema.version_of(conn) == schema.LATEST
    names = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert names >= V15_INDEXES
    start, end = day_window(today)
    assert conn.execute("SELECT COUNT(*) FROM tickets WHERE closed_at >= ? AND closed_at < ?",
                        (start, end)).fetchone()[0] == 40
    conn.close()
    assert after == before
