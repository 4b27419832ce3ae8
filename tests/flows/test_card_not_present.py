"""Card-not-present flows (cashier.flows.card_not_present) against the real Charge API sandbox: in-process
through the till's runtime, and over a socket for recovery at start-up."""

from __future__ import annotations

import asyncio
import logging
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cashier.chargeapi import ChargeApiClient
from cashier.chargeapi.journaled import JournaledChargeApi
from cashier.config import load_profile
from cashier.errors import ValidationError
from cashier.flows import card_not_present
from cashier.flows.recovery import recover
from cashier.journal import Kind, Op, State
from cashier.journal.model import NewEntry
from cashier.runtime import open_runtime
from cashier.sandbox.chargeapi.testcards import TEST_CARDS
from tests.support.card_numbers import card_numbers_at_rest
from tests.support.charge_api import Served

VISA = "4242424242424242"
DECLINED = next(c.number for c in TEST_CARDS if c.outcome == "card_declined")
SLOW = next(c.number for c in TEST_CARDS if c.outcome == "slow")
FAST = card_not_present.LinkWatch(first_s=0.02, factor=1.5, max_s=0.1, timeout_s=10)


def card(number: str = VISA) -> card_not_present.CardDetails:
    return card_not_present.CardDetails.parse(number, "12/40", "123", "94107")


def files_hold_pan(*paths: Path) -> bool:
    """A Luhn-valid 13-19 digit run anywhere in these files (sqlite pages and WAL included)."""
    return bool(card_numbers_at_rest(*(p for p in paths if p.exists())))


async def test_phone_order_approved_keeps_no_card_number(make_till: Any, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    till = await make_till()
    result = await card_not_present.phone_order(till.ctx, Decimal("42.10"), card(), currency="USD")
    assert result.outcome == "approved" and result.charge_id and result.charge_id.startswith("char_")
    entry = result.entry
    assert entry is not None and entry.kind is Kind.CHARGE and entry.op is Op.CHARGE
    assert entry.state is State.APPROVED and entry.approved == Decimal("42.10")
    assert entry.card == "424242XXXXXX4242" and entry.auth_code == result.charge_id
    assert entry.token is not None and entry.token.startswith("tok_")  # the token, never the number
    charge = await till.ctx.charge_api.client.get_charge(result.charge_id)
    assert charge["amount"] == 4210 and charge["captured"] is True
    journal = till.rt.profile.resolved_journal_path
    assert not files_hold_pan(journal, journal.with_name(journal.name + "-wal"))
    assert VISA not in caplog.text and VISA not in repr(card())
    totals = await till.journal.totals()
    assert totals.amount("charge_sale") == Decimal("42.10") and totals.amount("sale") == 0


async def test_phone_order_card_error_is_a_decline(make_till: Any) -> None:
    till = await make_till()
    result = await card_not_present.phone_order(till.ctx, Decimal("5.00"), card(DECLINED))
    assert result.outcome == "declined" and result.code == "card_declined"
    assert result.entry is not None and result.entry.state is State.DECLINED
    assert result.entry.response_code == "card_declined"
    assert (await till.journal.totals()).amount("charge_sale") == 0


async def test_bad_card_details_are_named_and_nothing_is_sent(make_till: Any) -> None:
    till = await make_till()
    cases = [(("4242 4242 4242 4241", "12/40"), "card number"), (("4242", "12/40"), "card number"),
             ((VISA, "13/40"), "expiry"), ((VISA, "01/20"), "expiry"),
             ((VISA, "12/40", "12a"), "security code"), ((VISA, "12/40", "123", "94#07"), "postal code")]
    for args, field in cases:
        with pytest.raises(ValidationError) as info:
            card_not_present.CardDetails.parse(*args)
        assert info.value.field == field
    with pytest.raises(ValidationError, match="amount"):
        await card_not_present.phone_order(till.ctx, Decimal("0"), card())
    assert await till.journal.search() == []


async def test_pay_by_link_paid_then_refunded_from_the_journal(make_till: Any) -> None:
    till = await make_till()
    seen: list[Any] = []
    till.ctx.bus.subscribe(seen.append)
    link = await card_not_present.create_link(till.ctx, Decimal("19.99"))
    assert link.active and link.url.endswith(link.id) and link.amount == Decimal("19.99")
    forms: list[Any] = []
    till.sandbox.state.terminals.observe("1742", lambda ev: forms.append(ev.prompt.form)
                                         if ev.prompt is not None and ev.prompt.kind == "form" else None)
    watching = asyncio.create_task(card_not_present.watch_link(till.ctx, link, watch=FAST, pad_form="QRPAY"))
    await asyncio.sleep(0.05)
    assert forms and forms[0]["items"] == [{"key": "QR", "value": link.url}]  # also on the LG pad
    paid = await card_not_present.training_customer_pays_link(till.ctx, link)
    outcome = await asyncio.wait_for(watching, 5)
    assert outcome.reason == "paid" and [e.auth_code for e in outcome.paid] == [paid.id]
    entry = outcome.paid[0]
    assert entry.state is State.APPROVED and entry.approved == Decimal("19.99")
    assert entry.card == "424242XXXXXX4242" and entry.token == link.id
    assert not outcome.link.active  # one successful charge and the link closed itself
    assert any(isinstance(e, card_not_present.LinkCreated) and e.url == link.url for e in seen)
    assert any(isinstance(e, card_not_present.LinkChargeSeen) and e.charge_id == paid.id for e in seen)
    again = await card_not_present.record_link_charge(till.ctx, paid)  # seen again: the same entry
    assert again.id == entry.id and len(await till.journal.search()) == 1
    part = await card_not_present.refund_charge(till.ctx, entry, Decimal("4.99"))
    assert part.outcome == "approved" and part.entry is not None and part.entry.op is Op.REFUND
    original = await till.journal.get(entry.id)
    assert original.refunded == Decimal("4.99") and card_not_present.refundable(original) == Decimal("15.00")
    with pytest.raises(ValidationError, match=r"at most 15\.00"):
        await card_not_present.refund_charge(till.ctx, original, Decimal("15.01"))
    rest = await card_not_present.refund_charge(till.ctx, original)
    assert rest.outcome == "approved" and rest.entry is not None and rest.entry.refunded == Decimal("15.00")
    assert card_not_present.refundable(await till.journal.get(entry.id)) == 0
    charge = await till.ctx.charge_api.client.get_charge(paid.id)
    assert charge["amountRefunded"] == 1999
    totals = await till.journal.totals()
    assert totals.amount("charge_sale") == Decimal("19.99")
    assert totals.amount("charge_refund") == Decimal("19.99") and totals.count("charge_refund") == 2


async def test_link_watch_cancelled_deactivates_the_link(make_till: Any) -> None:
    till = await make_till()
    link = await card_not_present.create_link(till.ctx, Decimal("7.00"))
    cancel = asyncio.Event()
    watching = asyncio.create_task(card_not_present.watch_link(till.ctx, link, cancel=cancel, watch=FAST))
    await asyncio.sleep(0.1)
    cancel.set()
    outcome = await asyncio.wait_for(watching, 5)
    assert outcome.reason == "cancelled" and not outcome.link.active and outcome.paid == []
    assert outcome.link.deactivation_reason == "manual"
    with pytest.raises(Exception, match="deactivated"):  # nobody can pay it any more
        await card_not_present.training_customer_pays_link(till.ctx, link)
    assert await till.journal.search() == []


async def test_customer_default_card_charge_and_add_card(make_till: Any) -> None:
    till = await make_till()
    ctx = till.ctx
    customer = await card_not_present.create_customer(ctx, "ana@example.com", description="Ana")
    assert customer.cards == () and customer.default_card_id is None
    with pytest.raises(ValidationError, match="no default card"):
        await card_not_present.charge_customer(ctx, customer, Decimal("3.00"))
    token = (await ctx.charge_api.client.create_token("5555555555554444", "11", "2041")).id
    customer = await card_not_present.add_card(ctx, customer, token=token)
    assert customer.default_card is not None and customer.default_card.masked == "555555XXXXXX4444"
    customer = await card_not_present.add_card(ctx, customer, card=card(), make_default=False)
    assert len(customer.cards) == 2 and customer.default_card is not None
    assert customer.default_card.masked == "555555XXXXXX4444"
    by_mail = await card_not_present.find_customers(ctx, "ana@example.com")
    by_id = await card_not_present.find_customers(ctx, customer.id)
    assert [c.id for c in by_mail] == [c.id for c in by_id] == [customer.id]
    assert await card_not_present.find_customers(ctx, "cust_doesnotexist") == []
    with pytest.raises(ValidationError, match="e-mail address or a customer id"):
        await card_not_present.find_customers(ctx, "ana")
    result = await card_not_present.charge_customer(ctx, by_id[0], Decimal("12.00"))
    assert result.outcome == "approved" and result.card == "555555XXXXXX4444"
    charge = await ctx.charge_api.client.get_charge(str(result.charge_id))
    assert charge["customerId"] == customer.id and charge["amount"] == 1200


async def test_totals_count_charge_api_money_honestly(make_till: Any) -> None:
    """Authorization open until captured, capture counted once, refunds reduce, release moves none."""
    till = await make_till()
    gw = till.ctx.charge_api
    client = gw.client
    sale = await gw.charge(Decimal("10.00"), "USD", card=(await client.create_token(VISA, "12", "2040")).id)
    auth = await gw.charge(Decimal("20.00"), "USD", captured=False,
                           card=(await client.create_token(VISA, "12", "2040")).id)
    held = await gw.charge(Decimal("8.00"), "USD", captured=False,
                           card=(await client.create_token(VISA, "12", "2040")).id)
    t = await till.journal.totals()
    assert t.amount("charge_sale") == Decimal("10.00") and t.amount("charge_auth_open") == Decimal("28.00")
    assert auth.result is not None and held.result is not None and sale.result is not None
    await gw.capture(auth.result.id)
    assert (await till.journal.get(auth.entry.id)).state is State.CAPTURED
    await gw.refund(sale.result.id, Decimal("4.00"))
    with pytest.raises(ValidationError, match="whole"):  # not captured: given back whole or not at all
        await card_not_present.refund_charge(till.ctx, await till.journal.get(held.entry.id), Decimal("1.00"))
    released = await card_not_present.refund_charge(till.ctx, await till.journal.get(held.entry.id))
    assert released.outcome == "approved" and released.entry is not None and released.entry.op is Op.VOID
    t = await till.journal.totals()
    assert t.amount("charge_auth_open") == 0
    assert t.amount("charge_capture") == Decimal("20.00") and t.amount("charge_sale") == Decimal("10.00")
    assert t.amount("charge_refund") == Decimal("4.00") and t.count("charge_refund") == 1
    assert t.amount("sale") == 0 and t.amount("capture") == 0  # the host's batch is another matter
    store = till.journal.recorder  # the projection and totals stay a fold of the events
    _, folded = await till.journal._write(store.replay)
    assert folded == await till.journal._write(store.live_totals)


async def test_startup_recovery_replays_a_lost_charge_over_a_socket(
        served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASHIER_CHARGE_API_SECRET_KEY", "sk_test_startup")
    profile = load_profile(None, charge_api_url=served.url, journal_path=tmp_path / "journal.sqlite")
    rt = await open_runtime(profile)
    try:
        assert rt.ctx.charge_api is not None and rt.ctx.charge_api.client.base_url == served.url
        async with ChargeApiClient("sk_test_startup", served.url, timeout_s=0.2, max_retries=0) as impatient:
            tok = (await rt.ctx.charge_api.client.create_token(SLOW, "12", "2040")).id
            lost = await JournaledChargeApi(impatient, rt.journal).charge(Decimal("12.34"), "USD", card=tok)
        assert lost.state is State.UNKNOWN
        report = await recover(rt.ctx)
        assert [e.id for e in report.resolved] == [lost.entry.id] and report.still_open == []
        assert report.resolved[0].state is State.APPROVED
        resolved: Any = report.as_dict()["resolved"]
        assert resolved[0]["idempotency_key"] == lost.entry.idempotency_key
        assert len((await rt.ctx.charge_api.client.list_charges()).objects) == 1  # replayed, not twice
    finally:
        await rt.close()


async def test_recovery_without_a_charge_api_leaves_its_entries_open(tmp_path: Path) -> None:
    profile = load_profile(None, journal_path=tmp_path / "journal.sqlite")
    rt = await open_runtime(profile)
    try:
        await rt.ctx.charge_api.client.aclose()
        rt.ctx.charge_api = None  # as on a till with a host but no charge_api_url
        entry = await rt.journal.create(NewEntry(Kind.CHARGE, Decimal("1.00"), actor="1",
                                                 idempotency_key="k-open",
                                        op=Op.CHARGE, sent=True))
        report = await recover(rt.ctx)
        assert [e.id for e in report.still_open] == [entry.id] and report.resolved == []
    finally:
        await rt.close()


async def test_cashier_recover_command_also_finishes_charges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A crash right after a charge went (training till): ``cashier recover`` re-sends it by its key."""
    import json

    from cashier.chargeapi.journaled import REQUEST_NOTE
    from cashier.cli import main

    path = tmp_path / "journal.sqlite"
    rt = await open_runtime(load_profile(None, journal_path=path))
    try:
        tok = (await rt.ctx.charge_api.client.create_token(VISA, "12", "2040")).id
        entry = await rt.journal.create(NewEntry(Kind.CHARGE, Decimal("6.00"), actor="1",
                                                 idempotency_key="k-cli",
                                        op=Op.CHARGE, token=tok))
        await rt.journal.note(entry.id, REQUEST_NOTE, actor="1", method="POST", path="/charges",
                              params={"amount": 600, "currency": "USD", "card": tok})
        await rt.journal.transition(entry.id, State.SENT, actor="1")
    finally:
        await rt.close()
    monkeypatch.setenv("CASHIER_JOURNAL_PATH", str(path))
    code = await asyncio.to_thread(main, ["recover"])
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0 and report["still_open"] == []
    assert report["resolved"] == [{"invoice": None, "state": "approved", "approved": "6.00",
                                   "idempotency_key": "k-cli"}]
