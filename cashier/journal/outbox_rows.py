"""Outbox rows: what the store outbox reads and marks in the journal (``cashier.store.outbox``
pushes; the SQL on the journal file is here). ``read_events`` is the one reading of the event
log "from sequence N on"."""

from __future__ import annotations

import time
from typing import Any

from cashier.journal.datastore import Datastore

#: The outbox marks it keeps in its one row.
OUTBOX_MARKS = ("pushed_through", "store_close_seen")


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
