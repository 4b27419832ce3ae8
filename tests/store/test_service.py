"""The store service's rules over a real socket and a real PostgreSQL: exactly once, gaps refused,
tokens, the invoice floor, a journal restored from an older copy, bad requests, the close rules."""

from __future__ import annotations

import asyncio
import json
import secrets
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from cashier.config import STORE_KEYRING_SERVICE, ProfileError, load_profile
from cashier.flows.batch import BatchBlocked
from cashier.flows.payments import KeyedCard, sale
from cashier.journal.model import Kind, NewEntry
from cashier.runtime import open_runtime
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.core import SandboxConfig
from cashier.store import StoreError
from cashier.store.close import close_store_batch
from cashier.store.outbox import Outbox, push_pending
from cashier.store.schema import LATEST, migrate
from tests.support.store import add_till, cashier, manager_session, put_manager

pytestmark = pytest.mark.socket


def event(seq: int, entry_id: int | None = None, type_: str = "note", **data: Any) -> dict[str, Any]:
    return {"seq": seq, "entry_id": entry_id, "at": "2026-11-23T10:00:00.000+00:00", "actor": "7",
            "type": type_, "data": json.dumps(data)}


def created(seq: int, entry_id: int, invoice: str, requested: int = 500) -> dict[str, Any]:
    """A new sale as the journal writes it: intent, nothing approved yet."""
    return event(seq, entry_id, "created", kind="sale", state="intent", op="sale", invoice=invoice,
                 currency="USD", requested_minor=requested, approved_minor=0, captured_minor=0,
                 refunded_minor=0, tip_minor=0, training=0, business_date="2026-11-23",
                 card_type="VISA", batch_no=0)


def approved(seq: int, entry_id: int, minor: int) -> dict[str, Any]:
    return event(seq, entry_id, "approved", state="approved", approved_minor=minor)


def test_pushes_are_exactly_once_resends_no_ops_and_gaps_refused(serve_store: Any,
                                                                 store_dsn: str) -> None:
    store = serve_store()
    token = add_till(store_dsn, "T1")
    journal = secrets.token_hex(16)
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as http:
        assert http.post("/v1/events", json={"journal_id": journal, "events": [event(1)]}
                         ).status_code == 422  # no hello yet: the store does not know the journal
        assert http.post("/v1/hello", json={"journal_id": journal}).json()["high_water"] == 0
        batch = [created(1, 1, "0100000007", 1250), approved(2, 1, 1250), event(3)]
        assert http.post("/v1/events", json={"journal_id": journal, "events": batch}).json() == {
            "high_water": 3, "applied": 3}
        assert http.post("/v1/events", json={"journal_id": journal, "events": batch}).json() == {
            "high_water": 3, "applied": 0}  # the resend of a push whose answer was lost
        overlap = http.post("/v1/events", json={"journal_id": journal,
                                                "events": [event(3), event(4), event(5)]})
        assert overlap.json() == {"high_water": 5, "applied": 2}
        gap = http.post("/v1/events", json={"journal_id": journal, "events": [event(9)]})
        assert gap.status_code == 409 and gap.json()["high_water"] == 5
        holes = http.post("/v1/events", json={"journal_id": journal, "events": [event(6), event(8)]})
        assert holes.status_code == 422 and holes.json()["field"] == "events[1].seq"
        for bad, field in (({"journal_id": "nope"}, "journal_id"),
                           ({"journal_id": journal, "events": [{"seq": "6"}]}, "events[0].seq"),
                           ({"journal_id": journal, "events": [{**event(6), "data": "[1]"}]},
                            "events[0].data")):
            answer = http.post("/v1/events", json=bad)
            assert answer.status_code == 422 and answer.json()["field"] == field, answer.text
        assert http.post("/v1/events", content=b"{not json").status_code == 422
        # a new journal on the same till learns the invoice floor: it never reuses 0100000007
        hello = http.post("/v1/hello", json={"journal_id": secrets.token_hex(16)}).json()
        assert hello == {"high_water": 0, "invoice_floor": 7, "store_close": None,
                         "catalog_version": 0}
        totals = http.get("/v1/totals").json()  # a till token: its own figures only
        assert totals["scope"] == "till" and totals["store"] is None
        assert totals["tills"]["T1"]["sales"] == {"count": 1, "amount": "12.50"}
        assert totals["tills"]["T1"]["by_card_brand"]["VISA"]["sales"]["amount"] == "12.50"
        assert http.get("/v1/totals", params={"business_date": "23-11-2026"}).status_code == 422
    with httpx.Client(base_url=store.url) as anonymous:
        assert anonymous.get("/v1/health").json() == {"ok": True}
        assert anonymous.get("/v1/totals").status_code == 401
        assert anonymous.get("/v1/totals", headers={"Authorization": "Bearer wrong"}).status_code == 401
    with psycopg.connect(store_dsn) as conn:
        assert conn.execute("SELECT count(*), count(DISTINCT seq) FROM events").fetchone() == (5, 5)
        assert conn.execute("SELECT token_hash FROM tills").fetchone() != (token,)
    assert store.stop() == 0  # SIGTERM: a clean stop


def test_outbox_refuses_a_journal_restored_from_an_older_copy(serve_store: Any, store_dsn: str,
                                                             tmp_path: Path, memory_keyring: Any) -> None:
    store = serve_store()
    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", add_till(store_dsn, "T1"))
    profile = load_profile(None, training=False, till_id="T1", till_number=1, host_url="https://host.example/api",
                           terminal_id="1742", store_url=store.url, journal_path=tmp_path / "j.sqlite")
    outbox = Outbox(profile)
    try:
        for n in range(3):
            outbox.journal.note(None, "drawer_open", actor="7", n=n)
        backup = outbox.journal.conn.execute("SELECT id FROM events").fetchall()
        assert outbox.sync(5.0).as_dict() == {"pushed": 3, "pending": 0}
        # the same journal id, fewer events than the store already holds (a restore)
        outbox.journal.conn.execute("UPDATE store_outbox SET pushed_through = 0")
        with psycopg.connect(store_dsn) as conn:
            conn.execute("UPDATE journals SET high_water = 9")
        with pytest.raises(StoreError, match="restored from an older copy"):
            outbox.sync(5.0)
        assert len(backup) == 3
    finally:
        outbox.close()


def test_store_url_rules_and_the_token_never_in_the_profile(tmp_path: Path) -> None:
    for url in ("http://store.example:8790", "http://127.evil.example:8790", "ftp://127.0.0.1"):
        with pytest.raises(ProfileError, match="store_url"):
            load_profile(None, store_url=url)
    for url in ("http://127.0.0.1:8790", "http://localhost:8790", "http://[::1]:8790",
                "https://store.example"):
        assert load_profile(None, store_url=url).store_url == url
    profile = tmp_path / "till.toml"
    profile.write_text('[till]\nstore_url = "https://store.example"\nstore_token = "x"\n')
    with pytest.raises(ProfileError, match="store_token"):
        load_profile(profile)


def test_cli_sync_exit_3_when_the_store_is_away_and_bad_arguments(tmp_path: Path) -> None:
    profile = tmp_path / "till.toml"
    profile.write_text(f'[till]\ntill_id = "T9"\ntill_number = 9\nprocessing_option = "HD"\n'
                       f'host_url = "https://host.example/api"\nstore_url = "http://127.0.0.1:9"\n'
                       f'journal_path = "{tmp_path / "j.sqlite"}"\n')
    env = {"PATH": "/usr/bin:/bin", "CASHIER_PROFILE": str(profile), "CASHIER_STORE_TOKEN": "t",
           "XDG_DATA_HOME": str(tmp_path), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    from cashier.journal.recorder import JournalRecorder

    journal = JournalRecorder(tmp_path / "j.sqlite", till_id="T9")
    journal.note(None, "drawer_open", actor="7")
    journal.close()
    away = cashier("store", "sync", env=env)
    out = json.loads(away.stdout)
    assert away.returncode == 3 and (out["pushed"], out["pending"]) == (0, 1)
    assert "cannot reach http://127.0.0.1:9" in out["message"]
    bad = cashier("store", "add-till", "no spaces", "--database", "postgresql://x@127.0.0.1:9/db",
                  env=env)
    assert bad.returncode == 2 and bad.stderr.strip() == (
        "cashier: TILL_ID: must be a till id: a letter or digit, then up to 31 letters, digits "
        "or _ . -")
    nodb = cashier("store", "serve", env=env)
    assert nodb.returncode == 2 and "--database: is required" in nodb.stderr
    close = cashier("store", "batch-close", "--override", env=env)
    assert close.returncode == 2 and "--manager: is required" in close.stderr


def test_push_pending_gives_up_within_its_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket
    import time

    listener = socket.socket()  # accepts, never answers: the worst kind of "away"
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    monkeypatch.setenv("CASHIER_STORE_TOKEN", "t")
    profile = load_profile(None, training=False, till_id="T1", till_number=1, host_url="https://host.example/api",
                           terminal_id="1742", journal_path=tmp_path / "j.sqlite",
                           store_url=f"http://127.0.0.1:{listener.getsockname()[1]}")
    started = time.monotonic()
    result = push_pending(profile, 1.0)
    listener.close()
    assert result is not None and not result.reached
    assert time.monotonic() - started < 2.0


async def test_unresolved_on_any_till_blocks_the_close_until_a_manager_overrides(
        serve_store: Any, store_dsn: str, tmp_path: Path, memory_keyring: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    store = serve_store()
    sandbox = HostSandbox(SandboxConfig(option="HD", access_token=None))
    runtimes = {}
    for n, till in enumerate(("T1", "T2"), start=1):
        memory_keyring.set_password(STORE_KEYRING_SERVICE, till, add_till(store_dsn, till))
        profile = load_profile(None, training=False, till_id=till, till_number=n,
                               processing_option="HD", host_url="http://127.0.0.1:1/api/rest/v1",
                               store_url=store.url, journal_path=tmp_path / f"{till}.sqlite")
        runtimes[till] = (profile, await open_runtime(
            profile, transport=httpx.ASGITransport(app=sandbox.asgi)))
    try:
        p1, t1 = runtimes["T1"]
        p2, t2 = runtimes["T2"]
        assert (await sale(t1.ctx, Decimal("8.00"), card=KeyedCard("4321000000001119", "1228"))
                ).outcome == "approved"
        await t2.journal.create(NewEntry(Kind.SALE, Decimal("5.00"), actor="7", sent=True))  # never answered
        assert push_pending(p2, 5.0) is not None
        put_manager(store_dsn, "4", "4444")
        session = await asyncio.to_thread(manager_session, p1, "4", "4444")
        with pytest.raises(BatchBlocked, match="till T2: 1 unresolved"):
            await close_store_batch(t1.ctx, p1, session=session)
        batch_no, rec = await close_store_batch(t1.ctx, p1, session=session, override=True,
                                                manager_id="4")
        assert batch_no == 1 and rec.problems
        notes = [e for e in await t1.journal.events() if e.type == "store_batch_override"]
        assert len(notes) == 1 and notes[0].actor == "4"
        with psycopg.connect(store_dsn) as conn:
            assert conn.execute("SELECT override, closed_by, manager_id FROM store_batches"
                                ).fetchall() == [(True, "4", "4")]
            # the unresolved entry stays in the open store batch for the next close
            assert conn.execute("SELECT till_id FROM entries WHERE store_batch = 0").fetchall() == [
                ("T2",)]
    finally:
        for _p, rt in runtimes.values():
            await rt.close()


async def test_the_store_close_asks_the_manager_rule_before_anything_is_sent(
        serve_store: Any, store_dsn: str, tmp_path: Path, memory_keyring: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cashier.errors import ManagerNeeded
    from tests.support.profiles import pin_hash

    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    store = serve_store()
    sandbox = HostSandbox(SandboxConfig(option="HD", access_token=None))
    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", add_till(store_dsn, "T1"))
    clerks = [{"id": 101, "name": "Alice", "pin_hash": pin_hash("1111")},
              {"id": 102, "name": "Bob", "pin_hash": pin_hash("2222"), "role": "manager"}]
    profile = load_profile(None, training=False, till_id="T1", till_number=1, processing_option="HD",
                           host_url="http://127.0.0.1:1/api/rest/v1", store_url=store.url,
                           journal_path=tmp_path / "T1.sqlite", clerks=clerks, clerk_id=101)
    rt = await open_runtime(profile, transport=httpx.ASGITransport(app=sandbox.asgi))
    try:
        assert (await sale(rt.ctx, Decimal("8.00"), card=KeyedCard("4321000000001119", "1228"))
                ).outcome == "approved"
        put_manager(store_dsn, "102", "2222")
        session = await asyncio.to_thread(manager_session, profile, "102", "2222")
        with pytest.raises(ManagerNeeded, match="closing the batch needs a manager"):
            await close_store_batch(rt.ctx, profile, session=session)  # Alice is a cashier
        with psycopg.connect(store_dsn) as conn:
            assert conn.execute("SELECT count(*) FROM store_batches").fetchone() == (0,)
        from cashier.store.close import _host_totals
        host = await _host_totals(rt.ctx)
        assert host is not None and host.sale_count == 1  # the host's batch is still open
        manager = profile.roster.manager(None, "2222")
        batch_no, rec = await close_store_batch(rt.ctx, profile, session=session, manager=manager)
        assert batch_no == 1 and rec.net_amount == Decimal("8.00")
        approvals = [e for e in await rt.journal.events() if e.type == "manager_approved"]
        assert [(e.actor, *(e.data["_note"][k] for k in ("action", "amount", "store")))
                for e in approvals] == [
            ("102", "close_batch", "8.00", True)]
    finally:
        await rt.close()


async def test_a_correction_reaches_the_stores_totals_and_its_close(
        serve_store: Any, store_dsn: str, tmp_path: Path, memory_keyring: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27: a sale another till voided at the host is corrected by the till's ``recover``;
    the store takes the corrected event (a move no payment makes by itself) and its totals, for
    the till and for the store, count the correction; the store close matches the host."""
    from cashier.flows.recovery import recover
    from cashier.store.close import store_totals

    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    store = serve_store()
    sandbox = HostSandbox(SandboxConfig(option="HD", access_token=None))
    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", add_till(store_dsn, "T1"))
    profile = load_profile(None, training=False, till_id="T1", till_number=1, processing_option="HD",
                           host_url="http://127.0.0.1:1/api/rest/v1", store_url=store.url,
                           journal_path=tmp_path / "T1.sqlite")
    other = load_profile(None, training=False, till_id="T2", till_number=2, processing_option="HD",
                         host_url="http://127.0.0.1:1/api/rest/v1", journal_path=tmp_path / "T2.sqlite")
    transport = httpx.ASGITransport(app=sandbox.asgi)
    rt = await open_runtime(profile, transport=transport)
    elsewhere = await open_runtime(other, transport=transport)
    card = KeyedCard("4321000000001119", "1228")
    try:
        assert (await sale(rt.ctx, Decimal("8.00"), card=card)).outcome == "approved"
        gone = (await sale(rt.ctx, Decimal("5.00"), card=card)).entry
        assert push_pending(profile, 5.0) is not None  # the store first saw it approved
        await elsewhere.ctx.client.void(str(gone.invoice))
        assert [e.invoice for e in (await recover(rt.ctx)).corrected] == [gone.invoice]
        assert push_pending(profile, 5.0) is not None
        mine = (await asyncio.to_thread(store_totals, profile))["tills"]["T1"]
        assert mine["corrections"] == {"count": 1, "amount": "-5.00"}
        assert mine["sales"] == {"count": 1, "amount": "8.00"}
        put_manager(store_dsn, "4", "4444")
        session = await asyncio.to_thread(manager_session, profile, "4", "4444")
        whole = await asyncio.to_thread(store_totals, profile, None, None, session)
        assert whole["store"]["corrections"] == {"count": 1, "amount": "-5.00"}
        batch_no, rec = await close_store_batch(rt.ctx, profile, session=session)
        assert batch_no == 1 and rec.matches and not rec.problems
        with psycopg.connect(store_dsn) as conn:
            row = conn.execute("SELECT summary FROM store_batches").fetchone()
        assert row is not None and row[0]["store"]["corrections"] == {"count": 1, "amount": "-5.00"}
    finally:
        await elsewhere.close()
        await rt.close()


def test_migrations_are_idempotent_and_a_newer_database_is_refused(store_dsn: str) -> None:
    assert migrate(store_dsn) == LATEST
    with psycopg.connect(store_dsn) as conn:
        conn.execute("UPDATE store_schema SET version = %s", (LATEST + 1,))
    with pytest.raises(StoreError, match="newer than this program"):
        migrate(store_dsn)


def test_database_away_is_503_and_the_till_keeps_its_events(serve_store: Any, store_dsn: str,
                                                           tmp_path: Path, memory_keyring: Any) -> None:
    store = serve_store()
    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", add_till(store_dsn, "T1"))
    profile = load_profile(None, training=False, till_id="T1", till_number=1, host_url="https://host.example/api",
                           terminal_id="1742", store_url=store.url, journal_path=tmp_path / "j.sqlite")
    name = store_dsn.rsplit("/", 1)[1]
    admin = store_dsn.rsplit("/", 1)[0] + "/postgres"
    outbox = Outbox(profile)
    try:
        outbox.journal.note(None, "drawer_open", actor="7")
        with psycopg.connect(admin, autocommit=True) as conn:  # the database goes away
            conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false".encode())
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                         (name,))
        away = outbox.sync(5.0)
        assert not away.reached and away.pending == 1 and "503" in away.message
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true".encode())
        import time

        deadline = time.monotonic() + 10
        while not (back := outbox.sync(2.0)).reached:  # the pusher's next try
            assert time.monotonic() < deadline, back
            time.sleep(0.2)
        assert back.as_dict() == {"pushed": 1, "pending": 0}
    finally:
        outbox.close()


def test_the_same_push_from_four_senders_at_once_is_stored_once(serve_store: Any,
                                                                store_dsn: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    store = serve_store()
    token = add_till(store_dsn, "T1")
    journal = secrets.token_hex(16)
    batch = [created(1, 1, "0100000001", 700), *(event(n) for n in range(2, 40))]
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as http:
        http.post("/v1/hello", json={"journal_id": journal})

        def push(_: int) -> int:
            answer = http.post("/v1/events", json={"journal_id": journal, "events": batch})
            assert answer.status_code == 200, answer.text
            return int(answer.json()["applied"])

        with ThreadPoolExecutor(4) as pool:
            applied = list(pool.map(push, range(4)))
    assert sorted(applied) == [0, 0, 0, 39]
    with psycopg.connect(store_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (39,)
        assert conn.execute("SELECT high_water FROM journals").fetchone() == (39,)
