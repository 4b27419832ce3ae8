"""Drawer rows: the cash drawer's sessions and moves, on the journal's connection.

The drawer's rules (float, pay-in/out, the blind close, who approves) are in ``cashier.drawer``;
every SQL statement they need is here, and each move's event is written by the journal's one
writer of ``events`` (``Datastore.event``) in the same transaction as the move.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

from cashier.errors import DrawerRefused, ValidationError
from cashier.journal.datastore import Datastore
from cashier.journal.model import DrawerMoved as DrawerMoved  # published; named here too
from cashier.journal.ticket_model import OLD_TENDER_NAMES
from cashier.money import to_minor


class DrawerRecorder:
    """The drawer's recorder: sessions and moves, on the journal's datastore (its transactions,
    time and events)."""

    def __init__(self, store: Datastore) -> None:
        self.store = store
        self.conn = store.conn
        self.till_id = store.till_id
        self.currency = store.currency

    # ---- reads ---------------------------------------------------------------------------------
    def require_cash_drawer(self) -> None:
        """The one rule for cash at the till: cash goes in or out only with an open drawer
        session, checked before anything is journaled (the ticket's cash tender, a cash refund)."""
        row = self.conn.execute("SELECT state FROM drawer_sessions WHERE till_id = ? AND state != 'closed'",
                                (self.till_id,)).fetchone()
        if row is None:
            raise ValidationError("cash", "open the drawer first: there is no open cash drawer session "
                                          "at this till")
        if row[0] != "open":
            raise ValidationError("cash", "the drawer is counted and waiting for a manager to close it: "
                                          "open the drawer again first")

    def drawer_current(self) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(
            "SELECT * FROM drawer_sessions WHERE till_id = ? AND state != 'closed'",
            (self.till_id,)).fetchone()
        return row

    def drawer_session(self, session_id: int) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(
            "SELECT * FROM drawer_sessions WHERE id = ? AND till_id = ?",
            (session_id, self.till_id)).fetchone()
        return row

    def drawer_last_closed(self) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(
            "SELECT * FROM drawer_sessions WHERE till_id = ? AND state = 'closed' "
            "ORDER BY id DESC LIMIT 1", (self.till_id,)).fetchone()
        return row

    def drawer_cash(self, till_id: str, since: str, until: str) -> dict[str, tuple[int, int]]:
        """op -> (count, minor units) of the approved cash entries created in the window."""
        return {op: (int(n), int(minor or 0)) for op, n, minor in self.conn.execute(
            "SELECT op, COUNT(*), SUM(approved_minor) FROM entries WHERE till_id = ? AND kind = 'cash' "
            "AND state = 'approved' AND created_at >= ? AND created_at < ? GROUP BY op",
            (till_id, since, until))}

    def drawer_move_sums(self, session_id: int) -> dict[str, tuple[int, int]]:
        """move type -> (count, minor units) of a session's moves."""
        return {t: (int(n), int(minor or 0)) for t, n, minor in self.conn.execute(
            "SELECT type, COUNT(*), SUM(amount_minor) FROM drawer_moves WHERE session_id = ? GROUP BY type",
            (session_id,))}

    def drawer_moves(self, session_id: int) -> list[sqlite3.Row]:
        return list(self.conn.execute("SELECT * FROM drawer_moves WHERE session_id = ? ORDER BY id",
                                      (session_id,)))

    def drawer_last_move(self, session_id: int) -> tuple[Any, ...] | None:
        row = self.conn.execute("SELECT type, amount_minor, clerk FROM drawer_moves WHERE session_id = ? "
                                "ORDER BY id DESC LIMIT 1", (session_id,)).fetchone()
        return None if row is None else tuple(row)

    def drawer_counts(self, session_id: int) -> list[int]:
        """The session's blind counts so far (minor units), oldest first."""
        return [int(r[0]) for r in self.conn.execute(
            "SELECT amount_minor FROM drawer_moves WHERE session_id = ? AND type = 'count' ORDER BY id",
            (session_id,))]

    def drawer_report(self, session_id: int) -> dict[str, Any] | None:
        """The session's Z report as stored at its close; one stored before the tender kinds had
        one name each reads with today's names (``gift_card`` is ``giftcard``)."""
        row = self.conn.execute("SELECT report FROM drawer_sessions WHERE id = ?", (session_id,)).fetchone()
        return None if row is None or row[0] is None else current_tender_names(dict(json.loads(row[0])))

    # ---- writes --------------------------------------------------------------------------------
    @contextmanager
    def drawer_tx(self) -> Iterator[sqlite3.Connection]:
        """One drawer change; its moves are published once it is committed."""
        with self.store.transaction() as conn:
            yield conn

    def drawer_move(self, session_id: int, type_: str, clerk: str, *, amount: Decimal = Decimal(0),
                    reason: str | None = None, approved_by: str | None = None,
                    entry_id: int | None = None, at: str | None = None) -> None:
        """One move and its event, inside the caller's transaction (``drawer_tx``)."""
        at = at or self.store.now()
        self.conn.execute("INSERT INTO drawer_moves(session_id, at, type, amount_minor, reason, clerk, "
                          "approved_by, entry_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                          (session_id, at, type_, to_minor(amount, self.currency), reason, clerk,
                           approved_by, entry_id))
        self.store.event(entry_id, clerk, f"drawer_{type_}",
                         {"session": session_id, "amount": str(amount), "reason": reason,
                          "approved_by": approved_by}, at)
        self.store.changed(DrawerMoved(session_id, type_, amount, clerk, entry_id))

    def drawer_open_session(self, *, clerk: str, float_amount: Decimal, counts: dict[str, int],
                            at: str) -> int:
        """Inside ``drawer_tx``: the new session's id (refused when one is open already)."""
        try:
            cur = self.conn.execute(
                "INSERT INTO drawer_sessions(till_id, currency, opened_at, opened_by, float_minor, "
                "float_counts) VALUES (?, ?, ?, ?, ?, ?)",
                (self.till_id, self.currency, at, clerk, to_minor(float_amount, self.currency),
                 json.dumps(counts, sort_keys=True)))
        except sqlite3.IntegrityError:
            raise DrawerRefused("drawer: a session is already open at this till "
                                "(close it before opening another)") from None
        return int(cur.lastrowid or 0)

    def drawer_mark_counted(self, session_id: int, *, counted: Decimal, over_short: Decimal,
                            reason: str | None) -> None:
        """The count is in and a manager is needed: the session waits, counted."""
        self.conn.execute(
            "UPDATE drawer_sessions SET state = 'counted', counted_minor = ?, over_short_minor = ?, "
            "reason = ? WHERE id = ?", (to_minor(counted, self.currency),
                                        to_minor(over_short, self.currency), reason, session_id))

    def drawer_close_session(self, session_id: int, *, clerk: str, at: str, expected: Decimal,
                             counted: Decimal, over_short: Decimal, reason: str | None,
                             approved_by: str | None) -> None:
        """Inside ``drawer_tx``: the session closed with its figures."""
        cur = self.currency
        self.conn.execute(
            "UPDATE drawer_sessions SET state = 'closed', closed_at = ?, closed_by = ?, "
            "expected_minor = ?, counted_minor = ?, over_short_minor = ?, reason = ?, approved_by = ? "
            "WHERE id = ?", (at, clerk, to_minor(expected, cur), to_minor(counted, cur),
                             to_minor(over_short, cur), reason, approved_by, session_id))

    def drawer_save_report(self, session_id: int, report: dict[str, Any]) -> None:
        self.conn.execute("UPDATE drawer_sessions SET report = ? WHERE id = ?",
                          (json.dumps(report, sort_keys=True), session_id))


def current_tender_names(report: dict[str, Any]) -> dict[str, Any]:
    """A stored report's tender sections under today's tender names (an old journal's
    ``gift_card`` reads ``giftcard``); the rest as stored."""
    for section in ("by_tender", "refunds_by_tender"):
        tenders = report.get(section)
        if isinstance(tenders, dict):
            report[section] = {OLD_TENDER_NAMES.get(name, name): value for name, value in tenders.items()}
    return report
