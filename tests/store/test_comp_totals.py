"""A comp in the store's totals (decision 009: a ticket discounted to 0.00 closes as paid with no
tender entry), on the real throwaway PostgreSQL: two tills with real journals sell tickets and
comps and push them; the store's totals (each till's, and the store's with a manager's session)
are the tills' own X report figures added up, the comps' discounts and tax in them, in the open
store batch and in the business day. A comp counts in the day and the store batch of its close
(``cashier.store.database.paid_ticket_day``, decision 011): after a store-wide close the open
batch holds only what was paid since, and the day still holds everything."""

from __future__ import annotations

import asyncio
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.config import STORE_KEYRING_SERVICE, load_profile
from cashier.discounts import Discount
from cashier.flows.ticket import Tender, TicketSession, TicketSettings
from cashier.journal.datastore import business_day, iso, utc_now
from cashier.runtime import open_runtime
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.core import SandboxConfig
from cashier.store.close import close_store_batch, store_totals
from cashier.store.outbox import push_pending
from tests.support.cafe import BUN, LATTE, VISA, cafe
from tests.support.store import add_manager, add_till, manager_session
from tests.support.store_figures import BOB, ROSTER, added, carried
from tests.support.tills import open_drawer

pytestmark = pytest.mark.socket


async def comp(rt: Any, product: Any, discount: Discount) -> None:
    """``product`` given away: a discount to 0.00 with the manager, closed by the cash key (no
    tender entry, no drawer)."""
    s = await TicketSession.start(rt.ctx, TicketSettings())
    await s.add_product(product)
    ticket = await s.add_discount(discount, manager=BOB)
    assert ticket.total == D("0.00")
    done = await s.quick_pay([Tender("cash")])
    assert done.ticket.is_paid and done.ticket.tenders == ()


def x_of(profile: Any) -> dict[str, Any]:
    """The till's own X report, read from its journal as the Reports screen does."""
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer
    from cashier.reports import x_report

    recorder = open_recorder(profile)
    try:
        return x_report(recorder, Drawer(recorder, profile.roster))
    finally:
        recorder.close()


async def test_a_comp_counts_in_the_stores_totals_as_in_the_tills_reports(
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
        # T1: two Lattes, 0.50 off one, by card; a Bun given away (2.50 staff)
        s = await TicketSession.start(t1.ctx, TicketSettings())
        await s.add_product(LATTE, quantity=2)
        await s.add_discount(Discount("amount", D("0.50"), line=0, reason="staff"))
        assert (await s.pay(Tender("card", card=VISA))).state == "paid"
        await comp(t1, BUN, Discount("amount", D("2.50"), 0, "staff"))
        # T2: a Latte given away (100 % loyalty) and a Bun in cash
        await comp(t2, LATTE, Discount("percent", D(100), reason="loyalty"))
        s = await TicketSession.start(t2.ctx, TicketSettings())
        await s.add_product(BUN)
        assert (await s.pay(Tender("cash", D("5.00")))).state == "paid"
        for profile, _rt in tills.values():
            assert push_pending(profile, 5.0) is not None
        reports = {till: x_of(profile) for till, (profile, _rt) in tills.items()}
        # the comps are in the tills' own reports: a ticket each, their discounts by reason
        assert reports["T1"]["discounts"]["by_reason"]["staff"] == {"count": 2, "amount": "3.00"}
        assert reports["T2"]["discounts"]["by_reason"]["loyalty"] == {"count": 1, "amount": "4.00"}
        day = business_day(iso(utc_now()))
        session = await asyncio.to_thread(manager_session, p1, "9", "9090")
        for scope in (None, day):  # the open store batch, and the business day
            totals = await asyncio.to_thread(store_totals, p1, scope, None, session)
            for till in ("T1", "T2"):
                assert carried(totals["tills"][till]) == added([reports[till]]), (scope, till)
            assert carried(totals["store"]) == added(list(reports.values())), scope
            assert totals["store"]["discounts"]["total"] == "7.00"  # 0.50 + 2.50 + 4.00
        own = await asyncio.to_thread(store_totals, p2, day)  # the till's own view: its comp
        assert own["tills"]["T2"]["discounts"]["by_reason"]["loyalty"] == {"count": 1,
                                                                           "amount": "4.00"}

        # a store-wide close takes the comps with it; a comp paid after it is the open batch's
        batch_no, rec = await close_store_batch(t1.ctx, p1, session=session, manager=BOB)
        assert batch_no == 1 and not rec.problems
        await comp(t2, BUN, Discount("percent", D(100), reason="damaged"))
        assert push_pending(p2, 5.0) is not None
        after = x_of(p2)
        opened = await asyncio.to_thread(store_totals, p1, None, None, session)
        assert opened["store"]["discounts"]["by_reason"] == {
            "damaged": {"count": 1, "amount": "2.50"}}
        assert opened["store"]["discounts"]["total"] == "2.50"
        whole = await asyncio.to_thread(store_totals, p1, day, None, session)
        assert carried(whole["store"]) == added([reports["T1"], after])
        assert whole["store"]["discounts"]["total"] == "9.50"
    finally:
        for _profile, rt in tills.values():
            await rt.close()


def test_the_migration_gives_the_paid_tickets_held_their_day_and_batch(
        pg_cluster: Any) -> None:
    """A store from before (migration 7): each ``ticket_paid`` event it holds becomes a paid
    ticket, in the day its till sent (else its first entry's, else the UTC date of its close) and
    the batch of the first close that covered it (else the open one); a comp among them counts
    in the totals from then on."""
    import secrets

    import psycopg
    from psycopg.types.json import Jsonb

    from cashier.store.schema import LATEST, MIGRATIONS, migrate

    name = "store_" + secrets.token_hex(6)
    with psycopg.connect(pg_cluster.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    dsn = pg_cluster.dsn.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(dsn) as conn:
        conn.execute("CREATE TABLE store_schema (version integer NOT NULL)")
        conn.execute("INSERT INTO store_schema(version) VALUES (6)")
        for sql in MIGRATIONS[:6]:
            conn.execute(sql.encode())
        conn.execute("INSERT INTO tills (till_id, token_hash) VALUES ('T1', 'a')")
        conn.execute("INSERT INTO journals (till_id, journal_id, high_water) VALUES ('T1', 'J', 9)")
        paid = [  # seq, ticket, at, what the till sent
            (2, 1, "2026-11-27T23:30:00.000+00:00", {}),  # its card entry's day: 2026-11-27
            (4, 2, "2026-11-28T03:10:00.000+00:00", {}),  # a comp from before: the UTC date
            (8, 3, "2026-11-28T05:00:00.000+00:00", {"business_date": "2026-11-27"}),
            (9, "x", "2026-11-28T05:00:00.000+00:00", {})]  # not a ticket number: left out
        for seq, ticket, at, more in paid:
            conn.execute("INSERT INTO events (till_id, journal_id, seq, entry_id, at, actor, type, "
                         "data) VALUES ('T1', 'J', %s, NULL, %s, '101', 'ticket_paid', %s)",
                         (seq, at, Jsonb({"ticket": ticket, "taxes": [], **more})))
        conn.execute("INSERT INTO entries (till_id, journal_id, entry_id, created_seq, kind, state, "
                     "currency, business_date, unresolved, store_batch, fields) VALUES ('T1', 'J', "
                     "1, 1, 'sale', 'approved', 'USD', '2026-11-27', false, 1, %s)",
                     (Jsonb({"ticket_id": 1}),))
        conn.execute("INSERT INTO store_batches (closed_by, till_id, override, through, summary) "
                     "VALUES ('9', 'T1', false, %s, '{}')", (Jsonb({"T1": {"J": 5}}),))
    assert migrate(dsn) == LATEST
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT ticket_id, paid_seq, business_date, store_batch FROM "
                            "paid_tickets ORDER BY ticket_id").fetchall() == [
            (1, 2, "2026-11-27", 1), (2, 4, "2026-11-28", 1), (3, 8, "2026-11-27", 0)]
