"""A new journal is made in one transaction (one commit, one fsync at FULL) instead of one per
migration step (``cashier.journal.schema.migrate``): it comes out the same as a journal taken
up one committed step at a time, and an older journal is still taken up step by step."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import cashier.journal.schema as schema
from cashier.journal import JournalRecorder


def _schema_of(conn: sqlite3.Connection) -> tuple[int, list[tuple[str, str, str, str]]]:
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                        "ORDER BY type, name").fetchall()
    return schema.version_of(conn), [tuple(str(v) for v in row) for row in rows]  # type: ignore[misc]


def _commits(conn: sqlite3.Connection) -> list[str]:
    said: list[str] = []
    conn.set_trace_callback(lambda sql: said.append(sql) if sql.strip().upper() == "COMMIT" else None)
    return said


def test_a_new_journal_is_one_commit_and_the_same_as_one_made_step_by_step(tmp_path: Path) -> None:
    whole = sqlite3.connect(str(tmp_path / "whole.sqlite"), isolation_level=None)
    commits = _commits(whole)
    assert schema.migrate(whole) == schema.LATEST
    assert len(commits) == 1
    stepwise = sqlite3.connect(str(tmp_path / "steps.sqlite"), isolation_level=None)
    steps = _commits(stepwise)
    schema.migrate(stepwise, target=1)  # then an older journal: one committed step at a time
    assert schema.migrate(stepwise) == schema.LATEST
    assert len(steps) == schema.LATEST
    assert _schema_of(whole) == _schema_of(stepwise)
    # as the program opens it: the journal the Datastore makes is the same again
    recorder = JournalRecorder(tmp_path / "till.sqlite")
    try:
        opened = sqlite3.connect(str(tmp_path / "till.sqlite"))
        assert _schema_of(opened) == _schema_of(whole)
        opened.close()
    finally:
        recorder.close()


def test_a_journal_opened_again_is_not_written(tmp_path: Path) -> None:
    conn = sqlite3.connect(str(tmp_path / "j.sqlite"), isolation_level=None)
    schema.migrate(conn)
    changes = conn.total_changes
    commits = _commits(conn)
    assert schema.migrate(conn) == schema.LATEST
    assert commits == [] and conn.total_changes == changes
