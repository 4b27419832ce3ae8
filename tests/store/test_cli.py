"""The command line with a store: a money command pushes what it journaled as it ends, ``store
totals`` shows the store and the till, ``store batch-close`` closes once with a manager's PIN
(socket host, HD)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import psycopg
import pytest

from cashier.journal.recorder import JournalRecorder
from tests.support.profiles import pin_hash
from tests.support.sandbox_server import ServedSandbox
from tests.support.store import add_manager, add_till, cashier

pytestmark = pytest.mark.socket


def test_sale_pushes_as_it_ends_then_totals_and_one_close(tmp_path: Path, serve_store: Any,
                                                          store_dsn: str) -> None:
    host = ServedSandbox("HD", tmp_path)
    store = serve_store()
    try:
        journal = tmp_path / "till-7.sqlite"
        profile = tmp_path / "till.toml"
        profile.write_text("\n".join([
            "[till]", 'till_id = "till-7"', "till_number = 7", 'processing_option = "HD"',
            f'host_url = "{host.api}"', f'store_url = "{store.url}"', f'journal_path = "{journal}"',
            'terminal_id = "1742"', "clerk_id = 101", "", "[[clerks]]", "id = 101", 'name = "Alice"',
            f'pin_hash = "{pin_hash("1111")}"', "", "[[clerks]]", "id = 102", 'name = "Bob"',
            f'pin_hash = "{pin_hash("2222")}"', 'role = "manager"']) + "\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env.update(CASHIER_PROFILE=str(profile), CASHIER_ACCESS_TOKEN="SOCKET-TOKEN",
                   CASHIER_STORE_TOKEN=add_till(store_dsn, "till-7"), XDG_DATA_HOME=str(tmp_path),
                   PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
        done = cashier("sale", "--amount", "15.50", "--card", "4321000000001119", "--exp", "1228",
                       env=env)
        assert done.returncode == 0, done.stderr
        reader = JournalRecorder(journal, till_id="till-7", reader=True)
        events = reader.conn.execute("SELECT count(*) FROM events").fetchone()[0]
        pushed = reader.conn.execute("SELECT pushed_through FROM store_outbox").fetchone()[0]
        reader.close()
        with psycopg.connect(store_dsn) as conn:
            stored = conn.execute("SELECT count(*) FROM events WHERE till_id = 'till-7'").fetchone()
        assert stored == (events,) and pushed == events > 0  # pushed before the command ended

        own = cashier("store", "totals", env=env)  # the till token alone: this till's figures
        assert own.returncode == 0, own.stderr
        assert json.loads(own.stdout)["scope"] == "till" and json.loads(own.stdout)["store"] is None
        add_manager(store_dsn, "102", "2222", "Bob")
        totals = cashier("store", "totals", "--manager", "102", env=env, stdin="2222\n")
        assert totals.returncode == 0, totals.stderr
        body = json.loads(totals.stdout)
        assert set(body) >= {"store", "tills"} and body["scope"] == "store"
        till = body["tills"]["till-7"]
        assert till["sales"] == {"count": 1, "amount": "15.50"} and till["refunds"]["count"] == 0
        assert till["last_seen"] and till["unresolved"] == 0 and "tips" in till
        assert till["by_tender"] == {"sale": {"count": 1, "amount": "15.50"}}
        assert body["store"]["sales"] == till["sales"]
        bad = cashier("store", "totals", "--business-date", "tomorrow", env=env)
        assert bad.returncode == 2 and "--business-date: must be a date" in bad.stderr

        # the store-wide close needs a store manager; the store checks the PIN
        refused = cashier("store", "batch-close", env=env)
        assert refused.returncode == 2 and "--manager: is required" in refused.stderr
        wrong = cashier("store", "batch-close", "--manager", "102", env=env, stdin="9999\n")
        assert wrong.returncode == 2 and "pin: not accepted" in wrong.stderr
        failures = cashier("store", "pin-failures", "--manager", "102", env=env, stdin="2222\n")
        assert failures.returncode == 0, failures.stderr
        assert [(f["manager"], f["till"]) for f in json.loads(failures.stdout)["failures"]] == [
            ("102", "till-7")]
        close = cashier("store", "batch-close", "--manager", "102", env=env, stdin="2222\n")
        assert close.returncode == 0, close.stderr
        result = json.loads(close.stdout)
        assert result["closed"] and result["store_batch"] == 1 and result["matches"]
        with psycopg.connect(store_dsn) as conn:  # the store journals who closed
            assert conn.execute("SELECT closed_by, manager_id, till_id FROM store_batches"
                                ).fetchall() == [("102", "102", "till-7")]
        assert result["host"]["sales"] == {"count": 1, "amount": "15.50"}
        again = cashier("store", "sync", env=env)
        assert again.returncode == 0 and json.loads(again.stdout)["pending"] == 0
        with host.control() as control:
            assert len(control.get("/_sandbox/ledger").json()["batches"]) == 1
    finally:
        host.stop()
