"""Gift card flows against the in-process sandbox (HD, LG) and one over a real socket: the
journal and the sandbox's gift card ledger agree after every request, lost answers included."""

from __future__ import annotations

import json
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.config import load_profile
from cashier.errors import ValidationError
from cashier.flows import giftcards as gc
from cashier.flows.base import RecoveryPolicy
from cashier.flows.events import DevicePrompt, PaymentChanged
from cashier.flows.recovery import recover, void
from cashier.journal.model import Kind, State
from cashier.runtime import open_runtime
from cashier.sandbox.faults import FaultRule
from tests.support.profiles import write_profile
from tests.support.tills import GIFT_NUMBER, gift_ledger

PAD_CARD = "2664654648774"  # what the sandbox's default customer presents for gift cards


async def assert_no_full_number(till: Any, *numbers: str) -> None:
    rows = [e.as_dict() for e in await till.journal.search()]
    events = [{"type": e.type, "data": e.data} for e in await till.journal.events()]
    dump = json.dumps([rows, events], default=str)
    for number in numbers:
        assert number not in dump


@pytest.mark.parametrize("option", ["HD", "LG"])
async def test_lifecycle_keyed_card_agrees_with_the_host(make_till: Any, option: str) -> None:
    till = await make_till(option)
    card = gc.GiftCard(number=GIFT_NUMBER)
    act = await gc.activate(till.ctx, card, D("20.00"))
    assert (act.outcome, act.entry.approved, act.balance) == ("approved", D("20.00"), D("20.00"))
    assert act.entry.card == "266465XXXXXX1234" and act.entry.token
    rel = await gc.reload(till.ctx, card, D("5.50"))
    assert (rel.outcome, rel.balance, rel.entry.kind) == ("approved", D("25.50"), Kind.GIFTCARD_RELOAD)
    bal = await gc.balance(till.ctx, gc.GiftCard(token=act.entry.token))
    assert bal.balance == D("25.50") and bal.history is not None
    assert [(h.type, h.amount) for h in bal.history] == [("Activate", D("20.00")), ("Reload", D("5.50"))]
    assert bal.invoice not in (act.entry.invoice, rel.entry.invoice)  # its own, never reused
    off = await gc.deactivate(till.ctx, card, reason="Lost")
    assert (off.outcome, off.entry.approved) == ("approved", D(0))
    assert (await gift_ledger(till))["1234"]["state"] == "deactivated"
    assert (await gc.reactivate(till.ctx, card)).outcome == "approved"
    cash = await gc.cashback(till.ctx, card)
    assert cash.outcome == "approved"
    assert (cash.entry.requested, cash.entry.approved) == (D("25.50"), D("25.50"))  # the snapshot
    host = (await gift_ledger(till))["1234"]
    assert (host["state"], D(host["balance"])) == ("deactivated", D(0))
    totals = await till.journal.totals()
    assert totals.amount("giftcard_activate") == D("20.00")
    assert totals.amount("giftcard_reload") == D("5.50")
    assert totals.amount("giftcard_cashback") == D("25.50")
    assert totals.unresolved == 0
    await assert_no_full_number(till, GIFT_NUMBER)


async def test_pad_reads_the_card_once_per_request_on_lg(make_till: Any) -> None:
    till = await make_till("LG")
    prompts: list[DevicePrompt] = []
    till.ctx.bus.subscribe(prompts.append, DevicePrompt)
    act = await gc.activate(till.ctx, gc.GiftCard(), D("10.00"))
    assert act.outcome == "approved" and act.entry.card and act.entry.card.endswith("8774")
    rel = await gc.reload(till.ctx, gc.GiftCard(), D("2.00"))
    assert (rel.outcome, rel.balance) == ("approved", D("12.00"))
    # the pad read was the snapshot; the reload itself went with the token it gave
    events = [e.type for e in await till.journal.events(rel.entry.id)]
    assert events == ["created", "giftcard_snapshot", "sent", "approved"]
    assert rel.entry.token == act.entry.token
    assert len(prompts) == 2
    assert D((await gift_ledger(till))["8774"]["balance"]) == D("12.00")
    await assert_no_full_number(till, PAD_CARD)


@pytest.mark.parametrize("option", ["DCP", "DCC"])
async def test_options_without_gift_cards_are_refused_before_the_journal(make_till: Any,
                                                                        option: str) -> None:
    till = await make_till(option)
    with pytest.raises(ValidationError, match="processing_option"):
        await gc.reload(till.ctx, gc.GiftCard(number=GIFT_NUMBER), D("5.00"))
    assert await till.journal.search() == []


@pytest.mark.parametrize("call,field", [
    (lambda ctx: gc.reload(ctx, gc.GiftCard(number=GIFT_NUMBER), D("0")), "amount"),
    (lambda ctx: gc.reload(ctx, gc.GiftCard(number=GIFT_NUMBER), D("1.005")), "amount"),
    (lambda ctx: gc.reload(ctx, gc.GiftCard(), D("5.00")), "card"),  # HD has no PIN pad
    (lambda ctx: gc.deactivate(ctx, gc.GiftCard(number=GIFT_NUMBER), reason="x" * 33), "reason"),
    (lambda ctx: gc.allocate(ctx, D("5.00"), program_id="P" * 17), "program_id"),
])
async def test_bad_input_names_the_field_and_journals_nothing(make_till: Any, call: Any, field: str) -> None:
    till = await make_till("HD")
    with pytest.raises(ValidationError) as err:
        await call(till.ctx)
    assert err.value.field == field
    assert await till.journal.search() == []


@pytest.mark.parametrize("kwargs,field", [
    ({"number": "12345"}, "card"), ({"number": GIFT_NUMBER, "token": "123"}, "card"),
    ({"token": "bad token!"}, "token"), ({"token": "123", "security_code": "123"}, "security_code"),
])
def test_gift_card_input_is_checked(kwargs: dict[str, str], field: str) -> None:
    with pytest.raises(ValidationError) as err:
        gc.GiftCard(**kwargs)
    assert err.value.field == field
    assert GIFT_NUMBER not in repr(gc.GiftCard(number=GIFT_NUMBER))


async def test_reload_on_an_inactive_card_is_declined_and_moves_nothing(make_till: Any) -> None:
    till = await make_till("HD")
    result = await gc.reload(till.ctx, gc.GiftCard(number="2664650000009999"), D("5.00"))
    assert result.outcome == "declined" and result.entry.host_code == "9101,0"
    assert "9999" not in await gift_ledger(till)
    assert (await till.journal.totals()).amount("giftcard_reload") == D(0)


@pytest.mark.parametrize("option", ["HD", "LG"])
async def test_reload_answer_lost_after_commit_is_settled_by_the_history(make_till: Any,
                                                                         option: str) -> None:
    till = await make_till(option)
    card = gc.GiftCard(number=GIFT_NUMBER)
    await gc.activate(till.ctx, card, D("20.00"))
    await gc.reload(till.ctx, card, D("5.00"))  # an earlier reload of the same amount
    await till.fault("drop_after_commit", path="/giftcards/reload", count=1)
    lost = await gc.reload(till.ctx, card, D("5.00"))
    assert (lost.outcome, lost.entry.approved) == ("approved", D("5.00"))
    types = [e.type for e in await till.journal.events(lost.entry.id)]
    assert types == ["created", "giftcard_snapshot", "sent", "unknown", "approved"]
    host = (await gift_ledger(till))["1234"]
    assert D(host["balance"]) == D("30.00")
    assert (await till.journal.totals()).amount("giftcard_reload") == D("10.00")


async def test_reload_that_never_landed_is_not_charged_and_can_be_retried(make_till: Any) -> None:
    till = await make_till("HD")
    card = gc.GiftCard(number=GIFT_NUMBER)
    await gc.activate(till.ctx, card, D("20.00"))
    await till.fault("reset", path="/giftcards/reload", count=1)
    lost = await gc.reload(till.ctx, card, D("5.00"))
    assert lost.outcome == "error" and "unchanged" in lost.result.message
    assert D((await gift_ledger(till))["1234"]["balance"]) == D("20.00")
    again = await gc.reload(till.ctx, card, D("5.00"))
    assert again.outcome == "approved" and again.balance == D("25.00")


async def test_lost_reload_left_unknown_is_resolved_by_recovery(make_till: Any) -> None:
    till = await make_till("LG", policy=RecoveryPolicy(grace_s=0.0, delays_s=(0.0,)))
    card = gc.GiftCard(number=GIFT_NUMBER)
    await gc.activate(till.ctx, card, D("20.00"))
    await till.fault("drop_after_commit", path="/giftcards/reload", count=1)

    def after_sent(event: Any) -> None:  # the card cannot be asked right after the lost answer
        if isinstance(event, PaymentChanged) and event.entry.state is State.SENT:
            till.sandbox.faults.add([FaultRule("/api/rest/v1/giftcards/balance", "reset", count=1)])

    stop = till.ctx.bus.subscribe(after_sent)
    lost = await gc.reload(till.ctx, card, D("7.00"))
    stop()
    assert lost.outcome == "unknown"
    with pytest.raises(ValidationError, match="giftcard cancel"):  # no DELETE /transactions/invoice
        await void(till.ctx, str(lost.entry.invoice))
    report = await recover(till.ctx)
    assert [e.state for e in report.resolved] == [State.APPROVED] and not report.still_open
    entry = await till.journal.get(lost.entry.id)
    assert entry.approved == D("7.00")
    assert (await till.journal.events(entry.id))[-1].actor == "recovery"
    host = (await gift_ledger(till))["1234"]
    assert D(host["balance"]) == D("20.00") + entry.approved  # journal and ledger agree


async def test_keyed_activation_answer_lost_then_checked(make_till: Any) -> None:
    till = await make_till("HD", policy=RecoveryPolicy(grace_s=0.0, delays_s=(0.0,)))
    await till.fault("drop_after_commit", path="/giftcards/activate", count=1)
    card = gc.GiftCard(number=GIFT_NUMBER)
    act = await gc.activate(till.ctx, card, D("9.00"))
    assert (act.outcome, act.entry.approved) == ("approved", D("9.00")) and act.entry.token
    # a keyed card whose answer and resolution were both lost: recovery cannot ask (no token
    # journaled, never the number); the cashier keys the card again to settle it
    other = gc.GiftCard(number="2664650000005678")
    await till.fault("drop_after_commit", path="/giftcards/activate", count=1)
    await till.fault("reset", path="/giftcards/balance", count=2)  # snapshot is the 1st
    lost = await gc.activate(till.ctx, other, D("4.00"))
    assert lost.outcome == "error" and "could not read the card" in lost.result.message
    await till.clear_faults()
    await till.fault("drop_after_commit", path="/giftcards/activate", count=1)

    def after_sent(event: Any) -> None:
        if isinstance(event, PaymentChanged) and event.entry.state is State.SENT:
            till.sandbox.faults.add([FaultRule("/api/rest/v1/giftcards/balance", "reset", count=1)])

    stop = till.ctx.bus.subscribe(after_sent)
    lost = await gc.activate(till.ctx, other, D("4.00"))
    stop()
    assert lost.outcome == "unknown"
    report = await recover(till.ctx)
    assert [e.invoice for e in report.still_open] == [lost.entry.invoice]
    assert "key the card" in str(report.still_open[0].message)
    settled = await gc.check(till.ctx, str(lost.entry.invoice), other)
    assert (settled.outcome, settled.entry.approved) == ("approved", D("4.00"))
    assert D((await gift_ledger(till))["5678"]["balance"]) == D("4.00")


async def test_cancel_undoes_the_last_request_only(make_till: Any) -> None:
    till = await make_till("HD")
    card = gc.GiftCard(number=GIFT_NUMBER)
    act = await gc.activate(till.ctx, card, D("20.00"))
    rel = await gc.reload(till.ctx, card, D("5.00"))
    with pytest.raises(ValidationError, match="last request"):
        await gc.cancel(till.ctx, str(act.entry.invoice))
    assert (await till.journal.get(act.entry.id)).state is State.APPROVED
    undone = await gc.cancel(till.ctx, str(rel.entry.invoice))
    assert (undone.outcome, undone.balance) == ("voided", D("20.00"))
    assert D((await gift_ledger(till))["1234"]["balance"]) == D("20.00")
    totals = await till.journal.totals()
    assert totals.amount("giftcard_reload") == D(0) and totals.amount("giftcard_activate") == D("20.00")
    with pytest.raises(ValidationError, match="voided"):
        await gc.cancel(till.ctx, str(rel.entry.invoice))


async def test_cancel_answer_lost_is_settled_as_voided(make_till: Any) -> None:
    till = await make_till("LG")
    card = gc.GiftCard(number=GIFT_NUMBER)
    await gc.activate(till.ctx, card, D("20.00"))
    rel = await gc.reload(till.ctx, card, D("4.00"))
    await till.fault("drop_after_commit", path="/giftcards/cancel", count=1)
    undone = await gc.cancel(till.ctx, str(rel.entry.invoice))
    assert undone.outcome == "voided"
    types = [e.type for e in await till.journal.events(rel.entry.id)]
    assert types[-4:] == ["giftcard_snapshot", "sent", "unknown", "voided"]
    assert D((await gift_ledger(till))["1234"]["balance"]) == D("20.00")


async def test_allocate_hands_out_the_number_once_and_journals_it_masked(make_till: Any) -> None:
    till = await make_till("HD")
    new = await gc.allocate(till.ctx, D("15.00"), program_id="P100")
    assert new.outcome == "approved" and new.new_card_number is not None
    number = new.new_card_number
    assert new.entry.card == number[:6] + "X" * (len(number) - 10) + number[-4:]
    assert "new_card_number" not in new.as_dict() and new.as_dict(show_number=True)["new_card_number"]
    assert D((await gift_ledger(till))[number[-4:]]["balance"]) == D("15.00")
    assert number not in repr(new)
    await assert_no_full_number(till, number)
    more = await gc.reload(till.ctx, gc.GiftCard(number=number), D("1.00"))
    assert more.balance == D("16.00")


@pytest.mark.socket
async def test_gift_cards_over_a_real_socket(serve_sandbox: Any, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    served = serve_sandbox("LG")
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    profile = load_profile(write_profile(tmp_path / "p.toml", host_url=served.api, option="LG",
                                         journal=tmp_path / "s.sqlite"))
    rt = await open_runtime(profile)
    try:
        card = gc.GiftCard(number=GIFT_NUMBER)
        assert (await gc.activate(rt.ctx, card, D("20.00"))).outcome == "approved"
        with served.control() as control:
            control.post("/_sandbox/faults", json={"path": "/api/rest/v1/giftcards/reload",
                                                   "action": "drop_after_commit", "count": 1})
        lost = await gc.reload(rt.ctx, card, D("3.00"))
    finally:
        await rt.close()
    assert (lost.outcome, lost.entry.approved) == ("approved", D("3.00"))
    with served.control() as control:
        cards = control.get("/_sandbox/ledger").json()["giftcards"]
    assert [D(c["balance"]) for c in cards if c["number"].endswith("1234")] == [D("23.00")]
