"""The store database's forward-only migrations, applied by the service at start.

``MIGRATIONS[i]`` takes the database from version ``i`` to ``i + 1`` in one transaction, under
an advisory lock so two services starting at once never both migrate. Never edit a released
migration; append a new one. A database newer than this program is refused.
"""

from __future__ import annotations

import psycopg

from cashier.store import StoreError

#: An arbitrary key of our own for pg_advisory_xact_lock (two services starting at once).
MIGRATION_LOCK = 7_346_215_001

_V1 = """
CREATE TABLE tills (
    till_id text PRIMARY KEY,
    token_hash text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_seen timestamptz,
    journal_id text,
    clerk text,
    invoice_high_water bigint NOT NULL DEFAULT 0
);
CREATE TABLE journals (
    till_id text NOT NULL REFERENCES tills(till_id),
    journal_id text NOT NULL,
    high_water bigint NOT NULL DEFAULT 0,
    first_seen timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (till_id, journal_id)
);
CREATE TABLE events (
    till_id text NOT NULL,
    journal_id text NOT NULL,
    seq bigint NOT NULL,
    entry_id bigint,
    at text NOT NULL,
    actor text NOT NULL,
    type text NOT NULL,
    data jsonb NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (till_id, journal_id, seq)
);
CREATE TABLE entries (
    till_id text NOT NULL,
    journal_id text NOT NULL,
    entry_id bigint NOT NULL,
    created_seq bigint NOT NULL,
    kind text NOT NULL,
    state text NOT NULL,
    op text,
    invoice text,
    currency text NOT NULL,
    requested_minor bigint NOT NULL DEFAULT 0,
    tip_minor bigint NOT NULL DEFAULT 0,
    card_type text,
    clerk text,
    training boolean NOT NULL DEFAULT false,
    business_date text NOT NULL,
    updated_at text,
    bucket text,
    bucket_minor bigint NOT NULL DEFAULT 0,
    unresolved boolean NOT NULL,
    store_batch integer NOT NULL DEFAULT 0,
    fields jsonb NOT NULL,
    PRIMARY KEY (till_id, journal_id, entry_id)
);
CREATE INDEX entries_open_batch ON entries (till_id) WHERE store_batch = 0;
CREATE INDEX entries_day ON entries (business_date);
CREATE TABLE store_batches (
    batch_no serial PRIMARY KEY,
    closed_at timestamptz NOT NULL DEFAULT now(),
    closed_by text NOT NULL,
    till_id text NOT NULL,
    override boolean NOT NULL,
    through jsonb NOT NULL,
    summary jsonb NOT NULL
);
"""

#: Authority (issue #26): a till's number pinned to its token, the store's own roster of managers
#: (PIN hashes, lockout), their sessions and every failed PIN, and who closed each store batch.
_V2 = """
ALTER TABLE tills ADD COLUMN till_number integer;
CREATE TABLE managers (
    manager_id text PRIMARY KEY,
    name text NOT NULL,
    pin_hash text NOT NULL,
    failures integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE manager_sessions (
    token_hash text PRIMARY KEY,
    manager_id text NOT NULL REFERENCES managers(manager_id) ON DELETE CASCADE,
    till_id text NOT NULL REFERENCES tills(till_id),
    expires_at timestamptz NOT NULL
);
CREATE TABLE manager_failures (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    manager_id text NOT NULL,
    till_id text NOT NULL,
    locked_until timestamptz
);
ALTER TABLE store_batches ADD COLUMN manager_id text;
"""

#: A till number is one till's in a store (issue #46, round 4): two tills issuing the same
#: invoices had the host amend one customer's sale with the other's amount. Numbers two tills
#: already share keep the till that had it first (the others must be given their own).
_V3 = """
UPDATE tills t SET till_number = NULL WHERE till_number IS NOT NULL AND EXISTS (
    SELECT 1 FROM tills o WHERE o.till_number = t.till_number
    AND (o.created_at, o.till_id) < (t.created_at, t.till_id));
CREATE UNIQUE INDEX tills_one_number ON tills (till_number);
"""

#: A journal's chain (issue #46, ``cashier.journal.outbox_rows``) through its high-water mark, so
#: a copy restored from an older point under the same id is told from the journal it was
#: (NULL: a journal the store knew before; its till's next push with a chain sets it).
_V4 = """
ALTER TABLE journals ADD COLUMN chain text;
"""

#: The catalog (issue #37, ``cashier.store.catalog``): every product, category and tax class as it
#: was from the version that wrote it (``since``) until the one that replaced it (``until``);
#: who made each version, from which till, when and what.
_V5 = """
CREATE TABLE catalog_versions (
    version integer PRIMARY KEY,
    made_at timestamptz NOT NULL DEFAULT now(),
    made_by text NOT NULL,
    till_id text,
    change text NOT NULL
);
CREATE TABLE catalog_rows (
    kind text NOT NULL CHECK (kind IN ('product', 'category', 'tax_class')),
    key text NOT NULL,
    since integer NOT NULL REFERENCES catalog_versions(version),
    until integer REFERENCES catalog_versions(version),
    data jsonb NOT NULL,
    PRIMARY KEY (kind, key, since)
);
CREATE UNIQUE INDEX catalog_rows_now ON catalog_rows (kind, key) WHERE until IS NULL;
CREATE INDEX catalog_rows_since ON catalog_rows (since) WHERE until IS NULL;
"""

#: issue #38: the promotions and the discount reasons are catalog rows too (same versions).
_V6 = """
ALTER TABLE catalog_rows DROP CONSTRAINT catalog_rows_kind_check;
ALTER TABLE catalog_rows ADD CONSTRAINT catalog_rows_kind_check
    CHECK (kind IN ('product', 'category', 'tax_class', 'promotion', 'reason'));
"""

#: Paid tickets (``cashier.store.database``: ``paid_ticket_day``): each ``ticket_paid`` event's
#: ticket with the business day and store batch its tax and discounts count in, those of its
#: close, as the X/Z report counts them; a comp (no entry) was in no totals before. Those already
#: held: the day their till sent, else their first entry's, else the UTC date they closed; the
#: batch of the first close that covered the event, else the open one.
_V7 = """
CREATE TABLE paid_tickets (
    till_id text NOT NULL,
    journal_id text NOT NULL,
    ticket_id bigint NOT NULL,
    paid_seq bigint NOT NULL,
    business_date text NOT NULL,
    store_batch integer NOT NULL DEFAULT 0,
    PRIMARY KEY (till_id, journal_id, ticket_id)
);
CREATE INDEX paid_tickets_open_batch ON paid_tickets (till_id) WHERE store_batch = 0;
CREATE INDEX paid_tickets_day ON paid_tickets (business_date);
INSERT INTO paid_tickets (till_id, journal_id, ticket_id, paid_seq, business_date, store_batch)
SELECT v.till_id, v.journal_id, (v.data->>'ticket')::bigint, v.seq,
       COALESCE(v.data->>'business_date',
                (SELECT min(e.business_date) FROM entries e WHERE e.till_id = v.till_id
                 AND e.journal_id = v.journal_id AND e.fields->>'ticket_id' = v.data->>'ticket'),
                substr(v.at, 1, 10)),
       COALESCE((SELECT min(b.batch_no) FROM store_batches b
                 WHERE (b.through -> v.till_id ->> v.journal_id)::bigint >= v.seq), 0)
FROM events v
WHERE v.type = 'ticket_paid' AND v.data->>'ticket' ~ '^[0-9]{1,18}$'
ON CONFLICT DO NOTHING;
"""

MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7)
LATEST = len(MIGRATIONS)


def _version(conn: psycopg.Connection[tuple[object, ...]]) -> int:
    conn.execute("CREATE TABLE IF NOT EXISTS store_schema (version integer NOT NULL)")
    row = conn.execute("SELECT version FROM store_schema").fetchone()
    if row is None:
        conn.execute("INSERT INTO store_schema(version) VALUES (0)")
        return 0
    return int(str(row[0]))


def migrate(dsn: str) -> int:
    """Bring the store database up to ``LATEST``; returns the version it is at."""
    with psycopg.connect(dsn, autocommit=False) as conn:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            current = _version(conn)
            if current > LATEST:
                raise StoreError(f"store database: schema version {current} is newer than this "
                                 f"program ({LATEST}); upgrade Cashier before serving it")
            while current < LATEST:
                conn.execute(MIGRATIONS[current].encode())
                current += 1
                conn.execute("UPDATE store_schema SET version = %s", (current,))
        return current
