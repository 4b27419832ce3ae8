"""Issue #46 (round 4): two tills configured with the same till number issue the same invoices,
and the host amends one customer's sale with the other's amount on the card on file. A till
number is one till's in a store (the store refuses a second; a till the store says holds another
till's number starts no payment), and an answer naming a card other than the one presented is
never "approved" for the customer at the counter. Real processes: ``cashier`` commands, a
long-running till process, ``cashier sandbox serve`` and ``cashier store serve`` over sockets,
the store on the throwaway PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import psycopg
import pytest

from cashier.journal.recorder import JournalRecorder
from tests.support.forked_cli import run_cashier, start_python
from tests.support.profiles import write_profile
from tests.support.store import add_till, cashier

pytestmark = pytest.mark.socket
FIRST, OTHER = "4321000000001119", "5432000000003332"


class Till:
    """One till's profile (its own id, number, journal and store token) on a served sandbox."""

    def __init__(self, tmp_path: Path, till_id: str, number: int, api: str, *,
                 store_url: str | None = None, token: str | None = None) -> None:
        self.journal = tmp_path / f"{till_id}.sqlite"
        self.api = api
        self.profile = tmp_path / f"{till_id}.toml"
        self.till_id = till_id
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        self.env.update(XDG_DATA_HOME=str(tmp_path / "data"), CASHIER_ACCESS_TOKEN="NUMBER-TOKEN",
                        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
        self.configure(number, store_url=store_url, token=token)

    def configure(self, number: int, *, store_url: str | None = None,
                  token: str | None = None) -> None:
        extra = (f'store_url = "{store_url}"',) if store_url else ()
        write_profile(self.profile, host_url=self.api, journal=self.journal, till_number=number,
                      host_longest_s=1.0, extra=extra)
        self.profile.write_text(self.profile.read_text().replace(
            'till_id = "chaos"', f'till_id = "{self.till_id}"'))
        if token:
            self.env["CASHIER_STORE_TOKEN"] = token

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run_cashier("--profile", str(self.profile), *args, env=self.env)

    def sale(self, amount: str, card: str) -> subprocess.CompletedProcess[str]:
        return self.run("sale", "--amount", amount, "--card", card, "--exp", "1230")

    def entries(self) -> list[Any]:
        if not self.journal.exists():
            return []
        store = JournalRecorder(self.journal, reader=True)
        try:
            return store.search(limit=1000)
        finally:
            store.close()

    def notes(self, type_: str) -> list[dict[str, Any]]:
        store = JournalRecorder(self.journal, reader=True)
        try:
            return [e.data["_note"] for e in store.events() if e.type == type_]
        finally:
            store.close()


def ledger(served: Any) -> dict[str, dict[str, Any]]:
    with served.control() as control:
        return {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}


def one_line(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == code and len(lines) == 1, (done.returncode, done.stderr, done.stdout)
    return lines[0]


@pytest.mark.slow
def test_a_till_number_is_one_tills_in_a_store(serve_store: Any, store_dsn: str,
                                               serve_sandbox: Any, tmp_path: Path) -> None:
    store = serve_store()
    host = serve_sandbox("HD")
    first = cashier("store", "add-till", "T1", "--number", "1", "--database", store_dsn)
    assert first.returncode == 0, first.stderr
    # (a) the store refuses a second till with that number: one line, nothing added
    second = cashier("store", "add-till", "T2", "--number", "1", "--database", store_dsn)
    assert "--number: till number 1 is till T1's in this store" in one_line(second)
    assert not second.stdout
    with psycopg.connect(store_dsn) as conn:
        assert conn.execute("SELECT till_id, till_number FROM tills").fetchall() == [("T1", 1)]
        with pytest.raises(psycopg.errors.UniqueViolation):  # the database itself refuses it
            conn.execute("INSERT INTO tills (till_id, token_hash, till_number) VALUES "
                         "('T9', 'x', 1)")
    a = Till(tmp_path, "T1", 1, host.api, store_url=store.url,
             token=json.loads(first.stdout)["token"])
    # T2 added without a number, configured with T1's: its first contact must not pin it
    b = Till(tmp_path, "T2", 1, host.api, store_url=store.url, token=add_till(store_dsn, "T2"))
    sold = a.sale("50.00", FIRST)
    assert sold.returncode == 0, sold.stderr
    held = ledger(host)
    # (b) T2 never heard from the store: it asks before its first invoice and starts nothing
    refused = one_line(b.sale("80.00", OTHER))
    assert "till_number: the store says till number 01 is not this till's" in refused, refused
    assert "--number NN" in refused
    assert ledger(host) == held and b.entries() == []
    assert b.notes("store_till_number")[0]["refused"] is True
    sync = b.run("store", "sync")
    assert "number 1 is till T1's at this store, not till T2's" in one_line(sync)
    # the store away: the last word holds (a gift card or a refund would use the number too)
    store.kill()
    assert "is not this till's" in one_line(b.sale("80.00", OTHER))
    assert "is not this till's" in one_line(b.run("refund", "--amount", "5.00", "--card", OTHER,
                                               "--exp", "1230"))
    assert ledger(host) == held and b.entries() == []
    # given a number of its own, at the store and in its profile, T2 sells again
    store.start()
    again = cashier("store", "add-till", "T2", "--number", "2", "--database", store_dsn)
    assert again.returncode == 0, again.stderr
    b.configure(2, store_url=store.url, token=json.loads(again.stdout)["token"])
    paid = b.sale("80.00", OTHER)
    assert paid.returncode == 0, paid.stderr
    out = json.loads(paid.stdout)
    assert out["invoice"].startswith("02") and out["card"].endswith("3332")
    assert D(ledger(host)[sold_invoice(sold)]["approvedAmount"]) == D("50.00")
    assert [n["refused"] for n in b.notes("store_till_number")] == [True, False]
    with psycopg.connect(store_dsn) as conn:
        assert sorted(conn.execute("SELECT till_id, till_number FROM tills").fetchall()) == [
            ("T1", 1), ("T2", 2)]
        # the store took T2's journal, the store's word on its number included
        notes = conn.execute("SELECT data FROM events WHERE till_id = 'T2' AND type = "
                             "'store_till_number' ORDER BY seq").fetchall()
        assert [n[0]["_note"]["refused"] for n in notes] == [True, False]


def sold_invoice(done: subprocess.CompletedProcess[str]) -> str:
    return str(json.loads(done.stdout)["invoice"])


#: A till left running (the window's process: it asked the host which numbers it holds once, at
#: its first invoice): sells, waits until the other till has sold, sells again (argv: profile,
#: a fifo to wait on, the card), printing each result as a JSON line.
_LONG_RUNNING_TILL = """
import asyncio, json, sys
from decimal import Decimal
from cashier.config import load_profile
from cashier.flows.payments import KeyedCard, sale
from cashier.runtime import open_runtime

async def main() -> None:
    rt = await open_runtime(load_profile(sys.argv[1]))
    try:
        first = await sale(rt.ctx, Decimal("5.00"), card=KeyedCard(sys.argv[3], "1230"))
        print(json.dumps(first.as_dict()), flush=True)
        with open(sys.argv[2], encoding="utf-8") as go:
            go.read()
        second = await sale(rt.ctx, Decimal("80.00"), card=KeyedCard(sys.argv[3], "1230"))
        print(json.dumps(second.as_dict()), flush=True)
    finally:
        await rt.close()

asyncio.run(main())
"""


def test_an_answer_naming_another_card_is_never_approved_for_this_customer(
        serve_sandbox: Any, tmp_path: Path) -> None:
    host = serve_sandbox("HD")
    a = Till(tmp_path, "T1", 1, host.api)
    b = Till(tmp_path, "T2", 1, host.api)  # no store to say so: the same number as T1
    go = tmp_path / "go"
    os.mkfifo(go)
    proc = start_python(_LONG_RUNNING_TILL, str(b.profile), str(go), OTHER, env=b.env)
    try:
        first = json.loads(proc.stdout.readline())
        assert first["outcome"] == "approved", first
        sold = a.sale("50.00", FIRST)  # T1 asks the host, takes the number after T2's
        assert sold.returncode == 0, sold.stderr
        with open(go, "w", encoding="utf-8"):
            pass  # T2 sells again: its next number is the one T1 just used
        line = proc.stdout.readline()
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    second = json.loads(line)
    invoice = sold_invoice(sold)
    assert second["invoice"] == invoice, (second, invoice)
    # the host amended T1's sale (the vendor's rule), and the answer names T1's card: T2 does not
    # record "approved" for its customer, keeps what the host said for the manager
    assert second["outcome"] == "error" and D(second["approved"]) == D(0), second
    assert "not charged for this customer" in second["message"]
    assert "approved 80.00 on card ..1119" in second["message"]
    entry = next(e for e in b.entries() if e.invoice == invoice)
    assert entry.state == "error" and entry.card_last4 == "3332" and entry.approved == 0
    assert b.notes("host_mismatch") == [{
        "invoice": invoice, "whose": "another", "response_code": "A", "total": "80.00",
        "card_last4": "1119", "auth_code": ledger(host)[invoice]["authorizationCode"]}]
    assert D(ledger(host)[invoice]["approvedAmount"]) == D("80.00")  # the manager settles it
    assert "Traceback" not in err and not out, (out, err)
