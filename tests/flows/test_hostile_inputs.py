"""``make hostile``, bad input (issue #46, round 4): seeded kinds of bad input through the real
command line (``run_cashier``, faketime'd processes for the clock) against a socket sandbox.

Rounds: ``CASHIER_HOSTILE_BADINPUT`` (default 8: the fast suite's slice); seed:
``CASHIER_HOSTILE_SEED``. Every refused input must give exit 2, one line on stderr naming the
field, nothing on stdout, nothing sent and nothing journaled, as ``tests/flows/test_hostile.py``
checks its own. The kinds:

- ``number``: an integer argument past any bound (2**63 and above, thousands of digits, a
  superscript, circled, full-width or another script's digits, a sign, ``1_000``, hex, a space);
- ``json``: ``drawer open --counts`` nested thousands deep, too long, NaN, a 30-digit count;
- ``card``: an item named with a card number in any Unicode dress, digits of mixed dresses;
- ``gift``: a gift card number in another dress, or ``--card -`` / ``--gift-card -`` with
  nothing on standard input;
- ``host``: an HD card sale with the host stopped (one line, the warnings in the log file);
- ``clock``: a real till's clock past 2052-05-18 (libfaketime);
- ``disk``: a money command on a nearly full disk (root: a tmpfs left with 0 to 200 KiB): at
  most one line, never a traceback nor a restore from the backup; at the end ``recover`` settles
  everything and the host's ledger and the journals agree.
Printed: inputs tried, by kind, discrepancies found (goal 0), card numbers found (goal 0).
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import shutil
import socket
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.journal.model import State
from cashier.journal.recorder import JournalRecorder
from cashier.redact import luhn_ok
from tests.support.card_numbers import card_numbers_at_rest, card_numbers_in
from tests.support.faketime import LIBFAKETIME
from tests.support.forked_cli import run_cashier
from tests.support.profiles import write_profile

pytestmark = pytest.mark.socket
ROUNDS = int(os.environ.get("CASHIER_HOSTILE_BADINPUT", "8"))
SEED = int(os.environ.get("CASHIER_HOSTILE_SEED", "20261123"))
#: The kinds, as often as each is drawn (the clock's runs cost a cold start under libfaketime)
KINDS = ("number", "number", "number", "number", "json", "json", "card", "card", "gift", "gift",
         "host", "clock", "disk", "disk")
TEST_CARDS = ("4321000000001119", "5432000000003332", "373400000002221", "6011013928534509")
GIFT = "2664650000001234"


# ---- the dresses of a digit ---------------------------------------------------------------------
@functools.cache
def dresses() -> dict[int, list[str]]:
    """Every character Unicode gives one digit's value, or that NFKC spells as that digit with
    punctuation (``⒋`` is ``4.``), ASCII left out. Made when a test first asks: a walk over all
    of Unicode, a second of CPU every test worker paid at collection when it was made on import."""
    out: dict[int, list[str]] = {d: [] for d in range(10)}
    for code in range(0x80, sys.maxunicode + 1):
        ch = chr(code)
        value = unicodedata.digit(ch, None)
        if value is None:
            spelled = unicodedata.normalize("NFKC", ch)
            digits = [c for c in spelled if c.isdecimal()]
            if len(digits) == 1 and all(c.isdecimal() or unicodedata.category(c)[0] == "P"
                                        for c in spelled):
                value = unicodedata.digit(digits[0])
        if value is not None:
            out[value].append(ch)
    return out


STYLES = {"superscript": "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079",
          "subscript": "".join(chr(0x2080 + d) for d in range(10)),
          "circled": "\u24ea" + "".join(chr(0x2460 + d - 1) for d in range(1, 10)),
          "fullwidth": "".join(chr(0xFF10 + d) for d in range(10)),
          "arabic": "".join(chr(0x0660 + d) for d in range(10)),
          "dingbat": "\u24ff" + "".join(chr(0x2776 + d - 1) for d in range(1, 10))}
SEPARATORS = ("", " ", "-", ".", "/", ",", "_", ":", "*", "(", ")", "+", " - ", "\u00a0", "\t")


def dressed(rng: random.Random, number: str) -> str:
    """``number`` in one dress, or a dress per digit, cut in groups by any separators."""
    style = rng.choice((*sorted(STYLES), "mixed"))
    cut = rng.choice((0, 4, 4, 3, 5))
    out = []
    for i, ch in enumerate(number):
        if cut and i and i % cut == 0:
            out.append(rng.choice(SEPARATORS))
        d = int(ch)
        out.append(rng.choice(dresses()[d]) if style == "mixed" else STYLES[style][d])
    return "".join(out)


def luhn_number(rng: random.Random) -> str:
    while True:
        digits = str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9))
                                                  for _ in range(rng.randint(12, 18)))
        if luhn_ok(digits):
            return digits


# ---- the kinds of bad input ---------------------------------------------------------------------
@dataclass
class Case:
    """One bad command line: what kind it is, what its refusal must name, its standard input."""

    argv: list[str]
    what: str
    names: str
    stdin: str | None = None


def bad_number(rng: random.Random) -> str:
    """A value no integer argument takes, whatever its bound."""
    kind = rng.choice(("sqlite", "digits", "dress", "sign", "form"))
    if kind == "sqlite":
        return str(2 ** 63 + rng.randint(0, 10 ** 6) * rng.choice((1, 10 ** 9)))
    if kind == "digits":
        return str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9))
                                                for _ in range(rng.randint(4300, 6000)))
    if kind == "dress":
        return "".join(STYLES[rng.choice(sorted(STYLES))][int(c)]
                       for c in str(rng.randint(1, 999)))
    if kind == "sign":
        return rng.choice("-+") + str(rng.randint(1, 10 ** 6))
    return rng.choice((f"{rng.randint(1, 9)}_{rng.randint(100, 999)}", f" {rng.randint(1, 99)}",
                       f"0x{rng.randint(1, 255):x}", f"{rng.randint(1, 99)}.0", "nan", "1e999", ""))


#: (argv before the value, the field the refusal names): every integer argument of the command line
NUMBER_ARGS = (
    (["report", "z", "--session"], "--session"),
    (["ticket", "refund", "1", "--line"], "--line"),
    (["ticket", "show"], "TICKET"),
    (["ticket", "cancel"], "TICKET"),
    (["receipt", "print"], "ticket"),
    (["pin-failures", "--manager", "-", "--limit"], "--limit"),
    (["sale", "--amount", "1.00", "--invoice"], "--invoice"),
    (["capture", "--invoice"], "--invoice"),
    (["refund", "--amount", "1.00", "--original-invoice"], "--original-invoice"),
    (["link", "create", "--amount", "1.00", "--max-charges"], "--max-charges"),
    (["link", "create", "--amount", "1.00", "--max-failed"], "--max-failed"),
    (["store", "add-till", "H9", "--number"], "--number"),
    (["sandbox", "serve", "--port"], "--port"),
    (["store", "serve", "--port"], "--port"),
)


def bad_json(rng: random.Random) -> str:
    depth = rng.randint(3, 5000)
    return rng.choice((
        "[" * depth + "]" * depth,
        '{"a": ' * depth + "1" + "}" * depth,
        '{"20.00": ' + str(rng.randint(10 ** 29, 10 ** 30)) + "}",
        '{"20.00": ' + rng.choice(("NaN", "Infinity", "-Infinity")) + "}",
        '{"' + "9" * rng.randint(5000, 9000) + '": 1}',
        rng.choice(("[]", "3", '"x"', "null", "{", '{"20.00": 1,}')),
    ))


def bad_input(rng: random.Random, kind: str, profile: Path) -> Case:
    pre = ["--profile", str(profile)]
    if kind == "number":
        argv, name = rng.choice(NUMBER_ARGS)
        value = bad_number(rng)
        if value.startswith(("-", "+")) or not value:  # how a script passes a leading sign
            if argv[-1].startswith("--"):
                return Case([*pre, *argv[:-1], f"{argv[-1]}={value}"], "number", name)
            return Case([*pre, *argv, "--", value], "number", name)
        return Case([*pre, *argv, value], "number", name)
    if kind == "json":
        return Case([*pre, "drawer", "open", "--counts", bad_json(rng)], "json", "--counts")
    if kind == "card":
        number = rng.choice((*TEST_CARDS, luhn_number(rng)))
        name = rng.choice(("Gift ", "ref ", "", "Tea x2 ")) + dressed(rng, number)
        return Case([*pre, "ticket", "new", "--item", f"{name}=1.00", "--pay", "card"], "card",
                    "--item")
    # a gift card number in another dress, or "-" with nothing on standard input
    if rng.random() < 0.5:
        number = "".join(STYLES[rng.choice(sorted(STYLES))][int(c)] for c in GIFT)
        command = rng.choice((["giftcard", "balance"], ["giftcard", "reload", "--amount", "5.00"]))
        return Case([*pre, *command, "--card", number], "gift", "card")
    argv, name = rng.choice(((["giftcard", "reload", "--amount", "5.00", "--card", "-"], "--card"),
                             (["ticket", "new", "--amount", "5.00", "--pay", "giftcard",
                               "--gift-card", "-"], "--gift-card"),
                             (["sale", "--amount", "5.00", "--card", "-", "--exp", "1230"],
                              "--card")))
    return Case([*pre, *argv], "gift", name, stdin="")


# ---- the run -------------------------------------------------------------------------------------
def _dead_url() -> str:
    """A loopback port nobody listens on: the host stopped."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/api/rest/v1"


@contextlib.contextmanager
def _small_disk(folder: Path) -> Iterator[Path | None]:
    """A 16 MiB tmpfs (root only; room for every journal once the filler goes); None where one
    cannot be mounted."""
    disk = folder / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs",
                                            str(disk)], capture_output=True).returncode:
        yield None
        return
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def _leave(folder: Path, free_kib: int) -> Path:
    stat = os.statvfs(folder)
    filler = folder / "filler"
    with open(filler, "wb") as out:
        size = stat.f_bavail * stat.f_frsize - free_kib * 1024
        if size > 0:
            out.write(b"\0" * size)
            out.flush()
            os.fsync(out.fileno())
    return filler


def _kept(journal: Path) -> tuple[int, int, int]:
    """Entries, tickets and events: a refused input leaves none behind."""
    if not journal.exists():
        return 0, 0, 0
    store = JournalRecorder(journal, reader=True)
    try:
        return len(store.all_rows()), len(store.all_ticket_rows()), len(store.events())
    finally:
        store.close()


def test_hostile_inputs(serve_sandbox: Any, tmp_path: Path) -> None:
    rng = random.Random(SEED + 46)
    served = serve_sandbox("LG")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env |= {"CASHIER_ACCESS_TOKEN": "HOSTILE-TOKEN", "XDG_STATE_HOME": str(tmp_path / "state"),
            "XDG_DATA_HOME": str(tmp_path / "data")}
    journal = tmp_path / "journal.sqlite"
    profile = write_profile(tmp_path / "till.toml", host_url=served.api, journal=journal)
    stopped = write_profile(tmp_path / "hd.toml", host_url=_dead_url(), option="HD",
                            journal=tmp_path / "hd.sqlite", till_number=3)
    control = served.control()
    tried: Counter[str] = Counter()
    discrepancies: list[str] = []
    outputs: list[str] = []

    def ledger() -> int:
        return len(control.get("/_sandbox/ledger").json()["invoices"])

    def refused(case: Case, done: subprocess.CompletedProcess[str], journal_path: Path,
                before: tuple[int, ...]) -> None:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        outputs.append(done.stdout + done.stderr)
        if done.returncode != 2 or len(lines) != 1 or done.stdout or "Traceback" in done.stderr:
            discrepancies.append(f"{case.what} {[a[:40] for a in case.argv[2:6]]}: exit "
                                 f"{done.returncode}, {len(lines)} lines: {done.stderr[:300]!r} "
                                 f"out {done.stdout[:100]!r}")
        elif case.names not in lines[0] or "unexpected" in lines[0] or len(lines[0]) > 400:
            discrepancies.append(f"{case.what}: does not name {case.names}: {lines[0][:300]!r}")
        if (ledger(), *_kept(journal_path)) != before:
            discrepancies.append(f"{case.what} {[a[:40] for a in case.argv[2:6]]}: something was "
                                 "sent or journaled")

    assert run_cashier("--profile", str(profile), "sale", "--amount", "1.00",
                       env=env).returncode == 0  # a journal in use
    with _small_disk(tmp_path) as disk:
        disk_profile = None if disk is None else write_profile(
            tmp_path / "disk.toml", host_url=served.api, journal=disk / "journal.sqlite",
            till_number=2)
        disk_journals: list[Path] = []  # each journal the disk held (a new one now and then)
        for _ in range(ROUNDS):
            kind = rng.choice(KINDS)
            if kind == "disk" and disk_profile is not None:
                assert disk is not None
                free = rng.randint(0, 200)
                argv = rng.choice((["sale", "--amount", str(D(rng.randint(100, 9999)) / 100)],
                                   ["ticket", "new", "--item", "Tea=1.00x3", "--item", "Cake=2.00",
                                    "--pay", "card"],
                                   ["ticket", "new", "--amount", "4.00", "--pay", "card=1.00",
                                    "--pay", "card"],
                                   ["giftcard", "balance", "--card", GIFT],
                                   ["drawer", "open", "--float", "10.00"]))
                if not disk_journals or rng.random() < 0.25:  # a new journal: its migrations
                    disk_journals.append(disk / f"journal-{len(disk_journals)}.sqlite")
                    disk_profile = write_profile(tmp_path / "disk.toml", host_url=served.api,
                                                 journal=disk_journals[-1], till_number=2)
                filler = _leave(disk, free)
                done = run_cashier("--profile", str(disk_profile), *argv, env=env)
                filler.unlink()
                tried["disk"] += 1
                outputs.append(done.stdout + done.stderr)
                lines = [line for line in done.stderr.splitlines() if line.strip()]
                said_full = not lines or lines[0].startswith(
                    "cashier: the disk holding the journal is full") or (
                    lines[0].startswith("cashier: journal_path") and "the disk is full" in lines[0]
                ) or "a session is already open" in lines[0]  # an earlier round opened it
                if len(lines) > 1 or not said_full or any(bad in done.stderr for bad in (
                        "Traceback", "restore", "backup", "unexpected", "no ticket")):
                    discrepancies.append(f"disk {free} KiB {argv[:2]}: exit {done.returncode} "
                                         f"{done.stderr[:300]!r}")
                continue
            if kind == "host":
                card = rng.choice(TEST_CARDS[:2])
                case = Case(["--profile", str(stopped), "sale", "--amount",
                             str(D(rng.randint(100, 9999)) / 100), "--card", card, "--exp", "1230"],
                            "host", "invoice")
                before = (ledger(), *_kept(tmp_path / "hd.sqlite"))
                done = run_cashier(*case.argv, env=env)
                tried["host"] += 1
                refused(case, done, tmp_path / "hd.sqlite", before)
                continue
            if kind == "clock" and LIBFAKETIME is not None and shutil.which("faketime"):
                when = date(2052, 5, 19) + timedelta(days=rng.randint(0, 365 * 48))
                case = Case(["--profile", str(profile), "sale", "--amount", "2.00"], "clock",
                            f"clock: the till's clock says {when.isoformat()}")
                before = (ledger(), *_kept(journal))
                clock_env = env | {"LD_PRELOAD": str(LIBFAKETIME), "DONT_FAKE_MONOTONIC": "1",
                                   "FAKETIME": f"@{when.isoformat()} 10:00:00"}
                done = subprocess.run([sys.executable, "-m", "cashier.cli", *case.argv],
                                      env=clock_env, capture_output=True, text=True, timeout=120)
                tried["clock"] += 1
                refused(case, done, journal, before)
                continue
            if kind in ("disk", "clock"):  # neither a tmpfs nor libfaketime here: another kind
                kind = rng.choice(("number", "json", "card", "gift"))
            case = bad_input(rng, kind, profile)
            before = (ledger(), *_kept(journal))
            done = run_cashier(*case.argv, env=env, stdin=case.stdin)
            tried[case.what] += 1
            refused(case, done, journal, before)

        # the disk freed: recover settles everything, and the host and the journals agree
        journals = [journal, *disk_journals]
        for kept in disk_journals:
            again = write_profile(tmp_path / "again.toml", host_url=served.api, journal=kept,
                                  till_number=2)
            settled = run_cashier("--profile", str(again), "recover", "--wait", env=env)
            if settled.returncode != 0:
                discrepancies.append(f"recover after the full disk: {settled.stdout[:300]} "
                                     f"{settled.stderr[:300]}")
        held = {r["invoice"]: D(r["approvedAmount"])
                for r in control.get("/_sandbox/ledger").json()["invoices"] if r["state"] == "sale"}
        mine: dict[str, D] = {}
        for path in journals:
            if not path.exists():
                continue
            store = JournalRecorder(path, reader=True)
            try:
                mine |= {str(e.invoice): e.approved for e in store.search(limit=100_000)
                         if e.state is State.APPROVED and e.kind == "sale"}
                if store.unresolved():
                    discrepancies.append(f"{path.name}: unresolved after recover")
            finally:
                store.close()
        for invoice in sorted(set(held) | set(mine)):
            if held.get(invoice) != mine.get(invoice):
                discrepancies.append(f"invoice {invoice}: host {held.get(invoice)} journal "
                                     f"{mine.get(invoice)}")
        at_rest = card_numbers_at_rest(tmp_path) + [n for o in outputs for n in card_numbers_in(o)]
    control.close()
    print(f"\nhostile inputs: tried {sum(tried.values())} ({dict(sorted(tried.items()))}), "
          f"discrepancies found {len(discrepancies)}, card numbers found {len(at_rest)} "
          f"(seed {SEED})")
    assert not discrepancies, "\n".join(discrepancies[:20])
    assert not at_rest
