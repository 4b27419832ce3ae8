"""``--state FILE`` is an SQLite store: several processes share it without losing records, a JSON
state of an earlier version is imported, and a record changes one row (not the whole file)."""

from __future__ import annotations

import json
import sqlite3
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from cashier.config import load_profile
from cashier.flows.recovery import void
from cashier.host.models.common import Card, Token
from cashier.runtime import open_runtime, sandbox_state_path
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.core import SandboxConfig
from tests.support.forked_cli import start_python
from tests.support.host_requests import amount, customer, keyed, ledger_of

ROOT = Path(__file__).resolve().parents[2]
GIFT = "2664654648774"
#: One training till process: twenty sales on the shared journal and sandbox state.
TILL = """
import asyncio, sys
from decimal import Decimal
from pathlib import Path
from cashier.config import load_profile
from cashier.flows import payments
from cashier.runtime import open_runtime

async def main() -> None:
    profile = load_profile(None, processing_option="LG", journal_path=Path(sys.argv[1]))
    rt = await open_runtime(profile)
    try:
        for n in range(20):
            result = await payments.sale(rt.ctx, Decimal("1.00") + Decimal(n) / 100)
            assert result.entry.approved > 0, result.message
    finally:
        await rt.close()

asyncio.run(main())
"""


async def test_two_training_tills_at_once_keep_every_approval(tmp_path: Path) -> None:
    journal = tmp_path / "journal-training.sqlite"
    profile = load_profile(None, processing_option="LG", journal_path=journal)
    await (await open_runtime(profile)).close()  # the journal exists before the tills start
    procs = [start_python(TILL, str(journal), cwd=ROOT) for _ in range(2)]
    for proc in procs:
        _out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err[-2000:]
    rt = await open_runtime(profile)
    try:
        assert rt.sandbox is not None
        sales = [r for r in ledger_of(rt.sandbox).values() if r["state"] == "sale"]
        assert len(sales) == 40
        # a later void finds each till's sales on the host
        for invoice in (sales[0]["invoice"], sales[-1]["invoice"]):
            result = await void(rt.ctx, invoice)
            assert result.entry.state == "voided", result.message
        assert sum(r["state"] == "voided" for r in ledger_of(rt.sandbox).values()) == 2
    finally:
        await rt.close()
    assert sandbox_state_path(profile).exists()


async def test_a_sale_writes_its_rows_and_survives_a_restart(make_sandbox, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "state.sqlite"
    _sandbox, client = make_sandbox("HD", state_file=str(path))
    for n in range(1, 51):
        await client.sale(invoice=str(n), amount=amount("2.00"), card=keyed(), customer=customer())
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM item WHERE family='transactions'").fetchone()[0] == 50
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    rows_before = {k: v for k, v in db.execute(
        "SELECT key, value FROM item WHERE family='transactions'")}
    await client.void("7")
    rows_after = {k: v for k, v in db.execute(
        "SELECT key, value FROM item WHERE family='transactions'")}
    changed = {k for k in rows_after if rows_after[k] != rows_before[k]}
    assert changed == {"7"}  # one row rewritten, not the whole state
    db.close()
    again, client2 = make_sandbox("HD", state_file=str(path))
    assert ledger_of(again)["7"]["state"] == "voided"
    assert ledger_of(again)["8"]["approvedAmount"] == "2.00"
    status = await client2.invoice_status("8")
    assert status.amount is not None and status.amount.total == Decimal("2.00")
    assert again.state.family("sequences")["approval"] == 50


async def test_a_json_state_of_an_earlier_version_is_imported(make_sandbox, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "old.json"
    old = {"data": {"transactions": {"invoices": {"5": {
        "invoice": "5", "kind": "sale", "state": "sale", "approvedAmount": "3.00",
        "requestedAmount": "3.00", "responseCode": "A", "saleFlag": "S", "authSource": "E",
        "card": {"type": "VS", "number": "XXXXXXXXXXXX1119", "token": "1234567890121119",
                 "entryMode": "M", "present": "N"}}}},
        "sequences": {"approval": 4},
        "giftcards": {"cards": {GIFT: {"state": "active", "balance": "7.00", "history": [],
                                       "undo": None}}},
        "tokens": {"tokens": {"1111222233338774": {"giftcard": GIFT, "bin": "266465",
                                                   "last4": "8774", "length": 13, "type": "GC",
                                                   "style": "legacy"}},
                   "deleted": [], "gtv": False}},
        "issuedAccessTokens": ["OLD-TOKEN"], "clockOffset": 60.0}
    path.write_text(json.dumps(old), encoding="utf-8")
    sandbox, client = make_sandbox("HD", state_file=str(path))
    assert not (tmp_path / "old.json.imported-json").exists()  # it held gift card numbers
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM item WHERE family='transactions'").fetchone()[0] == 1
    assert GIFT not in "".join(v for (v,) in db.execute("SELECT key || value FROM item"))
    by_number = await client.giftcard_balance(invoice="6", card=Card(number=GIFT, expiration_date=1230))
    assert by_number.card is not None and by_number.card.balance is not None
    assert by_number.card.balance.amount == Decimal("7.00")
    by_token = await client.giftcard_balance(invoice="7", card=Card(token=Token(value="1111222233338774")))
    assert by_token.card is not None and by_token.card.number == "XXXXXXXXX8774"
    assert sandbox.state.clock.offset_s == 60.0 and "OLD-TOKEN" in sandbox.state.issued_access_tokens
    status = await client.invoice_status("5")
    assert status.amount is not None and status.amount.total == Decimal("3.00")
    assert sandbox.state.next_sequence("approval") == 5


def test_a_second_process_sees_what_the_first_wrote(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.sqlite")
    first = HostSandbox(SandboxConfig(option="HD", state_file=path))
    second = HostSandbox(SandboxConfig(option="HD", state_file=path))
    with first.state.request():
        first.state.family("giftcards").setdefault("cards", {})["k1"] = {"balance": "1"}
    with second.state.request():
        second.state.family("giftcards").setdefault("cards", {})["k2"] = {"balance": "2"}
    with first.state.request():
        assert set(first.state.family("giftcards")["cards"]) == {"k1", "k2"}
    assert first.state.next_sequence("batch") == 1 and second.state.next_sequence("batch") == 2


async def test_reset_empties_the_store(make_sandbox, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "state.sqlite"
    sandbox, client = make_sandbox("HD", state_file=str(path))
    await client.sale(invoice="1", amount=amount("2.00"), card=keyed(), customer=customer())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as http:
        assert (await http.post("/_sandbox/reset")).status_code == 200
    assert sqlite3.connect(path).execute("SELECT count(*) FROM item").fetchone()[0] == 0
    assert ledger_of(sandbox) == {}
    again, _client2 = make_sandbox("HD", state_file=str(path))
    assert ledger_of(again) == {}


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    path.write_bytes(b"\x00\x01 not sqlite at all " * 100)
    with pytest.raises(ValueError, match="not a sandbox state store"):
        HostSandbox(SandboxConfig(option="HD", state_file=str(path)))
