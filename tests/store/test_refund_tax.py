"""The tax refunds gave back, in the store's totals as in the tills' X/Z reports (issue #39: the
reports' tax is net of it), on the real throwaway PostgreSQL: two tills with real journals sell
tickets on one business day, refund some that day and some the next (tickets of the day before
among them), close their drawers (Z) each day and push. The store's tax, each till's and the
store's, by business day and for the open store batch, is the tills' report figures added up,
net of the refunds, each refund's tax in the day of the refund (``Ticket.refund_tax``, kept as
the refund entry's tax, decision 011)."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timedelta
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.config import STORE_KEYRING_SERVICE, load_profile
from cashier.flows.ticket import Tender, TicketSession, TicketSettings, refund_ticket
from cashier.journal.datastore import business_day, iso, utc_now
from cashier.journal.schema import migrate
from cashier.runtime import open_runtime
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.core import SandboxConfig
from cashier.store.close import store_totals
from cashier.store.outbox import push_pending
from tests.support.cafe import BUN, LATTE, VISA, cafe
from tests.support.journal_v15 import back_to_v15, refunds_without_tax
from tests.support.store import add_manager, add_till, manager_session
from tests.support.store_figures import BOB, ROSTER, added, carried
from tests.support.tills import open_drawer

pytestmark = pytest.mark.socket


def tomorrow() -> datetime:
    """The till's clock a day on: the next business day."""
    return utc_now() + timedelta(days=1)


def report_of(profile: Any, *, close: bool, next_day: bool) -> dict[str, Any]:
    """The till's own report as its Reports screen reads it: the Z of the drawer it closes
    (``close``), else the X; on the next day's clock (``next_day``)."""
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer
    from cashier.reports import x_report, z_report

    recorder = open_recorder(profile)
    if next_day:
        recorder.clock = tomorrow
    try:
        drawer = Drawer(recorder, ROSTER)
        if not close:
            return x_report(recorder, drawer)
        expected = drawer.balance(drawer.require_open()).expected
        done = drawer.close(expected, clerk="102", manager=BOB,
                            report=lambda session: z_report(recorder, drawer, session))
        assert done.closed
        return z_report(recorder, drawer)
    finally:
        recorder.close()


def open_next_day(profile: Any) -> None:
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer

    recorder = open_recorder(profile)
    recorder.clock = tomorrow
    try:
        Drawer(recorder, ROSTER).open(clerk="101", float_amount="100.00")
    finally:
        recorder.close()


async def sell(rt: Any, *products: Any, tender: Tender) -> Any:
    s = await TicketSession.start(rt.ctx, TicketSettings())
    for product in products:
        await s.add_product(product)
    ticket = await s.pay(tender)
    assert ticket.state == "paid"
    return ticket


async def test_the_stores_tax_is_net_of_refunds_by_the_day_of_the_refund(
        serve_store: Any, store_dsn: str, tmp_path: Path, memory_keyring: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    store = serve_store()
    sandbox = HostSandbox(SandboxConfig(option="HD", access_token=None))
    add_manager(store_dsn, "9", "9090")
    tills: dict[str, tuple[Any, Any]] = {}
    try:
        for n, till in enumerate(("T1", "T2"), start=1):
            memory_keyring.set_password(STORE_KEYRING_SERVICE, till, add_till(store_dsn, till))
            profile = load_profile(None, training=False, till_id=till, till_number=n,
                                   processing_option="HD", host_url="http://127.0.0.1:1/api/rest/v1",
                                   store_url=store.url, journal_path=tmp_path / f"{till}.sqlite")
            rt = await open_runtime(profile, transport=httpx.ASGITransport(app=sandbox.asgi))
            tills[till] = (profile, rt)
            assert rt.ctx.catalog.replace(cafe())
            rt.ctx.roster, rt.ctx.clerk_id = ROSTER, 101
            open_drawer(profile)
        (p1, t1), (p2, t2) = tills["T1"], tills["T2"]
        # the first day: T1 sells two Lattes by card and a Latte and a Bun in cash, and gives
        # the Bun back the same day; T2 sells a Latte and a Bun by card and a Bun in cash
        two = await sell(t1, LATTE, LATTE, tender=Tender("card", card=VISA))
        mixed = await sell(t1, LATTE, BUN, tender=Tender("cash", D("20.00")))
        bun_back = await refund_ticket(t1.ctx, mixed.id, lines=[1], manager=BOB)
        assert bun_back.refunds
        pair = await sell(t2, LATTE, BUN, tender=Tender("card", card=VISA))
        await sell(t2, BUN, tender=Tender("cash", D("5.00")))
        first = {till: report_of(profile, close=True, next_day=False)
                 for till, (profile, _rt) in tills.items()}
        assert D(first["T1"]["tax_refunded"]) == bun_back.priced.lines[1].tax > 0
        # the next day: T1 gives 3.00 back on yesterday's two Lattes; T2 sells a Latte and gives
        # back all of yesterday's pair
        for profile, rt in tills.values():
            rt.ctx.journal.recorder.clock = tomorrow
            open_next_day(profile)
        await refund_ticket(t1.ctx, two.id, amount=D("3.00"), manager=BOB)
        await sell(t2, LATTE, tender=Tender("card", card=VISA))
        await refund_ticket(t2.ctx, pair.id, manager=BOB)
        for profile, _rt in tills.values():
            assert push_pending(profile, 5.0) is not None
        second = {till: report_of(profile, close=False, next_day=True)
                  for till, (profile, _rt) in tills.items()}
        assert D(second["T1"]["tax_refunded"]) == two.tax_back(D("3.00")) > 0
        assert D(second["T2"]["tax_refunded"]) == pair.tax  # all of it back: all of its tax

        day, next_day = business_day(iso(utc_now())), business_day(iso(tomorrow()))
        assert day != next_day
        session = await asyncio.to_thread(manager_session, p1, "9", "9090")
        for scope, reports in ((day, [first]), (next_day, [second]), (None, [first, second])):
            totals = await asyncio.to_thread(store_totals, p1, scope, None, session)
            for till in ("T1", "T2"):
                mine = [r[till] for r in reports]
                shown = totals["tills"][till]
                assert carried(shown) == added(mine), (scope, till)
                assert D(shown["tax_refunded"]) == sum(D(r["tax_refunded"]) for r in mine), \
                    (scope, till)
            every = [r[till] for r in reports for till in ("T1", "T2")]
            assert carried(totals["store"]) == added(every), scope
            assert D(totals["store"]["tax_refunded"]) == sum(D(r["tax_refunded"]) for r in every)
        own = await asyncio.to_thread(store_totals, p2, next_day)  # the till's own view
        assert D(own["tills"]["T2"]["tax"]) == D(second["T2"]["tax"])
    finally:
        for _profile, rt in tills.values():
            await rt.close()


async def test_an_upgraded_tills_earlier_refunds_reach_the_stores_tax(
        serve_store: Any, store_dsn: str, tmp_path: Path, memory_keyring: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Journal v16 (decision 011, "Refunds journaled before their tax"): a till pushed its
    refunds before a refund carried its tax, so the store's tax given back left them out. The
    upgraded till gives each its tax in an event it pushes as any other; the store folds it in as
    a move and its totals, open batch and business day, equal the till's X report again: the
    same as the refunds give on a journal made new."""
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    store = serve_store()
    sandbox = HostSandbox(SandboxConfig(option="HD", access_token=None))
    add_manager(store_dsn, "9", "9090")
    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", add_till(store_dsn, "T1"))
    profile = load_profile(None, training=False, till_id="T1", till_number=1,
                           processing_option="HD", host_url="http://127.0.0.1:1/api/rest/v1",
                           store_url=store.url, journal_path=tmp_path / "T1.sqlite")
    rt = await open_runtime(profile, transport=httpx.ASGITransport(app=sandbox.asgi))
    try:
        assert rt.ctx.catalog.replace(cafe())
        rt.ctx.roster, rt.ctx.clerk_id = ROSTER, 101
        open_drawer(profile)
        two = await sell(rt, LATTE, LATTE, tender=Tender("card", card=VISA))
        mixed = await sell(rt, LATTE, BUN, tender=Tender("cash", D("20.00")))
        await refund_ticket(rt.ctx, mixed.id, lines=[1], manager=BOB)  # the Bun, in cash
        await refund_ticket(rt.ctx, two.id, amount=D("3.00"), manager=BOB)  # off the card
    finally:
        await rt.close()
    made_new = report_of(profile, close=False, next_day=False)
    assert D(made_new["tax_refunded"]) == mixed.priced.lines[1].tax + two.tax_back(D("3.00")) > 0
    path = profile.resolved_journal_path
    refunds_without_tax(path)  # as the till wrote them before: pushed so
    conn = sqlite3.connect(str(path), isolation_level=None)
    migrate(conn)
    conn.execute("DELETE FROM refund_tax_due")
    conn.close()
    assert push_pending(profile, 5.0) is not None
    session = await asyncio.to_thread(manager_session, profile, "9", "9090")
    day = business_day(iso(utc_now()))
    for scope in (day, None):
        totals = await asyncio.to_thread(store_totals, profile, scope, None, session)
        assert D(totals["tills"]["T1"]["tax_refunded"]) == 0  # the gap: more net tax than taken
    conn = sqlite3.connect(str(path), isolation_level=None)
    back_to_v15(conn)
    conn.close()
    assert push_pending(profile, 5.0) is not None  # the upgraded till opens its journal: v16
    upgraded = report_of(profile, close=False, next_day=False)
    assert (upgraded["tax"], upgraded["tax_refunded"]) == (made_new["tax"], made_new["tax_refunded"])
    for scope in (day, None):
        totals = await asyncio.to_thread(store_totals, profile, scope, None, session)
        for shown in (totals["tills"]["T1"], totals["store"]):
            assert carried(shown) == added([made_new]), scope
            assert D(shown["tax_refunded"]) == D(made_new["tax_refunded"]), scope
