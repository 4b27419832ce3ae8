"""The journal's datastore: the one connection, its transactions, the clock and the one writer of
``events``. The recorders (entries, tickets, drawer, outbox, reports) are built on it: each holds
the datastore and asks it for a transaction, the time and an event; none touches another's state.

Every change is one ``BEGIN IMMEDIATE`` transaction (``transaction``), committed at
``synchronous = FULL``, in which the recorder appends its events and updates its projection rows
(the triggers keep ``events`` append-only). Ticket lines may be held open in one transaction that
the next write commits (``lines_transaction``, ``hold_lines``); the tickets a write leaves as it
knows them are held with it (``hold``), so a ticket is not read again after each of its writes.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from cashier.errors import ValidationError
from cashier.journal.card_guard import guard_text
from cashier.journal.model import (
    Change,
    ClockMoved,
    DrawerMoved,
    JournalError,
    TicketRecord,
    TicketWritten,
)
from cashier.journal.schema import migrate
from cashier.money import quantum, to_minor
from cashier.text import clean_data


def write_event(conn: sqlite3.Connection, entry_id: int | None, actor: str, type_: str,
                data: Mapping[str, Any], at: str) -> None:
    """THE writer of the ``events`` table (entries, notes, tickets, drawer moves, manager PIN
    tries): every event is cleaned and serialised the same way, inside the caller's transaction."""
    conn.execute("INSERT INTO events(entry_id, at, actor, type, data) VALUES (?, ?, ?, ?, ?)",
                 (entry_id, at, actor, type_, json.dumps(clean_data(data), sort_keys=True, default=str)))


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def business_day(at: str) -> str:
    """THE till's business day of a journal time (``now()``): its date in the till's own time
    zone. An entry's ``business_date`` (when it was created) and a paid ticket's (when it closed:
    its ``ticket_paid`` event carries it, so the store counts a ticket with no entry, a comp, in
    the till's day and not in the store server's) are both this."""
    return datetime.fromisoformat(at).astimezone().date().isoformat()


def check_actor(actor: str) -> str:
    """Who acted on an event: a clerk or manager id, ``recovery`` or ``system`` (never a card)."""
    if not actor or len(actor) > 40:
        raise ValidationError("actor", "must name who acted: a clerk or manager id, "
                                       "'recovery' or 'system'")
    guard_text("actor", actor)
    return actor


def minor_units(field: str, value: Decimal | None, currency: str) -> int:
    """An amount given to the journal as a Decimal, as the minor units it stores (None: 0)."""
    if value is None:
        return 0
    if not isinstance(value, Decimal):
        raise ValidationError(field, "must be a Decimal amount")
    if value < 0:
        raise ValidationError(field, "must not be negative")
    if not value.is_finite() or value != value.quantize(quantum(currency)):
        raise ValidationError(field, f"must be a whole number of {currency} minor units")
    return to_minor(value, currency)


#: A clock moving more than this (seconds) either way is journaled and shown.
CLOCK_JUMP_S = 180.0

#: How long a journal connection waits for another process's lock before giving up.
BUSY_TIMEOUT_S = 30.0

#: SQLite page cache per connection, in KiB (see ``Datastore._open``).
CACHE_KIB = 512


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


class Datastore:
    """The journal file on one connection. Not thread-safe: one thread owns each instance."""

    #: Tickets held at most (the open ones of a till are few; the oldest goes first).
    HELD_TICKETS = 16

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
        #: The wall clock (a test's seam); ``now`` is the journal's time made of it.
        self.clock = clock
        self.invoice_time_floor = invoice_time_floor
        self.lock_timeout_s = lock_timeout_s
        #: Ids of the entries the last write transaction moved (the entry written and any it was
        #: mirrored on), for the journal to publish each of them (``take_moved``).
        self._moved: list[int] = []
        #: What committed writes changed besides entries (drawer moves, tickets), in order, for
        #: the journal's one publisher (``take_changes``).
        self._changes: list[Change] = []
        #: A clock jump seen and not yet journaled (the next write transaction journals it).
        self._jump_seen: ClockMoved | None = None
        self._clock_anchor: tuple[datetime, float] | None = None
        self._clock_noted = False
        #: Ticket lines (and a new ticket) are held in an open transaction until the next write
        #: commits them, or ``flush_lines`` (the async journal's writer sets it and flushes after
        #: a short pause; see ``lines_transaction``). Off: each line commits on its own.
        self.hold_lines = False
        #: True while such a transaction is open.
        self.lines_held = False
        #: Tickets as this connection last wrote or read them (``TicketRecorder.ticket``): kept by
        #: the writes that know how they change them, dropped by any other write, and all dropped
        #: once another connection has committed (``PRAGMA data_version``), so a ticket is read
        #: in full once, not after every write of it (a line, a tender, its answer).
        self._held_tickets: dict[int, TicketRecord] = {}
        #: Inside a write: the held tickets as they were when it began (``transaction``).
        self._held_before: dict[int, TicketRecord] = {}
        self._writing = False
        self._data_version: int | None = None
        #: The journal's latest time while held lines keep a transaction open (it holds the
        #: write lock: no other connection adds an event), so ``now`` does not ask at every line.
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
        #: The ``entries`` columns SQLite stores as INTEGER (``EntryRecorder`` builds an entry
        #: from the values it wrote when SQLite keeps them as given).
        self.integer_columns = frozenset(
            str(col["name"]) for col in self.conn.execute("PRAGMA table_info(entries)")
            if str(col["type"]).upper() == "INTEGER")

    def close(self) -> None:
        try:
            self.flush_lines()
        finally:  # lines a full disk would not take: the connection closes all the same
            self.conn.close()

    # ---- transactions -------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
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
            self.check_data_version()  # under the write lock: nobody commits meanwhile
        # only what this write keeps (the tickets it knows how it changed) stays held
        before, self._held_tickets = self._held_tickets, {}
        self._held_before = before
        self._writing = True
        try:
            if seen is not None:  # a jump a read saw (or a write before ``transaction``): journaled now
                self.now()
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
        enclosing write had them so far (the same rule as ``transaction``: only what it keeps
        stays)."""
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

    @property
    def writing(self) -> bool:
        """True inside a write's body (``transaction``, ``lines_transaction``): a ticket read
        there is not held (a later change of the same write may follow)."""
        return self._writing

    # ---- the held-lines transaction -------------------------------------------------------------
    @contextmanager
    def lines_transaction(self) -> Iterator[sqlite3.Connection]:
        """A ticket's lines are not money. With ``hold_lines`` (the async journal's writer) they
        are written into one open transaction (each line a savepoint in it) that the next write
        commits with it (a tender's intent: one commit, FULL, before anything is sent) or the
        journal's writer flushes after a short pause; a crash before that loses the lines typed
        since, never money. Without it (a command's own recorder) each line commits at once,
        without the fsync (WAL, synchronous NORMAL)."""
        if not self.hold_lines:
            self.conn.execute("PRAGMA synchronous = NORMAL")
            try:
                with self.transaction() as conn:
                    yield conn
            finally:
                self.conn.execute("PRAGMA synchronous = FULL")
            return
        self._moved.clear()
        changes = len(self._changes)
        if not self.lines_held:
            self.conn.execute("BEGIN IMMEDIATE")
            self._lines_begun()
        self.conn.execute("SAVEPOINT line")
        self._writing = True
        try:
            yield self.conn
        except BaseException:
            self._undo("line")
            del self._changes[changes:]
            raise
        finally:
            self._writing = False
        self.conn.execute("RELEASE line")

    def _lines_begun(self) -> None:
        self.check_data_version()  # under the write lock: nobody commits meanwhile
        self._held_last_at = None
        self.lines_held = True

    def begin_lines_now(self) -> bool:
        """Whether ticket lines can be written this instant without waiting: they are held
        already, or the lines' transaction is opened now because the write lock is free (never
        waited for: False when another connection holds it). For the async journal's writer,
        which then writes a line on the caller's thread."""
        if self.lines_held:
            return True
        if not self.hold_lines or self.conn.in_transaction:
            return False
        self.conn.execute("PRAGMA busy_timeout = 0")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:  # another connection writes: the writer's thread waits
            return False
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {int(self.lock_timeout_s * 1000)}")
        self._lines_begun()
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

    # ---- held tickets ---------------------------------------------------------------------------
    def check_data_version(self) -> None:
        """Drop every held ticket once another connection has committed (another process, the
        cash desk's connection): the journal may then hold them otherwise."""
        version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
        if version != self._data_version:
            self._held_tickets.clear()
            self._data_version = version

    def hold(self, record: TicketRecord) -> TicketRecord:
        """Hold ``record`` as the ticket now reads (the async journal's writer only: the one
        connection that writes the till's tickets all day)."""
        if self.hold_lines:
            self._held_tickets.pop(record.id, None)
            self._held_tickets[record.id] = record
            if len(self._held_tickets) > self.HELD_TICKETS:
                del self._held_tickets[next(iter(self._held_tickets))]
        return record

    def held(self, ticket_id: int) -> TicketRecord | None:
        """The held ticket as it stands now in this connection (no check against others)."""
        return self._held_tickets.get(ticket_id)

    def held_now(self, ticket_id: int) -> TicketRecord | None:
        """The held ticket, as the journal holds it now (checked against other connections'
        commits when no write of ours holds the lock)."""
        if not self.conn.in_transaction:
            self.check_data_version()
        return self._held_tickets.get(ticket_id)

    def held_before(self, ticket_id: int) -> TicketRecord | None:
        """Inside a write: the ticket as it was held when the write began."""
        return self._held_before.get(ticket_id)

    def keep_held(self) -> None:
        """Inside a write that has written nothing yet: every ticket held when it began still
        holds (the write's parts drop and hold them anew as they change them)."""
        self._held_tickets = dict(self._held_before)

    def holds_ticket(self, ticket_id: int) -> bool:
        """Whether this connection holds the ticket as last written (a hint for the async
        journal, from another thread: ``TicketRecorder.ticket`` checks it is still so)."""
        return ticket_id in self._held_tickets

    def ticket_written(self, ticket_id: int) -> None:
        """Inside a write that changed ticket ``ticket_id``: published once committed, and no
        longer held as it was (the write holds it anew if it knows how it changed)."""
        self._held_tickets.pop(ticket_id, None)
        self._changes.append(TicketWritten(ticket_id))

    def hold_changed(self, ticket_id: int, **changes: Any) -> None:
        """Inside a write that changed ticket ``ticket_id`` as ``changes`` say (fields of
        ``TicketRecord``): the ticket held when the write began, so changed, is held again."""
        before = self._held_before.get(ticket_id)
        if before is not None:
            self.hold(before.changed(**changes))

    # ---- what a write moved, for the journal's one publisher ------------------------------------
    def moved(self, entry_id: int) -> None:
        """Inside a write: entry ``entry_id`` moved (published once committed)."""
        self._moved.append(entry_id)

    def take_moved(self) -> list[int]:
        """The ids of the entries the last write moved, each once, in the order they moved."""
        moved, self._moved = list(dict.fromkeys(self._moved)), []
        return moved

    def changed(self, change: DrawerMoved) -> None:
        """Inside a write: a change besides entries (a drawer move) to publish once committed."""
        self._changes.append(change)

    def take_changes(self) -> list[Change]:
        """What the committed writes since the last call changed besides entries (``DrawerMoved``,
        ``TicketWritten``, ``ClockMoved``), oldest first; the journal publishes them."""
        changes, self._changes = self._changes, []
        return changes

    # ---- the clock and the one writer of events --------------------------------------------------
    def now(self) -> str:
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
        self.event(None, "system", "clock_moved",
                   {"_note": {"by_s": seen.by_s, "clock": seen.clock, "journal": seen.journal}}, now)
        self._changes.append(seen)

    def _clock_jump(self, wall: datetime, last: str | None) -> float | None:
        """Seconds the wall clock moved against this process's monotonic clock since it was last
        read (or behind the journal), when more than ``CLOCK_JUMP_S``; else None."""
        mono = time.monotonic()
        anchor = self._clock_anchor
        self._clock_anchor = (wall, mono)
        jump = None
        if anchor is not None:
            drift = (wall - anchor[0]).total_seconds() - (mono - anchor[1])
            if abs(drift) > CLOCK_JUMP_S:
                jump = drift
        if jump is None and last is not None and not self._clock_noted:
            behind = (datetime.fromisoformat(last) - wall).total_seconds()
            if behind > CLOCK_JUMP_S:
                jump = -behind
        return jump

    def event(self, entry_id: int | None, actor: str, type_: str, data: Mapping[str, Any],
              at: str) -> None:
        """Append one event inside the caller's transaction (``write_event``)."""
        write_event(self.conn, entry_id, actor, type_, data, at)
