"""The journal's floor on this machine, for the ticket and flow benches: bare commits at FULL
durability, each behind the hop to a writer's thread and back, as the journal makes them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cashier.journal.aio import Lane


class FloorWriter:
    """A WAL journal of one bare table at ``synchronous = FULL`` and its writer's lane."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute("CREATE TABLE rows(id INTEGER PRIMARY KEY, text TEXT)")
        self.lane = Lane("floor-writer")

    def insert(self, text: str) -> None:
        """One bare row, on the caller's thread, in the transaction it began (a ticket line)."""
        self.conn.execute("INSERT INTO rows(text) VALUES (?)", (text,))

    def _commit(self, begun: bool) -> None:
        if not begun:
            self.conn.execute("BEGIN IMMEDIATE")
        self.insert("entry")
        self.conn.execute("COMMIT")

    async def commit(self, *, begun: bool = False) -> None:
        """One small insert committed on the writer's thread (``begun``: in the transaction the
        caller already holds, as a ticket's first intent carries its lines)."""
        await self.lane.call(lambda: self._commit(begun))

    def close(self) -> None:
        self.lane.shutdown()
        self.conn.close()
