"""Store and forward while the host is away (issue 40), through the real in-process sandbox:
offline by itself, the limits before the PIN pad, the forward settled by the host (a decline is
``declined_on_forward``, counted apart), back online by itself; HD's one line and its manual sale
on a voice authorization code with a manager's PIN."""

from __future__ import annotations

import asyncio
import csv
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.clerks import Clerk
from cashier.config import OfflineOptions, load_profile
from cashier.drawer import Drawer
from cashier.errors import ManagerNeeded, ValidationError
from cashier.flows import offline
from cashier.flows.giftcards import GiftCard
from cashier.flows.payments import KeyedCard, authorize, manual_sale, sale
from cashier.flows.ticket import Tender, TicketSession
from cashier.host.errors import HostUnreachable
from cashier.journal.model import Kind, State
from cashier.journal.recorder import JournalRecorder
from cashier.journal.ticket_model import TicketSettings
from cashier.reports import report_csv, x_report
from cashier.runtime import Runtime, open_runtime
from tests.support.profiles import pin_hash

VISA = "4321000000001119"
LIMITS = {"max_sale": "50.00", "max_total": "80.00", "max_count": 3, "max_hours": "24"}


def _x_report(till: Outage) -> dict[str, Any]:
    """The X report as the Reports screen and ``cashier drawer report x`` build it."""
    profile = till.rt.profile
    assert profile.journal_path is not None
    store = JournalRecorder(profile.journal_path, reader=True, till_id=profile.till_id,
                            currency=profile.currency)
    try:
        return x_report(store, Drawer(store, profile.roster))
    finally:
        store.close()


class Outage:
    """One till and its sandbox, and the switch that takes the host behind the gateway away."""

    def __init__(self, rt: Runtime, sandbox: Any) -> None:
        self.rt, self.ctx, self.sandbox = rt, rt.ctx, sandbox
        self.http = httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                      base_url="http://sandbox")

    async def host(self, reachable: bool) -> None:
        r = await self.http.post("/_sandbox/upstream", json={"reachable": reachable})
        assert r.status_code == 200, r.text
        assert r.json()["reachable"] is reachable

    async def decline_on_forward(self, invoice: str) -> None:
        r = await self.http.post("/_sandbox/mode/stored", json={"invoice": invoice,
                                                                 "declineOnForward": True})
        assert r.status_code == 200, r.text

    async def rows(self) -> int:
        return len(await self.ctx.journal.search(limit=1000))


@pytest.fixture
async def make_outage(make_sandbox: Callable[..., Any], tmp_path: Path
                      ) -> AsyncIterator[Callable[..., Any]]:
    made: list[Outage] = []

    async def make(option: str = "LG", **limits: Any) -> Outage:
        sandbox, _ = make_sandbox(option, access_token=None)
        profile = load_profile(None, processing_option=option,
                               journal_path=tmp_path / f"journal-{len(made)}.sqlite",
                               offline={**LIMITS, **limits})
        outage = Outage(await open_runtime(profile, sandbox=sandbox), sandbox)
        made.append(outage)
        return outage

    yield make
    for outage in made:
        await outage.http.aclose()
        await outage.rt.close()


async def test_the_gateway_says_its_host_is_unreachable(make_outage: Callable[..., Any]) -> None:
    till = await make_outage("LG", automatic=False)
    await till.host(False)
    with pytest.raises(HostUnreachable) as caught:
        await till.ctx.client.invoice_status("12")
    assert caught.value.code == "65100" and not caught.value.refused
    # a manager's switch still works (the gateway answers it), and then sales are stored
    await till.ctx.client.mode_offline()
    with pytest.raises(HostUnreachable):  # nothing to forward to: it stays offline
        await till.ctx.client.mode_online()


async def test_offline_by_itself_within_limits_and_back_by_itself(
        make_outage: Callable[..., Any]) -> None:
    till = await make_outage("LG")
    ctx = till.ctx
    first = await sale(ctx, Decimal("10.00"))
    assert first.outcome == "approved" and first.entry.offline is None
    await till.host(False)
    # the host goes away under a sale: not charged, and the till is offline by itself
    away = await sale(ctx, Decimal("20.00"))
    assert away.outcome == "error" and away.message == offline.HOST_AWAY_STORING
    now = await offline.mode(ctx)
    assert now.offline and now.automatic and now.actor == offline.SYSTEM
    stored = await sale(ctx, Decimal("20.00"))
    assert stored.outcome == "approved" and stored.entry.offline == "stored"
    kept = await sale(ctx, Decimal("30.00"))
    assert kept.entry.offline == "stored"
    # the limits, each in one line, before anything is journaled or the pad asked
    before = await till.rows()
    for call, words in (
            (sale(ctx, Decimal("50.01")), "max_sale"),
            (sale(ctx, Decimal("40.00")), "max_total"),
            (sale(ctx, Decimal("5.00"), giftcard=GiftCard()), "gift card"),
            (authorize(ctx, Decimal("5.00")), "tab"),
            (sale(ctx, Decimal("5.00"), card=KeyedCard(VISA, "1230")), "keyed")):
        with pytest.raises(ValidationError) as refused:
            await call
        assert refused.value.field == "offline" and words in refused.value.rule
    assert await till.rows() == before
    assert not ctx.pinpad.busy
    # the oldest stored payment's age: a warning within an hour of max_hours, then a refusal
    held = await offline.stored(ctx)
    later = datetime.now(UTC) + timedelta(hours=23, minutes=30)
    assert not held.near_limit(Decimal(24)) and held.near_limit(Decimal(24), later)
    assert held.hours_left(Decimal(24), later) == Decimal("0.50")
    limits = ctx.offline
    # (a limit of a fraction of a second: no profile takes it, the test waits less)
    ctx.offline = OfflineOptions.model_construct(**{**limits.model_dump(), "max_hours": Decimal("0.0001")})
    await asyncio.sleep(0.4)
    with pytest.raises(ValidationError) as aged:
        await sale(ctx, Decimal("1.00"))
    assert "max_hours" in aged.value.rule
    ctx.offline = limits
    status = await offline.status(ctx)
    assert status["offline"] and status["stored"]["count"] == 2
    assert status["stored"]["amount"] == "50.00" and status["limits"]["max_sale"] == "50.00"
    # the host declines one of them when it comes back
    await till.decline_on_forward(str(stored.entry.invoice))
    assert not await offline.probe(ctx)  # still away: still offline
    await till.host(True)
    assert await offline.probe(ctx)
    assert not (await offline.mode(ctx)).offline
    declined = await ctx.journal.get(stored.entry.id)
    assert declined.state is State.DECLINED_ON_FORWARD and declined.offline == "forwarded"
    assert "collect" in (declined.message or "")
    forwarded = await ctx.journal.get(kept.entry.id)
    assert forwarded.state is State.APPROVED and forwarded.offline == "forwarded"
    status = await offline.status(ctx)
    assert status["stored"]["count"] == 0
    assert [d["invoice"] for d in status["declined_on_forward"]] == [stored.entry.invoice]
    # counted apart: in no sale, in its own bucket (the X report, the store read the same)
    totals = await ctx.journal.totals()
    assert totals.amount("declined_on_forward") == Decimal("20.00")
    assert totals.amount("sale") == Decimal("40.00")
    x = _x_report(till)
    assert x["declined_on_forward"] == {"count": 1, "amount": "20.00"}
    assert x["by_tender"]["card"] == {"count": 2, "amount": "40.00"}
    assert ["summary", "declined_on_forward", "1", "20.00"] in list(
        csv.reader(report_csv(x).splitlines()))
    # a second settling changes nothing (another process, a restart)
    assert await offline.settle_forwarded(ctx) == {"forwarded": 0, "declined_on_forward": 0,
                                                    "still_stored": 0}


async def test_a_ticket_over_the_limit_takes_another_tender(make_outage: Callable[..., Any]) -> None:
    till = await make_outage("LG")
    await till.host(False)
    await offline.go_offline(till.ctx, "test")
    settings = TicketSettings()
    session = await TicketSession.start(till.ctx, settings)
    await session.add_line("Coat", Decimal("70.00"))
    with pytest.raises(ValidationError) as refused:
        await session.pay(Tender("card"))
    assert "max_sale" in refused.value.rule
    ticket = await session.pay(Tender("card", Decimal("45.00")))
    assert ticket.remaining == Decimal("25.00")
    assert ticket.tenders[-1].outcome == "approved"


async def test_hd_refuses_a_card_in_one_line_and_takes_a_voice_code(
        make_outage: Callable[..., Any]) -> None:
    till = await make_outage("HD")
    await till.host(False)
    card = KeyedCard(VISA, "1230")
    refused = await sale(till.ctx, Decimal("12.00"), card=card)
    assert refused.outcome == "error" and refused.message == offline.HOST_AWAY_NO_STORE
    assert not (await offline.mode(till.ctx)).offline  # no gateway to store in
    # the next card tender is refused before anything is journaled (or a pad asked) ...
    rows = await till.rows()
    with pytest.raises(ValidationError) as before_pad:
        await sale(till.ctx, Decimal("12.00"), card=card)
    assert before_pad.value.field == "offline" and "manual sale" in before_pad.value.rule
    assert await till.rows() == rows
    # ... until probe_s has passed: then one asks the host again (here: still away)
    assert till.ctx.watch is not None and till.ctx.watch.away(till.ctx.offline.probe_s)
    assert not till.ctx.watch.away(0.0)
    with pytest.raises(ManagerNeeded):
        await manual_sale(till.ctx, Decimal("12.00"), authorization_code="AB12", card=card)
    with pytest.raises(ValidationError) as bad:
        await manual_sale(till.ctx, Decimal("12.00"), authorization_code="AB-12!", card=card)
    assert bad.value.field == "authorization_code"
    manager = Clerk(id=9, name="Mia", pin_hash=pin_hash("2222"), role="manager")
    done = await manual_sale(till.ctx, Decimal("12.00"), authorization_code="ab12", card=card,
                             manager=manager)
    assert done.outcome == "approved" and done.entry.kind is Kind.MANUAL_SALE
    notes = [e for e in await till.ctx.journal.events(done.entry.id) if e.type == "manager_approved"]
    assert notes and notes[0].actor == "9"
    assert notes[0].data["_note"]["authorization_code"] == "AB12"


async def test_the_first_card_tender_after_the_host_returns_goes_online(
        make_outage: Callable[..., Any]) -> None:
    """Offline by itself, the till does not wait for its next probe: a card tender asks the host
    first, so the first sale after it answers again is online and what was stored is settled."""
    till = await make_outage("LG")
    ctx = till.ctx
    await till.host(False)
    assert (await sale(ctx, Decimal("20.00"))).message == offline.HOST_AWAY_STORING
    stored = await sale(ctx, Decimal("20.00"))
    assert stored.entry.offline == "stored"
    [held] = (await offline.status(ctx))["stored"]["payments"]  # the manager's row
    assert (held["invoice"], held["amount"], held["card_last4"]) == (
        stored.entry.invoice, "20.00", stored.entry.card_last4)
    assert held["hours_left"] in ("24.00", "23.99") and held["at"] == stored.entry.created_at
    await till.host(True)  # no probe ran since: the journal still says offline
    assert (await offline.mode(ctx)).offline
    online = await sale(ctx, Decimal("60.00"))  # over max_sale: online, no limit applies
    assert online.outcome == "approved" and online.entry.offline is None
    assert not (await offline.mode(ctx)).offline
    assert (await ctx.journal.get(stored.entry.id)).offline == "forwarded"
    # a manager's switch is the manager's to end: the tender does not bring it back
    await ctx.client.mode_offline()
    await ctx.journal.note(None, "mode_offline", actor="manager")
    with pytest.raises(ValidationError) as refused:
        await sale(ctx, Decimal("60.00"))
    assert "max_sale" in refused.value.rule
