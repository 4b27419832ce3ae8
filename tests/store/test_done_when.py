"""The issue's "Done when", against a real PostgreSQL and a socket sandbox (HD): three tills sell;
the store server is killed mid-push and restarted; a till's push is cut mid-batch; a till's
journal is replaced; then every event is in PostgreSQL exactly once, the store's totals equal
the sum of the tills' journals and the host's batch totals, and one store-wide close submits
one batch, which every till learns of on its next contact."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from cashier.config import STORE_KEYRING_SERVICE, TillProfile, load_profile
from cashier.flows.payments import KeyedCard, refund, sale
from cashier.journal.recorder import JournalRecorder
from cashier.journal.totals import HOST_BATCH_REFUND_BUCKETS, HOST_BATCH_SALE_BUCKETS
from cashier.runtime import Runtime, open_runtime
from cashier.store import outbox as outbox_module
from cashier.store.close import close_store_batch, store_totals
from cashier.store.outbox import BackgroundPusher, Outbox
from tests.support.sandbox_server import ServedSandbox
from tests.support.store import ServedStore, add_manager, add_till, manager_session

pytestmark = pytest.mark.socket
VISA = "4321000000001119"


class CuttingTransport(httpx.HTTPTransport):
    """Real HTTP, except the ``nth`` push of events: ``before`` runs a hook and then sends (the
    hook kills the store: the push dies mid-way), ``after`` sends and loses the answer (the store
    applied it, the till never heard)."""

    def __init__(self, nth: int, when: str, hook: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.nth, self.when, self.hook, self.pushes = nth, when, hook, 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/events":
            self.pushes += 1
            if self.pushes == self.nth:
                if self.when == "before" and self.hook is not None:
                    self.hook()
                    return super().handle_request(request)
                response = super().handle_request(request)
                response.read()
                raise httpx.ReadError("connection cut before the answer", request=request)
        return super().handle_request(request)


def profile_for(tmp: Path, till: str, number: int, host: str, store: str,
                journal: str | None = None) -> TillProfile:
    return load_profile(None, training=False, till_id=till, till_number=number,
                        processing_option="HD", host_url=host, store_url=store,
                        journal_path=tmp / (journal or f"journal-{till}.sqlite"))


async def sell(rt: Runtime, amounts: list[str], refund_first: bool = True) -> None:
    invoices = []
    for text in amounts:
        result = await sale(rt.ctx, Decimal(text), card=KeyedCard(VISA, "1228"))
        assert result.outcome == "approved", (result.as_dict(), result.message)
        invoices.append(result.entry.invoice)
    if refund_first:
        back = await refund(rt.ctx, Decimal("1.00"), original_invoice=invoices[0])
        assert back.outcome == "approved", back.as_dict()


def journal_rows(path: Path, till: str) -> tuple[str, list[tuple[Any, ...]], dict[str, int]]:
    """(journal id, its events as the store should hold them, its host-bucket totals)."""
    store = JournalRecorder(path, till_id=till, reader=True)
    try:
        journal_id = store.conn.execute("SELECT journal_id FROM store_outbox").fetchone()[0]
        events = [(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in store.conn.execute(
            "SELECT id, entry_id, actor, type, data FROM events ORDER BY id")]
        sums = {"sale_count": 0, "sale_minor": 0, "refund_count": 0, "refund_minor": 0}
        for (bucket, _cur), (count, amount) in store.totals(0).buckets.items():
            key = ("sale" if bucket in HOST_BATCH_SALE_BUCKETS
                   else "refund" if bucket in HOST_BATCH_REFUND_BUCKETS else None)
            if key:
                sums[f"{key}_count"] += count
                sums[f"{key}_minor"] += int(amount * 100)
        return str(journal_id), events, sums
    finally:
        store.close()


async def test_three_tills_survive_kill_cut_and_replace_then_close_once(
        tmp_path: Path, store_dsn: str, memory_keyring: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox_module, "CHUNK", 5)  # several pushes per sync, so one can be cut
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    host = ServedSandbox("HD", tmp_path)
    store = ServedStore(store_dsn).start()
    try:
        for till in ("T1", "T2", "T3"):
            memory_keyring.set_password(STORE_KEYRING_SERVICE, till, add_till(store_dsn, till))
        profiles = {t: profile_for(tmp_path, t, n, host.api, store.url)
                    for n, t in enumerate(("T1", "T2", "T3"), start=1)}
        tills = {t: await open_runtime(p) for t, p in profiles.items()}
        # T1 pushes in the background, as the window does, while the store is killed and back
        pusher = BackgroundPusher(profiles["T1"], interval_s=0.1)
        tills["T1"].journal.subscribe(pusher.nudge)
        pusher.start()
        await asyncio.gather(*(sell(rt, ["10.00", "20.00", "30.00", "4.50"]) for rt in tills.values()))

        # T2's push: the store is killed (SIGKILL) as its second chunk goes out
        cut = CuttingTransport(2, "before", hook=store.kill)
        t2 = Outbox(profiles["T2"], transport=cut)
        first = await asyncio.to_thread(t2.sync, 10.0)
        assert not first.reached and first.pushed == 5 and first.pending > 0
        await sell(tills["T1"], ["7.77"], refund_first=False)  # sells on while the store is away
        store.start()
        # T3's push: the store applies its second chunk but the answer is lost on the way back
        t3 = Outbox(profiles["T3"], transport=CuttingTransport(2, "after"))
        cut_push = await asyncio.to_thread(t3.sync, 10.0)
        assert not cut_push.reached and cut_push.pending > 0
        t3.close()
        done = await asyncio.to_thread(t2.sync, 10.0)
        assert done.reached and done.pending == 0
        t2.close()

        # T3's journal is replaced (a new disk): it learns where its invoices continue
        old_t3 = tmp_path / "journal-T3.sqlite"
        await tills["T3"].close()
        old_outbox = Outbox(profiles["T3"])
        assert (await asyncio.to_thread(old_outbox.sync, 10.0)).pending == 0
        old_outbox.close()
        old_t3.rename(tmp_path / "journal-T3-old.sqlite")
        for suffix in ("-wal", "-shm"):
            Path(str(old_t3) + suffix).unlink(missing_ok=True)
        fresh = Outbox(profiles["T3"])
        assert (await asyncio.to_thread(fresh.sync, 10.0)).reached
        fresh.close()
        tills["T3"] = await open_runtime(profiles["T3"])
        await sell(tills["T3"], ["12.00", "13.00"], refund_first=False)

        for t in ("T2", "T3"):
            ob = Outbox(profiles[t])
            assert (await asyncio.to_thread(ob.sync, 10.0)).pending == 0
            ob.close()
        deadline = time.monotonic() + 15
        while pusher.last is None or pusher.last.pending or not pusher.last.reached:
            assert time.monotonic() < deadline, (pusher.last, pusher.last_error)
            pusher.nudge()
            await asyncio.sleep(0.1)

        # every journal's events are in PostgreSQL exactly once, as the till wrote them
        journals = {"T1": tmp_path / "journal-T1.sqlite", "T2": tmp_path / "journal-T2.sqlite",
                    "T3": tmp_path / "journal-T3.sqlite", "T3-old": tmp_path / "journal-T3-old.sqlite"}
        expected_sums = {"sale_count": 0, "sale_minor": 0, "refund_count": 0, "refund_minor": 0}
        invoices: list[str] = []
        with psycopg.connect(store_dsn) as conn:
            for name, path in journals.items():
                till = name.split("-")[0]
                journal_id, events, sums = journal_rows(path, till)
                stored = [(r[0], r[1], r[2], r[3], r[4]) for r in conn.execute(
                    "SELECT seq, entry_id, actor, type, data FROM events WHERE till_id = %s AND "
                    "journal_id = %s ORDER BY seq", (till, journal_id))]
                assert len(events) > 5 and stored == events, name
                for key in expected_sums:
                    expected_sums[key] += sums[key]
                reader = JournalRecorder(path, till_id=till, reader=True)
                invoices += [e["invoice"] for e in reader.all_rows() if e["invoice"]]
                reader.close()
            assert conn.execute("SELECT count(*) FROM journals WHERE till_id = 'T3'").fetchone() == (2,)
        assert len(invoices) == len(set(invoices)), "an invoice was used twice"
        old_max = max(int(i[2:]) for i in invoices if i.startswith("03"))
        assert old_max > 4  # the new T3 journal continued after the old one's invoices

        # the store's totals = the sum of the tills' journals = the host's open batch
        add_manager(store_dsn, "9", "9090")
        session = await asyncio.to_thread(manager_session, profiles["T1"], "9", "9090")
        totals = await asyncio.to_thread(store_totals, profiles["T1"], None, None, session)
        s = totals["store"]
        assert (s["sales"]["count"], int(Decimal(s["sales"]["amount"]) * 100),
                s["refunds"]["count"], int(Decimal(s["refunds"]["amount"]) * 100)) == (
            expected_sums["sale_count"], expected_sums["sale_minor"], expected_sums["refund_count"],
            expected_sums["refund_minor"])
        assert s["sales"]["count"] == 4 * 3 + 1 + 2 and s["refunds"]["count"] == 3
        assert set(totals["tills"]) == {"T1", "T2", "T3"} and all(
            t["last_seen"] for t in totals["tills"].values())
        host_totals = (await tills["T1"].client.batch_totals(time.strftime("%Y-%m-%d"))).batch
        assert host_totals is not None
        assert (host_totals.sale_count, host_totals.sale_amount, host_totals.refund_count,
                host_totals.refund_amount) == (s["sales"]["count"], Decimal(s["sales"]["amount"]),
                                               s["refunds"]["count"], Decimal(s["refunds"]["amount"]))

        # one store-wide close from T2: one submit, the host's batch is empty after it
        t2_session = await asyncio.to_thread(manager_session, profiles["T2"], "9", "9090")
        batch_no, rec = await close_store_batch(tills["T2"].ctx, profiles["T2"], session=t2_session)
        assert batch_no == 1 and rec.matches and not rec.problems
        with host.control() as control:
            closed = control.get("/_sandbox/ledger").json()["batches"]
        assert len(closed) == 1 and closed[0]["saleCount"] == s["sales"]["count"]
        after = (await tills["T1"].client.batch_totals(time.strftime("%Y-%m-%d"))).batch
        assert after is not None and after.net_count == 0
        # T2 learned at once; T1 and T3 on their next contact: their own batch is closed too
        pusher.nudge()
        ob = Outbox(profiles["T3"])
        await asyncio.to_thread(ob.sync, 10.0)
        ob.close()
        deadline = time.monotonic() + 10
        while True:
            t1_events = await tills["T1"].journal.events()
            if any(e.type == "store_batch_closed" for e in t1_events):
                break
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        for t in ("T1", "T2", "T3"):
            assert (await tills[t].journal.totals(0)).buckets == {}, t
            assert any(e.type == "batch_closed" and e.actor == "store"
                       for e in await tills[t].journal.events()), t
        reopened = await asyncio.to_thread(store_totals, profiles["T1"], None, None, session)
        assert reopened["store"]["sales"]["count"] == 0
        assert reopened["last_close"]["batch_no"] == 1
    finally:
        if "pusher" in locals():
            pusher.stop()
        for rt in locals().get("tills", {}).values():
            if rt.journal._writer is not None:
                await rt.close()
        store.stop()
        host.stop()
