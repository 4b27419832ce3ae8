"""A store day where the host goes away for a third of it (issue 40), against a socket sandbox
(LG: one gateway for the store's tills) and the real PostgreSQL: two tills sell all day; in the
middle third the host behind the gateway is away (and the store too), the tills go offline by
themselves, keep to their limits, one is restarted while offline, the host declines some stored
payments at the forward; when the host is back one till comes back by itself and the other is
killed (SIGKILL, its own process) between the gateway's forward and its settling and finishes
it at its restart. Afterwards
every stored payment was forwarded and settled once, and journal = host = store (sales, and the
declined ones apart).

Seeded: ``CASHIER_HOSTILE_SEED`` (default 20261123); ``CASHIER_OFFLINE_DAY_SALES`` sales in the
fast slice (default 12); the whole day (``make long``) is 240."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.config import STORE_KEYRING_SERVICE, TillProfile, load_profile
from cashier.errors import ValidationError
from cashier.flows import offline
from cashier.flows.payments import sale
from cashier.flows.recovery import recover
from cashier.journal.model import State
from cashier.journal.recorder import JournalRecorder
from cashier.journal.totals import DECLINED_ON_FORWARD_BUCKET, HOST_BATCH_SALE_BUCKETS
from cashier.runtime import Runtime, open_runtime
from cashier.store.close import store_totals
from cashier.store.outbox import Outbox
from tests.support.sandbox_server import ServedSandbox
from tests.support.store import ServedStore, add_till, manager_session, put_manager

pytestmark = pytest.mark.socket
SEED = int(os.environ.get("CASHIER_HOSTILE_SEED", "20261123"))
SLICE = int(os.environ.get("CASHIER_OFFLINE_DAY_SALES", "12"))
TILLS = ("S1", "S2")
ROOT = Path(__file__).resolve().parents[2]


def profile_for(tmp: Path, till: str, number: int, host: str, store: str | None) -> TillProfile:
    return load_profile(None, training=False, till_id=till, till_number=number,
                        processing_option="LG", host_url=host, store_url=store, terminal_id="1742",
                        journal_path=tmp / f"journal-{till}.sqlite",
                        offline={"max_sale": "50", "max_total": "400", "max_count": 40},
                        timeouts={"host_s": 10.0, "recovery_s": 1.0, "host_longest_s": 0.0})


async def _sell(rt: Runtime, amount: Decimal) -> tuple[str, Any]:
    """One card sale as the counter takes it: a limit refused is another tender (cash); a sale
    the host went away under is presented again."""
    for _ in range(2):
        try:
            result = await sale(rt.ctx, amount)
        except ValidationError as refused:
            assert refused.field == "offline", refused
            return "refused", refused
        if result.message != offline.HOST_AWAY_STORING:
            assert result.outcome == "approved", result.as_dict()
            return ("stored" if result.entry.offline == "stored" else "sold"), result
    raise AssertionError("presented twice and still not taken")


#: The till's own process probing (``offline.probe``): it brings the gateway online and
#: settles the stored payments one by one, each ``GET /transactions/invoice`` held up 1.5 s.
PROBE = """
import asyncio, sys
from pathlib import Path
from cashier.flows import offline
from cashier.runtime import open_runtime
from tests.store.test_offline_day import profile_for

async def main() -> None:
    tmp, till, number, host = sys.argv[1:5]
    rt = await open_runtime(profile_for(Path(tmp), till, int(number), host, None))
    await offline.probe(rt.ctx)

asyncio.run(main())
"""


def _killed_while_settling(profile: TillProfile, host: ServedSandbox, control: httpx.Client) -> None:
    """The till's process brings the gateway online, then is SIGKILLed before it settled any
    stored payment (the journal says online; every stored payment is still ``stored``)."""
    assert profile.journal_path is not None
    journal = JournalRecorder(profile.journal_path, reader=True)
    try:
        waiting = len(journal.stored_offline())
        assert waiting > 0, "the till to kill holds no stored payment"
        assert control.post("/_sandbox/faults", json={
            "path": "/api/rest/v1/transactions/invoice", "action": "delay",
            "delay_ms": 1500}).is_success
        child = subprocess.Popen(
            [sys.executable, "-c", PROBE, str(profile.journal_path.parent), profile.till_id,
             str(profile.till_number), host.api], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            deadline = time.monotonic() + 30
            while (last := journal.last_mode()) is None or last.type != "mode_online":
                assert child.poll() is None, "the probe ended before it was killed"
                assert time.monotonic() < deadline, "the probe never brought the gateway online"
                time.sleep(0.02)
            child.send_signal(signal.SIGKILL)
            assert child.wait(10) == -signal.SIGKILL
        finally:
            if child.poll() is None:
                child.kill()
                child.wait(10)
        assert control.delete("/_sandbox/faults").is_success
        assert len(journal.stored_offline()) == waiting  # killed before it settled any
    finally:
        journal.close()


async def a_day(tmp_path: Path, store_dsn: str, memory_keyring: Any, monkeypatch: pytest.MonkeyPatch,
                sales: int) -> None:
    rng = random.Random(SEED)
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    host = ServedSandbox("LG", tmp_path)
    store = ServedStore(store_dsn).start()
    control = httpx.Client(base_url=host.url, timeout=10)
    try:
        for till in TILLS:
            memory_keyring.set_password(STORE_KEYRING_SERVICE, till, add_till(store_dsn, till))
        profiles = {t: profile_for(tmp_path, t, n, host.api, store.url)
                    for n, t in enumerate(TILLS, start=1)}
        tills = {t: await open_runtime(p) for t, p in profiles.items()}
        away_from, back_at = sales // 3, 2 * sales // 3
        seen: Counter[str] = Counter()
        first_away = TILLS[0]
        stored: list[str] = []
        for i in range(sales):
            if i == away_from:
                assert control.post("/_sandbox/upstream", json={"reachable": False}).is_success
                store.kill()  # the store goes away too (its own outage): the journals keep it
            if i == (away_from + back_at) // 2:  # a push to the absent store, a restart
                ob = Outbox(profiles["S1"])
                assert not (await asyncio.to_thread(ob.sync, 2.0)).reached
                ob.close()
                await tills["S2"].close()
                tills["S2"] = await open_runtime(profiles["S2"])
            if i == back_at:
                store.start()
                assert control.post("/_sandbox/upstream", json={"reachable": True}).is_success
                # S1 comes back by itself (its probe); the gateway forwards everything
                assert await offline.probe(tills["S1"].ctx)
                # S2 dies (SIGKILL, a process of its own) between the forward and its
                # settling: its restart finishes it
                await tills["S2"].close()
                await asyncio.to_thread(_killed_while_settling, profiles["S2"], host, control)
                tills["S2"] = await open_runtime(profiles["S2"])
                await recover(tills["S2"].ctx)
                assert not (await offline.mode(tills["S2"].ctx)).offline
            till = rng.choice(TILLS)
            amount = Decimal(rng.randrange(100, 6000)) / 100  # some above max_sale (50)
            if i == away_from + 1:  # at least one over the limit, on the till now offline
                till, amount = first_away, Decimal("75.00")
            if i == away_from:
                first_away = till
            how, result = await _sell(tills[till], amount)
            seen[how] += 1
            if how == "stored":
                stored.append(str(result.entry.invoice))
                # the processor will refuse it at the forward (the first one, then 3 in 10)
                if len(stored) == 1 or rng.random() < 0.3:
                    assert control.post("/_sandbox/mode/stored", json={
                        "invoice": result.entry.invoice, "declineOnForward": True}).is_success
        assert seen["stored"] > 0 and seen["refused"] > 0, seen

        # every stored payment forwarded and settled once
        declined: list[str] = []
        for t, rt in tills.items():
            await recover(rt.ctx)
            assert (await offline.stored(rt.ctx)).count == 0, t
            settled = Counter(e.entry_id for e in await rt.journal.events()
                              if e.data.get("offline") == "forwarded")
            assert all(n == 1 for n in settled.values()), (t, settled)
            declined += [str(e.invoice) for e in await rt.journal.declined_on_forward()]
            held = {str(e.invoice) for e in await rt.journal.search(limit=10_000)
                    if e.offline == "forwarded"}
            assert set(settled) == {e.id for e in await rt.journal.search(limit=10_000)
                                    if e.offline == "forwarded"}
            assert held <= set(stored)
        assert sorted(declined) == sorted(
            i for i in stored if control.get("/_sandbox/ledger").json() and any(
                r["invoice"] == i and r["state"] == "declined"
                for r in control.get("/_sandbox/ledger").json()["invoices"]))

        # journal = host = store
        ledger = {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}
        journal_sales, journal_declined = Decimal(0), Decimal(0)
        for rt in tills.values():
            totals = await rt.journal.totals(0)
            journal_sales += sum((totals.amount(b) for b in HOST_BATCH_SALE_BUCKETS), Decimal(0))
            journal_declined += totals.amount(DECLINED_ON_FORWARD_BUCKET)
            for e in await rt.journal.search(limit=10_000):
                record = ledger.get(str(e.invoice), {"state": "none"})
                if e.state is State.ERROR:  # the host went away under it: nothing there
                    assert record["state"] != "sale"
                elif e.state is State.APPROVED:
                    assert record["state"] == "sale" and Decimal(record["approvedAmount"]) == e.approved
                elif e.state is State.DECLINED_ON_FORWARD:
                    assert record["state"] == "declined" and record.get("declinedAfterOffline")
        host_sales = sum((Decimal(r["approvedAmount"]) for r in ledger.values()
                          if r["state"] == "sale"), Decimal(0))
        assert journal_sales == host_sales
        for t in TILLS:
            ob = Outbox(profiles[t])
            assert (await asyncio.to_thread(ob.sync, 15.0)).pending == 0
            ob.close()
        put_manager(store_dsn, "9", "9090")
        session = await asyncio.to_thread(manager_session, profiles["S1"], "9", "9090")
        figures = (await asyncio.to_thread(store_totals, profiles["S1"], None, None, session))["store"]
        assert Decimal(figures["sales"]["amount"]) == journal_sales
        assert Decimal(figures["declined_on_forward"]["amount"]) == journal_declined
        assert figures["declined_on_forward"]["count"] == len(declined) > 0
        for rt in tills.values():
            await rt.close()
    finally:
        control.close()
        store.stop()
        host.stop()


async def test_a_store_day_with_the_host_away_a_third_of_it(
        tmp_path: Path, store_dsn: str, memory_keyring: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    started = time.monotonic()
    await a_day(tmp_path, store_dsn, memory_keyring, monkeypatch, SLICE)
    assert time.monotonic() - started < 120


@pytest.mark.slow
async def test_a_whole_store_day_with_the_host_away_a_third_of_it(
        tmp_path: Path, store_dsn: str, memory_keyring: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    await a_day(tmp_path, store_dsn, memory_keyring, monkeypatch, 240)
