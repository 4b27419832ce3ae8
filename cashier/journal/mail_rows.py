"""Mail outbox rows (journal v12): what the mail sender (``cashier.mail.outbox``) queues, claims
and marks; the SQL on the journal file is here.

A message is sent once: a sender claims a row (``sending``, its lease token as the owner, the
attempt counted) in one transaction before it connects, and marks it sent after the server's
acceptance. A row left ``sending`` by a process that died (its lease released by the OS,
``cashier.journal.leases``) is claimed again: the one possible repeat, when the death fell
between the server's acceptance and the mark, goes out with the same Message-ID.

The customer's address and the message are kept only until the row is done (sent or failed):
then the address is masked and the message dropped, with SQLite's ``secure_delete`` on so the
freed bytes are zeroed, and the WAL is truncated when no reader holds it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from cashier.journal.datastore import Datastore

#: The states of a row: waiting (maybe after a failed try), claimed by a sender, done.
MAIL_STATES = ("queued", "sending", "sent", "failed")
_COLUMNS = ("id, receipt, message_id, address, message, state, attempts, next_at, owner, reason, "
            "clerk, created_at, updated_at, sent_at")


@dataclass(frozen=True)
class MailRow:
    id: int
    receipt: str
    message_id: str
    address: str
    message: bytes | None
    state: str
    attempts: int
    next_at: str
    owner: str | None
    reason: str | None
    clerk: str
    created_at: str
    updated_at: str
    sent_at: str | None


def _row(values: tuple[Any, ...]) -> MailRow:
    (id_, receipt, message_id, address, message, state, attempts, next_at, owner, reason, clerk,
     created_at, updated_at, sent_at) = values
    return MailRow(int(id_), str(receipt), str(message_id), str(address),
                   None if message is None else bytes(message), str(state), int(attempts),
                   str(next_at), owner, reason, str(clerk), str(created_at), str(updated_at), sent_at)


class MailRecorder:
    """The mail outbox on the journal's datastore."""

    def __init__(self, store: Datastore) -> None:
        self.store = store
        self.conn = store.conn

    def queue_mail(self, *, receipt: str, message_id: str, address: str, message: bytes,
                   clerk: str) -> int:
        """One message to send, committed before anything leaves; its row number."""
        with self.store.transaction() as conn:
            now = self.store.now()
            cur = conn.execute(
                "INSERT INTO mail_outbox(receipt, message_id, address, message, next_at, clerk, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (receipt, message_id, address, message, now, clerk, now, now))
            return int(cur.lastrowid or 0)

    def mail_count(self, receipt: str) -> int:
        """How many messages were ever queued for one receipt (a Message-ID's part)."""
        return int(self.conn.execute("SELECT COUNT(*) FROM mail_outbox WHERE receipt = ?",
                                     (receipt,)).fetchone()[0])

    def claim_mail(self, owner: str, alive: Callable[[str], bool], *, due_by: str | None,
                   skip: frozenset[int] = frozenset(), limit: int = 20) -> list[MailRow]:
        """Claim what is due for ``owner``: rows queued whose time has come (``due_by`` None:
        every queued row), and rows left ``sending`` by a sender that is gone; never the rows in
        ``skip`` (tried already in this round). Each claim counts an attempt."""
        with self.store.transaction() as conn:
            rows = [_row(r) for r in conn.execute(
                f"SELECT {_COLUMNS} FROM mail_outbox WHERE state IN ('queued', 'sending') "
                "ORDER BY id LIMIT ?", (limit * 4 + len(skip),)).fetchall()]
            now = self.store.now()
            claimed: list[MailRow] = []
            for row in rows:
                if row.id in skip:
                    continue
                if row.state == "queued" and due_by is not None and row.next_at > due_by:
                    continue
                if row.state == "sending" and (row.owner == owner or alive(row.owner or "")):
                    continue
                conn.execute("UPDATE mail_outbox SET state = 'sending', owner = ?, "
                             "attempts = attempts + 1, updated_at = ? WHERE id = ?",
                             (owner, now, row.id))
                claimed.append(replace(row, state="sending", owner=owner, attempts=row.attempts + 1))
                if len(claimed) >= limit:
                    break
            return claimed

    def mail_retry(self, row_id: int, owner: str, *, next_at: str, reason: str) -> None:
        """A try that failed for now: queued again, for ``next_at``."""
        with self.store.transaction() as conn:
            conn.execute("UPDATE mail_outbox SET state = 'queued', owner = NULL, next_at = ?, "
                         "reason = ?, updated_at = ? WHERE id = ? AND owner = ?",
                         (next_at, reason, self.store.now(), row_id, owner))

    def mail_done(self, row_id: int, owner: str, *, sent: bool, masked: str,
                  reason: str | None = None) -> None:
        """Sent (or failed for good): the address masked, the message dropped, their bytes
        zeroed in the file."""
        before = int(self.conn.execute("PRAGMA secure_delete").fetchone()[0])
        self.conn.execute("PRAGMA secure_delete = ON")
        try:
            with self.store.transaction() as conn:
                now = self.store.now()
                conn.execute(
                    "UPDATE mail_outbox SET state = ?, address = ?, message = NULL, owner = NULL, "
                    "reason = ?, sent_at = ?, updated_at = ? WHERE id = ? AND owner = ?",
                    ("sent" if sent else "failed", masked, reason, now if sent else None, now,
                     row_id, owner))
        finally:  # as it was (a build's default may already be on)
            self.conn.execute(f"PRAGMA secure_delete = {before}")
        self.forget_wal()

    def forget_wal(self) -> None:
        """Truncate the WAL (which still holds the page as it was before the mask) when no
        reader holds it; a busy journal is left as it is, and the next send tries again."""
        timeout = self.store.lock_timeout_s
        self.conn.execute("PRAGMA busy_timeout = 0")
        try:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.OperationalError:
            pass
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")

    def mail_rows(self, limit: int = 200) -> list[MailRow]:
        """The outbox, newest first."""
        return [_row(r) for r in self.conn.execute(
            f"SELECT {_COLUMNS} FROM mail_outbox ORDER BY id DESC LIMIT ?", (limit,)).fetchall()]
