"""A journal restored from an older copy that goes on under the same journal id (issue #46): once
it has written more events than the store holds, its push is refused (409, nothing of it stored)
instead of being taken on top of the lost journal's events. The till's sales and pushes run as
real ``cashier`` processes against a socket host and the served store on PostgreSQL."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from cashier.journal.outbox_rows import chain_over, chain_start
from cashier.journal.recorder import JournalRecorder
from tests.support.sandbox_server import ServedSandbox
from tests.support.store import add_till, cashier

pytestmark = pytest.mark.socket


def copy_journal(source: Path, target: Path) -> None:
    """A backup as an operator would take one: SQLite's online backup of the journal file."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def restore_journal(copy: Path, journal: Path) -> None:
    for part in (journal, Path(f"{journal}-wal"), Path(f"{journal}-shm")):
        part.unlink(missing_ok=True)
    journal.write_bytes(copy.read_bytes())


def journal_events(path: Path, till: str) -> tuple[str, int]:
    reader = JournalRecorder(path, till_id=till, reader=True)
    try:
        return reader.outbox_state()[0], reader.last_event_id()
    finally:
        reader.close()


def held_by_store(dsn: str, journal_id: str) -> tuple[int, list[tuple[Any, ...]]]:
    """The store's mark for the journal and what its books hold of it."""
    with psycopg.connect(dsn) as conn:
        mark = conn.execute("SELECT high_water FROM journals WHERE journal_id = %s",
                            (journal_id,)).fetchone()
        entries = conn.execute("SELECT invoice, state, requested_minor, bucket_minor FROM entries "
                               "WHERE journal_id = %s ORDER BY entry_id", (journal_id,)).fetchall()
    assert mark is not None
    return int(mark[0]), entries


@pytest.mark.slow
def test_a_journal_restored_from_an_older_copy_is_refused_once_it_writes_past_the_store(
        tmp_path: Path, serve_store: Any, store_dsn: str) -> None:
    host = ServedSandbox("HD", tmp_path)
    store = serve_store()
    try:
        journal = tmp_path / "till-8.sqlite"
        profile = tmp_path / "till.toml"
        profile.write_text("\n".join([
            "[till]", 'till_id = "till-8"', "till_number = 8", 'processing_option = "HD"',
            f'host_url = "{host.api}"', f'store_url = "{store.url}"', f'journal_path = "{journal}"',
            'terminal_id = "1742"', "clerk_id = 101"]) + "\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env.update(CASHIER_PROFILE=str(profile), CASHIER_ACCESS_TOKEN="SOCKET-TOKEN",
                   CASHIER_STORE_TOKEN=add_till(store_dsn, "till-8"), XDG_DATA_HOME=str(tmp_path),
                   PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")

        def sell(amount: str) -> None:
            done = cashier("sale", "--amount", amount, "--card", "4321000000001119", "--exp", "1228",
                           env=env)
            assert done.returncode == 0, done.stderr

        sell("10.00")
        copy_journal(journal, tmp_path / "backup.sqlite")
        sell("20.00")
        sell("30.00")  # both pushed as each command ends
        journal_id, lost_last = journal_events(journal, "till-8")
        mark, books = held_by_store(store_dsn, journal_id)
        assert mark == lost_last and [e[2] for e in books] == [1000, 2000, 3000]

        restore_journal(tmp_path / "backup.sqlite", journal)
        for amount in ("40.00", "50.00", "60.00", "70.00"):  # until it has written past the mark
            sell(amount)
            if journal_events(journal, "till-8")[1] > mark:
                break
        assert journal_events(journal, "till-8")[1] > mark
        sync = cashier("store", "sync", env=env)
        assert sync.returncode == 2 and sync.stderr.count("\n") == 1, sync.stderr
        assert "restored from an older copy" in sync.stderr and "new journal" in sync.stderr
        assert held_by_store(store_dsn, journal_id) == (mark, books)  # nothing of it taken
        with httpx.Client(base_url=store.url,
                          headers={"Authorization": f"Bearer {env['CASHIER_STORE_TOKEN']}"}) as http:
            sales = http.get("/v1/totals").json()["tills"]["till-8"]["sales"]
        assert sales == {"count": 3, "amount": "60.00"}
    finally:
        host.stop()


def test_the_store_checks_the_chain_a_push_carries(serve_store: Any, store_dsn: str) -> None:
    """Over the wire: a push whose chain leads to the store's at its mark is taken, one that
    does not is refused whole (also when it resends events the store holds), and a malformed
    chain is a 422; a push without a chain (a till from before) is taken and not checked."""
    store = serve_store()
    token = add_till(store_dsn, "T41")
    journal = "a" * 32

    def ev(seq: int, note: str) -> dict[str, Any]:
        return {"seq": seq, "entry_id": None, "at": "2026-11-23T10:00:00.000+00:00", "actor": "7",
                "type": "note", "data": json.dumps({"n": note})}

    ours = [ev(1, "a"), ev(2, "b"), ev(3, "c")]
    restored = [ev(1, "a"), ev(2, "B"), ev(3, "C"), ev(4, "D")]
    start = chain_start(journal)
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as http:
        assert http.post("/v1/hello", json={"journal_id": journal}).status_code == 200
        first = http.post("/v1/events", json={"journal_id": journal, "chain": start,
                                              "events": ours[:2]})
        assert first.json() == {"high_water": 2, "applied": 2}
        forked = http.post("/v1/events", json={"journal_id": journal,
                                               "chain": chain_over(start, restored[:2]),
                                               "events": restored[2:]})
        assert forked.status_code == 409 and forked.json()["error"] == "forked", forked.text
        assert "restored from an older copy" in forked.json()["message"]
        resent = http.post("/v1/events", json={"journal_id": journal, "chain": start,
                                               "events": restored})
        assert resent.status_code == 409 and resent.json()["high_water"] == 2
        bad = http.post("/v1/events", json={"journal_id": journal, "chain": "nope",
                                            "events": ours[2:]})
        assert bad.status_code == 422 and bad.json()["field"] == "chain"
        overlap = http.post("/v1/events", json={"journal_id": journal, "chain": start,
                                                "events": ours})
        assert overlap.json() == {"high_water": 3, "applied": 1}
        legacy = http.post("/v1/events", json={"journal_id": journal, "events": [ev(4, "d")]})
        assert legacy.json() == {"high_water": 4, "applied": 1}
    with psycopg.connect(store_dsn) as conn:
        held = conn.execute("SELECT high_water, chain FROM journals").fetchone()
        notes = conn.execute("SELECT data->>'n' FROM events ORDER BY seq").fetchall()
    assert held == (4, chain_over(start, [*ours, ev(4, "d")]))
    assert [n[0] for n in notes] == ["a", "b", "c", "d"]


def test_a_journal_and_a_store_from_before_chains_go_on_and_a_later_fork_is_refused(
        serve_store: Any, store_dsn: str, tmp_path: Path) -> None:
    """A journal at schema 9 (no chain kept) that an older till pushed without chains, to a
    store that holds no chain for it: the new outbox's first push anchors the chain, and from
    then on a copy restored from an older point is refused."""
    from cashier.config import load_profile
    from cashier.journal.schema import migrate
    from cashier.store import StoreError
    from cashier.store.outbox import Outbox

    store = serve_store()
    token = add_till(store_dsn, "T42")
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path, isolation_level=None) as conn:
        assert migrate(conn, 9) == 9
    profile = load_profile(None, training=False, till_id="T42", till_number=42,
                           host_url="https://host.example/api", terminal_id="1742",
                           store_url=store.url, journal_path=path)
    outbox = Outbox(profile, token=token)  # opens (and migrates) the journal to today's schema
    try:
        journal_id = outbox.state()[0]
        for n in range(3):
            outbox.journal.note(None, "drawer_open", actor="7", n=n)
        # the older till: its events pushed without a chain; the store from before keeps none
        with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as http:
            assert http.post("/v1/hello", json={"journal_id": journal_id}).status_code == 200
            assert http.post("/v1/events", json={"journal_id": journal_id, "events":
                                                 outbox.journal.read_events(0, 10)}).status_code == 200
        with psycopg.connect(store_dsn) as conn:
            conn.execute("UPDATE journals SET chain = NULL")
        outbox.journal.note(None, "drawer_open", actor="7", n=3)
        assert outbox.sync(5.0).as_dict() == {"pushed": 1, "pending": 0}
        with psycopg.connect(store_dsn) as conn:
            anchored = conn.execute("SELECT chain FROM journals").fetchone()
        assert anchored == (chain_over(chain_start(journal_id), outbox.journal.read_events(0, 10)),)
        copy_journal(path, tmp_path / "copy.sqlite")
        for n in range(4, 6):
            outbox.journal.note(None, "drawer_open", actor="7", n=n)
        assert outbox.sync(5.0).as_dict() == {"pushed": 2, "pending": 0}
    finally:
        outbox.close()
    restore_journal(tmp_path / "copy.sqlite", path)
    restored = Outbox(profile, token=token)
    try:
        for n in range(10, 13):
            restored.journal.note(None, "drawer_open", actor="7", n=n)
        with pytest.raises(StoreError, match="restored from an older copy"):
            restored.sync(5.0)
    finally:
        restored.close()
    with psycopg.connect(store_dsn) as conn:
        assert conn.execute("SELECT high_water FROM journals").fetchone() == (6,)
        held = conn.execute("SELECT data->'_note'->>'n' FROM events ORDER BY seq").fetchall()
    assert [int(n[0]) for n in held] == [0, 1, 2, 3, 4, 5]  # the restored notes: none of them


def test_a_chain_never_holds_a_run_a_card_scanner_reads_as_a_card_number() -> None:
    """Journals and the store keep chain values at rest: a hex digest held a Luhn-valid run of
    13 digits about once in 250 (the store's hostile-text test found one), so they are base32."""
    from cashier.journal.outbox_rows import chain_next, chain_start
    from tests.support.card_numbers import card_numbers_in

    chain = chain_start("0" * 32)
    chains = []
    for seq in range(1, 3001):
        chain = chain_next(chain, seq, seq, "2026-11-29T00:00:00.000+00:00", "7", "note", "{}")
        chains.append(chain)
    assert all(len(c) == 52 for c in chains)
    assert card_numbers_in("\n".join(chains)) == []
