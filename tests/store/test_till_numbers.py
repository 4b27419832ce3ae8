"""Issue #46 (round 4): a till number is one till's in a store, kept by a unique index (store
migration 3) on the real throwaway PostgreSQL; a store whose tills already share a number keeps
it for the till that had it first."""

from __future__ import annotations

import secrets

import psycopg
import pytest

from cashier.store.localpg import LocalPostgres
from cashier.store.schema import LATEST, MIGRATIONS, migrate


def test_the_migration_keeps_a_shared_number_for_the_till_that_had_it_first(
        pg_cluster: LocalPostgres) -> None:
    name = "store_" + secrets.token_hex(6)
    with psycopg.connect(pg_cluster.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    dsn = pg_cluster.dsn.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(dsn) as conn:  # a store from before: two tills pinned to number 1
        conn.execute("CREATE TABLE store_schema (version integer NOT NULL)")
        conn.execute("INSERT INTO store_schema(version) VALUES (2)")
        for sql in MIGRATIONS[:2]:
            conn.execute(sql.encode())
        conn.execute("INSERT INTO tills (till_id, token_hash, till_number, created_at) VALUES "
                     "('T1', 'a', 1, now() - interval '2 days'), ('T7', 'b', 7, now()), "
                     "('T2', 'c', 1, now() - interval '1 day')")
    assert migrate(dsn) == LATEST
    with psycopg.connect(dsn) as conn:
        assert sorted(conn.execute("SELECT till_id, till_number FROM tills").fetchall()) == [
            ("T1", 1), ("T2", None), ("T7", 7)]
        conn.execute("UPDATE tills SET till_number = 2 WHERE till_id = 'T2'")
        with pytest.raises(psycopg.errors.UniqueViolation):  # a second till never takes 7
            conn.execute("UPDATE tills SET till_number = 7 WHERE till_id = 'T1'")
