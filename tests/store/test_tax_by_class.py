"""The store's totals break the tax down by class (issue #37), on the real throwaway PostgreSQL: two
tills sell catalog lines of two tax classes (and typed lines), push their journals, and the store's
totals (each till's, and the store's with a manager's session) carry each paid ticket's tax by
class, as the tills worked it out; a cancelled ticket and a training till add nothing."""

from __future__ import annotations

import asyncio
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.catalog import Catalog, Product, TaxClass
from cashier.config import STORE_KEYRING_SERVICE, load_profile
from cashier.flows.payments import KeyedCard
from cashier.flows.ticket import Tender, TicketSession, TicketSettings
from cashier.runtime import open_runtime
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.core import SandboxConfig
from cashier.store.close import store_totals
from cashier.store.outbox import push_pending
from tests.support.store import add_till, manager_session, put_manager

pytestmark = pytest.mark.socket

VISA = KeyedCard("4321000000001119", "1228")
CATALOG = Catalog.of_products(
    2, [Product("LATTE", "Latte", D("4.00"), tax_class="standard"),
        Product("BREAD", "Bread", D("2.50"), tax_class="reduced")],
    tax_classes=[TaxClass("standard", D("8.25")), TaxClass("reduced", D("5"))])


async def test_the_store_adds_up_each_tickets_tax_by_class(serve_store: Any, store_dsn: str,
                                                           tmp_path: Path, memory_keyring: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    store = serve_store()
    sandbox = HostSandbox(SandboxConfig(option="HD", access_token=None))
    tills = {}
    for n, till in enumerate(("T1", "T2"), start=1):
        memory_keyring.set_password(STORE_KEYRING_SERVICE, till, add_till(store_dsn, till))
        profile = load_profile(None, training=False, till_id=till, till_number=n,
                               processing_option="HD", host_url="http://127.0.0.1:1/api/rest/v1",
                               store_url=store.url, journal_path=tmp_path / f"{till}.sqlite")
        rt = await open_runtime(profile, transport=httpx.ASGITransport(app=sandbox.asgi))
        assert rt.ctx.catalog.replace(CATALOG)
        tills[till] = (profile, rt)
    try:
        for till, (latte, bread) in (("T1", (1, 2)), ("T2", (3, 0))):
            _profile, rt = tills[till]
            s = await TicketSession.start(rt.ctx, TicketSettings(tax_rate=D("8.25")))
            await s.add_product(CATALOG.products[0], quantity=latte)
            if bread:
                await s.add_product(CATALOG.products[1], quantity=bread)
            await s.add_line("Tea", D("1.00"))
            assert (await s.pay(Tender("card", card=VISA))).state == "paid"
        # a cancelled ticket charged nothing: none of its tax is counted
        _p, rt1 = tills["T1"]
        cancelled = await TicketSession.start(rt1.ctx, TicketSettings(tax_rate=D("8.25")))
        await cancelled.add_product(CATALOG.products[1], quantity=4)
        await cancelled.cancel()
        for profile, _rt in tills.values():
            assert push_pending(profile, 5.0) is not None
        p1, _rt = tills["T1"]
        own = await asyncio.to_thread(store_totals, p1)
        # T1: standard 5.00 * 8.25 % = 0.4125 -> 0.41; reduced 5.00 * 5 % = 0.25
        assert own["tills"]["T1"]["tax"] == "0.66"
        assert own["tills"]["T1"]["tax_by_class"] == [
            {"tax_class": "reduced", "rate": "5", "tax": "0.25"},
            {"tax_class": "standard", "rate": "8.25", "tax": "0.41"}]
        put_manager(store_dsn, "4", "4444")
        session = await asyncio.to_thread(manager_session, p1, "4", "4444")
        everything = await asyncio.to_thread(store_totals, p1, None, None, session)
        # T2: standard 13.00 * 8.25 % = 1.0725 -> 1.07
        assert everything["tills"]["T2"]["tax_by_class"] == [
            {"tax_class": "standard", "rate": "8.25", "tax": "1.07"}]
        assert everything["store"]["tax"] == "1.73"
        assert everything["store"]["tax_by_class"] == [
            {"tax_class": "reduced", "rate": "5", "tax": "0.25"},
            {"tax_class": "standard", "rate": "8.25", "tax": "1.48"}]
    finally:
        for _p, rt in tills.values():
            await rt.close()
