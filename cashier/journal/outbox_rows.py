"""Outbox rows: what the store outbox reads and marks in the journal (``cashier.store.outbox``
pushes; the SQL on the journal file is here). ``read_events`` is the one reading of the event
log "from sequence N on".

The journal's chain (issue #46) is how the store tells a journal that continues what it holds
from a copy restored from an older point under the same journal id: ``chain_next`` folds each
event into a running hash that starts from the journal's id (``chain_start``), so two journals of
one id whose events up to N differ anywhere differ in their chain at N. The till computes it over
its own events as it pushes (the events are append-only, so it never changes) and keeps the last
one it computed in the outbox row; the store computes the same over what it receives."""

from __future__ import annotations

import base64
import hashlib
import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

from cashier.journal.datastore import Datastore
from cashier.journal.model import JournalError

#: The outbox marks it keeps in its one row.
OUTBOX_MARKS = ("pushed_through", "store_close_seen")
#: Events read at once while folding the chain forward.
_CHAIN_READ = 2000


def _written(digest: bytes) -> str:
    """A chain value as text: base32, whose only digits are 2 to 7, so a hash never holds a run
    of digits a card-number scanner (ours, or an auditor's) would read as a card number (a hex
    digest holds a Luhn-valid run of 13 or more digits in about 1 of 250)."""
    return base64.b32encode(digest).decode("ascii").rstrip("=")


def chain_start(journal_id: str) -> str:
    """A journal's chain before its first event: its identity."""
    return _written(hashlib.sha256(f"cashier journal {journal_id}".encode()).digest())


def chain_data(data: Any) -> str:
    """An event's data as the chain takes it: the JSON text as the journal stored and the till
    sent it, or an object's sorted JSON."""
    return data if isinstance(data, str) else json.dumps(data, sort_keys=True)


def chain_next(chain: str, seq: int, entry_id: int | None, at: str, actor: str, type_: str,
               data: str) -> str:
    """The chain through one event: the hash of the chain before it and all the event says
    (the texts' lengths first, so no two events read alike; the data is the rest)."""
    link = (f"{chain} {seq} {entry_id} {len(at)} {len(actor)} {len(type_)} "
            f"{at}{actor}{type_}{data}")
    return _written(hashlib.sha256(link.encode("utf-8", "surrogatepass")).digest())


def chain_over(chain: str, events: Iterable[Mapping[str, Any]]) -> str:
    """The chain through ``events`` (as ``read_events`` gives them), from ``chain`` before them."""
    for e in events:
        chain = chain_next(chain, e["seq"], e["entry_id"], e["at"], e["actor"], e["type"],
                           chain_data(e["data"]))
    return chain


class OutboxRecorder:
    """The store outbox's marks and its reading of the event log, on the journal's datastore."""

    def __init__(self, store: Datastore) -> None:
        self.conn = store.conn

    def outbox_state(self) -> tuple[str, int, int]:
        """(journal id, pushed through, last store close seen)."""
        row = self.conn.execute(
            "SELECT journal_id, pushed_through, store_close_seen FROM store_outbox WHERE id = 1"
        ).fetchone()
        return str(row[0]), int(row[1]), int(row[2])

    def save_outbox_mark(self, mark: str, value: int) -> None:
        if mark not in OUTBOX_MARKS:
            raise ValueError(f"outbox mark: {mark!r} is not one of {', '.join(OUTBOX_MARKS)}")
        self.conn.execute(f"UPDATE store_outbox SET {mark} = ?, updated_at = ? WHERE id = 1",
                          (value, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))

    def last_event_id(self) -> int:
        """The event log's sequence so far (0: no event)."""
        return int(self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0])

    def read_events(self, after: int, limit: int) -> list[dict[str, Any]]:
        """At most ``limit`` events after sequence ``after``, in order, as the store takes them
        (``seq`` is the event's id; ``data`` the stored JSON text)."""
        rows = self.conn.execute(
            "SELECT id, entry_id, at, actor, type, data FROM events WHERE id > ? ORDER BY id LIMIT ?",
            (after, limit)).fetchall()
        return [{"seq": r[0], "entry_id": r[1], "at": r[2], "actor": r[3], "type": r[4], "data": r[5]}
                for r in rows]

    # ---- the journal's chain ------------------------------------------------------------------
    def outbox_chain(self) -> tuple[int, str]:
        """The last chain the outbox computed: (through event, chain); the journal's start when
        none yet."""
        row = self.conn.execute(
            "SELECT journal_id, chain_through, chain FROM store_outbox WHERE id = 1").fetchone()
        if row[2] is None:
            return 0, chain_start(str(row[0]))
        return int(row[1]), str(row[2])

    def save_pushed(self, through: int, chain: str) -> None:
        """The store holds this journal through event ``through``, whose chain is ``chain``: the
        mark and the chain in one write (they belong together)."""
        self.conn.execute(
            "UPDATE store_outbox SET pushed_through = ?, chain_through = ?, chain = ?, "
            "updated_at = ? WHERE id = 1",
            (through, through, chain, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))

    def chain_through(self, seq: int, known: tuple[int, str] | None = None) -> str:
        """This journal's chain through event ``seq``, folded from the nearest point at or
        before it that is known: ``known`` (the caller's last), the outbox row's, the start."""
        journal_id = self.outbox_state()[0]
        starts = [(0, chain_start(journal_id)), self.outbox_chain(), *([known] if known else [])]
        at, chain = max((s for s in starts if s[0] <= seq), key=lambda s: s[0])
        while at < seq:
            batch = self.read_events(at, min(_CHAIN_READ, seq - at))
            if not batch or batch[0]["seq"] != at + 1:
                raise JournalError(f"journal: has no event {at + 1} (its events must follow "
                                   "each other)")
            chain = chain_over(chain, batch)
            at = int(batch[-1]["seq"])
        return chain
