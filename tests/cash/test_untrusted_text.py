"""Untrusted text (#21) through the command line, in process, on a loopback TCP printer: item
names and reasons carrying ESC/POS commands, formulas, bidi overrides and card numbers in every
dress. The printer's bytes hold only the commands the layout writes; every CSV reads back (with
Python's csv) as text a spreadsheet never runs; no card number is at rest anywhere."""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import re
import stat
import time
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from cashier.cli import main
from tests.support.card_numbers import card_numbers_at_rest
from tests.support.loopback_printer import LoopbackPrinter
from tests.support.profiles import write_till

#: One command line run in this process: (exit code, stdout, stderr).
Run = Callable[..., tuple[int, str, str]]
#: What the layout itself writes: code page select, feed, cut, the drawer kick on either pin.
_LAYOUT_COMMANDS = re.compile(rb"\x1bt.|\x1bd.|\x1dV\x00|\x1bp[\x00\x01]\x32\x32", re.DOTALL)
HOSTILE_ITEMS = ("Tea\x1bp022=1.50", "Bun\x1dV0=1.00", "Cake\x1b@\u202eekac=2.00",
                 "Jam\x10\x14\x01\x03\x1c\x9b=0.50")
FORMULAS = ("=HYPERLINK(\"http://evil.example\",\"x\")", "+cmd|' /C calc'!A0", "@SUM(1+1)",
            "-2+3", "\tleading tab")
CARD_DRESSES = ("4111.1111.1111.1111", "4111/1111/1111/1111", "4111,1111,1111,1111",
                "4111_1111_1111_1111", "4111:1111:1111:1111", "4111*1111*1111*1111",
                "4111\t1111\t1111\t1111", "4111(1111)1111+1111", "4111.111111111111",
                "\uff14\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 "
                "\uff11\uff11\uff11\uff11")


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    monkeypatch.delenv("CASHIER_PROFILE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    root = logging.getLogger()
    monkeypatch.setattr(root, "_cashier_configured", True, raising=False)  # no handlers added
    monkeypatch.setattr(root, "handlers", [])

    def call(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as exit_:
                code = int(exit_.code or 0)
        return code, out.getvalue(), err.getvalue()
    return call


def _job_with(loopback: LoopbackPrinter, marker: bytes) -> bytes:
    """The one job that printed ``marker`` (kicks of the drawer's own moves come and go)."""
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        found = [job for job in loopback.jobs if marker in job]
        if found:
            assert len(found) == 1
            return found[0]
        loopback.wait_jobs(len(loopback.jobs) + 1, timeout_s=0.1)
    raise AssertionError(f"no job printed {marker!r}")


def _only_layout_commands(data: bytes) -> bytes:
    """The job's bytes with the layout's own commands taken out: text and line feeds remain."""
    return _LAYOUT_COMMANDS.sub(b"", data)


def _no_control(data: bytes) -> bool:
    return not any((b < 0x20 and b != 0x0A) or b == 0x7F for b in data)


def test_hostile_text_reaches_paper_and_csv_harmless(tmp_path: Path, loopback: LoopbackPrinter,
                                                     run: Run) -> None:
    profile = str(write_till(tmp_path, printer_url=loopback.url, clerks=False))
    p = ("--profile", profile)
    assert run(*p, "drawer", "open", "--float", "50.00")[0] == 0
    for reason in FORMULAS:
        code, _, err = run(*p, "drawer", "pay-in", "--amount", "1.00", f"--reason={reason}\x1bp\x01")
        assert code == 0, err
    code, _, err = run(*p, "drawer", "no-sale", "--reason", "\u202echeck\x1b@")
    assert code == 0, err

    argv = [a for item in HOSTILE_ITEMS for a in ("--item", item)]
    code, out, err = run(*p, "ticket", "new", *argv, "--pay", "card")
    assert code == 0, err
    ticket = json.loads(out)
    names = [line["name"] for line in ticket["lines"]]
    assert names == ["Teap022", "BunV0", "Cake@ekac", "Jam"]  # shown and journaled clean
    receipt = _job_with(loopback, f"Ticket {ticket['ticket']}".encode())
    assert b"\x1bp" not in receipt  # a card sale kicks no drawer, whatever the names said
    assert receipt.count(b"\x1dV") == 1 and receipt.rstrip(b"\n").endswith(b"\x1dV\x00")
    assert _no_control(_only_layout_commands(receipt))
    assert b"Teap022" in receipt and b"BunV0" in receipt

    code, _, err = run(*p, "report", "x", "--print")
    assert code == 0, err
    report = _job_with(loopback, b"X REPORT")
    assert b"\x1bp" not in report and report.count(b"\x1dV") == 1
    assert _no_control(_only_layout_commands(report))

    target = tmp_path / "x.csv"
    code, _, err = run(*p, "report", "x", "--format", "csv", "--output", str(target))
    assert code == 0, err
    rows = list(csv.reader(target.open(encoding="utf-8", newline="")))
    reasons = [r[1] for r in rows if r[0] == "pay_in"]
    assert sorted(reasons) == sorted(["'=HYPERLINK(\"http://evil.example\",\"x\")p",
                                      "'+cmd|' /C calc'!A0p", "'@SUM(1+1)p", "'-2+3p",
                                      "leading tabp"])
    for row in rows:
        for cell in row:
            assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or c == "\u202e" for c in cell)
        assert not row[1].startswith(("=", "+", "-", "@", "\t", "\r"))
    amounts = [r[3] for r in rows[1:] if r[0] in ("pay_in", "summary") and r[3]]
    assert amounts and all(re.fullmatch(r"-?\d+\.\d\d", a) for a in amounts)

    export = tmp_path / "journal.csv"
    code, _, err = run(*p, "journal", "export", "--format", "csv", "--output", str(export))
    assert code == 0, err
    for record in csv.DictReader(export.open(encoding="utf-8", newline="")):
        for name, cell in record.items():
            assert not any(ord(c) < 0x20 for c in cell), (name, cell)
            if name not in ("requested", "approved", "tip", "tax", "captured", "refunded",
                            "pending", "id", "ticket_id", "attempts", "batch_no"):
                assert not cell.startswith(("=", "+", "-", "@")), (name, cell)


def test_a_card_number_in_any_dress_is_refused_before_anything_is_kept(
        tmp_path: Path, loopback: LoopbackPrinter, run: Run) -> None:
    profile = str(write_till(tmp_path, printer_url=loopback.url, clerks=False))
    p = ("--profile", profile)
    assert run(*p, "drawer", "open", "--float", "50.00")[0] == 0
    jobs = len(loopback.jobs)
    for dress in CARD_DRESSES:
        code, out, err = run(*p, "ticket", "new", "--item", f"Gift {dress}=1.00", "--pay", "card")
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and out == "", (dress, err)
        assert "--item" in lines[0] and "card number" in lines[0]
        code, out, err = run(*p, "drawer", "pay-in", "--amount", "1.00", "--reason", f"ref {dress}")
        assert code != 0 and len(err.strip().splitlines()) == 1 and "reason" in err, (dress, err)
    assert json.loads(run(*p, "ticket", "list")[1]) == {"tickets": []}  # no empty ticket left
    assert len(loopback.jobs) == jobs  # nothing printed
    assert card_numbers_at_rest(tmp_path) == []


def test_arguments_that_are_not_utf8_are_refused_in_one_line(tmp_path: Path, run: Run) -> None:
    profile = str(write_till(tmp_path, clerks=False))
    bad = os.fsdecode(b"Tea\xff\xfe=1.50")  # as Python hands a non-UTF-8 argument over
    for argv in (["--item", bad], [f"--item={bad}"]):
        code, out, err = run("--profile", profile, "ticket", "new", *argv, "--pay", "card")
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and out == "" and "--item" in lines[0]
        assert "UTF-8" in lines[0] and "Traceback" not in err
    assert json.loads(run("--profile", profile, "ticket", "list")[1]) == {"tickets": []}


def test_output_is_a_new_regular_file_written_atomically(tmp_path: Path, run: Run) -> None:
    profile = str(write_till(tmp_path, clerks=False))
    p = ("--profile", profile)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    existing = out_dir / "old.csv"
    existing.write_text("keep me\n")
    fifo = out_dir / "pipe"
    os.mkfifo(fifo)
    link = out_dir / "link.csv"
    link.symlink_to(existing)
    for command in (("report", "x", "--format", "csv"), ("journal", "export", "--format", "csv")):
        for target, what in ((existing, "already exists"), (out_dir, "folder"),
                             (f"{out_dir}/", "folder"), (fifo, "not a regular file"),
                             (link, "not a regular file"), ("/dev/null", "not a regular file"),
                             (out_dir / "nowhere" / "x.csv", "does not exist")):
            code, _, err = run(*p, *command, "--output", str(target))
            lines = err.strip().splitlines()
            assert code == 2 and len(lines) == 1 and "--output" in lines[0] and what in lines[0], \
                (command, target, err)
        assert existing.read_text() == "keep me\n"
        code, _, err = run(*p, *command, "--output", str(existing), "--force")
        assert code == 0, err
        assert existing.read_text() != "keep me\n" and stat.S_ISREG(existing.lstat().st_mode)
        existing.write_text("keep me\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)  # the device is still a device
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and link.is_symlink()
    assert sorted(p.name for p in out_dir.iterdir()) == ["link.csv", "old.csv", "pipe"]  # no temp
