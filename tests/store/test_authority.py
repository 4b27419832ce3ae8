"""Issue #26 at the store, against a real PostgreSQL and ``cashier store serve`` over a socket: a
till token is its till's only, store-wide work needs a manager the store itself checks, a push
the store cannot trust is refused whole, bad bodies get one line (never a traceback), and a
client that goes away or a clean stop is one log line."""

from __future__ import annotations

import json
import secrets
import socket
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from tests.support.store import add_manager, add_till, cashier

pytestmark = pytest.mark.socket
AT = "2026-11-23T10:00:00.000+00:00"


def ev(seq: int, entry_id: int | None = None, type_: str = "note", **data: Any) -> dict[str, Any]:
    return {"seq": seq, "entry_id": entry_id, "at": AT, "actor": "7", "type": type_,
            "data": json.dumps(data)}


def created(seq: int, entry_id: int, invoice: str, **over: Any) -> dict[str, Any]:
    fields = {"kind": "sale", "state": "intent", "op": "sale", "invoice": invoice, "currency": "USD",
              "requested_minor": 500, "approved_minor": 0, "captured_minor": 0,
              "refunded_minor": 0, "tip_minor": 0, "training": 0, "business_date": "2026-11-23",
              **over}
    return ev(seq, entry_id, "created", **fields)


def one_line(answer: httpx.Response) -> str:
    body = answer.json()
    assert set(body) >= {"error", "message"} and "\n" not in body["message"], body
    return str(body["message"])


def test_a_till_token_is_its_till_only_and_store_wide_work_needs_a_store_manager(
        serve_store: Any, store_dsn: str, tmp_path: Path) -> None:
    store = serve_store()
    t11 = add_till(store_dsn, "T11")
    t12 = add_till(store_dsn, "T12")
    bad_name = [cashier("store", "add-till", name, "--database", store_dsn)
                for name in (".", "..", "-", "a/b", "x" * 33)]
    assert all(done.returncode == 2 and done.stderr.count("\n") == 1
               and "TILL_ID: must be a till id" in done.stderr for done in bad_name)
    add_manager(store_dsn, "5", "5555")
    j11, j12 = secrets.token_hex(16), secrets.token_hex(16)
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {t11}"}) as a, \
            httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {t12}"}) as b:
        assert a.post("/v1/hello", json={"journal_id": j11, "till_id": "T11",
                                         "till_number": 11}).status_code == 200
        assert b.post("/v1/hello", json={"journal_id": j12, "till_id": "T12",
                                         "till_number": 12}).status_code == 200
        sale = [created(1, 1, "1200000001"), ev(2, 1, "approved", state="approved",
                                                approved_minor=2700)]
        assert b.post("/v1/events", json={"journal_id": j12, "events": sale}).status_code == 200
        # T11's token with T12's journal: refused, one line naming both
        wrong = a.post("/v1/hello", json={"journal_id": j12, "till_id": "T12"})
        assert wrong.status_code == 403 and "till T12's but the store token is till T11's" in (
            one_line(wrong))
        stolen = a.post("/v1/hello", json={"journal_id": j12})  # T12's journal id, no till named
        assert stolen.status_code == 403 and "belongs to till T12" in one_line(stolen)
        renumbered = a.post("/v1/hello", json={"journal_id": j11, "till_number": 12})
        assert renumbered.status_code == 403 and "number 11" in one_line(renumbered)
        # the till token alone reads its own figures, nothing of T12
        own = a.get("/v1/totals")
        assert own.status_code == 200 and own.json()["scope"] == "till"
        assert own.json()["store"] is None and set(own.json()["tills"]) == {"T11"}
        assert '"T12"' not in own.text and j12 not in own.text
        # the store-wide close: never a till token alone, whatever the body says
        ahead = {"through": {"T12": {j12: 999}}, "closed_by": "me", "summary": {}}
        alone = a.post("/v1/close", json=ahead)
        assert alone.status_code == 403 and "needs a manager" in one_line(alone)
        assert a.get("/v1/pin-failures").status_code == 403
        forged = a.post("/v1/close", json={"through": {}}, headers={"X-Store-Manager": "forged"})
        assert forged.status_code == 403
        # a manager signs in with the PIN the store holds; T12's session is T12's
        signed = a.post("/v1/manager", json={"manager": "5", "pin": "5555"})
        assert signed.status_code == 200
        session = {"X-Store-Manager": signed.json()["session"]}
        assert b.get("/v1/totals", headers=session).json()["scope"] == "till"
        store_wide = a.get("/v1/totals", headers=session).json()
        assert store_wide["scope"] == "store" and store_wide["store"]["sales"]["amount"] == "27.00"
        far = a.post("/v1/close", json=ahead, headers=session)  # T12's journal "far ahead"
        assert far.status_code == 422 and "not held up to 999" in one_line(far)
        closed = a.post("/v1/close", json={"through": store_wide["through"], "closed_by": "me",
                                           "summary": {}}, headers=session)
        assert closed.json() == {"batch_no": 1, "closed_by": "5"}
    with psycopg.connect(store_dsn) as conn:
        assert conn.execute("SELECT closed_by, manager_id, till_id FROM store_batches").fetchall() == [
            ("5", "5", "T11")]
    # a till configured with another till's token: `store sync` exits non-zero naming it
    profile = tmp_path / "t12.toml"
    profile.write_text(f'[till]\ntill_id = "T12"\ntill_number = 12\nprocessing_option = "HD"\n'
                       f'host_url = "https://host.example/api"\nstore_url = "{store.url}"\n'
                       f'journal_path = "{tmp_path / "t12.sqlite"}"\n')
    env = {"PATH": "/usr/bin:/bin", "CASHIER_PROFILE": str(profile), "CASHIER_STORE_TOKEN": t11,
           "XDG_DATA_HOME": str(tmp_path), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    sync = cashier("store", "sync", env=env)
    assert sync.returncode == 2 and sync.stderr.count("\n") == 1, sync.stderr
    assert "till T12's but the store token is till T11's" in sync.stderr
    assert store.stop() == 0
    assert store.proc is not None and store.proc.stderr is not None
    log = store.proc.stderr.read()
    assert "Traceback" not in log and "CancelledError" not in log, log


def test_the_store_refuses_a_push_it_cannot_trust_and_keeps_nothing_of_it(
        serve_store: Any, store_dsn: str) -> None:
    store = serve_store()
    token = add_till(store_dsn, "T11")
    journal = secrets.token_hex(16)
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as http:
        assert http.post("/v1/hello", json={"journal_id": journal, "till_id": "T11",
                                            "till_number": 11}).status_code == 200
        good = created(1, 1, "1100000001")
        refused = {
            "another till's invoice": (422, [good, created(2, 2, "0299999999")]),
            "created approved": (422, [good, created(2, 2, "1100000002", state="approved",
                                                     approved_minor=500000)]),
            "approved while intent": (422, [good, ev(2, 1, "x", approved_minor=777700)]),
            "approved raised by an event that moves nothing": (422, [
                good, ev(2, 1, "approved", state="approved", approved_minor=500),
                ev(3, 1, "x", approved_minor=99_999_900)]),
            "a move the state machine forbids": (422, [good, ev(2, 1, "approved", state="approved",
                                                                approved_minor=500),
                                                       ev(3, 1, "back", state="intent")]),
            "created twice": (409, [good, created(2, 1, "1100000003")]),
            "invoice rewritten": (409, [good, ev(2, 1, "x", invoice="1100000009")]),
            "another till's entry": (403, [created(1, 1, "1100000001", till_id="T12")]),
            "negative amount": (422, [created(1, 1, "1100000001", requested_minor=-5)]),
        }
        for why, (status, events) in refused.items():
            answer = http.post("/v1/events", json={"journal_id": journal, "events": events})
            assert answer.status_code == status, (why, answer.text)
            one_line(answer)
        hello = http.post("/v1/hello", json={"journal_id": journal}).json()
        assert hello["high_water"] == 0 and hello["invoice_floor"] == 0  # nothing of it stored
        # what it holds cannot be rewritten by a later push either
        assert http.post("/v1/events", json={"journal_id": journal, "events": [good]}
                         ).status_code == 200
        again = http.post("/v1/events", json={"journal_id": journal,
                                               "events": [created(2, 1, "1100000001")]})
        assert again.status_code == 409 and "rewrites history" in one_line(again)
        # malformed bodies: a 4xx and one line each, never a 503 or a traceback
        head = '{"journal_id": "JID", "events": [{"seq": 2, '
        raw: dict[str, str | bytes] = {
            "NUL": head + '"entry_id": null, "at": "a\\u0000", "actor": "7", "type": "n", "data": {}}]}',
            "lone surrogate": head + '"entry_id": null, "at": "\\ud800", "actor": "7", "type": "n", '
                                     '"data": {}}]}',
            "id >= 2^63": head + '"entry_id": ' + str(2 ** 63) + ', "at": "a", "actor": "7", '
                                 '"type": "n", "data": {}}]}',
            "text for a number": head + '"entry_id": 1, "at": "a", "actor": "7", "type": "x", '
                                        '"data": {"requested_minor": "abc"}}]}',
            "missing field": '{"journal_id": "JID", "events": [{"seq": 2}]}',
            "5,000 deep": "[" * 5000 + "]" * 5000,
            "deep data": head + '"entry_id": null, "at": "a", "actor": "7", "type": "n", "data": '
                                '{"x": ' + "[" * 100 + "]" * 100 + '}}]}',
            "NaN": head + '"entry_id": null, "at": "a", "actor": "7", "type": "n", "data": '
                          '{"x": NaN}}]}',
            "not UTF-8": b'{"journal_id": "\xff"}',
        }
        for why, body in raw.items():
            content = body.replace("JID", journal) if isinstance(body, str) else body
            answer = http.post("/v1/events", content=content,
                               headers={"Content-Type": "application/json"})
            assert 400 <= answer.status_code < 500, (why, answer.status_code, answer.text)
            one_line(answer)
        # above 1 MiB: 413 before the body is read, announced or streamed
        big = b'{"journal_id": "' + b"0" * (1024 * 1024) + b'"}'
        assert http.post("/v1/events", content=big).status_code == 413

        def chunks() -> Any:
            for _ in range(40):
                yield b" " * 65536

        streamed = http.post("/v1/events", content=chunks())
        assert streamed.status_code == 413 and "at most 1048576 bytes" in one_line(streamed)
    with psycopg.connect(store_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (1,)
    # a client that goes away mid-body: one log line, no traceback
    with socket.create_connection(("127.0.0.1", store.port)) as raw_sock:
        raw_sock.sendall(b"POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                         + token.encode() + b"\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 5000\r\n\r\n{\"journal_id\": ")
    with httpx.Client(base_url=store.url) as anonymous:  # the service carries on
        assert anonymous.get("/v1/health").json() == {"ok": True}
    assert store.stop() == 0
    assert store.proc is not None and store.proc.stderr is not None
    log = store.proc.stderr.read()
    assert "Traceback" not in log and "CancelledError" not in log, log
    assert log.count("went away before its request was read") == 1, log


def test_five_wrong_store_pins_lock_the_manager_and_every_try_is_recorded(
        serve_store: Any, store_dsn: str) -> None:
    store = serve_store()
    token = add_till(store_dsn, "T11")
    add_manager(store_dsn, "5", "5555")
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as http:
        for pin in ("0000", "0001", "0002", "0003", "0004"):
            wrong = http.post("/v1/manager", json={"manager": "5", "pin": pin})
            assert wrong.status_code == 403 and "not accepted" in one_line(wrong)
        locked = http.post("/v1/manager", json={"manager": "5", "pin": "5555"})  # the right one
        assert locked.status_code == 429 and "locked for" in one_line(locked)
        unknown = http.post("/v1/manager", json={"manager": "77", "pin": "1234"})
        assert unknown.status_code == 403  # same answer as a wrong PIN
        for bad in ({"manager": "5"}, {"manager": "x", "pin": "5555"}, {"manager": "5", "pin": 5555}):
            assert http.post("/v1/manager", json=bad).status_code == 422
    with psycopg.connect(store_dsn) as conn:
        rows = conn.execute("SELECT manager_id, till_id, locked_until IS NOT NULL FROM "
                            "manager_failures ORDER BY id").fetchall()
        assert rows == [("5", "T11", False)] * 4 + [("5", "T11", True), ("77", "T11", False)]
        # the lock ends: the right PIN works again and starts the count afresh
        conn.execute("UPDATE managers SET locked_until = now() - interval '1 second'")
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as http:
        assert http.post("/v1/manager", json={"manager": "5", "pin": "5555"}).status_code == 200


async def test_a_close_that_half_happened_says_so_and_a_plain_retry_records_it_once(
        serve_store: Any, store_dsn: str, tmp_path: Path, memory_keyring: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL goes away after the host accepted the batch: the command says so, the retry
    records it without a second submission, and an override never submits an empty batch."""
    import asyncio
    from decimal import Decimal

    from cashier.config import STORE_KEYRING_SERVICE, load_profile
    from cashier.errors import CashierError
    from cashier.flows.payments import KeyedCard, sale
    from cashier.runtime import open_runtime
    from cashier.sandbox.app import HostSandbox
    from cashier.sandbox.control import ledger_view
    from cashier.sandbox.core import SandboxConfig
    from cashier.store.close import close_store_batch
    from tests.support.store import manager_session

    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    store = serve_store()
    sandbox = HostSandbox(SandboxConfig(option="HD", access_token=None))
    name = store_dsn.rsplit("/", 1)[1]
    admin = store_dsn.rsplit("/", 1)[0] + "/postgres"
    submits: list[str] = []

    def database(allowed: bool) -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS {str(allowed).lower()}".encode())
            if not allowed:
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                             "datname = %s", (name,))

    async def host(scope: Any, receive: Any, send: Any) -> None:
        await sandbox.asgi(scope, receive, send)
        if scope["type"] == "http" and scope["path"].endswith("/batches/submit"):
            submits.append(scope["path"])
            if len(submits) == 1:  # the host accepted the batch; now the store's database goes
                await asyncio.to_thread(database, False)

    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", add_till(store_dsn, "T1"))
    add_manager(store_dsn, "4", "4444")
    profile = load_profile(None, training=False, till_id="T1", till_number=1,
                           processing_option="HD", host_url="http://127.0.0.1:1/api/rest/v1",
                           store_url=store.url, journal_path=tmp_path / "T1.sqlite")
    rt = await open_runtime(profile, transport=httpx.ASGITransport(app=host))
    try:
        assert (await sale(rt.ctx, Decimal("9.00"), card=KeyedCard("4321000000001119", "1228"))
                ).outcome == "approved"
        session = await asyncio.to_thread(manager_session, profile, "4", "4444")
        with pytest.raises(CashierError, match="submitted to the host, not yet recorded in the "
                                               "store") as half:
            await close_store_batch(rt.ctx, profile, session=session)
        assert "\n" not in str(half.value) and len(submits) == 1
        database(True)
        batch_no, rec = await close_store_batch(rt.ctx, profile, session=session)  # a plain retry
        assert batch_no == 1 and len(submits) == 1  # recorded, never submitted again
        assert rec.store["sales"]["amount"] == "9.00"
        with psycopg.connect(store_dsn) as conn:
            assert conn.execute("SELECT batch_no, closed_by FROM store_batches").fetchall() == [
                (1, "4")]
        types = [e.type for e in await rt.journal.events()]
        assert types.count("store_batch_submitted") == 1 and types.count("store_batch_recorded") == 1
        # the host's batch is empty now: an override records the store's close, submits nothing
        batch_no, rec = await close_store_batch(rt.ctx, profile, session=session, override=True,
                                                manager_id="4")
        assert batch_no == 2 and len(submits) == 1
        assert len(ledger_view(sandbox)["batches"]) == 1  # the host holds one closed batch
    finally:
        database(True)
        await rt.close()

