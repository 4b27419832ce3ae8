"""Manager PINs under guard: every wrong try is journaled, and five in a row lock the clerk.

Only a PIN makes a manager (``--clerk`` and ``CASHIER_CLERK_ID`` only say who works), so the
PIN is what an attacker at the till would guess. Every manager PIN the till checks goes through
``manager_by_pin``:

- a wrong PIN writes a ``manager_pin_failed`` event (the clerk tried, the time, the command) in
  the till's journal, so the manager sees it (Manager screen, ``cashier pin-failures``) and the
  store receives it with the rest of the journal;
- ``TRIES`` wrong PINs in a row for one clerk lock that clerk for ``LOCK_S`` seconds, doubling
  with each further wrong PIN after a lock ends; while locked even the right PIN is refused
  (the try is journaled as ``manager_pin_locked``, without lengthening the lock);
- the right PIN after failures writes ``manager_pin_accepted``, which starts the count again.

A prompt that asks only for a PIN (any manager) counts its failures under ``any``: five wrong
PINs there lock that prompt for every manager. The lock lives in the journal's own events, so
it holds across processes (each CLI command is one) and across a restart of the window.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cashier.clerks import Clerk, Roster, SignInError
from cashier.journal.recorder import write_event

log = logging.getLogger(__name__)
TRIES = 5
LOCK_S = 30
FAILED, LOCKED, ACCEPTED = "manager_pin_failed", "manager_pin_locked", "manager_pin_accepted"
#: The key a PIN-only prompt (no clerk number) counts its failures under.
ANY = "any"


def _now() -> datetime:
    return datetime.now(UTC)


class PinGuard:
    """The lock and the record of failed manager PINs, in the journal at ``path``."""

    def __init__(self, path: Path, *, clock: Callable[[], datetime] = _now) -> None:
        self.path = Path(path)
        self.clock = clock

    def _connect(self) -> sqlite3.Connection | None:
        if not self.path.exists():
            return None
        conn = sqlite3.connect(f"file:{self.path}?mode=rw", uri=True, timeout=5.0,
                               isolation_level=None)
        conn.execute("PRAGMA busy_timeout = 5000")
        return conn

    def _write(self, conn: sqlite3.Connection, type_: str, key: str, **data: Any) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            write_event(conn, None, key, type_, {"_note": {"clerk": key, **data}},
                        self.clock().isoformat(timespec="milliseconds"))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def locked_for(self, conn: sqlite3.Connection, key: str) -> tuple[float, int]:
        """(seconds ``key`` stays locked, wrong PINs in a row)."""
        rows = conn.execute("SELECT type, at FROM events WHERE actor = ? AND type IN (?, ?) "
                            "ORDER BY id DESC LIMIT 64", (key, FAILED, ACCEPTED)).fetchall()
        failures = 0
        last: str | None = None
        for type_, at in rows:
            if type_ == ACCEPTED:
                break
            failures += 1
            last = last or str(at)
        if failures < TRIES or last is None:
            return 0.0, failures
        until = datetime.fromisoformat(last) + timedelta(seconds=lock_seconds(failures))
        return max((until - self.clock()).total_seconds(), 0.0), failures

    def check(self, roster: Roster, clerk_id: str | int | None, pin: str, command: str) -> Clerk:
        """The manager whose PIN this is (``roster.manager``), under the lock."""
        key = ANY if clerk_id in (None, "", "-") else str(clerk_id).strip()[:40]
        conn = self._connect()
        if conn is None:  # no journal yet: nothing to lock or record in
            return roster.manager(None if key == ANY else key, pin)
        try:
            left, failures = self.locked_for(conn, key)
            if left > 0:
                self._write(conn, LOCKED, key, command=command[:40])
                who = "this PIN prompt" if key == ANY else f"clerk {key}"
                raise SignInError(f"pin: {who} is locked for {int(left) + 1} s after {failures} "
                                  "wrong PINs")
            try:
                manager = roster.manager(None if key == ANY else key, pin)
            except SignInError:
                self._write(conn, FAILED, key, command=command[:40])
                log.info("a wrong manager PIN try for %s (%s), journaled", key, command[:40])
                raise
            if failures:
                self._write(conn, ACCEPTED, key, command=command[:40])
            return manager
        finally:
            conn.close()

    def failures(self, limit: int = 50) -> list[dict[str, Any]]:
        """The latest failed and locked tries, newest first: what the manager is shown."""
        conn = self._connect()
        if conn is None:
            return []
        try:
            rows = conn.execute("SELECT at, type, data FROM events WHERE type IN (?, ?) "
                                "ORDER BY id DESC LIMIT ?", (FAILED, LOCKED, limit)).fetchall()
        finally:
            conn.close()
        out = []
        for at, type_, data in rows:
            note = json.loads(data).get("_note", {})
            out.append({"at": at, "clerk": note.get("clerk"), "command": note.get("command"),
                        "locked": type_ == LOCKED})
        return out


def lock_seconds(failures: int) -> int:
    """How long ``failures`` wrong PINs in a row lock a clerk: 30 s at five, doubling after."""
    return int(LOCK_S * 2 ** min(max(failures - TRIES, 0), 10))


def command_name(args: Any) -> str:
    """The command a PIN was typed for, as the journal records it (``drawer pay-out``)."""
    command = str(getattr(args, "command", None) or "cashier")
    sub = getattr(args, f"{command.replace('-', '_')}_command", None)
    return f"{command} {sub}" if sub else command
