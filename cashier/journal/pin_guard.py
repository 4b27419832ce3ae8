"""Manager PINs under guard: five wrong tries in a row lock the PIN, and every try is journaled.

Only a PIN makes a manager (``--clerk`` and ``CASHIER_CLERK_ID`` only say who works), so the
PIN is what an attacker at the till would guess. Every manager PIN the till checks goes through
``PinGuard.check``, and the window's clerk sign-in through ``PinGuard.sign_in`` (a manager's PIN
signs a manager in):

- ``TRIES`` wrong tries in a row against one manager's PIN lock that PIN for ``LOCK_S`` seconds,
  doubling with each further wrong try after a lock ends; while locked even the right PIN is
  refused (the try is recorded as locked, without lengthening the lock);
- the right PIN after failures starts the count again;
- each try also writes a ``manager_pin_failed`` / ``manager_pin_locked`` /
  ``manager_pin_accepted`` event in the journal the command opened, so the store receives it
  with the rest of that journal.

The count lives in the till's guard file (``state``: one SQLite file in the till's data folder,
``cashier.approvals.pin_guard``), never in the journal: a command pointed at a fresh or copied
journal (``CASHIER_JOURNAL_PATH``, a copied profile, a training run) sees the same lock. It is
keyed on what is guessed, a digest of the manager's PIN hash, not on a name the caller types:
a clerk number, a till id or a journal path can be changed from the command line, the secret
cannot. A prompt that names no manager (any manager) checks the PIN against every manager not
locked: a wrong try there counts against each of them, so one PIN is never guessed more than
``TRIES`` times in a row whichever way it is asked. A try is counted before its PIN is checked
(one write under SQLite's write lock), so processes guessing at once share the ``TRIES``.
What it cannot defend: anyone who can delete the till's files, or read the profile's hashes and
guess offline (docs/decisions/012-authority.md, issue #46).
"""

from __future__ import annotations

import base64
import hashlib
import logging
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cashier.clerks import Clerk, PinBusy, PinLocked, Roster, SignInError
from cashier.journal.datastore import write_event

log = logging.getLogger(__name__)
TRIES = 5
LOCK_S = 30
FAILED, LOCKED, ACCEPTED = "manager_pin_failed", "manager_pin_locked", "manager_pin_accepted"
#: The key a PIN-only prompt (no clerk number) is named by in the record.
ANY = "any"
#: The key the clerks' sign-in is named by in the record.
SIGN_IN = "sign-in"
#: A try counted, its PIN not yet checked (a crash leaves it counted: the safe side).
TRYING = "trying"
#: The guard file's name in the till's data folder.
GUARD_FILE = "manager-pins.sqlite"
#: How long a try waits for another process's write to the guard file.
BUSY_S = 5.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tries (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    outcome TEXT NOT NULL,
    clerk TEXT NOT NULL,
    command TEXT NOT NULL,
    journal TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS try_secrets (
    secret TEXT NOT NULL,
    try_id INTEGER NOT NULL REFERENCES tries(id),
    PRIMARY KEY (secret, try_id)
) WITHOUT ROWID;
"""


def _now() -> datetime:
    return datetime.now(UTC)


def secret_of(pin_hash: str) -> str:
    """What the guard keys a PIN by: a digest of its salted hash (the hash itself is not copied),
    in base32, whose only digits are 2 to 7: a hex digest at rest holds a Luhn-valid run of 13
    digits now and then, which a card-number scanner reads as a card number (as the store's
    chain, ``cashier.journal.outbox_rows``)."""
    return base64.b32encode(hashlib.sha256(pin_hash.encode()).digest()).decode("ascii")[:32]


def _key(clerk_id: str | int | None) -> str:
    """The clerk a try names, as the record says it (a typed number, or ``any``)."""
    return ANY if clerk_id in (None, "", "-") else str(clerk_id).strip()[:40]


def _managers(roster: Roster, key: str) -> dict[str, str]:
    """{secret: pin hash} of the PINs a try under ``key`` is checked against (none when no PIN
    would be: a clerk who is not a manager, an unknown one, a till without a manager PIN)."""
    if not roster.enabled:  # a till without clerks: its manager PIN, whatever number is typed
        hashes = [roster.manager_pin_hash] if roster.manager_pin_hash else []
    elif key == ANY:
        hashes = [c.pin_hash for c in roster.clerks if c.is_manager]
    else:
        hashes = [c.pin_hash for c in roster.clerks if str(c.id) == key and c.is_manager]
    return {secret_of(h): h for h in hashes}


class PinGuard:
    """The lock on the till's manager PINs (in the guard file ``state``), and the record of each
    try (in the guard file, and as an event in the journal at ``path`` when it exists)."""

    def __init__(self, path: Path, state: Path, *, clock: Callable[[], datetime] = _now) -> None:
        self.path = Path(path)
        self.state = Path(state)
        self.clock = clock

    # ---- the guard file ---------------------------------------------------------------------
    def _guard(self) -> sqlite3.Connection:
        """The guard file, made owner-only on first use (the journal's durability: WAL, FULL)."""
        self.state.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not self.state.exists():
            self.state.touch(mode=0o600)
        conn = sqlite3.connect(str(self.state), timeout=BUSY_S, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_S * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.executescript(_SCHEMA)
        return conn

    def locked_for(self, conn: sqlite3.Connection, secret: str) -> tuple[float, int]:
        """(seconds the PIN ``secret`` stays locked, wrong tries in a row against it)."""
        rows = conn.execute(
            "SELECT t.outcome, t.at FROM try_secrets s JOIN tries t ON t.id = s.try_id "
            "WHERE s.secret = ? AND t.outcome IN (?, ?, ?) ORDER BY t.id DESC LIMIT 64",
            (secret, FAILED, TRYING, ACCEPTED)).fetchall()
        failures = 0
        last: str | None = None
        for outcome, at in rows:
            if outcome == ACCEPTED:
                break
            failures += 1
            last = last or str(at)
        if failures < TRIES or last is None:
            return 0.0, failures
        until = datetime.fromisoformat(last) + timedelta(seconds=lock_seconds(failures))
        return max((until - self.clock()).total_seconds(), 0.0), failures

    def _record(self, conn: sqlite3.Connection, outcome: str, key: str, command: str,
                secrets: list[str]) -> int:
        cur = conn.execute("INSERT INTO tries(at, outcome, clerk, command, journal) "
                           "VALUES (?, ?, ?, ?, ?)",
                           (self._at(), outcome, key, command, str(self.path)))
        try_id = int(cur.lastrowid or 0)
        conn.executemany("INSERT INTO try_secrets(secret, try_id) VALUES (?, ?)",
                         [(s, try_id) for s in secrets])
        return try_id

    def _at(self) -> str:
        return self.clock().isoformat(timespec="milliseconds")

    # ---- the journal's record ---------------------------------------------------------------
    def _journal(self, type_: str, key: str, command: str) -> None:
        """The try as an event of the journal this command opened (none yet: the guard file
        alone has it)."""
        if not self.path.exists():
            return
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=rw", uri=True, timeout=BUSY_S,
                                   isolation_level=None)
        except sqlite3.Error:
            return
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_S * 1000)}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                write_event(conn, None, key, type_, {"_note": {"clerk": key, "command": command}},
                            self._at())
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:  # not a journal (yet): the guard file keeps the try
            log.warning("a manager PIN try was not journaled in %s: %s", self.path, exc)
        finally:
            conn.close()

    # ---- the check --------------------------------------------------------------------------
    def check(self, roster: Roster, clerk_id: str | int | None, pin: str, command: str) -> Clerk:
        """The manager whose PIN this is (``roster.manager``), under the lock."""
        key = _key(clerk_id)
        return self._guarded(roster, key, _managers(roster, key), command,
                             lambda among: among.manager(None if key == ANY else key, pin))

    def sign_in(self, roster: Roster, pin: str, command: str) -> Clerk:
        """The clerk whose PIN this is (``roster.sign_in``), under the lock: a manager's PIN signs
        a manager in (who then approves), so a sign-in try is a guess at every clerk's PIN."""
        pins = {secret_of(c.pin_hash): c.pin_hash for c in roster.clerks}
        return self._guarded(roster, SIGN_IN, pins, command, lambda among: among.sign_in(pin))

    def _guarded(self, roster: Roster, key: str, pins: dict[str, str], command: str,
                 verify: Callable[[Roster], Clerk]) -> Clerk:
        """``verify`` against the clerks of ``pins`` not locked; the try counted first. The guard
        file locked past the wait (many checks at once on a disk busy with fsyncs: ``make
        hostile`` beside ``make chaos`` saw "unexpected error: database is locked") is a one-line
        refusal; a try it had begun stays counted, as a wrong one."""
        try:
            return self._guarded_once(roster, key, pins, command[:40], verify)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            raise PinBusy("pin: other PIN checks kept the till busy: type the PIN again") from exc

    def _guarded_once(self, roster: Roster, key: str, pins: dict[str, str], command: str,
                      verify: Callable[[Roster], Clerk]) -> Clerk:
        conn = self._guard()
        try:
            conn.execute("BEGIN IMMEDIATE")  # the count and this try's place in it, at once
            try:
                locks = {s: self.locked_for(conn, s) for s in pins}
                open_ = [s for s in pins if locks[s][0] <= 0]
                if pins and not open_:
                    self._record(conn, LOCKED, key, command, list(pins))
                    conn.execute("COMMIT")
                    left = min(locks[s][0] for s in pins)
                    failures = max(locks[s][1] for s in pins)
                    self._journal(LOCKED, key, command)
                    who = f"clerk {key}" if key not in (ANY, SIGN_IN) else "this PIN prompt"
                    raise PinLocked(f"pin: {who} is locked for {int(left) + 1} s after "
                                      f"{failures} wrong PINs")
                try_id = self._record(conn, TRYING, key, command, open_)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            before = max((locks[s][1] for s in open_), default=0)
            try:
                clerk = verify(_among(roster, {pins[s] for s in pins if s not in open_}))
            except SignInError:
                conn.execute("UPDATE tries SET outcome = ? WHERE id = ?", (FAILED, try_id))
                self._journal(FAILED, key, command)
                log.info("a wrong PIN try for %s (%s), journaled", key, command)
                raise
            # the right PIN starts its own count again, never another clerk's
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("DELETE FROM try_secrets WHERE try_id = ? AND secret != ?",
                         (try_id, secret_of(clerk.pin_hash)))
            conn.execute("UPDATE tries SET outcome = ? WHERE id = ?", (ACCEPTED, try_id))
            conn.execute("COMMIT")
            if before:
                self._journal(ACCEPTED, key, command)
            return clerk
        finally:
            conn.close()

    def failures(self, limit: int = 50) -> list[dict[str, Any]]:
        """The latest failed and locked tries at this till, newest first, whatever journal they
        were typed against: what the manager is shown."""
        conn = self._guard()
        try:
            rows = conn.execute("SELECT at, outcome, clerk, command, journal FROM tries "
                                "WHERE outcome IN (?, ?) ORDER BY id DESC LIMIT ?",
                                (FAILED, LOCKED, limit)).fetchall()
        finally:
            conn.close()
        return [{"at": at, "clerk": clerk, "command": command, "locked": outcome == LOCKED,
                 "journal": journal} for at, outcome, clerk, command, journal in rows]


def _among(roster: Roster, locked: set[str]) -> Roster:
    """``roster`` without the clerks whose PIN is locked (a prompt that names nobody skips them)."""
    if not locked or not roster.enabled:
        return roster
    return Roster([c for c in roster.clerks if c.pin_hash not in locked], roster.rules,
                  manager_pin_hash=roster.manager_pin_hash, currency=roster.currency)


def lock_seconds(failures: int) -> int:
    """How long ``failures`` wrong PINs in a row lock a PIN: 30 s at five, doubling after."""
    return int(LOCK_S * 2 ** min(max(failures - TRIES, 0), 10))


def command_name(args: Any) -> str:
    """The command a PIN was typed for, as the journal records it (``drawer pay-out``)."""
    command = str(getattr(args, "command", None) or "cashier")
    sub = getattr(args, f"{command.replace('-', '_')}_command", None)
    return f"{command} {sub}" if sub else command
