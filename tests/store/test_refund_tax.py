"""The tax refunds gave back, in the store's totals as in the tills' X/Z reports (issue #39: the
reports' tax is net of it), on the real throwaway PostgreSQL: two tills with real journals sell
tickets on one business day, refund some that day and some the next (tickets of the day before
among them), close their drawers (Z) each day and push. The store's tax, each till's and the
store's, by business day and for the open store batch, is the tills' report figures added up,
net of the refunds, each refund's tax in the day of the refund (``Ticket.refund_tax``, kept as
the refund entry's tax, decision 011)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.config import STORE_KEYRING_SERVICE, load_profile
from cashier.flows.ticket import Tender, TicketSession, TicketSettings, refund_ticket
from cashier.journal.datastore import business_day, iso, utc_now
from cashier.runtime import open_runtime
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.core import SandboxConfig
from cashier.store.close import store_totals
from cashier.store.outbox import push_pending
from tests.support.cafe import BUN, LATTE, VISA, cafe
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
