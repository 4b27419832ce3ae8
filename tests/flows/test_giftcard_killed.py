"""Issue 11 item 4: gift card reloads killed before they reached the host settle as not done."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from cashier.flows import giftcards as gc
from cashier.flows.base import FlowContext, RecoveryPolicy
from cashier.flows.recovery import recover
from cashier.journal.model import Entry, Kind, NewEntry, Op, State
from tests.support.tills import GIFT_NUMBER, gift_ledger


async def killed_reload(till: Any, card: gc.GiftCard, amount: D) -> Entry:
    """What SIGKILL leaves after SENT was committed and before the request left: intent,
    snapshot of the card, SENT, and nothing at the host."""
    ctx: FlowContext = till.ctx
    entry = await ctx.journal.create(NewEntry(Kind.GIFTCARD_RELOAD, amount, actor=ctx.actor,
                                     card=card.masked, clerk=ctx.actor, op=Op.GIFTCARD))
    snap = await gc._ask_balance(ctx, str(entry.invoice), card.wire())
    await gc._snapshot_note(ctx, entry, snap)
    return await ctx.move(entry, State.SENT, op=Op.GIFTCARD, requested=amount, pending=amount,
                          token=snap.token)


async def test_killed_reloads_between_others_settle_as_not_done(make_till: Any) -> None:
    till = await make_till("HD", policy=RecoveryPolicy(grace_s=0.0, delays_s=(0.0,)))
    card = gc.GiftCard(number=GIFT_NUMBER)
    assert (await gc.activate(till.ctx, card, D("20.00"))).outcome == "approved"
    killed = []
    for lost, landed in ((D("5.00"), D("7.00")), (D("3.00"), D("5.00")), (D("4.00"), D("5.00")),
                         (D("6.00"), D("1.00")), (D("5.00"), D("2.00")), (D("8.00"), None)):
        killed.append(await killed_reload(till, card, lost))
        if landed is not None:
            assert (await gc.reload(till.ctx, card, landed)).outcome == "approved"
    report = await recover(till.ctx)
    assert not report.still_open
    for entry in killed:
        settled = await till.journal.get(entry.id)
        # a 5.00 reload that never landed is not mistaken for the other 5.00 reloads
        assert settled.state is State.ERROR and settled.approved == 0, settled.message
    balance = D((await gift_ledger(till))[GIFT_NUMBER[-4:]]["balance"])
    assert balance == D("20.00") + D("7.00") + D("5.00") + D("5.00") + D("1.00") + D("2.00")
    assert await till.journal.unresolved() == []


async def test_the_manager_settles_what_the_history_cannot(make_till: Any) -> None:
    """Another till used the card meanwhile: recovery leaves it to a person, whose decision is
    journaled (actor manager, who, why)."""
    from cashier.errors import ValidationError

    here = await make_till("HD", policy=RecoveryPolicy(grace_s=0.0, delays_s=(0.0,)))
    there = await make_till("HD", till_number=2, sandbox=here.sandbox)
    card = gc.GiftCard(number=GIFT_NUMBER)
    assert (await gc.activate(here.ctx, card, D("20.00"))).outcome == "approved"
    lost = await killed_reload(here, card, D("5.00"))
    assert (await gc.reload(there.ctx, card, D("7.00"))).outcome == "approved"
    report = await recover(here.ctx)
    assert [e.id for e in report.still_open] == [lost.id]  # a line no request here explains
    with pytest.raises(ValidationError, match="manager"):
        await gc.settle(here.ctx, str(lost.invoice), landed=False, manager_id="", reason="x" * 5)
    result = await gc.settle(here.ctx, str(lost.invoice), landed=False, manager_id="m7",
                             reason="card history: only till 2's 7.00 reload")
    assert result.outcome == "error" and "manager m7" in result.message
    events = await here.journal.events(lost.id)
    assert [(e.actor, e.type) for e in events[-2:]] == [("manager", "manager_settled"),
                                                        ("manager", "error")]
    assert await here.journal.unresolved() == []
    with pytest.raises(ValidationError, match="already settled"):
        await gc.settle(here.ctx, str(lost.invoice), landed=True, manager_id="m7", reason="again")
