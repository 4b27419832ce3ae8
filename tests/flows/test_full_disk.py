"""Issue 11 item 3: once a request may have reached the host, a local failure is "unknown"."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import subprocess
import sys
import time
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.journal.aio import Journal
from cashier.journal.model import NewEntry, State
from cashier.journal.recorder import JournalRecorder
from tests.support.profiles import write_profile


async def test_a_failure_journaling_the_answer_leaves_the_sale_unknown(
        make_till: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault injected in the journal's writer after the request left (in-process)."""
    from cashier.flows.payments import sale
    from cashier.flows.recovery import recover

    till = await make_till("LG")
    real = Journal.transition

    async def full_disk(self: Journal, entry_id: int, state: State | str, **kw: Any) -> Any:
        if State(state) is not State.SENT:
            raise OSError(errno.ENOSPC, "No space left on device")
        return await real(self, entry_id, state, **kw)

    monkeypatch.setattr(Journal, "transition", full_disk)
    result = await sale(till.ctx, D("4.00"))
    assert result.outcome == "unknown" and "checking with the host" in result.message
    monkeypatch.setattr(Journal, "transition", real)
    (entry,) = await till.journal.unresolved()
    assert entry.state is State.SENT
    report = await recover(till.ctx)
    assert not report.still_open
    assert (await till.journal.get(entry.id)).state is State.APPROVED  # the host had charged it


def _fill(folder: Path, name: str = "filler") -> Path:
    filler = folder / name
    with contextlib.suppress(OSError), open(filler, "wb") as out:
        while True:
            out.write(b"\0" * 4096)
            out.flush()
            os.fsync(out.fileno())
    return filler


@pytest.mark.socket
def test_full_disk_after_the_request_left(serve_sandbox: Any, tmp_path: Path) -> None:
    """A real, nearly full file system (tmpfs, as root): the sale says unknown, exit 3; recover
    on the still-full disk says so in one line; once space is freed recover settles it."""
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small file system (the in-process test covers it)")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        served = serve_sandbox("LG")
        journal = disk / "journal.sqlite"
        profile = write_profile(tmp_path / "till.toml", host_url=served.api, journal=journal)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env["CASHIER_ACCESS_TOKEN"] = "DISK-TOKEN"
        cli = [sys.executable, "-m", "cashier.cli", "--profile", str(profile)]
        assert subprocess.run([*cli, "sale", "--amount", "1.00"], env=env,
                              capture_output=True).returncode == 0
        with served.control() as control:
            control.post("/_sandbox/faults", json={"path": "/api/rest/v1/transactions/sale",
                                                   "action": "delay", "delay_ms": 2500, "count": 1})
        proc = subprocess.Popen([*cli, "sale", "--amount", "9.00"], env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # wait until the sale is journaled SENT
            store = JournalRecorder(journal, reader=True)
            sent = [e for e in store.unresolved() if e.state is State.SENT]
            store.close()
            if sent:
                break
            time.sleep(0.05)
        filler = _fill(disk)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 3, (out, err)
        assert json.loads(out)["outcome"] == "unknown" and "checking with the host" in out
        assert "Traceback" not in err
        more = _fill(disk, "filler-2")  # what the closing journal gave back (its WAL) is taken too
        still = subprocess.run([*cli, "recover"], env=env, capture_output=True, text=True)
        lines = still.stderr.strip().splitlines()
        assert still.returncode in (2, 3) and len(lines) == 1 and "full" in lines[0], still.stderr
        filler.unlink()
        more.unlink()
        done = subprocess.run([*cli, "recover"], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        store = JournalRecorder(journal, reader=True)
        nine = [e for e in store.search() if e.requested == D("9.00")]
        store.close()
        assert [e.state for e in nine] == [State.APPROVED]
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def _leave(folder: Path, free_kib: int, name: str = "filler") -> Path:
    """Fill ``folder``'s file system until ``free_kib`` KiB are left (a nearly full disk)."""
    stat = os.statvfs(folder)
    filler = folder / name
    with open(filler, "wb") as out:
        size = stat.f_bavail * stat.f_frsize - free_kib * 1024
        if size > 0:
            out.truncate(0)
            out.write(b"\0" * size)
            out.flush()
            os.fsync(out.fileno())
    return filler


@contextlib.contextmanager
def _small_disk(tmp_path: Path, size: str = "2m") -> Any:
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small file system (the in-process tests cover it)")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(disk)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


#: What a nearly full disk leaves, in KiB: too little to open the journal's WAL index, to commit a
#: ticket's lines or a tender's intent, or to record the host's answer once the request left.
NEARLY_FULL_KIB = (0, 12, 40, 72, 104, 136)


@pytest.mark.socket
def test_a_nearly_full_disk_at_any_write_gives_one_line_and_the_books_agree_after(
        serve_sandbox: Any, tmp_path: Path) -> None:
    """Issue #46 (round 4): ``ticket new ... --pay card`` on a nearly full disk died with
    "unexpected error" and two chained tracebacks, or was told to restore the journal from its
    backup. At every level: one line (the journal's full disk, or the ticket's JSON with its
    tender unknown), never a traceback or the backup; once space is freed, ``recover`` settles
    every payment and the journal and the host agree."""
    from tests.support.forked_cli import run_cashier

    with _small_disk(tmp_path) as disk:
        served = serve_sandbox("LG")
        journal = disk / "journal.sqlite"
        profile = write_profile(tmp_path / "till.toml", host_url=served.api, journal=journal)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env |= {"CASHIER_ACCESS_TOKEN": "DISK-TOKEN", "XDG_STATE_HOME": str(tmp_path / "state")}
        cli = ("--profile", str(profile))
        assert run_cashier(*cli, "sale", "--amount", "1.00", env=env).returncode == 0
        said: set[str] = set()
        for free in NEARLY_FULL_KIB:
            filler = _leave(disk, free)
            done = run_cashier(*cli, "ticket", "new", "--item", "Tea=1.00x3", "--item", "Cake=2.00",
                               "--pay", "card", env=env)
            filler.unlink()
            lines = done.stderr.strip().splitlines()
            assert done.returncode in (0, 2, 3) and len(lines) <= 1, (free, done.stderr)
            for bad in ("Traceback", "restore", "backup", "unexpected", "no ticket"):
                assert bad not in done.stderr, (free, done.stderr)
            if done.returncode == 2:  # the journal could not be opened: nothing was sent
                assert lines == [f"cashier: journal_path {journal}: cannot be written: the disk "
                                 "is full; free space on the disk, then start again"], free
            elif lines:
                assert lines[0].startswith("cashier: the disk holding the journal is full"), free
            said |= {lines[0].split(":")[1].strip() if lines else "json"}
        assert len(said) >= 2, said  # more than one of the writes was met
        done = run_cashier(*cli, "recover", "--wait", env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        with served.control() as control:
            held = {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}
        store = JournalRecorder(journal, reader=True)
        try:
            mine = {str(e.invoice): e.approved for e in store.search(limit=1000)
                    if e.state is State.APPROVED}
            assert not store.unresolved()
        finally:
            store.close()
        host = {i: D(r["approvedAmount"]) for i, r in held.items() if r["state"] == "sale"}
        assert host == mine


class _CommitFails:
    """The writer's connection, whose COMMIT meets a full disk and SQLite gives the transaction
    up (as it does when the WAL cannot grow)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            self._conn.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


async def test_ticket_lines_a_full_disk_took_are_said_by_the_journals_next_use(
        tmp_path: Path) -> None:
    """The line flusher's commit failed and the lines went with their transaction: the next use
    of the journal says the disk is full (once), not "there is no ticket 1"."""
    from cashier.errors import ValidationError

    journal = await Journal.open(tmp_path / "j.sqlite")
    try:
        ticket = await journal.create_ticket(actor="1", tax_rate=D(0), tax_included=False,
                                             tip_mode="none")
        await journal.add_ticket_line(ticket.id, name="Tea", quantity=3, unit_price=D("1.00"),
                                      actor="1")
        writer = journal.recorder.store  # the datastore: its connection commits the held lines
        assert writer.lines_held
        real = writer.conn
        writer.conn = _CommitFails(real)  # type: ignore[assignment]
        journal._flush_lines()  # what the line flusher does after a pause
        writer.conn = real
        assert not writer.lines_held
        with pytest.raises(sqlite3.OperationalError, match="disk is full"):
            await journal.ticket(ticket.id)
        with pytest.raises(ValidationError, match="no ticket"):  # said once; then as it is
            await journal.ticket(ticket.id)
    finally:
        await journal.close()


async def test_a_commit_that_fails_leaves_no_write_half_done(tmp_path: Path) -> None:
    """A write whose COMMIT meets a full disk (the held lines with it): nothing of it stays, no
    lines stay held, and closing the journal does not fail again ("no transaction is active")."""
    journal = await Journal.open(tmp_path / "j.sqlite")
    ticket = await journal.create_ticket(actor="1", tax_rate=D(0), tax_included=False,
                                         tip_mode="none")
    await journal.add_ticket_line(ticket.id, name="Tea", quantity=1, unit_price=D("1.00"),
                                  actor="1")
    writer = journal.recorder.store  # the datastore: its connection commits every write
    real = writer.conn
    writer.conn = _CommitFails(real)  # type: ignore[assignment]
    with pytest.raises(sqlite3.OperationalError, match="disk is full"):
        await journal.create(NewEntry("sale", D("1.00"), actor="1", ticket_id=ticket.id,
                                      invoice="0100000001"))
    writer.conn = real
    assert not writer.lines_held and not real.in_transaction
    await journal.close()  # nothing held: nothing to commit, no second failure
    store = JournalRecorder(tmp_path / "j.sqlite", reader=True)
    try:
        assert store.all_rows() == [] and store.all_ticket_rows() == []
    finally:
        store.close()


def test_an_io_error_on_a_nearly_full_disk_is_the_full_disk_never_the_backup(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite says "disk I/O error" when it cannot grow the WAL index: on a disk with (almost)
    no room that is the full disk; elsewhere the line names the cause, and only a damaged file
    is sent to its backup."""
    from cashier.journal.recorder import JournalOpenError, disk_full

    path = tmp_path / "journal.sqlite"
    io_error = sqlite3.OperationalError("disk I/O error")
    roomy = os.statvfs(tmp_path)
    assert not disk_full(io_error, path)
    assert "restore" not in str(JournalOpenError(path, io_error))

    class Nearly:
        f_bavail, f_frsize, f_flag = 3, 4096, roomy.f_flag

    monkeypatch.setattr(os, "statvfs", lambda _path: Nearly)
    assert disk_full(io_error, path) and disk_full(OSError(errno.ENOSPC, "No space"), None)
    assert str(JournalOpenError(path, io_error)) == (
        f"journal_path {path}: cannot be written: the disk is full; free space on the disk, then "
        "start again")
    damaged = sqlite3.DatabaseError("file is not a database")
    assert "restore the journal from its backup" in str(JournalOpenError(path, damaged))


def test_a_close_failing_after_the_command_failed_never_hides_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's own failure (the full disk) is what the line says, not the close that
    failed after it: that gave "unexpected error: cannot commit - no transaction is active"."""
    import argparse

    from cashier.commands.payments import run_with_runtime
    from cashier.runtime import Runtime

    monkeypatch.setenv("CASHIER_JOURNAL_PATH", str(tmp_path / "j.sqlite"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    real_close = Runtime.close

    async def close_fails(self: Runtime) -> None:
        await real_close(self)
        raise sqlite3.OperationalError("cannot commit - no transaction is active")

    async def body(_rt: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Runtime, "close", close_fails)
    with pytest.raises(OSError) as raised:
        run_with_runtime(argparse.Namespace(profile=None), body)
    assert raised.value.errno == errno.ENOSPC


@pytest.mark.parametrize("free", [40, 120])
def test_a_new_journal_on_a_nearly_full_disk_is_the_full_disk(tmp_path: Path, free: int) -> None:
    """A new journal's first migration met the full disk at its COMMIT; the ROLLBACK after it
    failed in turn ("cannot rollback - no transaction is active") and was what the line said."""
    from tests.support.forked_cli import run_cashier

    with _small_disk(tmp_path) as disk:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env |= {"CASHIER_JOURNAL_PATH": str(disk / "journal.sqlite"),
                "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state")}
        filler = _leave(disk, free)
        done = run_cashier("drawer", "open", "--float", "10.00", env=env)
        filler.unlink()
        assert done.returncode == 2 and not done.stdout, done.stdout
        assert done.stderr == (f"cashier: journal_path {disk / 'journal.sqlite'}: cannot be "
                               "written: the disk is full; free space on the disk, then start "
                               "again\n")
        opened = run_cashier("drawer", "open", "--float", "10.00", env=env)  # space freed
        assert opened.returncode == 0, opened.stderr
