"""Ticket lines are group-committed (docs/decisions/009-the-ticket.md, "Lines are group-committed"): the
till's journal holds a new ticket and its lines in one open transaction until a tender's intent commits them
with it, the pause after typing, or the journal's close. Another connection (another process) sees which."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

import cashier.flows.ticket  # noqa: F401  (registers the ticket's remaining rule with the journal)
from cashier.errors import ValidationError
from cashier.journal import Journal, Kind, Op
from cashier.journal import aio as journal_aio
from cashier.journal.model import NewEntry


@pytest.fixture
def outside(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """A second connection on the journal, as another process has (read only)."""
    Path(tmp_path / "j.sqlite").touch()
    conn = sqlite3.connect(f"file:{tmp_path / 'j.sqlite'}?mode=ro", uri=True)
    yield conn
    conn.close()


def _lines_seen(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM ticket_lines").fetchone()[0])


async def _writer_done_committing(journal: Journal) -> None:
    """Another connection sees the flusher's COMMIT a moment before the writer's thread marks
    its lines as no longer held: that step, awaited (bounded), must come."""
    deadline = time.monotonic() + 20
    while journal.recorder.lines_held:
        assert time.monotonic() < deadline, "the writer still holds lines after their commit"
        await asyncio.sleep(0.01)


async def _ticket_with_lines(journal: Journal, count: int) -> int:
    ticket = await journal.create_ticket(actor="1", tax_rate=D(0), tax_included=False, tip_mode="none")
    for n in range(count):
        record = await journal.add_ticket_line(ticket.id, name=f"Item {n}", quantity=1,
                                               unit_price=D("1.00"), actor="1")
    assert len(record.lines) == count and len((await journal.ticket(ticket.id)).lines) == count
    return ticket.id


async def test_lines_commit_with_the_tender_intent_in_one_commit(
        tmp_path: Path, outside: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_aio, "LINES_IDLE_S", 60.0)  # no pause flush during the test
    monkeypatch.setattr(journal_aio, "LINES_LONGEST_S", 60.0)
    journal = await Journal.open(tmp_path / "j.sqlite")
    try:
        ticket_id = await _ticket_with_lines(journal, 3)
        assert _lines_seen(outside) == 0  # held: this process sees them, no other one yet
        commits: list[str] = []
        journal.recorder.conn.set_trace_callback(
            lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
        await journal.create(NewEntry(Kind.CASH, D("3.00"), actor="1", op=Op.SALE, ticket_id=ticket_id))
        journal.recorder.conn.set_trace_callback(None)
        assert len(commits) == 1 and _lines_seen(outside) == 3  # the tender's commit carried them
    finally:
        await journal.close()


async def test_a_refused_tender_keeps_the_lines_and_the_close_commits_them(
        tmp_path: Path, outside: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_aio, "LINES_IDLE_S", 60.0)
    monkeypatch.setattr(journal_aio, "LINES_LONGEST_S", 60.0)
    journal = await Journal.open(tmp_path / "j.sqlite")
    try:
        ticket_id = await _ticket_with_lines(journal, 2)
        with pytest.raises(ValidationError, match="remains"):  # 5.00 on a ticket of 2.00
            await journal.create(NewEntry(Kind.CASH, D("5.00"), actor="1", op=Op.SALE, ticket_id=ticket_id))
        assert _lines_seen(outside) == 0
        assert len((await journal.ticket(ticket_id)).lines) == 2  # the refusal undid only itself
    finally:
        await journal.close()
    assert _lines_seen(outside) == 2


async def test_a_pause_in_the_typing_commits_the_lines(
        tmp_path: Path, outside: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_aio, "LINES_IDLE_S", 0.01)
    journal = await Journal.open(tmp_path / "j.sqlite")
    try:
        await _ticket_with_lines(journal, 2)
        deadline = time.monotonic() + 20
        while _lines_seen(outside) < 2:  # the flusher's commit, awaited (no fixed wait)
            assert time.monotonic() < deadline, "the held lines were never committed"
            await asyncio.sleep(0.01)
        await _writer_done_committing(journal)
    finally:
        await journal.close()


async def test_the_ticket_held_with_its_lines_reads_as_the_rows_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While lines are held the writer extends the ticket it holds instead of reading it again:
    after lines added, one removed, one refused and a tender, each read equals the rows' own."""
    from cashier.journal.recorder import JournalRecorder

    monkeypatch.setattr(journal_aio, "LINES_IDLE_S", 60.0)
    monkeypatch.setattr(journal_aio, "LINES_LONGEST_S", 60.0)
    journal = await Journal.open(tmp_path / "j.sqlite")
    try:
        ticket_id = await _ticket_with_lines(journal, 3)
        removed = (await journal.ticket(ticket_id)).lines[1].id
        await journal.remove_ticket_line(ticket_id, removed, actor="1")
        with pytest.raises(ValidationError, match="minor units"):  # refused inside the savepoint
            await journal.add_ticket_line(ticket_id, name="Odd", quantity=1, unit_price=D("1.005"),
                                          actor="1")
        held = await journal.add_ticket_line(ticket_id, name="Last", quantity=2,
                                             unit_price=D("2.50"), actor="1")
        assert journal.recorder.lines_held and held == await journal.ticket(ticket_id)
        assert [line.name for line in held.lines] == ["Item 0", "Item 2", "Last"]
        await journal.create(NewEntry(Kind.CASH, D("7.00"), actor="1", op=Op.SALE, ticket_id=ticket_id))
        paid = await journal.ticket(ticket_id)
    finally:
        await journal.close()
    fresh = JournalRecorder(tmp_path / "j.sqlite", reader=True)
    try:
        assert fresh.ticket(ticket_id) == paid and paid.lines == held.lines
    finally:
        fresh.close()


async def test_a_ticket_held_by_the_writer_is_read_again_once_another_connection_wrote_it(
        tmp_path: Path) -> None:
    """The writer holds the tickets it wrote (no full read after each write), but another
    process's commit drops them: its change is what the next read and write see."""
    from cashier.journal.recorder import JournalRecorder

    journal = await Journal.open(tmp_path / "j.sqlite")
    try:
        ticket_id = await _ticket_with_lines(journal, 2)
        await journal.create(NewEntry(Kind.CASH, D("1.00"), actor="1", op=Op.SALE, ticket_id=ticket_id))
        assert journal.recorder.holds_ticket(ticket_id)  # as the tender's write left it
        other = await asyncio.to_thread(JournalRecorder, tmp_path / "j.sqlite")  # another process
        try:
            await asyncio.to_thread(other.add_ticket_line, ticket_id, name="Elsewhere", quantity=1,
                                    unit_price=D("4.00"), actor="2")
            await asyncio.to_thread(other.close_ticket, ticket_id, "cancelled", actor="2")
        finally:
            await asyncio.to_thread(other.close)
        seen = await journal.ticket(ticket_id)
        assert seen.state == "cancelled" and [line.name for line in seen.lines][-1] == "Elsewhere"
        with pytest.raises(ValidationError, match="cancelled"):
            await journal.create(NewEntry(Kind.CASH, D("1.00"), actor="1", op=Op.SALE, ticket_id=ticket_id))
    finally:
        await journal.close()


def _finishes_without_waiting(coro: Any) -> Any:
    """The coroutine's result if it ran to its end without once yielding to the loop (a write
    that hopped to the writer's thread yields while it waits); else it fails."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise AssertionError("the write waited for another thread")


async def test_a_line_is_written_without_a_hop_while_the_write_lock_is_free(
        tmp_path: Path, outside: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/decisions/009-the-ticket.md, "A held line is written without a hop": a line, and the ticket read
    back while it is held, come without waiting for the writer's thread, even the first line
    after the held lines were committed; what is written is the same (held, then committed)."""
    monkeypatch.setattr(journal_aio, "LINES_IDLE_S", 0.01)
    journal = await Journal.open(tmp_path / "j.sqlite")
    try:
        ticket_id = await _ticket_with_lines(journal, 1)
        record = _finishes_without_waiting(journal.add_ticket_line(
            ticket_id, name="Second", quantity=2, unit_price=D("1.50"), actor="1"))
        assert [line.name for line in record.lines] == ["Item 0", "Second"]
        assert _finishes_without_waiting(journal.ticket(ticket_id)) == record
        deadline = time.monotonic() + 20
        while _lines_seen(outside) < 2:  # the pause commits them, as before
            assert time.monotonic() < deadline, "the held lines were never committed"
            await asyncio.sleep(0.01)
        await _writer_done_committing(journal)
        again = _finishes_without_waiting(journal.add_ticket_line(
            ticket_id, name="Third", quantity=1, unit_price=D("1.00"), actor="1"))
        assert len(again.lines) == 3 and journal.recorder.lines_held
    finally:
        await journal.close()
    assert _lines_seen(outside) == 3


async def test_a_line_waits_on_the_writers_thread_while_another_process_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When another process holds the journal's write lock the line is not written on the
    loop (that would stop the window): it waits on the writer's thread, the loop keeps running,
    and the line lands once the lock is let go."""
    import subprocess
    import sys

    monkeypatch.setattr(journal_aio, "LINES_IDLE_S", 0.01)
    journal = await Journal.open(tmp_path / "j.sqlite")
    holder: subprocess.Popen[str] | None = None
    try:
        ticket_id = await _ticket_with_lines(journal, 1)
        await _writer_done_committing(journal)  # committed by the pause: the next line begins
        holder = subprocess.Popen(
            [sys.executable, "-c",
             "import sqlite3, sys\n"
             f"c = sqlite3.connect({str(tmp_path / 'j.sqlite')!r}, isolation_level=None)\n"
             "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.readline()\n"
             "c.execute('COMMIT')\n"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "locked"
        adding = asyncio.ensure_future(journal.add_ticket_line(
            ticket_id, name="Waits", quantity=1, unit_price=D("2.00"), actor="1"))
        longest = 0.0
        for _ in range(20):  # the loop runs while the line waits for the lock (never stopped)
            began = time.monotonic()
            await asyncio.sleep(0.01)
            longest = max(longest, time.monotonic() - began)
        assert not adding.done() and longest < 0.5, f"the loop stood still {longest:.2f} s"
        holder.stdin.write("\n")
        holder.stdin.flush()
        record = await asyncio.wait_for(adding, 20)
        assert [line.name for line in record.lines] == ["Item 0", "Waits"]
    finally:
        if holder is not None:
            holder.kill()
            holder.wait()
        await journal.close()
