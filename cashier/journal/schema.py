"""Forward-only schema migrations, numbered by ``PRAGMA user_version``.

``MIGRATIONS[i]`` takes a journal at version ``i`` to ``i + 1`` inside one transaction. Never edit
a released migration; append a new one. A journal newer than this program is refused, not
downgraded.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from cashier.journal.model import JournalError


def _run(conn: sqlite3.Connection, script: str) -> None:
    """Run statements one by one: ``executescript`` would commit the migration's transaction."""
    for statement in script.split(";\n"):
        if statement.strip():
            conn.execute(statement)


# ---- totals as each released migration counted them ----------------------------------------------
# A released migration never calls today's code: these are the bucket rules of v3 and v4, frozen
# in SQL (``cashier.journal.totals`` is today's rule; a test checks they agree on today's kinds).
_COUNTED = "state NOT IN ('voided', 'declined', 'error', 'intent')"
_TAB = "kind IN ('authorization', 'manual_authorization')"
_V3_BUCKET = f"""CASE WHEN {_TAB} THEN CASE WHEN captured_minor != 0 THEN 'capture'
                                            WHEN approved_minor != 0 THEN 'auth_open' END
                 WHEN approved_minor != 0 THEN kind END"""
_V3_MINOR = f"CASE WHEN {_TAB} AND captured_minor != 0 THEN captured_minor ELSE approved_minor END"
_V4_BUCKET = f"""CASE WHEN kind = 'charge' THEN CASE
                     WHEN op = 'authorization' THEN CASE WHEN captured_minor = 0 AND refunded_minor = 0
                          AND approved_minor != 0 THEN 'charge_auth_open' END
                     WHEN op = 'charge' AND approved_minor != 0 THEN 'charge_sale'
                     WHEN op = 'capture' AND captured_minor != 0 THEN 'charge_capture'
                     WHEN op = 'refund' AND refunded_minor != 0 THEN 'charge_refund' END
                 ELSE {_V3_BUCKET} END"""
_V4_MINOR = f"""CASE WHEN kind = 'charge' THEN CASE WHEN op = 'capture' THEN captured_minor
                                                  WHEN op = 'refund' THEN refunded_minor
                                                  ELSE approved_minor END
                 ELSE {_V3_MINOR} END"""


def _totals_from_entries(conn: sqlite3.Connection, bucket: str, minor: str) -> None:
    """Recompute every running total from the entries with one frozen bucket rule."""
    conn.execute("DELETE FROM totals")
    conn.execute(f"""
        INSERT INTO totals(batch_no, bucket, currency, count, amount_minor)
        SELECT batch_no, bucket, currency, COUNT(*), SUM(minor) FROM (
            SELECT batch_no, currency, {bucket} AS bucket, {minor} AS minor
            FROM entries WHERE {_COUNTED})
        WHERE bucket IS NOT NULL GROUP BY batch_no, bucket, currency""")


def _v1(conn: sqlite3.Connection) -> None:
    """Entries (the projection), the append-only event log and the invoice counter."""
    _run(conn, """
    CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        till_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        state TEXT NOT NULL,
        op TEXT,
        invoice TEXT UNIQUE,
        idempotency_key TEXT UNIQUE,
        original_invoice TEXT,
        currency TEXT NOT NULL,
        requested_minor INTEGER NOT NULL DEFAULT 0,
        approved_minor INTEGER NOT NULL DEFAULT 0,
        tip_minor INTEGER NOT NULL DEFAULT 0,
        tax_minor INTEGER NOT NULL DEFAULT 0,
        captured_minor INTEGER NOT NULL DEFAULT 0,
        refunded_minor INTEGER NOT NULL DEFAULT 0,
        pending_minor INTEGER NOT NULL DEFAULT 0,
        card TEXT,
        card_last4 TEXT,
        card_type TEXT,
        token TEXT,
        auth_code TEXT,
        response_code TEXT,
        host_code TEXT,
        message TEXT,
        training INTEGER NOT NULL DEFAULT 0,
        clerk TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        sent_at TEXT,
        business_date TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX entries_day ON entries(business_date, created_at);
    CREATE INDEX entries_open ON entries(state) WHERE state IN ('intent', 'sent', 'unknown', 'voiding');
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        entry_id INTEGER,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX events_entry ON events(entry_id, id);
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    """)


def _v2(conn: sqlite3.Connection) -> None:
    """Durable jobs (voids that survive a restart) and the reversal reason on entries."""
    _run(conn, """
    ALTER TABLE entries ADD COLUMN reversal_reason TEXT;
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        entry_id INTEGER NOT NULL REFERENCES entries(id),
        kind TEXT NOT NULL,
        reason TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at TEXT NOT NULL,
        last_error TEXT,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        done_at TEXT
    );
    CREATE INDEX jobs_pending ON jobs(next_at) WHERE state = 'pending';
    """)


def _v3(conn: sqlite3.Connection) -> None:
    """Batches, running totals kept in the same transaction as each change, card search."""
    _run(conn, """
    ALTER TABLE entries ADD COLUMN batch_no INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE totals (
        batch_no INTEGER NOT NULL,
        bucket TEXT NOT NULL,
        currency TEXT NOT NULL,
        count INTEGER NOT NULL DEFAULT 0,
        amount_minor INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (batch_no, bucket, currency)
    ) WITHOUT ROWID;
    CREATE TABLE batches (
        batch_no INTEGER PRIMARY KEY,
        closed_at TEXT NOT NULL,
        closed_by TEXT NOT NULL,
        override INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX entries_last4 ON entries(card_last4, business_date);
    CREATE INDEX entries_amount ON entries(requested_minor, business_date);
    CREATE INDEX entries_tabs ON entries(kind, created_at) WHERE state = 'approved';
    """)
    _totals_from_entries(conn, _V3_BUCKET, _V3_MINOR)


def _v4(conn: sqlite3.Connection) -> None:
    """Charge API totals in buckets of their own (charge_sale, charge_capture, charge_refund,
    charge_auth_open) and a lookup of a charge's entry by its charge id (``auth_code``)."""
    _run(conn, "CREATE INDEX entries_charge ON entries(auth_code) WHERE kind = 'charge'")
    _totals_from_entries(conn, _V4_BUCKET, _V4_MINOR)


def _v5(conn: sqlite3.Connection) -> None:
    """One meaning per column: the Charge API's ids leave ``auth_code`` (now the host's
    authorization code only) and ``token`` (now a card token only) for columns of their own.

    Before: a Charge API entry kept its charge id (a refund's refund id) in ``auth_code``, and in
    ``token`` the charge a capture or refund moved, the payment link paid through, or the
    customer charged. The values move in SQL here, in the same transaction."""
    _run(conn, """
    ALTER TABLE entries ADD COLUMN charge_id TEXT;
    ALTER TABLE entries ADD COLUMN refund_id TEXT;
    ALTER TABLE entries ADD COLUMN payment_link_id TEXT;
    ALTER TABLE entries ADD COLUMN customer_id TEXT;
    UPDATE entries SET refund_id = auth_code
        WHERE kind = 'charge' AND op IN ('refund', 'void');
    UPDATE entries SET charge_id = token, token = NULL
        WHERE kind = 'charge' AND op IN ('capture', 'refund', 'void');
    UPDATE entries SET charge_id = auth_code
        WHERE kind = 'charge' AND (op IS NULL OR op IN ('charge', 'authorization'));
    UPDATE entries SET auth_code = NULL WHERE kind = 'charge';
    UPDATE entries SET payment_link_id = token, token = NULL
        WHERE kind = 'charge' AND idempotency_key LIKE 'link:%';
    UPDATE entries SET customer_id = token, token = NULL
        WHERE kind = 'charge' AND token LIKE 'cust!_%' ESCAPE '!';
    DROP INDEX IF EXISTS entries_charge;
    CREATE INDEX entries_charge ON entries(charge_id) WHERE kind = 'charge'
    """)


def _v6(conn: sqlite3.Connection) -> None:
    """The store outbox: this journal's identity for the store service, how far its events are
    pushed, and the last store-wide close the till has learned of (one row)."""
    _run(conn, """
    CREATE TABLE store_outbox (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        journal_id TEXT NOT NULL,
        pushed_through INTEGER NOT NULL DEFAULT 0,
        store_close_seen INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT
    )
    """)
    conn.execute("INSERT INTO store_outbox(id, journal_id) VALUES (1, ?)", (_v6_journal_id(),))


def _v6_journal_id() -> str:
    """32 random hex digits with no run of 13 decimal digits: such a run is Luhn-valid one time
    in ten, and no scan for card numbers at rest (ours included) may ever find one in a journal.
    (About one id in 200 is drawn again.)"""
    import re
    import secrets

    while True:
        value = secrets.token_hex(16)
        if not re.search(r"[0-9]{13}", value):
            return value


def _v7(conn: sqlite3.Connection) -> None:
    """Cash drawer sessions and their movements (float, pay-in, pay-out, no sale, kick, close).

    At most one open session per till: the partial unique index enforces it in the database. The
    X/Z report reads a session's entries from one covering index (no table lookups)."""
    _run(conn, """
    CREATE TABLE drawer_sessions (
        id INTEGER PRIMARY KEY,
        till_id TEXT NOT NULL,
        currency TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'open',
        opened_at TEXT NOT NULL,
        opened_by TEXT NOT NULL,
        float_minor INTEGER NOT NULL DEFAULT 0,
        float_counts TEXT NOT NULL DEFAULT '{}',
        closed_at TEXT,
        closed_by TEXT,
        expected_minor INTEGER,
        counted_minor INTEGER,
        over_short_minor INTEGER,
        reason TEXT,
        approved_by TEXT,
        report TEXT
    );
    CREATE UNIQUE INDEX drawer_one_open ON drawer_sessions(till_id) WHERE state != 'closed';
    CREATE TABLE drawer_moves (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES drawer_sessions(id),
        at TEXT NOT NULL,
        type TEXT NOT NULL,
        amount_minor INTEGER NOT NULL DEFAULT 0,
        reason TEXT,
        clerk TEXT NOT NULL,
        approved_by TEXT,
        entry_id INTEGER
    );
    CREATE INDEX drawer_moves_session ON drawer_moves(session_id, id);
    CREATE INDEX entries_session_report ON entries(till_id, created_at, kind, op, state, card_type, clerk,
        requested_minor, approved_minor, captured_minor, refunded_minor, tip_minor, tax_minor);
    CREATE TRIGGER drawer_moves_no_update BEFORE UPDATE ON drawer_moves
        BEGIN SELECT RAISE(ABORT, 'drawer moves are append-only'); END;
    CREATE TRIGGER drawer_moves_no_delete BEFORE DELETE ON drawer_moves
        BEGIN SELECT RAISE(ABORT, 'drawer moves are append-only'); END;
    """)


def _v8(conn: sqlite3.Connection) -> None:
    """Tickets (lines, tax, tip, state) and the ticket each payment entry belongs to."""
    _run(conn, """
    CREATE TABLE tickets (
        id INTEGER PRIMARY KEY,
        till_id TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'open',
        currency TEXT NOT NULL,
        tax_rate TEXT NOT NULL DEFAULT '0',
        tax_included INTEGER NOT NULL DEFAULT 0,
        tip_mode TEXT NOT NULL DEFAULT 'none',
        tip_minor INTEGER NOT NULL DEFAULT 0,
        tip_asked INTEGER NOT NULL DEFAULT 0,
        training INTEGER NOT NULL DEFAULT 0,
        clerk TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        closed_at TEXT
    );
    CREATE INDEX tickets_open ON tickets(state) WHERE state = 'open';
    CREATE TABLE ticket_lines (
        id INTEGER PRIMARY KEY,
        ticket_id INTEGER NOT NULL REFERENCES tickets(id),
        name TEXT NOT NULL,
        quantity INTEGER NOT NULL,
        unit_price_minor INTEGER NOT NULL,
        removed INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX ticket_lines_ticket ON ticket_lines(ticket_id, id);
    ALTER TABLE entries ADD COLUMN ticket_id INTEGER REFERENCES tickets(id);
    CREATE INDEX entries_ticket ON entries(ticket_id) WHERE ticket_id IS NOT NULL;
    """)


def _v9(conn: sqlite3.Connection) -> None:
    """Who owns each payment in flight: the lease token of the process that sent it
    (``cashier.journal.leases``); another process settles it only once that owner is gone."""
    _run(conn, """
    CREATE TABLE entry_owners (
        entry_id INTEGER PRIMARY KEY REFERENCES entries(id),
        owner TEXT NOT NULL,
        since TEXT NOT NULL
    );
    """)


def _v10(conn: sqlite3.Connection) -> None:
    """The journal's chain as the outbox last computed it (``outbox_rows``): through which event,
    and its value (NULL: not computed yet; the next push folds it from the journal's start)."""
    _run(conn, """
    ALTER TABLE store_outbox ADD COLUMN chain_through INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE store_outbox ADD COLUMN chain TEXT
    """)


def _v11(conn: sqlite3.Connection) -> None:
    """Each ticket line as it was sold (issue #37): the catalog's sku and version, its tax class
    and rate (percent, as text like ``tickets.tax_rate``) and its modifiers (a JSON list of
    names). NULL on the lines before: the ticket's one rate, in the default class."""
    _run(conn, """
    ALTER TABLE ticket_lines ADD COLUMN sku TEXT;
    ALTER TABLE ticket_lines ADD COLUMN catalog_version INTEGER;
    ALTER TABLE ticket_lines ADD COLUMN tax_class TEXT;
    ALTER TABLE ticket_lines ADD COLUMN tax_rate TEXT;
    ALTER TABLE ticket_lines ADD COLUMN modifiers TEXT
    """)


def _v12(conn: sqlite3.Connection) -> None:
    """The mail outbox (issue #41): each e-mailed receipt, queued before anything leaves. The
    customer's address and the message (which names it) are kept only until the message is sent
    or given up: then the address is masked and the message dropped (``mail_rows``). Its own
    table, never an event: the store's push reads the event log only, so no address reaches it."""
    _run(conn, """
    CREATE TABLE mail_outbox (
        id INTEGER PRIMARY KEY,
        receipt TEXT NOT NULL,
        message_id TEXT NOT NULL UNIQUE,
        address TEXT NOT NULL,
        message BLOB,
        state TEXT NOT NULL DEFAULT 'queued',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at TEXT NOT NULL,
        owner TEXT,
        reason TEXT,
        clerk TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        sent_at TEXT
    );
    CREATE INDEX mail_outbox_due ON mail_outbox(state, next_at) WHERE state IN ('queued', 'sending')
    """)


def _v13(conn: sqlite3.Connection) -> None:
    """Store and forward (issue 40): ``offline`` says a payment the gateway approved by itself
    while the host was away (``stored``) and whether the host has settled it since
    (``forwarded``); NULL for every payment the host approved itself. The till's mode (its last
    ``mode_offline`` / ``mode_online`` note) and the payments declined at the forward are read on
    every status refresh: each has an index of its own."""
    _run(conn, """
    ALTER TABLE entries ADD COLUMN offline TEXT;
    CREATE INDEX entries_offline ON entries(offline) WHERE offline = 'stored';
    CREATE INDEX entries_declined_on_forward ON entries(created_at)
        WHERE state = 'declined_on_forward';
    CREATE INDEX events_mode ON events(id) WHERE type IN ('mode_offline', 'mode_online')
    """)


def _v14(conn: sqlite3.Connection) -> None:
    """Discounts, promotions and price overrides (issue #38): the cashier's discounts of a ticket
    (``ticket_discounts``: line or NULL for the ticket, kind, value, reason, who, who approved),
    the promotions a ticket prices itself with (a JSON list, as they stood when it started), its
    cash rounding (what rounding a cash tender's due added, negative when it took off), each
    line's category (what a promotion covers) and, for a price typed over the catalog's, the
    catalog's price, the reason and the approving manager. NULL or none before: no discount."""
    _run(conn, """
    CREATE TABLE ticket_discounts (
        id INTEGER PRIMARY KEY,
        ticket_id INTEGER NOT NULL REFERENCES tickets(id),
        line_id INTEGER REFERENCES ticket_lines(id),
        kind TEXT NOT NULL CHECK (kind IN ('percent', 'amount')),
        value TEXT NOT NULL,
        reason TEXT NOT NULL,
        clerk TEXT,
        approved_by TEXT,
        created_at TEXT NOT NULL
    );
    CREATE INDEX ticket_discounts_ticket ON ticket_discounts(ticket_id);
    ALTER TABLE tickets ADD COLUMN promotions TEXT;
    ALTER TABLE tickets ADD COLUMN rounding_minor INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ticket_lines ADD COLUMN category TEXT;
    ALTER TABLE ticket_lines ADD COLUMN list_price_minor INTEGER;
    ALTER TABLE ticket_lines ADD COLUMN override_reason TEXT;
    ALTER TABLE ticket_lines ADD COLUMN override_by TEXT
    """)


def _v15(conn: sqlite3.Connection) -> None:
    """The day's reports read in order (issue #42): the report groups by hour come from an index
    in their own grouping order (the entry's UTC hour, then the groups' keys, as
    ``report_rows``'s by-hour query writes them), so SQLite sums them as it reads, with no sort;
    the tickets closed in a window come from an index on when they closed, so the tickets' tax,
    lines and discounts read that day's tickets only, never the whole history's lines."""
    _run(conn, """
    CREATE INDEX entries_report_hours ON entries(till_id, substr(created_at, 1, 13), kind, op, state,
        COALESCE(card_type, ''), COALESCE(clerk, ''), (captured_minor > 0 OR refunded_minor > 0),
        (ticket_id IS NULL), created_at, requested_minor, approved_minor, captured_minor,
        refunded_minor, tip_minor, tax_minor);
    CREATE INDEX tickets_closed ON tickets(till_id, state, closed_at)
    """)


def _v16(conn: sqlite3.Connection) -> None:
    """The refunds of tickets journaled before a refund carried its own tax (decision 011,
    "Refunds journaled before their tax"): each is due its tax (``refund_tax_due``). A migration
    never runs today's code, so it only names them; the journal's writer works out their tax by
    today's rule as it opens (``EntryRecorder.price_refunds_due``), on today's tables, and
    takes them off the list in the same write. Run again on a journal that has the list (a
    test's journal set back a version), it only adds to it."""
    _run(conn, """
    CREATE TABLE IF NOT EXISTS refund_tax_due (entry_id INTEGER PRIMARY KEY REFERENCES entries(id));
    INSERT OR IGNORE INTO refund_tax_due(entry_id) SELECT id FROM entries
        WHERE ticket_id IS NOT NULL AND tax_minor = 0 AND (kind = 'refund' OR COALESCE(op, '') = 'refund')
    """)


Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: tuple[Migration, ...] = (_v1, _v2, _v3, _v4, _v5, _v6, _v7, _v8, _v9, _v10, _v11,
                                  _v12, _v13, _v14, _v15, _v16)
LATEST = len(MIGRATIONS)


def version_of(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def migrate(conn: sqlite3.Connection, target: int = LATEST) -> int:
    """Bring the journal up to ``target``, one committed step at a time; return the new version.

    A new journal (version 0) is made in one transaction, every step in it: one commit (one
    fsync at FULL) instead of one a step, so it exists whole or not at all. The till's first
    start and every test's journal paid 14 commits (about 0.1 s on this disk)."""
    current = version_of(conn)
    if current > LATEST:
        raise JournalError(f"journal: schema version {current} is newer than this program "
                           f"({LATEST}); upgrade Cashier before opening it")
    while current < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # another process may have migrated while this one waited for the write lock
            current = start = version_of(conn)
            last = target if current == 0 else min(current + 1, target)
            while current < last:
                MIGRATIONS[current](conn)
                current += 1
            if current != start:
                conn.execute(f"PRAGMA user_version = {current}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # a COMMIT a full disk refused: SQLite already rolled back
                conn.execute("ROLLBACK")
            raise
    return current
