"""The store: every till's journal in one PostgreSQL, a live store view, one close for the store.

Layout
- ``schema``: the store database's forward-only migrations (applied when the service starts).
- ``database.StoreDatabase``: ingest (exactly once per till, journal and event sequence),
  totals, tills and the store-wide close, on a psycopg 3 pool.
- ``app``: the HTTP service (Starlette) the tills talk to with their store token.
- ``outbox``: the till's side: push pending journal events in order, learn the invoice floor
  and store closes; never on the counter's loop.
- ``close``: the store-wide reconciliation (host batch totals against every till) and close.
- ``localpg``: a throw-away PostgreSQL cluster of our own (``make store``, tests, bench).
- ``catalog``: the store's catalog, every version kept (a till token reads, a store manager
  writes); ``catalog_pull``: the till follows it (its copy beside the journal);
  ``catalog_desk``: the Manager screen's Catalog part without Qt (issue #37).

Each till stays the source of truth for its own money: its SQLite journal is written first and
the store only ever receives copies of its events. Tills never hold database credentials.
"""

from __future__ import annotations

from cashier.errors import CashierError


class StoreError(CashierError):
    """The store refused a request, or cannot be used as configured."""


class StoreUnreachable(StoreError):
    """The store service could not be reached (the events stay pending in the journal)."""


class TillNumberRefused(StoreError):
    """The store says this till's number is another till's (or not the one it holds for this
    till): the till starts no payment until it has a number of its own."""


__all__ = ["StoreError", "StoreUnreachable", "TillNumberRefused"]
