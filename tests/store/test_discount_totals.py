"""The store's totals show what discounts took off (issue #38), on the real throwaway PostgreSQL:
a till sells a ticket with a cashier's staff discount and a price override approved by a
manager, another with a manager's loyalty discount and cash rounding; each ``ticket_paid``
event carries the ticket's figures (worked out at the till by the one rule), and the store's
totals add them up by reason, by clerk, overrides by approving manager, and the rounding, the
tax after discounts."""

from __future__ import annotations

import asyncio
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.catalog import Catalog, Product, TaxClass
from cashier.clerks import Clerk, ManagerRules, Roster
from cashier.config import STORE_KEYRING_SERVICE, load_profile
from cashier.discounts import Discount
from cashier.flows.payments import KeyedCard
from cashier.flows.ticket import PriceOverride, Tender, TicketSession, TicketSettings
from cashier.runtime import open_runtime
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.core import SandboxConfig
from cashier.store.close import store_totals
from cashier.store.outbox import push_pending
from tests.support.profiles import pin_hash
from tests.support.store import add_till
from tests.support.tills import open_drawer

pytestmark = pytest.mark.socket

VISA = KeyedCard("4321000000001119", "1228")
LATTE = Product("LATTE", "Latte", D("4.00"), tax_class="standard")
BREAD = Product("BREAD", "Bread", D("2.50"), tax_class="reduced")
CATALOG = Catalog.of_products(2, [LATTE, BREAD], tax_classes=[TaxClass("standard", D("8.25")),
                                                              TaxClass("reduced", D("5"))])


async def test_the_store_adds_up_discounts_overrides_and_rounding(
        serve_store: Any, store_dsn: str, tmp_path: Path, memory_keyring: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    store = serve_store()
    sandbox = HostSandbox(SandboxConfig(option="HD", access_token=None))
    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", add_till(store_dsn, "T1"))
    profile = load_profile(None, training=False, till_id="T1", till_number=1,
                           processing_option="HD", host_url="http://127.0.0.1:1/api/rest/v1",
                           store_url=store.url, journal_path=tmp_path / "T1.sqlite")
    rt = await open_runtime(profile, transport=httpx.ASGITransport(app=sandbox.asgi))
    try:
        assert rt.ctx.catalog.replace(CATALOG)
        roster = Roster([Clerk(id=101, name="Alice", pin_hash=pin_hash("1111")),
                         Clerk(id=102, name="Bob", pin_hash=pin_hash("2222"), role="manager")],
                        ManagerRules())
        rt.ctx.roster, rt.ctx.clerk_id = roster, 101
        bob = roster.manager(102, "2222")
        open_drawer(profile)
        first = await TicketSession.start(rt.ctx, TicketSettings())
        await first.add_product(LATTE, quantity=2)
        await first.add_product(BREAD, override=PriceOverride("2.00", "damaged", bob))
        await first.add_discount(Discount("amount", D("0.50"), line=0, reason="staff"))
        assert (await first.pay(Tender("card", card=VISA))).state == "paid"
        second = await TicketSession.start(rt.ctx, TicketSettings(cash_rounding=D("0.05")))
        await second.add_product(LATTE, quantity=3)
        await second.add_discount(Discount("percent", D(30), reason="loyalty"), manager=bob)
        paid = await second.pay(Tender("cash", D("20.00")))
        assert (paid.total, paid.record.rounding) == (D("9.10"), D("0.01"))
        assert push_pending(profile, 5.0) is not None
        own = await asyncio.to_thread(store_totals, profile)
    finally:
        await rt.close()
    d = own["tills"]["T1"]["discounts"]
    assert d["by_reason"] == {"loyalty": {"count": 1, "amount": "3.60"},
                              "staff": {"count": 1, "amount": "0.50"}}
    assert d["by_clerk"] == {"101": {"count": 2, "amount": "4.10"}}
    assert d["overrides_by_manager"] == {"102": {"count": 1, "amount": "0.50"}}
    assert d["cash_rounding"] == {"count": 1, "amount": "0.01"}
    assert d["total"] == "4.10"
    # tax after discounts: 7.50 * 8.25 % = 0.62 and 2.00 * 5 % = 0.10; 8.40 * 8.25 % = 0.69
    assert own["tills"]["T1"]["tax"] == "1.41"
