"""Tills of the command line on a served sandbox (issue 27): a profile, its journal and the
``cashier`` processes it starts, made ready and released together to race one ticket."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import time
from decimal import Decimal as D
from pathlib import Path
from typing import Any

from cashier.journal.model import State
from cashier.journal.recorder import JournalRecorder
from tests.support.forked_cli import ForkedProcess, run_cashier, start_cashier
from tests.support.profiles import write_profile

#: A keyed card as the command line takes it
CARD = ("--card", "4321000000001119", "--exp", "1230")


class CliTill:
    """A till profile on a served sandbox, and its processes."""

    def __init__(self, served: Any, tmp: Path, name: str, *, number: int = 1, host_s: float = 10.0,
                 extra: tuple[str, ...] = (), longest_s: float | None = None,
                 option: str = "LG") -> None:
        self.served = served
        self.journal = tmp / f"{name}.sqlite"
        self.profile = write_profile(tmp / f"{name}.toml", host_url=served.api, journal=self.journal,
                                     option=option, till_number=number, host_s=host_s, extra=extra,
                                     host_longest_s=longest_s)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        self.env["CASHIER_ACCESS_TOKEN"] = "OWNER-TOKEN"

    def start(self, *args: str) -> ForkedProcess:
        return start_cashier("--profile", str(self.profile), *args, env=self.env)

    def ready(self, *args: str) -> ForkedProcess:
        """A ``cashier`` process started and imported, that runs ``args`` once ``go`` is called:
        the race is then between the commands, not between process start-ups."""
        return start_cashier("--profile", str(self.profile), *args, env=self.env, after_a_line=True)

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run_cashier("--profile", str(self.profile), *args, env=self.env, timeout=120)

    def wait_in_flight(self, timeout_s: float = 30.0) -> str:
        """The invoice of the first entry on the wire (a process sent it), read from the journal."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.journal.exists():
                try:
                    store = JournalRecorder(self.journal, reader=True)
                    try:
                        sent = [e for e in store.unresolved() if e.state is State.SENT]
                    finally:
                        store.close()
                except sqlite3.Error:  # the writer is still creating the journal
                    sent = []
                if sent:
                    return str(sent[0].invoice)
            time.sleep(0.02)
        raise AssertionError("no payment went on the wire")

    def entries(self) -> dict[str, Any]:
        store = JournalRecorder(self.journal, reader=True)
        try:
            return {str(e.invoice): e for e in store.search(limit=10_000) if e.invoice}
        finally:
            store.close()

    def assert_journal_is_host(self) -> dict[str, Any]:
        with self.served.control() as control:
            ledger = {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}
        mine = self.entries()
        held = {i: D(r["approvedAmount"]) for i, r in ledger.items()
                if r["state"] == "sale" and i in mine}
        approved = {i: e.approved for i, e in mine.items() if e.state is State.APPROVED}
        assert held == approved, (held, {i: (e.state, e.approved) for i, e in mine.items()})
        assert all(e.state not in (State.INTENT, State.SENT, State.UNKNOWN, State.VOIDING)
                   for e in mine.values()), {i: e.state for i, e in mine.items()}
        return ledger


def go(*procs: ForkedProcess) -> None:
    """Release processes made ready (``CliTill.ready``) together: a line on each one's stdin."""
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("\n")
        proc.stdin.flush()


def one_line(err: str) -> bool:
    """A refusal as a cashier reads it: one line, no traceback."""
    lines = [line for line in err.splitlines() if line.strip()]
    return len(lines) == 1 and "Traceback" not in err
