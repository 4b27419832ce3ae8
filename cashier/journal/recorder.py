"""The synchronous journal core: one SQLite connection, used by one thread only.

Every change is one ``BEGIN IMMEDIATE`` transaction that appends an event, updates the entry's
projection row and the running totals together, so the three can never disagree. The async
``Journal`` (``cashier.journal.aio``) runs a writer store on a dedicated thread.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from cashier.errors import ValidationError
from cashier.journal.card_guard import guard_text, masked_card
from cashier.journal.drawer_rows import DrawerRows
from cashier.journal.leases import EntryOwned, alive, lease_for
from cashier.journal.model import (
    CORRECTIONS,
    INVOICED_KINDS,
    UNRESOLVED,
    UNRESOLVED_SQL,
    ClockMoved,
    Entry,
    Event,
    Job,
    JournalError,
    Kind,
    Op,
    State,
    Totals,
    check_transition,
    money,
)
from cashier.journal.outbox_rows import OutboxRows
from cashier.journal.report_rows import ReportRows
from cashier.journal.rows import entry_of_row as _entry
from cashier.journal.schema import migrate
from cashier.journal.tickets import CASH_NOTE, TicketRecord, TicketRows
from cashier.journal.tokens import encode_token
from cashier.journal.totals import add_total, contribution, rebuild_totals
from cashier.money import quantum, to_minor
from cashier.text import clean_data, clean_text

#: Columns a transition may change (everything but the identity of the entry).
MUTABLE = frozenset({
    "state", "op", "original_invoice", "requested_minor", "approved_minor", "tip_minor",
    "tax_minor", "captured_minor", "refunded_minor", "pending_minor", "card", "card_last4",
    "card_type", "token", "auth_code", "response_code", "host_code", "message", "clerk",
    "updated_at", "sent_at", "attempts", "reversal_reason", "batch_no",
    "charge_id", "refund_id", "payment_link_id", "customer_id",
})
CREATE_COLUMNS = MUTABLE | {"till_id", "kind", "invoice", "idempotency_key", "currency",
                            "training", "created_at", "business_date"}
#: Text columns that must never carry a card number.
_TEXT_FIELDS = ("original_invoice", "card_type", "auth_code", "response_code", "host_code",
                "message", "clerk", "reversal_reason", "idempotency_key", "invoice", "till_id",
                "charge_id", "refund_id", "payment_link_id", "customer_id")
#: Sequence digits after the two-digit till number: 10 digits in all.
SEQUENCE_DIGITS = 8
#: A real till's sequence is bound to the day: day N (since INVOICE_EPOCH, UTC) starts at
#: N * INVOICES_PER_DAY, so a lost journal never restarts below an earlier day's numbers. A busy
#: day spills into the next block, which only moves the counter forward. 9,999 days: to 2052.
INVOICE_EPOCH = date(2025, 1, 1)
INVOICES_PER_DAY = 10_000
#: The last day whose block the 8 digits hold (2052-05-18): a clock past it is wrong (or the
#: till outlived its numbering), and no invoice is issued (``time_floor``).
INVOICE_LAST_DAY = INVOICE_EPOCH + timedelta(days=10 ** SEQUENCE_DIGITS // INVOICES_PER_DAY - 1)
#: An open tab: an authorization approved and not yet captured (the host has not batched it).
OPEN_TAB_SQL = "state = 'approved' AND kind IN ('authorization', 'manual_authorization')"


def write_event(conn: sqlite3.Connection, entry_id: int | None, actor: str, type_: str,
                data: Mapping[str, Any], at: str) -> None:
    """THE writer of the ``events`` table (entries, notes, tickets, drawer moves, manager PIN
    tries): every event is cleaned and serialised the same way, inside the caller's transaction."""
    conn.execute("INSERT INTO events(entry_id, at, actor, type, data) VALUES (?, ?, ?, ?, ?)",
                 (entry_id, at, actor, type_, json.dumps(clean_data(data), sort_keys=True, default=str)))


# ---- rows -------------------------------------------------------------------------------------
def _stored_as_given(row: Mapping[str, Any], integer_columns: frozenset[str]) -> bool:
    """True when SQLite stores every value exactly as given (int in an INTEGER column, text in
    a TEXT one), so the Entry can be built from the values just written instead of re-reading
    the row; a value SQLite would convert (a clerk given as a number) forces the re-read."""
    for key, value in row.items():
        if value is None:
            continue
        if type(value) is not (int if key in integer_columns else str):
            return False
    return True


def _job(row: sqlite3.Row) -> Job:
    return Job(id=row["id"], entry_id=row["entry_id"], kind=row["kind"], reason=row["reason"],
               state=row["state"], attempts=row["attempts"], next_at=row["next_at"],
               last_error=row["last_error"], created_at=row["created_at"],
               created_by=row["created_by"])


#: Buckets of money given back: a correction moving them changes the net the other way.
_GIVEN_BACK = frozenset({"refund", "cash_refund", "charge_refund"})


def _net(part: tuple[str, str, int] | None) -> int:
    """What one entry's bucket adds to the net (minor units): refunds count negative."""
    if part is None:
        return 0
    return -part[2] if part[0] in _GIVEN_BACK else part[2]


def corrections_figure(data: Iterable[Mapping[str, Any]], currency: str) -> tuple[int, Decimal]:
    """(count, money moved) of correction events' data: what every report shows of them. The
    money is signed: what the corrections added to the net (a sale the host voided after all
    takes its amount off, a refund it voided puts it back)."""
    count, amount = 0, Decimal(0)
    for item in data:
        note = item.get("_note") or {}
        count += 1
        amount += Decimal(str(note.get("amount") or "0"))
    return count, amount.quantize(quantum(currency))


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


#: A clock moving more than this (seconds) either way is journaled and shown.
CLOCK_JUMP_S = 180.0

#: How long a journal connection waits for another process's lock before giving up.
BUSY_TIMEOUT_S = 30.0


def _switch_to_wal(conn: sqlite3.Connection, timeout_s: float) -> str:
    """``PRAGMA journal_mode = WAL``, retried: on a new file that another process is switching
    too, SQLite answers "database is locked" at once instead of calling the busy handler."""
    deadline = time.monotonic() + timeout_s
    delay = 0.005
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + delay > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


#: SQLite's primary result codes for a full disk and an I/O error (the low byte of an extended code).
SQLITE_FULL, SQLITE_IOERR = 13, 10
#: Below this much free space on the journal's disk, an I/O error writing it is a full disk: SQLite
#: says "disk I/O error" when it cannot grow the WAL index (SQLITE_IOERR_SHMSIZE), "full" only
#: when the database or the WAL itself cannot grow.
NEARLY_FULL_BYTES = 1 << 20


def disk_full(exc: BaseException, path: Path | None = None) -> bool:
    """THE rule: ``exc`` means the disk holding the journal (at ``path``) is full or nearly so:
    the OS's ENOSPC or EDQUOT, SQLite's SQLITE_FULL, or an SQLite I/O error while that disk has
    less than ``NEARLY_FULL_BYTES`` free. Never a damaged journal (its advice is a backup)."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    if not isinstance(exc, sqlite3.Error):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    text = str(exc).lower()
    if (code is not None and code & 0xFF == SQLITE_FULL) or "disk is full" in text:
        return True
    if path is None or not ((code is not None and code & 0xFF == SQLITE_IOERR) or "i/o" in text):
        return False
    folder = path if path.is_dir() else path.parent
    try:
        free = os.statvfs(folder)
    except OSError:
        return False
    return free.f_bavail * free.f_frsize < NEARLY_FULL_BYTES


class JournalOpenError(JournalError):
    """The journal file cannot be used: one line with ``journal_path``, the cause and the fix."""

    def __init__(self, path: Path, exc: BaseException) -> None:
        cause, fix = _open_failure(exc, _read_only(path), disk_full(exc, path))
        super().__init__(f"journal_path {path}: {cause}; {fix}")


def _read_only(path: Path) -> bool:
    """The journal's file or folder cannot be written (a read-only mount, even for root)."""
    try:
        folder = path.parent
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return True
        return not os.access(folder, os.W_OK) or (path.is_file() and not os.access(path, os.W_OK))
    except OSError:
        return False


def _open_failure(exc: BaseException, read_only: bool = False,
                  full: bool = False) -> tuple[str, str]:
    """(cause, what to do) for an exception met while opening the journal. Only a damaged file
    is sent to its backup: restoring an older journal otherwise loses what the till did since."""
    text = str(exc).lower()
    if full:
        return "cannot be written: the disk is full", "free space on the disk, then start again"
    if isinstance(exc, IsADirectoryError):
        return "is a folder, not a journal file", "point journal_path at a file"
    if isinstance(exc, PermissionError) or "readonly" in text or "read-only" in text \
            or "permission" in text or (read_only and "unable to open" in text):
        return ("cannot be written (read-only file, folder or mount)",
                "give the till write access to the file and its folder, or move the journal")
    if "locked" in text or "busy" in text:
        return ("is locked by another program (is another Cashier running?)",
                "close the other program, then start again")
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return ("is not a Cashier journal (not an SQLite database, or damaged)",
                "restore the journal from its backup or point journal_path at the right file")
    return f"cannot be opened ({type(exc).__name__}: {str(exc)[:120]})", \
        "check the disk and the file's permissions, then start again"


def _check_ours(conn: sqlite3.Connection, path: Path, *, writer: bool = True) -> None:
    """Refuse another program's SQLite file before a migration writes our tables into it.

    Both reads run in one transaction, under the write lock for a writer: another process
    creating the same new journal commits its first migration (tables and version together)
    either wholly before or wholly after, never between the two reads."""
    conn.execute("BEGIN IMMEDIATE" if writer else "BEGIN")
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {str(r[0]) for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    finally:
        conn.execute("COMMIT")
    if (version == 0 and tables) or (version > 0 and "entries" not in tables):
        raise JournalError(f"journal_path {path}: is another program's SQLite database, not a "
                           "Cashier journal; point journal_path at the till's journal file")


#: SQLite page cache per connection, in KiB (see ``JournalRecorder.__init__``).
CACHE_KIB = 512


class JournalRecorder(TicketRows, DrawerRows, ReportRows, OutboxRows):
    """The journal on one connection. Not thread-safe: one thread owns each instance."""

    def __init__(self, path: str | Path, *, till_id: str = "training", till_number: int = 1,
                 currency: str = "USD", training: bool = False, reader: bool = False,
                 clock: Callable[[], datetime] = utc_now, invoice_time_floor: bool = False,
                 lock_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        if not 1 <= till_number <= 99:
            raise ValidationError("till_number", "must be 1 to 99 (the invoice prefix)")
        self.path = Path(path)
        self.till_id = till_id
        self.till_number = till_number
        self.currency = currency
        self.training = training
        self.clock = clock
        #: Ids of the entries the last write transaction moved (the entry written and any it was
        #: mirrored on), for the journal to publish each of them (``take_moved``).
        self._moved: list[int] = []
        #: What committed writes changed besides entries (drawer moves, tickets), in order, for
        #: the journal's one publisher (``take_changes``).
        self._changes: list[Any] = []
        #: A clock jump seen and not yet journaled (the next write transaction journals it).
        self._jump_seen: ClockMoved | None = None
        self.invoice_time_floor = invoice_time_floor
        self.lock_timeout_s = lock_timeout_s
        #: Ticket lines (and a new ticket) are held in an open transaction until the next write
        #: commits them, or ``flush_lines`` (the async journal's writer sets it and flushes after
        #: a short pause; see ``TicketRows._lines_tx``). Off: each line commits on its own.
        self.hold_lines = False
        #: True while such a transaction is open.
        self.lines_held = False
        #: Tickets as this connection last wrote or read them (``TicketRows.ticket``): kept by
        #: the writes that know how they change them, dropped by any other write, and all dropped
        #: once another connection has committed (``PRAGMA data_version``), so a ticket is read
        #: in full once, not after every write of it (a line, a tender, its answer).
        self._held_tickets: dict[int, TicketRecord] = {}
        #: Inside a write: the held tickets as they were when it began (``_tx``).
        self._held_before: dict[int, TicketRecord] = {}
        self._writing = False
        self._data_version: int | None = None
        #: The journal's latest time while held lines keep a transaction open (it holds the
        #: write lock: no other connection adds an event), so ``_now`` does not ask at every line.
        self._held_last_at: str | None = None
        try:
            self._open(reader)
        except JournalError:
            raise
        except (sqlite3.Error, OSError) as exc:
            raise JournalOpenError(self.path, exc) from None

    def _open(self, reader: bool) -> None:
        if self.path.is_dir():
            raise IsADirectoryError(str(self.path))
        if not reader:
            # the store's records: a folder we create and a new journal file are owner-only
            # (an existing folder the profile points at is left as its owner set it)
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            if not self.path.exists():
                self.path.touch(mode=0o600)
        self.conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False,
                                    timeout=self.lock_timeout_s)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute(f"PRAGMA busy_timeout = {int(self.lock_timeout_s * 1000)}")
        # Each connection's page cache (SQLite's default: 2 MB) otherwise fills with every page
        # the day's appends touch, and the window keeps two connections open all day. The till
        # reads recent rows through indexes; the OS file cache holds the rest.
        self.conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        _check_ours(self.conn, self.path, writer=not reader)
        if reader:
            self.conn.execute("PRAGMA query_only = 1")
        else:
            mode = _switch_to_wal(self.conn, self.lock_timeout_s)
            if str(mode).lower() != "wal":
                raise JournalError(f"journal_path {self.path}: cannot switch to WAL mode (got "
                                   f"{mode}); put the journal on a local disk")
            self.conn.execute("PRAGMA synchronous = FULL")
            self.conn.execute("PRAGMA foreign_keys = ON")
            migrate(self.conn)
            self.conn.row_factory = sqlite3.Row
        self._integer_columns = frozenset(
            str(col["name"]) for col in self.conn.execute("PRAGMA table_info(entries)")
            if str(col["type"]).upper() == "INTEGER")

    def close(self) -> None:
        try:
            self.flush_lines()
        finally:  # lines a full disk would not take: the connection closes all the same
            self.conn.close()

    # ---- plumbing -----------------------------------------------------------------------------
    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write, committed (FULL) at its end. Ticket lines held open (``hold_lines``) are
        in the same transaction and commit with it: the write is a savepoint inside it, so a
        refused write leaves the held lines as they were. A write inside another's (``cash_tender``)
        is a savepoint in that one's transaction and commits with it."""
        if self._writing:
            with self._part_of_write():
                yield self.conn
            return
        self._moved.clear()  # ``take_moved`` answers for the last transaction only
        changes = len(self._changes)
        seen = self._jump_seen
        held = self.lines_held
        self.conn.execute("SAVEPOINT write" if held else "BEGIN IMMEDIATE")
        if not held:
            self._check_data_version()  # under the write lock: nobody commits meanwhile
        # only what this write keeps (the tickets it knows how it changed) stays held
        before, self._held_tickets = self._held_tickets, {}
        self._held_before = before
        self._writing = True
        try:
            if seen is not None:  # a jump a read saw (or a write before ``_tx``): journaled now
                self._now()
            yield self.conn
        except BaseException:
            self._writing = False
            whole = self._undo("write" if held else None)
            # undone to where it began: the tickets as held then, unless held lines went too
            self._held_tickets = {} if whole and held else before
            self._held_before = {}
            del self._changes[changes:]  # nothing of a rolled-back write is published
            if seen is not None and self._jump_seen is None:
                self._jump_seen = seen  # nor journaled: the next write journals it
            raise
        self._writing = False
        self._held_before = {}
        try:
            if held:
                self.conn.execute("RELEASE write")
            self.conn.execute("COMMIT")
        except BaseException:  # a full disk at the commit: none of it stays, held lines neither
            self._undo(None)
            self._held_tickets = {}
            del self._changes[changes:]
            raise
        self.lines_held = False
        self._held_last_at = None

    @contextmanager
    def _part_of_write(self) -> Iterator[None]:
        """One write of several that commit together: a savepoint, the tickets held as the
        enclosing write had them so far (the same rule as ``_tx``: only what it keeps stays)."""
        changes = len(self._changes)
        before, self._held_tickets = self._held_tickets, {}
        enclosing, self._held_before = self._held_before, before
        self.conn.execute("SAVEPOINT part")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK TO part")
            self.conn.execute("RELEASE part")
            self._held_tickets = before
            del self._changes[changes:]
            raise
        finally:
            self._held_before = enclosing
        self.conn.execute("RELEASE part")

    def _undo(self, savepoint: str | None) -> bool:
        """Roll back a write: to its savepoint when it joined held lines (they stay held), else
        the whole transaction (also when SQLite already gave up the transaction: a full disk).
        True when the whole transaction went (held lines with it)."""
        self._held_last_at = None
        if savepoint is not None and self.conn.in_transaction:
            try:
                self.conn.execute(f"ROLLBACK TO {savepoint}")
                self.conn.execute(f"RELEASE {savepoint}")
                return False
            except sqlite3.Error:
                pass
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
        if self.lines_held:
            self._held_tickets.clear()  # they held lines that are gone
        self.lines_held = False
        return True

    def flush_lines(self) -> None:
        """Commit ticket lines held open (``hold_lines``); nothing when none are held. When the
        commit fails and SQLite gave up the transaction (a full disk), the lines are gone: no
        longer held (``lines_held`` False), and the failure raised."""
        if self.lines_held:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:
                if not self.conn.in_transaction:
                    self._undo(None)
                raise
            self.lines_held = False
            self._held_last_at = None

    def _check_data_version(self) -> None:
        """Drop every held ticket once another connection has committed (another process, the
        cash desk's connection): the journal may then hold them otherwise."""
        version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
        if version != self._data_version:
            self._held_tickets.clear()
            self._data_version = version

    def take_changes(self) -> list[Any]:
        """What the committed writes since the last call changed besides entries (``DrawerMoved``,
        ``TicketWritten``), oldest first; the journal publishes them."""
        changes, self._changes = self._changes, []
        return changes

    def _now(self) -> str:
        """The journal's time: the clock, but never behind the journal's last event. A clock set
        back (by hand, a dead RTC battery, a bad time server) does not reorder money: every move
        is stamped no earlier than the last one, so it falls in the drawer session open when it
        happened and the business date never goes back. A jump of more than ``CLOCK_JUMP_S``
        either way is journaled once (``clock_moved``) by the next write transaction, for the
        status bar and the manager; a read that sees it first keeps it for that write."""
        wall = self.clock()
        now = iso(wall)
        last = self._held_last_at if self.lines_held else None
        if last is None:
            row = self.conn.execute("SELECT at FROM events ORDER BY id DESC LIMIT 1").fetchone()
            last = None if row is None else str(row[0])
        jump = self._clock_jump(wall, last)
        if last is not None and now < last:
            now = last
        if self.lines_held:  # every event of the transaction is stamped with such a time
            self._held_last_at = now
        if jump is not None:
            self._clock_noted = True
            self._jump_seen = ClockMoved(round(jump), iso(wall), last)
        if self.conn.in_transaction:
            self._journal_jump(now)
        return now

    def _journal_jump(self, now: str) -> None:
        """Inside a write: journal the jump seen since the last one, and hand it to the journal's
        publisher (the status bar)."""
        seen = self._jump_seen
        if seen is None:
            return
        self._jump_seen = None
        self._event(None, "system", "clock_moved",
                    {"_note": {"by_s": seen.by_s, "clock": seen.clock, "journal": seen.journal}}, now)
        self._changes.append(seen)

    def journal_now(self) -> str:
        """The journal's time for a write of another table in the same transaction (the drawer)."""
        return self._now()

    def _clock_jump(self, wall: datetime, last: str | None) -> float | None:
        """Seconds the wall clock moved against this process's monotonic clock since it was last
        read (or behind the journal), when more than ``CLOCK_JUMP_S``; else None."""
        mono = time.monotonic()
        anchor = getattr(self, "_clock_anchor", None)
        self._clock_anchor = (wall, mono)
        jump = None
        if anchor is not None:
            drift = (wall - anchor[0]).total_seconds() - (mono - anchor[1])
            if abs(drift) > CLOCK_JUMP_S:
                jump = drift
        if jump is None and last is not None and not getattr(self, "_clock_noted", False):
            behind = (datetime.fromisoformat(last) - wall).total_seconds()
            if behind > CLOCK_JUMP_S:
                jump = -behind
        return jump

    def _event(self, entry_id: int | None, actor: str, type_: str, data: Mapping[str, Any],
               at: str) -> None:
        write_event(self.conn, entry_id, actor, type_, data, at)

    @staticmethod
    def _check_actor(actor: str) -> str:
        if not actor or len(actor) > 40:
            raise ValidationError("actor", "must name who acted: a clerk or manager id, "
                                           "'recovery' or 'system'")
        guard_text("actor", actor)
        return actor

    def _row(self, entry_id: int) -> sqlite3.Row:
        row = self.conn.execute("SELECT * FROM entries WHERE id = ?", (entry_id,)).fetchone()
        if row is None:
            raise JournalError(f"entry: no journal entry {entry_id}")
        return row  # type: ignore[no-any-return]

    def _minor(self, field: str, value: Decimal | None, currency: str) -> int:
        if value is None:
            return 0
        if not isinstance(value, Decimal):
            raise ValidationError(field, "must be a Decimal amount")
        if value < 0:
            raise ValidationError(field, "must not be negative")
        if not value.is_finite() or value != value.quantize(quantum(currency)):
            raise ValidationError(field, f"must be a whole number of {currency} minor units")
        return to_minor(value, currency)

    def time_floor(self) -> int:
        """The lowest sequence this day may use on a real till (0 when not bound to time):
        a journal that is new, replaced or restored starts at today's block, above every
        earlier day's numbers (see docs/decisions.md, "Invoice numbers")."""
        if not self.invoice_time_floor:
            return 0
        today = self.clock().astimezone(UTC).date()
        if today > INVOICE_LAST_DAY:  # its block would not fit the 8 digits
            raise ValidationError("clock", "the till's clock says {today}, after {last}, the last "
                                  "day invoice numbers can be bound to: set the clock right",
                                  today=today.isoformat(), last=INVOICE_LAST_DAY.isoformat())
        days = (today - INVOICE_EPOCH).days
        return max(days, 0) * INVOICES_PER_DAY

    def next_invoice(self) -> str:
        """Allocate inside the caller's transaction: the number is consumed even if unused."""
        row = self.conn.execute(
            "INSERT INTO counters(name, value) VALUES ('invoice', MAX(1, :floor)) "
            "ON CONFLICT(name) DO UPDATE SET value = MAX(value + 1, :floor) RETURNING value",
            {"floor": self.time_floor() + 1}).fetchone()
        seq = int(row[0])
        if seq >= 10 ** SEQUENCE_DIGITS:
            raise JournalError("invoice: this till has used all its invoice numbers")
        return f"{self.till_number:02d}{seq:0{SEQUENCE_DIGITS}d}"

    def invoice_high_water(self) -> int:
        """The highest sequence this journal has issued or been told is taken (0: none)."""
        row = self.conn.execute("SELECT value FROM counters WHERE name = 'invoice'").fetchone()
        return 0 if row is None else int(row[0])

    def raise_invoice_floor(self, sequence: int) -> None:
        """Never issue ``sequence`` or below again (learned from the host, or another store);
        the counter only ever goes up."""
        if isinstance(sequence, bool) or not isinstance(sequence, int) \
                or not 0 <= sequence < 10 ** SEQUENCE_DIGITS:
            raise ValidationError("sequence", f"must be a whole number from 0 to "
                                              f"{10 ** SEQUENCE_DIGITS - 1}")
        with self._tx() as conn:
            conn.execute("INSERT INTO counters(name, value) VALUES ('invoice', :seq) "
                         "ON CONFLICT(name) DO UPDATE SET value = MAX(value, :seq)",
                         {"seq": sequence})
            self._event(None, "system", "invoice_floor", {"_note": {"sequence": sequence}},
                        self._now())

    def allocate_invoice(self) -> str:
        """An invoice for a request that is no entry (a gift card balance inquiry): never reused."""
        with self._tx():
            return self.next_invoice()

    # ---- writes -------------------------------------------------------------------------------
    def create(self, kind: Kind | str, requested: Decimal, *, actor: str,
               currency: str | None = None, tip: Decimal | None = None, tax: Decimal | None = None,
               invoice: str | None = None, idempotency_key: str | None = None,
               original_invoice: str | None = None, card: str | None = None,
               token: str | None = None, clerk: str | None = None, message: str | None = None,
               op: Op | str | None = None, sent: bool = False, charge_id: str | None = None,
               payment_link_id: str | None = None, customer_id: str | None = None,
               ticket_id: int | None = None) -> Entry:
        """Commit an intent (invoice allocated in the same transaction); ``sent=True`` also
        records that the request is about to go, saving one commit on the hot path."""
        kind = Kind(kind)
        currency = currency or self.currency
        self._check_actor(actor)
        if kind in INVOICED_KINDS and idempotency_key is not None:
            raise ValidationError("idempotency_key", f"is for Charge API entries, not {kind}")
        if ticket_id is not None and (isinstance(ticket_id, bool) or not isinstance(ticket_id, int)):
            raise ValidationError("ticket", "must be a ticket number")
        if kind is Kind.CHARGE and not idempotency_key:
            raise ValidationError("idempotency_key", "is required for a Charge API entry")
        if idempotency_key is not None and not 1 <= len(idempotency_key) <= 255:
            raise ValidationError("idempotency_key", "must be 1 to 255 characters")
        if invoice is not None and not re.fullmatch(r"\d{1,10}", invoice):
            raise ValidationError("invoice", "must be a string of 1 to 10 digits")
        masked, last4 = masked_card(card)
        now = self._now()
        # the day of the journal's time: never before the last entry's (a clock set back)
        local_day = datetime.fromisoformat(now).astimezone().date().isoformat()
        row: dict[str, Any] = {
            "till_id": self.till_id, "kind": str(kind), "state": str(State.INTENT),
            "op": str(Op(op)) if op else None, "invoice": invoice,
            "idempotency_key": idempotency_key, "original_invoice": original_invoice,
            "currency": currency,
            "requested_minor": self._minor("requested", requested, currency),
            "approved_minor": 0, "tip_minor": self._minor("tip", tip, currency),
            "tax_minor": self._minor("tax", tax, currency), "captured_minor": 0,
            "refunded_minor": 0, "pending_minor": self._minor("requested", requested, currency),
            "card": masked, "card_last4": last4, "card_type": None, "token": encode_token(token),
            "auth_code": None, "response_code": None, "host_code": None, "message": message,
            "training": int(self.training), "clerk": clerk, "created_at": now, "updated_at": now,
            "sent_at": None, "business_date": local_day, "attempts": 0,
            "reversal_reason": None, "batch_no": 0, "charge_id": charge_id, "refund_id": None,
            "payment_link_id": payment_link_id, "customer_id": customer_id, "ticket_id": ticket_id,
        }
        for name in _TEXT_FIELDS:
            guard_text(name, row[name])
            if isinstance(row[name], str):
                row[name] = clean_text(row[name])
        with self._tx() as conn:
            if ticket_id is not None and Op(op or Op.SALE) is not Op.REFUND \
                    and kind is not Kind.REFUND:
                # decided in the transaction that records the tender: no two processes see one
                # remainder, and a second tender waits until the first has its outcome
                self._check_new_tender(ticket_id, requested)  # the tender's total, tip in it
            if kind in INVOICED_KINDS and invoice is None:
                row["invoice"] = self.next_invoice()
            # The projection row is written once, already SENT when ``sent``: the same row the
            # intent insert plus the SENT update gave, one statement less in the transaction. The
            # events still record both steps.
            changes: dict[str, Any] = {"state": str(State.SENT), "sent_at": now, "updated_at": now,
                                       "attempts": 1} if sent else {}
            stored = {**row, **changes}
            cols = ", ".join(stored)
            try:
                cur = conn.execute(f"INSERT INTO entries({cols}) VALUES ({', '.join('?' * len(stored))})",
                                   tuple(stored.values()))
            except sqlite3.IntegrityError:
                field = "invoice" if row["invoice"] else "idempotency_key"
                raise ValidationError(field, "is already in the journal: continue that entry "
                                             "instead of starting a new one") from None
            entry_id = int(cur.lastrowid or 0)
            conn.execute("INSERT INTO entry_owners(entry_id, owner, since) VALUES (?, ?, ?)",
                         (entry_id, self.owner, now))
            self._event(entry_id, actor, "created", row, now)
            if sent:
                self._event(entry_id, actor, "sent", changes, now)
            entry = _entry({**stored, "id": entry_id}) if _stored_as_given(
                stored, self._integer_columns) else _entry(self._row(entry_id))
            if ticket_id is not None:
                self._ticket_written(ticket_id)
                before = self._held_before.get(ticket_id)
                if before is not None:  # the newest entry comes last, as a read orders them
                    self._hold(dataclasses.replace(before, entries=(*before.entries, entry)))
            return entry

    def transition(self, entry_id: int, state: State | str, *, actor: str, event: str | None = None,
                   **changes: Any) -> Entry:
        """Move an entry to ``state`` and change fields, as one event. Amount fields are given
        as Decimals (``approved=...``) and stored as minor units."""
        state = State(state)
        self._check_actor(actor)
        with self._tx() as conn:
            row = self._row(entry_id)
            current = State(row["state"])
            if current is State.VOIDED and state is State.VOIDED:
                return _entry(row)  # two paths told the same end (a status and a cancel): once
            if current in UNRESOLVED or state in UNRESOLVED:
                self._take(row)
            check_transition(current, state)
            cols = self._columns(row, changes)
            cols["state"] = str(state)
            if state is State.CAPTURED and int(row["batch_no"]) != 0:
                cols["batch_no"] = 0  # the host batches a capture when it happens: the open batch
            now = self._now()
            cols["updated_at"] = now
            if state is State.SENT:
                cols["sent_at"] = now
                cols["attempts"] = int(row["attempts"]) + 1
            new, propagated = self._apply(conn, row, cols, actor, event or str(state), now)
            if not propagated and _stored_as_given(cols, self._integer_columns):
                moved = _entry(new)
                if moved.ticket_id is not None:  # its ticket held with it, as it now reads
                    before = self._held_before.get(moved.ticket_id)
                    if before is not None:
                        self._hold(dataclasses.replace(before, entries=tuple(
                            moved if e.id == moved.id else e for e in before.entries)))
                return moved
            return _entry(self._row(entry_id))

    def _columns(self, row: sqlite3.Row, changes: Mapping[str, Any]) -> dict[str, Any]:
        cur = row["currency"]
        cols: dict[str, Any] = {}
        for key, value in changes.items():
            if key in ("requested", "approved", "tip", "tax", "captured", "refunded", "pending"):
                cols[f"{key}_minor"] = self._minor(key, value, cur)
            elif key == "card":
                cols["card"], cols["card_last4"] = masked_card(value)
            elif key == "token":
                cols["token"] = encode_token(value)
            elif key == "op":
                cols["op"] = str(Op(value)) if value else None
            elif key in MUTABLE:
                if value is not None and not isinstance(value, str | int):
                    raise ValidationError(key, "must be text or a whole number")
                guard_text(key, value)
                cols[key] = clean_text(value) if isinstance(value, str) else value
            else:
                raise ValidationError(key, "is not a field of a journal entry")
        return cols

    def _apply(self, conn: sqlite3.Connection, row: sqlite3.Row, cols: dict[str, Any], actor: str,
               type_: str, now: str) -> tuple[dict[str, Any], bool]:
        """Write one change; returns the row as written and whether another entry was changed
        too (a propagation may come back to this one, so that row must then be re-read)."""
        entry_id = int(row["id"])
        self._moved.append(entry_id)
        old = dict(row)
        new = {**old, **cols}
        data = dict(cols)
        if old["state"] != new["state"]:
            data["_from"] = old["state"]
        self._event(entry_id, actor, type_, data, now)
        if old.get("ticket_id") is not None:
            self._ticket_written(int(old["ticket_id"]))
        sets = ", ".join(f"{k} = ?" for k in cols)
        conn.execute(f"UPDATE entries SET {sets} WHERE id = ?", (*cols.values(), entry_id))
        before, after = contribution(old), contribution(new)
        if before != after or old["batch_no"] != new["batch_no"]:
            if before is not None:
                add_total(conn, int(old["batch_no"]), before, -1)
            if after is not None:
                add_total(conn, int(new["batch_no"]), after, 1)
        propagated = False
        if old["kind"] == Kind.REFUND and old["original_invoice"]:
            self._propagate_refund(conn, old, new, actor, now)
            propagated = True
        if old["kind"] == Kind.CHARGE and new["op"] in (Op.CAPTURE, Op.REFUND) and new["charge_id"]:
            self._propagate_charge(conn, old, new, actor, now)
            propagated = True
        return new, propagated

    def _propagate_charge(self, conn: sqlite3.Connection, old: Mapping[str, Any],
                          new: Mapping[str, Any], actor: str, now: str) -> None:
        """A Charge API capture or refund is mirrored on the charge it moved (the charge or
        authorization entry with that ``charge_id``), in the same transaction, so the original
        shows what was captured and refunded and an authorization leaves the open bucket once
        captured."""
        column = "captured_minor" if new["op"] == Op.CAPTURE else "refunded_minor"

        def counted(row: Mapping[str, Any]) -> int:
            return int(row[column]) if row["state"] in (State.APPROVED, State.CAPTURED) else 0

        delta = counted(new) - counted(old)
        if delta == 0:
            return
        origin = conn.execute(
            "SELECT * FROM entries WHERE kind = 'charge' AND charge_id = ? AND op IN ('charge', "
            "'authorization') AND state IN ('approved', 'captured') ORDER BY id LIMIT 1",
            (new["charge_id"],)).fetchone()
        if origin is None:
            return  # a charge made by another till or system: nothing to mirror
        amount = max(int(origin[column]) + delta, 0)
        cols: dict[str, Any] = {column: amount, "updated_at": now}
        if column == "captured_minor" and origin["op"] == Op.AUTHORIZATION and amount > 0:
            cols["state"] = str(State.CAPTURED)
        self._apply(conn, origin, cols, actor, "captured" if column == "captured_minor" else "refunded",
                    now)
        if column == "refunded_minor" and origin["op"] == Op.AUTHORIZATION \
                and not int(origin["captured_minor"]) and delta > 0:
            # the refund of an authorization never captured releases it: no money came in, so
            # none goes out; journaled as a void so no total counts it as a refund
            self._apply(conn, self._row(int(new["id"])), {"op": str(Op.VOID), "updated_at": now,
                                                           "message": "authorization released"},
                        actor, "released", now)

    def _propagate_refund(self, conn: sqlite3.Connection, old: Mapping[str, Any],
                          new: Mapping[str, Any], actor: str, now: str) -> None:
        """A linked refund's approved amount is mirrored on its original, in the same transaction."""
        def counted(row: Mapping[str, Any]) -> int:
            return 0 if row["state"] in (State.VOIDED, State.DECLINED, State.ERROR) \
                else int(row["approved_minor"])

        delta = counted(new) - counted(old)
        if delta == 0:
            return
        original = conn.execute("SELECT * FROM entries WHERE invoice = ?",
                                (old["original_invoice"],)).fetchone()
        if original is None:
            return  # an original from another till or system: nothing to mirror
        refunded = max(int(original["refunded_minor"]) + delta, 0)
        self._apply(conn, original, {"refunded_minor": refunded, "updated_at": now}, actor,
                    "refunded", now)

    def correct(self, entry_id: int, state: State | str, *, was: State, actor: str,
                found_by: str, **changes: Any) -> Entry | None:
        """The host is the truth, later too: an entry the host holds otherwise than the journal
        (``CORRECTIONS``) is corrected, one ``corrected`` event with both states and who found it
        (a correction is no transition of the payment's life: the journal had it wrong). ``was``
        is the state the comparison saw: an entry another path moved meanwhile is left alone
        (None). The note carries the money the correction moved, for every report."""
        new_state = State(state)
        self._check_actor(actor)
        guard_text("found_by", found_by)
        if new_state not in CORRECTIONS.get(was, frozenset()):
            raise JournalError(f"state: a correction cannot move {was} to {new_state}")
        with self._tx() as conn:
            row = self._row(entry_id)
            if State(row["state"]) is not was:
                return None  # another path moved it since the host was asked: asked next time
            self._take(row)
            cols = self._columns(row, changes)
            now = self._now()
            cols.update(state=str(new_state), updated_at=now)
            if new_state in (State.DECLINED, State.ERROR):
                cols["approved_minor"] = 0  # nothing approved: the host holds it not charged
            moved = _net(contribution({**dict(row), **cols})) - _net(contribution(dict(row)))
            self._apply(conn, row, cols, actor, "corrected", now)
            self._event(entry_id, actor, "correction",
                        {"_note": {"was": str(was), "now": str(new_state), "found_by": found_by,
                                   "invoice": row["invoice"],
                                   "amount": str(money(moved, str(row["currency"])))}}, now)
            return _entry(self._row(entry_id))

    def open_batch_settled(self) -> list[Entry]:
        """Every entry of the open batch not in flight that the host numbers by invoice: compared
        with the host by recovery and before a close (the host is the truth, later too)."""
        rows = self.conn.execute(
            "SELECT * FROM entries WHERE batch_no = 0 AND invoice IS NOT NULL AND state IN "
            "('approved', 'captured', 'error', 'declined', 'voided') ORDER BY id")
        return [_entry(r) for r in rows]

    def corrections(self) -> list[Event]:
        """Every correction the host's later answers made (the Manager screen, reports)."""
        rows = self.conn.execute("SELECT * FROM events WHERE type = 'correction' ORDER BY id")
        return [Event(id=r["id"], entry_id=r["entry_id"], at=r["at"], actor=r["actor"],
                      type=r["type"], data=json.loads(r["data"])) for r in rows]

    def batch_corrections(self, batch_no: int = 0) -> tuple[int, Decimal]:
        """How many corrections the entries of a batch had, and what they added to the net (the
        batch close shows them)."""
        rows = self.conn.execute(
            "SELECT v.data FROM events v JOIN entries e ON e.id = v.entry_id "
            "WHERE v.type = 'correction' AND e.batch_no = ?", (batch_no,))
        return corrections_figure((json.loads(r[0]) for r in rows), self.currency)

    def take_moved(self) -> list[int]:
        """The ids of the entries the last write moved, each once, in the order they moved."""
        moved, self._moved = list(dict.fromkeys(self._moved)), []
        return moved

    def note(self, entry_id: int | None, type_: str, *, actor: str, **data: Any) -> None:
        """An event that changes no projection field (a PIN pad prompt, a reconciliation...)."""
        self._check_actor(actor)
        guard_text(type_, data)
        with self._tx() as conn:
            self._event(entry_id, actor, type_, {"_note": data}, self._now())
            if entry_id is not None:  # a tender's note (cash tendered) changes what its ticket shows
                row = conn.execute("SELECT ticket_id FROM entries WHERE id = ?", (entry_id,)).fetchone()
                if row is not None and row[0] is not None:
                    ticket_id = int(row[0])
                    self._ticket_written(ticket_id)
                    before = self._held_before.get(ticket_id)
                    if type_ == CASH_NOTE and before is not None:  # as ``ticket`` reads it back
                        cash = (Decimal(str(data["tendered"])), Decimal(str(data["change"])))
                        self._hold_changed(ticket_id, cash={**before.cash, entry_id: cash})

    def cash_tender(self, ticket_id: int, applied: Decimal, *, tendered: Decimal, change: Decimal,
                    tip: Decimal | None, actor: str, message: str,
                    close_if: Callable[[TicketRecord], bool] | None = None,
                    ) -> tuple[Entry, TicketRecord]:
        """A ticket's cash tender as one write (one commit): the drawer is open, the cash entry
        (approved: the cash is in the hand), what was tendered and the change; and the ticket
        closed as paid in the same commit when ``close_if`` (the ticket's rule) says so. Refused
        whole, with nothing journaled, when the drawer is not open or the cash exceeds what
        remains. Returns the entry and the ticket as it now reads."""
        with self._tx():
            self._held_tickets = dict(self._held_before)  # nothing written yet: all still hold
            self.require_cash_drawer()  # the drawer's rule, under the same lock as the cash
            entry = self.create(Kind.CASH, applied, actor=actor, op=Op.SALE, clerk=actor, tip=tip,
                                ticket_id=ticket_id, message=message)
            entry = self.transition(entry.id, State.APPROVED, actor=actor, approved=applied)
            self.note(entry.id, CASH_NOTE, actor=actor, tendered=str(tendered), change=str(change))
            if close_if is not None and close_if(self.ticket(ticket_id)):
                self.close_ticket(ticket_id, "paid", actor=actor)
            return entry, self.ticket(ticket_id)

    # ---- owners: one process per payment in flight ----------------------------------------------
    @property
    def owner(self) -> str:
        """This process's lease token on this journal (held from first use to the process's end)."""
        cached: tuple[int, str] | None = getattr(self, "_owner_token", None)
        if cached is None or cached[0] != os.getpid():  # a forked child holds a lease of its own
            cached = self._owner_token = (os.getpid(), lease_for(self.path).hold())
        return cached[1]

    def owner_of(self, entry_id: int) -> str | None:
        row = self.conn.execute("SELECT owner FROM entry_owners WHERE entry_id = ?",
                                (entry_id,)).fetchone()
        return None if row is None else str(row[0])

    def owned_elsewhere(self, entry_id: int) -> str | None:
        """The token of another live process that has this entry in flight (None: nobody else,
        or the entry is settled). Read only: ``claim`` takes it."""
        row = self._row(entry_id)
        if State(row["state"]) not in UNRESOLVED:
            return None
        owner = self.owner_of(entry_id)
        if owner is None or owner == lease_for(self.path).token or not alive(self.path, owner):
            return None
        return owner

    def owned_elsewhere_among(self, entry_ids: Sequence[int]) -> dict[int, str]:
        """``owned_elsewhere`` for many entries in one read (recovery's list): entry id ->
        the token of the other live process that has it in flight."""
        me = lease_for(self.path).token
        owners: dict[int, str] = {}
        for start in range(0, len(entry_ids), 500):  # within SQLite's bound on parameters
            chunk = list(entry_ids[start:start + 500])
            marks = ", ".join("?" * len(chunk))
            owners.update((int(r[0]), str(r[1])) for r in self.conn.execute(
                f"SELECT o.entry_id, o.owner FROM entry_owners o JOIN entries e ON e.id = o.entry_id "
                f"WHERE o.entry_id IN ({marks}) AND e.state IN {UNRESOLVED_SQL}", chunk))
        lives: dict[str, bool] = {}  # one question to the OS per owner, not per entry
        for token in set(owners.values()) - {me}:
            lives[token] = alive(self.path, token)
        return {i: token for i, token in owners.items() if token != me and lives[token]}

    def _take(self, row: sqlite3.Row) -> None:
        """Inside a write: this process becomes the entry's owner, refused (``EntryOwned``) while
        the entry is in flight in another process that still lives."""
        entry_id = int(row["id"])
        me = self.owner
        owner = self.owner_of(entry_id)
        if owner == me:
            return
        if owner is not None and State(row["state"]) in UNRESOLVED and alive(self.path, owner):
            raise EntryOwned(f"invoice {row['invoice']}" if row["invoice"] else "entry", owner)
        self.conn.execute("INSERT INTO entry_owners(entry_id, owner, since) VALUES (?, ?, ?) "
                          "ON CONFLICT(entry_id) DO UPDATE SET owner = excluded.owner, "
                          "since = excluded.since", (entry_id, me, self._now()))
        if owner is not None:
            self._event(entry_id, "system", "owner_taken",
                        {"_note": {"from": owner, "to": me}}, self._now())

    def claim(self, entry_id: int) -> Entry:
        """Take an entry before settling it (recovery, a cancel, a void): ``EntryOwned`` while
        its owner lives. Returns the entry as it is now (another process may have settled it)."""
        with self._tx():
            row = self._row(entry_id)
            self._take(row)
            return _entry(row)

    # ---- jobs ---------------------------------------------------------------------------------
    def request_void(self, entry_id: int, *, reason: str, actor: str) -> tuple[Entry, Job]:
        """Move to VOIDING and create the job in one transaction, so a crash keeps both."""
        if not re.fullmatch(r"0[1-9]", reason):
            raise ValidationError("reversal_reason", "must be 01 to 09")
        self._check_actor(actor)
        with self._tx() as conn:
            row = self._row(entry_id)
            current = State(row["state"])
            self._take(row)
            if current is State.VOIDING:
                job = conn.execute("SELECT * FROM jobs WHERE entry_id = ? AND state = 'pending' "
                                   "ORDER BY id DESC", (entry_id,)).fetchone()
                if job is not None:
                    return _entry(row), _job(job)
            elif current not in (State.APPROVED, State.CAPTURED, State.UNKNOWN):
                raise JournalError(f"state: a {current} entry cannot be voided (only approved, "
                                   "captured or unknown ones)")
            if int(row["batch_no"]) != 0:
                raise JournalError("state: the entry is in a closed batch; refund it instead")
            now = self._now()
            self._apply(conn, row, {"state": str(State.VOIDING), "reversal_reason": reason,
                                    "op": str(Op.VOID), "updated_at": now},
                        actor, "void_requested", now)
            cur = conn.execute("INSERT INTO jobs(entry_id, kind, reason, next_at, created_at, created_by) "
                               "VALUES (?, 'void', ?, ?, ?, ?)", (entry_id, reason, now, now, actor))
            job = conn.execute("SELECT * FROM jobs WHERE id = ?", (cur.lastrowid,)).fetchone()
            return _entry(self._row(entry_id)), _job(job)

    def job_retry(self, job_id: int, *, error: str, delay_s: float) -> Job:
        guard_text("error", error)
        with self._tx() as conn:
            next_at = iso(self.clock() + timedelta(seconds=delay_s))
            conn.execute("UPDATE jobs SET attempts = attempts + 1, last_error = ?, next_at = ? "
                         "WHERE id = ?", (error[:500], next_at, job_id))
            row = conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
            self._event(int(row["entry_id"]), "system", "job_retry",
                        {"_note": {"job": job_id, "error": error[:500], "next_at": next_at}},
                        self._now())
            return _job(row)

    def finish_job(self, job_id: int, *, outcome: str, actor: str, state: State | str,
                   **changes: Any) -> Entry:
        """Close the job and move its entry in the same transaction."""
        new_state = State(state)
        with self._tx() as conn:
            job = conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
            if job is None:
                raise JournalError(f"job: no job {job_id}")
            row = self._row(int(job["entry_id"]))
            if State(row["state"]) is State.VOIDED and new_state is State.VOIDED:
                conn.execute("UPDATE jobs SET state = ?, done_at = ? WHERE id = ? AND state = "
                             "'pending'", (outcome, self._now(), job_id))
                return _entry(row)  # voided meanwhile by another path: the job is done too
            self._take(row)
            check_transition(State(row["state"]), new_state)
            cols = self._columns(row, changes)
            now = self._now()
            cols.update(state=str(new_state), updated_at=now)
            self._apply(conn, row, cols, actor, f"void_{outcome}", now)
            conn.execute("UPDATE jobs SET state = ?, done_at = ?, attempts = attempts + 1 WHERE id = ?",
                         (outcome, now, job_id))
            return _entry(self._row(int(row["id"])))

    def state_before_void(self, entry_id: int) -> State:
        """What the entry was before its (latest) void was requested."""
        row = self.conn.execute(
            "SELECT data FROM events WHERE entry_id = ? AND type = 'void_requested' "
            "ORDER BY id DESC LIMIT 1", (entry_id,)).fetchone()
        if row is None:
            return State.APPROVED
        return State(json.loads(row["data"]).get("_from", State.APPROVED))

    def due_jobs(self, *, all_pending: bool = False) -> list[Job]:
        if all_pending:
            rows = self.conn.execute("SELECT * FROM jobs WHERE state = 'pending' ORDER BY id").fetchall()
        else:
            rows = self.conn.execute("SELECT * FROM jobs WHERE state = 'pending' AND next_at <= ? "
                                     "ORDER BY next_at", (self._now(),)).fetchall()
        return [_job(r) for r in rows]

    # ---- batches ------------------------------------------------------------------------------
    def close_batch(self, *, actor: str, override: bool, summary: Mapping[str, Any],
                    through_event: int | None = None) -> int:
        """Move every finished entry of the open batch into a new closed batch, except open tabs
        (the host batches a tab only once it is captured, so it stays in the open batch); with
        ``through_event``, only entries created at or before that event (a store-wide close
        covers what the store had received from this till when it closed)."""
        self._check_actor(actor)
        guard_text("summary", summary)
        with self._tx() as conn:
            batch_no = int(conn.execute("SELECT COALESCE(MAX(batch_no), 0) + 1 FROM batches").fetchone()[0])
            ids = [int(r[0]) for r in conn.execute(
                f"SELECT id FROM entries WHERE batch_no = 0 AND state NOT IN {UNRESOLVED_SQL} "
                f"AND NOT ({OPEN_TAB_SQL})")]
            if through_event is not None:
                created = {int(r[0]) for r in conn.execute(
                    "SELECT entry_id FROM events WHERE type = 'created' AND id <= ?", (through_event,))}
                ids = [i for i in ids if i in created]
            now = self._now()
            conn.execute("INSERT INTO batches(batch_no, closed_at, closed_by, override, summary) "
                         "VALUES (?, ?, ?, ?, ?)", (batch_no, now, actor, int(override),
                                                    json.dumps(summary, sort_keys=True, default=str)))
            conn.executemany("UPDATE entries SET batch_no = ? WHERE id = ?",
                             [(batch_no, i) for i in ids])
            self._event(None, actor, "batch_closed",
                        {"batch_no": batch_no, "entries": ids, "override": override,
                         "_note": dict(summary)}, now)
            rebuild_totals(conn, (0, batch_no))
            return batch_no

    # ---- reads --------------------------------------------------------------------------------
    def get(self, entry_id: int) -> Entry:
        return _entry(self._row(entry_id))

    def by_invoice(self, invoice: str) -> Entry | None:
        row = self.conn.execute("SELECT * FROM entries WHERE invoice = ?", (invoice,)).fetchone()
        return None if row is None else _entry(row)

    def by_idempotency_key(self, key: str) -> Entry | None:
        row = self.conn.execute("SELECT * FROM entries WHERE idempotency_key = ?", (key,)).fetchone()
        return None if row is None else _entry(row)

    def unresolved(self) -> list[Entry]:
        rows = self.conn.execute(f"SELECT * FROM entries WHERE state IN {UNRESOLVED_SQL} ORDER BY id")
        return [_entry(r) for r in rows]

    def open_authorizations(self) -> list[Entry]:
        rows = self.conn.execute(
            f"SELECT * FROM entries INDEXED BY entries_tabs WHERE {OPEN_TAB_SQL} ORDER BY created_at")
        return [_entry(r) for r in rows]

    def search(self, *, day: str | None = None, invoice: str | None = None,
               amount: Decimal | None = None, last4: str | None = None, since: str | None = None,
               until: str | None = None, kinds: Sequence[str] = (), states: Sequence[str] = (),
               limit: int = 500) -> list[Entry]:
        """Today's screen: filter by day (local YYYY-MM-DD), invoice, amount, last four, time."""
        where: list[str] = []
        args: list[Any] = []
        if day is not None:
            where.append("business_date = ?")
            args.append(day)
        if invoice is not None:
            where.append("invoice = ?")
            args.append(invoice)
        if amount is not None:
            # the amount a list shows (approved, or captured with the tip) or the one asked for
            where.append("? IN (requested_minor, approved_minor, captured_minor)")
            args.append(self._minor("amount", amount, self.currency))
        if last4 is not None:
            if not re.fullmatch(r"\d{4}", last4):
                raise ValidationError("last4", "must be exactly 4 digits")
            where.append("card_last4 = ?")
            args.append(last4)
        if since is not None:
            where.append("created_at >= ?")
            args.append(since)
        if until is not None:
            where.append("created_at < ?")
            args.append(until)
        if kinds:
            where.append(f"kind IN ({','.join('?' * len(kinds))})")
            args.extend(kinds)
        if states:
            where.append(f"state IN ({','.join('?' * len(states))})")
            args.extend(states)
        sql = "SELECT * FROM entries" + (" WHERE " + " AND ".join(where) if where else "")
        rows = self.conn.execute(sql + " ORDER BY id DESC LIMIT ?", (*args, limit))
        return [_entry(r) for r in rows]

    def totals(self, batch_no: int = 0) -> Totals:
        rows = self.conn.execute("SELECT bucket, currency, count, amount_minor FROM totals "
                                 "WHERE batch_no = ? AND count != 0", (batch_no,)).fetchall()
        unresolved = int(self.conn.execute(
            f"SELECT COUNT(*) FROM entries WHERE state IN {UNRESOLVED_SQL} AND batch_no = ?",
            (batch_no,)).fetchone()[0])
        return Totals(batch_no=batch_no, unresolved=unresolved,
                      buckets={(r["bucket"], r["currency"]): (int(r["count"]),
                                                              money(r["amount_minor"], r["currency"]))
                               for r in rows})

    def events(self, entry_id: int | None = None) -> list[Event]:
        if entry_id is None:
            rows = self.conn.execute("SELECT * FROM events ORDER BY id")
        else:
            rows = self.conn.execute("SELECT * FROM events WHERE entry_id = ? ORDER BY id", (entry_id,))
        return [Event(id=r["id"], entry_id=r["entry_id"], at=r["at"], actor=r["actor"], type=r["type"],
                      data=json.loads(r["data"])) for r in rows]

    def pending_jobs(self) -> list[Job]:
        return self.due_jobs(all_pending=True)

    def all_rows(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.conn.execute("SELECT * FROM entries ORDER BY id")]

    def integrity_check(self) -> str:
        return str(self.conn.execute("PRAGMA integrity_check").fetchone()[0])

    # ---- the projection is a fold of the events -------------------------------------------------
    def replay(self) -> tuple[list[dict[str, Any]], dict[tuple[int, str, str], tuple[int, int]]]:
        """Rebuild entries and totals from the events alone, in memory, without touching tables."""
        entries: dict[int, dict[str, Any]] = {}
        for event in self.events():
            data = {k: v for k, v in event.data.items() if not k.startswith("_")}
            if event.type == "created" and event.entry_id is not None:
                entries[event.entry_id] = {"id": event.entry_id, **data}
            elif event.type == "batch_closed":
                for entry_id in data.get("entries", []):
                    entries[int(entry_id)]["batch_no"] = data["batch_no"]
            elif event.entry_id is not None and data:
                entries[event.entry_id].update(data)
        totals: dict[tuple[int, str, str], tuple[int, int]] = {}
        for row in entries.values():
            part = contribution(row)
            if part is not None:
                key = (int(row["batch_no"]), part[0], part[1])
                count, minor = totals.get(key, (0, 0))
                totals[key] = (count + 1, minor + part[2])
        columns = [r[1] for r in self.conn.execute("PRAGMA table_info(entries)")]
        rows = [{c: entries[i].get(c) for c in columns} for i in sorted(entries)]
        return rows, totals

    def live_totals(self) -> dict[tuple[int, str, str], tuple[int, int]]:
        return {(int(r[0]), r[1], r[2]): (int(r[3]), int(r[4])) for r in self.conn.execute(
            "SELECT batch_no, bucket, currency, count, amount_minor FROM totals WHERE count != 0")}

    def rebuild_projection(self) -> None:
        """Replace the projection and totals with the fold of the events (repair tool)."""
        rows, _ = self.replay()
        with self._tx() as conn:
            conn.execute("PRAGMA defer_foreign_keys = ON")
            conn.execute("DELETE FROM entries")
            for row in rows:
                cols = ", ".join(row)
                conn.execute(f"INSERT INTO entries({cols}) VALUES "
                             f"({', '.join('?' * len(row))})", tuple(row.values()))
            rebuild_totals(conn)
