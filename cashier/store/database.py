"""The store's PostgreSQL: ingest each till's events exactly once, fold them into entries, and
answer totals and the store-wide close.

Exactly once: an event is keyed by (till, journal, sequence). A push is applied under a row
lock on its journal's high-water mark: events at or below the mark are a resend (skipped), a
first event above mark + 1 is a gap (refused with the mark, so the till re-sends from there),
and the events must follow each other without holes. The insert, the fold into ``entries`` and
the new mark commit together, so a service killed mid-push leaves either all or none of it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from psycopg import AsyncConnection
from psycopg.errors import UniqueViolation
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from cashier.errors import CashierError, ValidationError
from cashier.journal.model import UNRESOLVED
from cashier.journal.outbox_rows import chain_data, chain_next, chain_start
from cashier.journal.recorder import SEQUENCE_DIGITS, corrections_figure
from cashier.journal.tickets import DiscountFigures
from cashier.journal.totals import (
    DECLINED_ON_FORWARD_BUCKET,
    GIVEN_BACK_BUCKETS,
    HOST_BATCH_REFUND_BUCKETS,
    HOST_BATCH_SALE_BUCKETS,
    TAKEN_BUCKETS,
    contribution,
)
from cashier.manager_pin import verify_pin
from cashier.money import from_minor, to_minor
from cashier.store.catalog import StoreCatalog
from cashier.store.checks import (
    HistoryRewritten,
    JournalForked,
    check_change,
    check_created,
    check_fields,
    check_invoice,
    check_storable,
)

log = logging.getLogger(__name__)
#: Most events one push may carry (the till sends in chunks of this size).
MAX_PUSH = 1000
#: Entry states a ticket (once tickets land) is finished in; any other ticket state is open.
TICKET_DONE_STATES = ("closed", "paid", "voided", "cancelled", "void")


#: A store manager session lasts this long (the manager screen locks itself well before).
SESSION_S = 15 * 60
#: Wrong PINs in a row before a manager is locked; each further one doubles the lock.
PIN_TRIES = 5
PIN_LOCK_S = 30


class Forbidden(CashierError):
    """The credential is genuine but does not cover this (answered 403)."""


class NumberTaken(Forbidden):
    """A till number another till of this store holds, or not the one this till holds there
    (answered 403 with ``error: till_number``: the till then starts no payment)."""

    def __init__(self, message: str, till_number: int) -> None:
        super().__init__(message)
        self.till_number = till_number


#: The unique index that keeps a till number one till's (store migration 3).
NUMBER_INDEX = "tills_one_number"


class Locked(CashierError):
    """A manager locked after too many wrong PINs (answered 429)."""


@dataclass(frozen=True)
class ManagerSession:
    manager_id: str
    name: str
    till_id: str


def _on_number(exc: UniqueViolation) -> bool:
    """Whether a unique violation is the till number's (not the token's or the till id's)."""
    diag = getattr(exc, "diag", None)
    return getattr(diag, "constraint_name", None) == NUMBER_INDEX


def hash_token(token: str) -> str:
    """Store tokens are 256 random bits: a plain SHA-256 is enough to keep them unusable at rest."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class PushResult:
    """What the store holds for one journal after a push (``gap``: nothing was applied)."""

    high_water: int
    applied: int
    gap: bool = False


@dataclass(frozen=True)
class StoreEvent:
    seq: int
    entry_id: int | None
    at: str
    actor: str
    type: str
    data: dict[str, Any]
    #: the data as the journal's chain takes it (the text the till sent)
    chain_data: str = ""

    def chain(self, before: str) -> str:
        """The journal's chain through this event, from ``before`` (the chain before it)."""
        return chain_next(before, self.seq, self.entry_id, self.at, self.actor, self.type,
                          self.chain_data)


def parse_events(raw: Any) -> list[StoreEvent]:
    """The pushed events, checked field by field before anything is written."""
    if not isinstance(raw, list):
        raise ValidationError("events", "must be a list")
    if len(raw) > MAX_PUSH:
        raise ValidationError("events", f"must hold at most {MAX_PUSH} events per push")
    out: list[StoreEvent] = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise ValidationError(f"events[{i}]", "must be an object")
        seq, entry_id = item.get("seq"), item.get("entry_id")
        if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq < 2 ** 63:
            raise ValidationError(f"events[{i}].seq", "must be a whole number from 1 below 2^63")
        if entry_id is not None and (not isinstance(entry_id, int) or isinstance(entry_id, bool)
                                     or not 1 <= entry_id < 2 ** 63):
            raise ValidationError(f"events[{i}].entry_id", "must be a whole number from 1 below "
                                                           "2^63, or null")
        for name in ("at", "actor", "type"):
            if not isinstance(item.get(name), str) or not 1 <= len(item[name]) <= 64:
                raise ValidationError(f"events[{i}].{name}", "must be text of 1 to 64 characters")
        data = item.get("data")
        text = chain_data(data)
        if isinstance(data, str):
            try:
                data = json.loads(data, parse_constant=_no_constant)
            except (ValueError, RecursionError):
                raise ValidationError(f"events[{i}].data", "must be a JSON object") from None
        if not isinstance(data, dict):
            raise ValidationError(f"events[{i}].data", "must be a JSON object")
        check_storable(data, f"events[{i}].data")
        check_fields(data, f"events[{i}].data")
        if out and seq != out[-1].seq + 1:
            raise ValidationError(f"events[{i}].seq", "must follow the previous event's sequence")
        out.append(StoreEvent(seq, entry_id, item["at"], item["actor"], item["type"], data, text))
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _invoice_sequence(invoice: Any) -> int:
    """The 8-digit sequence of a till's 10-digit invoice (0 for anything else)."""
    if isinstance(invoice, str) and len(invoice) == 2 + SEQUENCE_DIGITS and invoice.isdigit():
        return int(invoice[2:])
    return 0


def _projection(till_id: str, journal_id: str, entry_id: int, created_seq: int,
                fields: Mapping[str, Any]) -> tuple[Any, ...]:
    part = contribution(fields)
    return (till_id, journal_id, entry_id, created_seq, fields.get("kind") or "unknown",
            fields.get("state") or "intent", fields.get("op"), fields.get("invoice"),
            fields.get("currency") or "USD", int(fields.get("requested_minor") or 0),
            int(fields.get("tip_minor") or 0), fields.get("card_type"),
            None if fields.get("clerk") is None else str(fields["clerk"]),
            bool(fields.get("training")), fields.get("business_date") or "",
            fields.get("updated_at"), part[0] if part else None, part[2] if part else 0,
            fields.get("state") in UNRESOLVED, Jsonb(dict(fields)))


def paid_ticket_day(data: Mapping[str, Any], at: str, where: str) -> tuple[int, str]:
    """THE store's rule for a paid ticket (a ``ticket_paid`` event): its ticket number and the
    business day its tax and discounts count in, the till's day when it closed
    (``journal.datastore.business_day``, carried by the event), as the X/Z report counts a paid
    ticket by when it closed: so a comp, which has no entry, counts too. A till from before sent
    none: the UTC date of the close. Its store batch is the first close whose mark covers the
    event (``StoreDatabase.close_batch``), as an entry's is the first that covers its creation."""
    ticket = data.get("ticket")
    if isinstance(ticket, bool) or not isinstance(ticket, int) or not 1 <= ticket < 2 ** 63:
        raise ValidationError(f"{where}.ticket", "must be a ticket number")
    day = data.get("business_date")
    if day is None:
        return ticket, at[:10]
    if not isinstance(day, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
        raise ValidationError(f"{where}.business_date", "must be a date, YYYY-MM-DD")
    return ticket, day


_UPSERT = """
INSERT INTO entries (till_id, journal_id, entry_id, created_seq, kind, state, op, invoice, currency,
    requested_minor, tip_minor, card_type, clerk, training, business_date, updated_at, bucket,
    bucket_minor, unresolved, fields)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (till_id, journal_id, entry_id) DO UPDATE SET
    kind = excluded.kind, state = excluded.state, op = excluded.op, invoice = excluded.invoice,
    currency = excluded.currency, requested_minor = excluded.requested_minor,
    tip_minor = excluded.tip_minor, card_type = excluded.card_type, clerk = excluded.clerk,
    training = excluded.training, business_date = excluded.business_date,
    updated_at = excluded.updated_at, bucket = excluded.bucket,
    bucket_minor = excluded.bucket_minor, unresolved = excluded.unresolved, fields = excluded.fields
"""


class StoreDatabase:
    """The store's data on a psycopg 3 connection pool."""

    def __init__(self, dsn: str, *, min_size: int = 2, max_size: int = 8) -> None:
        self.dsn = dsn
        # checked on checkout: after a database restart the pool hands out no dead connection;
        # a database away answers 503 within 2 s (the till keeps its events) instead of hanging
        self.pool = AsyncConnectionPool(dsn, min_size=min_size, max_size=max_size, open=False,
                                        kwargs={"autocommit": True}, timeout=2.0,
                                        check=AsyncConnectionPool.check_connection)
        #: One manager sign-in of this process at a time waits on the managers' rows (the
        #: database serialises tries across processes; this keeps a burst from taking the pool)
        self._pin_turn = asyncio.Lock()
        #: The catalog's versions (issue #37): reads for every till, writes for store managers
        self.catalog = StoreCatalog(self.pool)

    async def open(self) -> None:
        await self.pool.open(wait=True, timeout=15)

    async def close(self) -> None:
        await self.pool.close()

    # ---- tills ------------------------------------------------------------------------------
    async def add_till(self, till_id: str, till_number: int | None = None) -> str:
        """A new store token for ``till_id`` (a till added again gets a new one: the old stops).
        ``till_number`` pins the prefix of its invoices; without it the first hello pins it. A
        number another till holds is refused (the unique index ``tills_one_number``)."""
        token = secrets.token_urlsafe(32)
        try:
            async with self.pool.connection() as conn:
                await conn.execute(
                    "INSERT INTO tills (till_id, token_hash, till_number) VALUES (%s, %s, %s) "
                    "ON CONFLICT (till_id) DO UPDATE SET token_hash = excluded.token_hash, "
                    "till_number = COALESCE(excluded.till_number, tills.till_number)",
                    (till_id, hash_token(token), till_number))
        except UniqueViolation as exc:
            if till_number is None or not _on_number(exc):
                raise
            async with self.pool.connection() as conn:
                owner = await self._number_owner(conn, till_number)
            whose = f"till {owner}'s" if owner else "another till's"
            raise ValidationError("--number", f"till number {till_number} is {whose} in this "
                                              "store: give each till a number of its own") from None
        return token

    @staticmethod
    async def _number_owner(conn: AsyncConnection[Any], till_number: int) -> str | None:
        """The till that holds ``till_number`` in this store (None: no till)."""
        cur = await conn.execute("SELECT till_id FROM tills WHERE till_number = %s", (till_number,))
        row = await cur.fetchone()
        return None if row is None else str(row[0])

    # ---- managers ---------------------------------------------------------------------------
    async def add_manager(self, manager_id: str, name: str, pin_hash: str) -> None:
        """Put a manager on the store's roster (again: a new PIN, the lock lifted, sessions
        ended)."""
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO managers (manager_id, name, pin_hash) VALUES (%s, %s, %s) "
                "ON CONFLICT (manager_id) DO UPDATE SET name = excluded.name, pin_hash = "
                "excluded.pin_hash, failures = 0, locked_until = NULL", (manager_id, name, pin_hash))
            await conn.execute("DELETE FROM manager_sessions WHERE manager_id = %s", (manager_id,))

    async def sign_in_manager(self, till_id: str, manager_id: str, pin: str) -> tuple[str, float]:
        """A manager's PIN checked against the store's roster: a session token (and its life in
        seconds) for store-wide work from ``till_id``. Every wrong PIN is recorded; five in a
        row lock the manager for 30 s, doubling with each further wrong PIN.

        One try at a time per manager, whichever store process or connection it came to: the
        manager's row is locked (``FOR UPDATE``) while the lock is read, the PIN checked and
        the count, lock or session written, all in one transaction. Tries sent at once are
        answered as if one by one, so at most five wrong ones count before the lock and no
        right PIN behind the fifth opens a session. A process lets one of its tries wait on
        the row at a time (``_pin_turn``): the rest wait without holding a pooled connection."""
        async with self._pin_turn, self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                "SELECT name, pin_hash, failures, GREATEST(0, EXTRACT(EPOCH FROM locked_until "
                "- clock_timestamp())) FROM managers WHERE manager_id = %s FOR UPDATE",
                (manager_id,))
            row = await cur.fetchone()
            if row is not None and row[3] and float(row[3]) > 0:
                raise Locked(f"manager {manager_id}: locked for {int(float(row[3])) + 1} s "
                             f"after {int(row[2])} wrong PINs")
            good = row is not None and await asyncio.to_thread(verify_pin, pin, str(row[1]))
            if good:
                token = secrets.token_urlsafe(32)
                await conn.execute("UPDATE managers SET failures = 0, locked_until = NULL "
                                   "WHERE manager_id = %s", (manager_id,))
                await conn.execute("DELETE FROM manager_sessions WHERE expires_at < now()")
                await conn.execute(
                    "INSERT INTO manager_sessions (token_hash, manager_id, till_id, expires_at) "
                    "VALUES (%s, %s, %s, now() + make_interval(secs => %s))",
                    (hash_token(token), manager_id, till_id, SESSION_S))
                return token, float(SESSION_S)
            failures = (int(row[2]) if row is not None else 0) + 1
            lock = PIN_LOCK_S * 2 ** min(failures - PIN_TRIES, 10) if failures >= PIN_TRIES else 0
            await conn.execute(
                "UPDATE managers SET failures = %s, locked_until = CASE WHEN %s > 0 THEN "
                "clock_timestamp() + make_interval(secs => %s) END WHERE manager_id = %s",
                (failures, lock, lock, manager_id))
            await conn.execute(
                "INSERT INTO manager_failures (manager_id, till_id, locked_until) VALUES "
                "(%s, %s, CASE WHEN %s > 0 THEN clock_timestamp() + make_interval(secs => %s) "
                "END)", (manager_id, till_id, lock, lock))
        raise Forbidden("pin: not accepted for this store manager")  # recorded: committed above

    async def manager_session(self, till_id: str, token: str) -> ManagerSession | None:
        """The manager whose live session ``token`` is, opened from this same till."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT s.manager_id, m.name, s.till_id FROM manager_sessions s JOIN managers m "
                "USING (manager_id) WHERE s.token_hash = %s AND s.expires_at > now()",
                (hash_token(token),))
            row = await cur.fetchone()
        if row is None or str(row[2]) != till_id:
            return None
        return ManagerSession(str(row[0]), str(row[1]), str(row[2]))

    async def pin_failures(self, limit: int = 50) -> list[dict[str, Any]]:
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT at, manager_id, till_id, locked_until FROM manager_failures "
                "ORDER BY id DESC LIMIT %s", (limit,))
            rows = await cur.fetchall()
        return [{"at": r[0].isoformat(), "manager": r[1], "till": r[2],
                 "locked_until": r[3].isoformat() if r[3] else None} for r in rows]

    async def till_for_token(self, token: str) -> str | None:
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT till_id FROM tills WHERE token_hash = %s",
                                     (hash_token(token),))
            row = await cur.fetchone()
        return None if row is None else str(row[0])

    async def hello(self, till_id: str, journal_id: str, *, claimed_till: str | None = None,
                    till_number: int | None = None) -> dict[str, Any]:
        """A till's contact: register its journal; answer where to resume, its invoice floor
        (the highest invoice sequence seen from this till on any journal) and the last close.
        The journal's till must be the token's till (``Forbidden`` otherwise), and its number
        this till's own: ``NumberTaken`` for a number pinned to another till (the unique index
        decides when two tills pin at once) or not the one pinned for this till."""
        if claimed_till is not None and claimed_till != till_id:
            raise Forbidden(f"journal: this journal is till {claimed_till}'s but the store token "
                            f"is till {till_id}'s; give till {claimed_till} its own token")
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute("SELECT till_id FROM journals WHERE journal_id = %s AND "
                                     "till_id <> %s LIMIT 1", (journal_id, till_id))
            other = await cur.fetchone()
            if other is not None:
                raise Forbidden(f"journal: this journal belongs to till {other[0]}, not to "
                                f"till {till_id}")
            cur = await conn.execute("SELECT till_number FROM tills WHERE till_id = %s FOR UPDATE",
                                     (till_id,))
            pinned = await cur.fetchone()
            if till_number is not None and pinned is not None:
                if pinned[0] is None:  # trust on first use, unless another till holds it
                    owner = await self._number_owner(conn, till_number)
                    if owner is None:
                        try:
                            await conn.execute("UPDATE tills SET till_number = %s WHERE till_id = %s",
                                               (till_number, till_id))
                        except UniqueViolation:  # another till pinned it just now
                            owner = ""
                    if owner is not None:
                        whose = f"till {owner}'s" if owner else "another till's"
                        raise NumberTaken(f"till_number: number {till_number} is {whose} at this "
                                          f"store, not till {till_id}'s: give this till its own "
                                          "number", till_number)
                elif int(pinned[0]) != till_number:
                    raise NumberTaken(f"till_number: till {till_id} is number {int(pinned[0])} at "
                                      f"the store, not {till_number}", till_number)
            await conn.execute(
                "INSERT INTO journals (till_id, journal_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                (till_id, journal_id))
            cur = await conn.execute(
                "UPDATE tills SET last_seen = now(), journal_id = %s WHERE till_id = %s "
                "RETURNING invoice_high_water", (journal_id, till_id))
            floor = await cur.fetchone()
            cur = await conn.execute("SELECT high_water FROM journals WHERE till_id = %s AND "
                                     "journal_id = %s", (till_id, journal_id))
            mark = await cur.fetchone()
            last_close = await self._last_close(conn)
            catalog_version = await self.catalog.latest(conn)
        return {"high_water": int(mark[0]) if mark else 0,
                "invoice_floor": int(floor[0]) if floor else 0,
                "store_close": own_close(last_close, till_id),
                "catalog_version": catalog_version}

    @staticmethod
    async def _last_close(conn: AsyncConnection[Any]) -> dict[str, Any] | None:
        cur = await conn.execute("SELECT batch_no, closed_at, closed_by, till_id, override, through "
                                 "FROM store_batches ORDER BY batch_no DESC LIMIT 1")
        row = await cur.fetchone()
        if row is None:
            return None
        return {"batch_no": int(row[0]), "closed_at": row[1].isoformat(), "closed_by": row[2],
                "till": row[3], "override": bool(row[4]), "through": row[5]}

    # ---- ingest -----------------------------------------------------------------------------
    async def push(self, till_id: str, journal_id: str, events: Sequence[StoreEvent],
                   chain: str | None = None) -> PushResult:
        """Append ``events``; ``chain`` is the till's journal chain before ``events[0]``
        (``cashier.journal.outbox_rows``). Folded over the events up to the store's mark it must
        be the chain the store holds there, or the journal forked from an older copy
        (``JournalForked``, nothing stored). A push without one (a till from before chains) is
        not checked; the store's own chain goes on from its mark."""
        async with self.pool.connection() as conn, conn.transaction():
            cur = await conn.execute("SELECT high_water, chain FROM journals WHERE till_id = %s AND "
                                     "journal_id = %s FOR UPDATE", (till_id, journal_id))
            row = await cur.fetchone()
            if row is None:
                raise ValidationError("journal_id", "is not known to the store: say hello first")
            mark = int(row[0])
            fresh = [e for e in events if e.seq > mark]
            if not fresh:
                return PushResult(mark, 0)
            if fresh[0].seq != mark + 1:
                return PushResult(mark, 0, gap=True)
            held: str | None = row[1] if row[1] is not None else (
                chain_start(journal_id) if mark == 0 else None)
            if chain is not None:
                theirs = chain
                for e in events[:len(events) - len(fresh)]:  # the resent ones, up to the mark
                    theirs = e.chain(theirs)
                if held is not None and theirs != held:
                    log.warning("store refused till %s: journal %s… forked before event %s "
                                "(restored from an older copy)", till_id, journal_id[:8], mark)
                    raise JournalForked(mark)
                held = theirs  # a journal the store knew before chains: its chain from now on
            cur = await conn.execute("SELECT till_number FROM tills WHERE till_id = %s", (till_id,))
            number = await cur.fetchone()
            till_number = None if number is None or number[0] is None else int(number[0])
            async with conn.cursor().copy(
                    "COPY events (till_id, journal_id, seq, entry_id, at, actor, type, data) "
                    "FROM STDIN") as copy:
                for e in fresh:
                    await copy.write_row((till_id, journal_id, e.seq, e.entry_id, e.at, e.actor,
                                          e.type, json.dumps(e.data)))
            invoice_mark, clerk = await self._fold(conn, till_id, journal_id, fresh, till_number)
            last = fresh[-1].seq
            if held is not None:
                for e in fresh:
                    held = e.chain(held)
            await conn.execute("UPDATE journals SET high_water = %s, chain = %s WHERE till_id = %s "
                               "AND journal_id = %s", (last, held, till_id, journal_id))
            await conn.execute(
                "UPDATE tills SET last_seen = now(), clerk = COALESCE(%s, clerk), "
                "invoice_high_water = GREATEST(invoice_high_water, %s) WHERE till_id = %s",
                (clerk, invoice_mark, till_id))
        return PushResult(last, len(fresh))

    async def _fold(self, conn: AsyncConnection[Any], till_id: str, journal_id: str,
                    events: Sequence[StoreEvent], number: int | None) -> tuple[int, str | None]:
        """Apply the events to the entries they change (the journal's own replay rule: a
        ``created`` event holds the whole row, later events the columns they changed)."""
        touched = sorted({e.entry_id for e in events if e.entry_id is not None})
        known: dict[int, tuple[int, dict[str, Any]]] = {}
        if touched:
            cur = await conn.execute(
                "SELECT entry_id, created_seq, fields FROM entries WHERE till_id = %s AND "
                "journal_id = %s AND entry_id = ANY(%s)", (till_id, journal_id, touched))
            for entry_id, created_seq, fields in await cur.fetchall():
                known[int(entry_id)] = (int(created_seq), dict(fields))
        changed: set[int] = set()
        invoice_mark = 0
        clerk: str | None = None
        paid: list[tuple[str, str, int, int, str]] = []
        for i, e in enumerate(events):
            where = f"events[{i}].data"
            if e.entry_id is None:
                if e.type == "ticket_paid":
                    ticket, day = paid_ticket_day(e.data, e.at, where)
                    paid.append((till_id, journal_id, ticket, e.seq, day))
                continue
            data = {k: v for k, v in e.data.items() if not k.startswith("_")}
            if e.type == "created":
                if e.entry_id in known:
                    raise HistoryRewritten(f"events[{i}].entry_id", f"entry {e.entry_id} was "
                                                                     "created already: a second "
                                                                     "creation rewrites history")
                if data.get("till_id") not in (None, till_id):
                    raise Forbidden(f"{where}.till_id: an entry of till {data['till_id']} pushed "
                                    f"with till {till_id}'s token")
                check_created(data, where)
                check_invoice(data, number, where)
                known[e.entry_id] = (e.seq, data)
            elif e.entry_id in known and data:
                before = known[e.entry_id][1]
                after = {**before, **data}
                check_change(before, data, after, where, corrected=e.type == "corrected")
                check_invoice(after, number, where)
                known[e.entry_id] = (known[e.entry_id][0], after)
            elif e.entry_id not in known:
                raise ValidationError(f"events[{i}].entry_id", f"entry {e.entry_id} was never "
                                                               "created in this journal")
            else:
                continue
            changed.add(e.entry_id)
            fields = known[e.entry_id][1]
            invoice_mark = max(invoice_mark, _invoice_sequence(fields.get("invoice")))
            if fields.get("clerk") is not None:
                clerk = str(fields["clerk"])
            elif e.actor not in ("recovery", "system", "store"):
                clerk = e.actor
        if changed:
            async with conn.cursor() as cur:
                await cur.executemany(_UPSERT, [
                    _projection(till_id, journal_id, i, known[i][0], known[i][1]) for i in sorted(changed)])
        if paid:  # a ticket closes as paid once: a second close of it (a rewrite) adds nothing
            async with conn.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO paid_tickets (till_id, journal_id, ticket_id, paid_seq, "
                    "business_date) VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING", paid)
        return invoice_mark, clerk

    # ---- totals -----------------------------------------------------------------------------
    async def totals(self, business_date: str | None = None, *,
                     only_till: str | None = None) -> dict[str, Any]:
        """Store and per-till totals of the open store batch, or of one business date;
        ``only_till``: that till's own figures and nothing of any other till."""
        full = await self._totals(business_date)
        if only_till is None:
            full["scope"] = "store"
            return full
        mine = full["tills"].get(only_till)
        return {"scope": "till", "store": None, "tills": {only_till: mine} if mine else {},
                "business_date": business_date,
                "through": {only_till: full["through"].get(only_till, {})},
                "last_close": own_close(full["last_close"], only_till)}

    async def _totals(self, business_date: str | None) -> dict[str, Any]:
        where = "business_date = %s" if business_date else "store_batch = 0"
        args: tuple[Any, ...] = (business_date,) if business_date else ()
        async with self.pool.connection() as conn:
            # one snapshot: the figures and ``through`` (what they cover) must agree exactly
            await conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                cur = conn.cursor(row_factory=dict_row)
                await cur.execute(
                    "SELECT till_id, bucket, currency, card_type, unresolved, count(*) AS n, "
                    "sum(bucket_minor) AS minor, sum(tip_minor) AS tip, "
                    "count(*) FILTER (WHERE kind LIKE 'ticket%%' AND state <> ALL(%s)) AS tickets "
                    f"FROM entries WHERE NOT training AND {where} "
                    "GROUP BY till_id, bucket, currency, card_type, unresolved",
                    (list(TICKET_DONE_STATES), *args))
                rows = await cur.fetchall()
                # the corrections of these entries (the host held them otherwise than the till
                # had journaled them): counted per till and for the store
                await cur.execute(
                    "SELECT e.till_id, v.data FROM events v JOIN entries e ON e.till_id = "
                    "v.till_id AND e.journal_id = v.journal_id AND e.entry_id = v.entry_id "
                    f"WHERE v.type = 'correction' AND NOT e.training AND e.{where}", args)
                corrections = await cur.fetchall()
                # the money taken by the UTC hour it was journaled in and by clerk (the store's
                # charts, issue #42)
                await cur.execute(
                    "SELECT substr(fields->>'created_at', 1, 13) AS hour, COALESCE(clerk, '') AS "
                    "clerk, count(*) AS n, sum(bucket_minor) AS minor FROM entries WHERE NOT "
                    f"training AND {where} AND bucket = ANY(%s) GROUP BY 1, 2",
                    (*args, list(TAKEN_BUCKETS)))
                taken = await cur.fetchall()
                # the tax the tickets paid in this day or batch charged, by class (issue #37),
                # and what discounts took off (#38): each ticket's ``ticket_paid`` event carries
                # them, worked out at the till by the one rule; a ticket counts in the day and
                # batch of its close (``paid_ticket_day``), a comp with no entry too
                await cur.execute(
                    "SELECT p.till_id, v.data->'taxes' AS taxes, v.data->'discounts' AS discounts "
                    "FROM paid_tickets p JOIN events v ON v.till_id = p.till_id AND v.journal_id "
                    f"= p.journal_id AND v.seq = p.paid_seq WHERE p.{where}", args)
                taxes = await cur.fetchall()
                # the tax the refunds of tickets in this day or batch gave back: each carries its
                # own, worked out at the till by the one rule (``Ticket.refund_tax``) and counted,
                # as its money is, in the day and batch of the refund, as the X/Z report counts it
                await cur.execute(
                    "SELECT till_id, sum((fields->>'tax_minor')::bigint) AS minor FROM entries "
                    f"WHERE NOT training AND {where} AND NOT unresolved AND bucket = ANY(%s) "
                    "AND fields->>'ticket_id' IS NOT NULL GROUP BY till_id",
                    (*args, list(GIVEN_BACK_BUCKETS)))
                taxes_back = await cur.fetchall()
                await cur.execute("SELECT till_id, last_seen, clerk, journal_id FROM tills "
                                  "ORDER BY till_id")
                tills = await cur.fetchall()
                await cur.execute("SELECT till_id, journal_id, high_water FROM journals")
                marks = await cur.fetchall()
                last_close = await self._last_close(conn)
            finally:
                await conn.execute("COMMIT")
        return summarise(rows, tills, marks, last_close, business_date, corrections, taken, taxes,
                         taxes_back)

    # ---- the store-wide close ---------------------------------------------------------------
    async def close_batch(self, *, till_id: str, closed_by: str, override: bool,
                          through: Mapping[str, Mapping[str, int]], summary: Mapping[str, Any],
                          manager_id: str | None = None) -> int:
        """Put every finished entry the totals covered (created at or before ``through``, per
        till and journal) and every ticket paid by then into a new store batch; unresolved
        entries stay in the open batch.
        ``through`` may name only what the store holds (never a journal's future)."""
        async with self.pool.connection() as conn, conn.transaction():
            pairs = [(t, j, int(s)) for t, journals in through.items() for j, s in journals.items()]
            cur = await conn.execute("SELECT till_id, journal_id, high_water FROM journals")
            held = {(str(r[0]), str(r[1])): int(r[2]) for r in await cur.fetchall()}
            for t, j, seq in pairs:
                if (t, j) not in held or not 0 <= seq <= held[(t, j)]:
                    raise ValidationError("through", f"till {t}'s journal {j[:8]}… is not held "
                                                     f"up to {seq} by the store")
            cur = await conn.execute(
                "INSERT INTO store_batches (closed_by, till_id, override, through, summary, "
                "manager_id) VALUES (%s, %s, %s, %s, %s, %s) RETURNING batch_no",
                (closed_by, till_id, override, Jsonb(through), Jsonb(dict(summary)), manager_id))
            row = await cur.fetchone()
            assert row is not None
            batch_no = int(row[0])
            async with conn.cursor() as c:
                await c.executemany(
                    "UPDATE entries SET store_batch = %s WHERE till_id = %s AND journal_id = %s "
                    "AND created_seq <= %s AND store_batch = 0 AND NOT unresolved",
                    [(batch_no, t, j, s) for t, j, s in pairs])
                await c.executemany(  # the tickets paid by then (``paid_ticket_day``)
                    "UPDATE paid_tickets SET store_batch = %s WHERE till_id = %s AND journal_id = "
                    "%s AND paid_seq <= %s AND store_batch = 0",
                    [(batch_no, t, j, s) for t, j, s in pairs])
        return batch_no


def own_close(close: dict[str, Any] | None, till_id: str) -> dict[str, Any] | None:
    """A store close as one till may see it: what it covered of that till only."""
    if close is None:
        return None
    return {**close, "through": {till_id: dict((close.get("through") or {}).get(till_id) or {})}}


def _money(minor: int, currency: str) -> str:
    return str(from_minor(int(minor), currency))


def summarise(rows: Sequence[Mapping[str, Any]], tills: Sequence[Mapping[str, Any]],
              marks: Sequence[Mapping[str, Any]], last_close: dict[str, Any] | None,
              business_date: str | None,
              corrections: Sequence[Mapping[str, Any]] = (),
              taken: Sequence[Mapping[str, Any]] = (),
              taxes: Sequence[Mapping[str, Any]] = (),
              taxes_back: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The totals answer: the store and each till with sales, refunds, tips, tax by class, by
    tender and card brand, unresolved, open tickets, corrections and last seen; ``through`` is
    what the figures cover; the store's money taken by UTC hour (``YYYY-MM-DDTHH``) and by clerk
    (``taken``). The tax is net of what refunds gave back (``taxes_back``: minor units by till),
    as the X/Z report's; its classes are what the tickets charged."""
    currency = next((str(r["currency"]) for r in rows), "USD")

    def blank() -> dict[str, Any]:
        return {"sales": [0, 0], "refunds": [0, 0], "tips": 0, "by_tender": {}, "by_card_brand": {},
                "unresolved": 0, "open_tickets": 0, "corrections": [], "tax": {},
                "tax_refunded": 0, "discounts": DiscountFigures()}

    acc: dict[str, dict[str, Any]] = {str(t["till_id"]): blank() for t in tills}
    store = blank()
    for t in taxes:  # each paid ticket's tax by class, as its till worked it out
        for c in t["taxes"] or []:
            key = (str(c["tax_class"]), str(c["rate"]))
            for target in (acc.setdefault(str(t["till_id"]), blank()), store):
                target["tax"][key] = target["tax"].get(key, 0) + to_minor(Decimal(c["tax"]), currency)
        for target in (acc.setdefault(str(t["till_id"]), blank()), store):  # issue #38
            target["discounts"].add(t.get("discounts"), currency)
    for t in taxes_back:  # what the tickets' refunds gave back of their tax (issue #39)
        for target in (acc.setdefault(str(t["till_id"]), blank()), store):
            target["tax_refunded"] += int(t["minor"] or 0)
    for c in corrections:
        for target in (acc.setdefault(str(c["till_id"]), blank()), store):
            target["corrections"].append(c["data"])
    for r in rows:
        n, minor, tip = int(r["n"]), int(r["minor"] or 0), int(r["tip"] or 0)
        for target in (acc.setdefault(str(r["till_id"]), blank()), store):
            target["open_tickets"] += int(r["tickets"] or 0)
            if r["unresolved"]:
                target["unresolved"] += n
            bucket = r["bucket"]
            if bucket is None:
                continue
            tender = target["by_tender"].setdefault(bucket, [0, 0])
            tender[0] += n
            tender[1] += minor
            if bucket in HOST_BATCH_SALE_BUCKETS:
                target["sales"][0] += n
                target["sales"][1] += minor
                target["tips"] += tip
                brand = target["by_card_brand"].setdefault(r["card_type"] or "other", [0, 0, 0, 0])
                brand[0] += n
                brand[1] += minor
            elif bucket in HOST_BATCH_REFUND_BUCKETS:
                target["refunds"][0] += n
                target["refunds"][1] += minor
                brand = target["by_card_brand"].setdefault(r["card_type"] or "other", [0, 0, 0, 0])
                brand[2] += n
                brand[3] += minor

    def shown(t: dict[str, Any]) -> dict[str, Any]:
        def pair(p: list[int]) -> dict[str, Any]:
            return {"count": p[0], "amount": _money(p[1], currency)}
        corrected, corrected_amount = corrections_figure(t["corrections"], currency)
        return {"sales": pair(t["sales"]), "refunds": pair(t["refunds"]),
                "net": _money(t["sales"][1] - t["refunds"][1], currency),
                "tips": _money(t["tips"], currency),
                "tax": _money(sum(t["tax"].values()) - t["tax_refunded"], currency),
                "tax_refunded": _money(t["tax_refunded"], currency),
                "tax_by_class": [{"tax_class": name, "rate": rate, "tax": _money(minor, currency)}
                                 for (name, rate), minor in sorted(t["tax"].items())],
                "by_tender": {k: pair(v) for k, v in sorted(t["by_tender"].items())},
                "by_card_brand": {k: {"sales": pair(v[:2]), "refunds": pair(v[2:])}
                                  for k, v in sorted(t["by_card_brand"].items())},
                "unresolved": t["unresolved"], "open_tickets": t["open_tickets"],
                "corrections": {"count": corrected, "amount": str(corrected_amount)},
                "discounts": t["discounts"].out(currency),
                # stored offline, declined by the host at the forward: owed, in no sale (issue 40)
                "declined_on_forward": pair(t["by_tender"].get(DECLINED_ON_FORWARD_BUCKET,
                                                               [0, 0]))}

    seen = {str(t["till_id"]): t for t in tills}
    through: dict[str, dict[str, int]] = {}
    for m in marks:
        through.setdefault(str(m["till_id"]), {})[str(m["journal_id"])] = int(m["high_water"])
    out_tills = {}
    for till_id, t in sorted(acc.items()):
        info = seen.get(till_id, {})
        last_seen = info.get("last_seen")
        out_tills[till_id] = {**shown(t), "last_seen": last_seen.isoformat() if last_seen else None,
                              "clerk": info.get("clerk")}
    stamps = [v["last_seen"] for v in out_tills.values() if v["last_seen"]]
    by_hour: dict[str, list[int]] = {}
    by_clerk: dict[str, list[int]] = {}
    for r in taken:
        for label, target in ((str(r["hour"] or ""), by_hour), (str(r["clerk"]), by_clerk)):
            sums = target.setdefault(label, [0, 0])
            sums[0] += int(r["n"])
            sums[1] += int(r["minor"] or 0)

    def pairs(target: dict[str, list[int]]) -> dict[str, Any]:
        return {k: {"count": v[0], "amount": _money(v[1], currency)} for k, v in sorted(target.items())}

    return {"store": {**shown(store), "last_seen": max(stamps) if stamps else None,
                      "currency": currency, "by_hour": pairs(by_hour), "by_clerk": pairs(by_clerk)},
            "tills": out_tills, "business_date": business_date, "through": through,
            "last_close": last_close}

