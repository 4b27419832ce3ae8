"""The PIN pad is one resource: while a payment waits on it, a second one is refused at once,
before anything is journaled or sent (never a "PINPAD BUSY" host error journaled for $0.00)."""

from __future__ import annotations

import asyncio
from decimal import Decimal as D
from typing import Any

import pytest

from cashier.flows import giftcards
from cashier.flows.base import PinPadBusy
from cashier.flows.payments import authorize, refund, sale


async def test_a_second_pad_payment_is_refused_before_it_is_journaled(make_till: Any) -> None:
    till = await make_till("LG")
    prompts: list[Any] = []
    terminal = str(till.rt.client.settings.terminal_id or "1")
    detach = till.sandbox.state.terminals.attach(terminal, prompts.append)
    first = asyncio.create_task(sale(till.ctx, D("12.50")))
    for _ in range(500):
        if prompts:
            break
        await asyncio.sleep(0.01)
    assert prompts and till.ctx.pinpad.holder == "a sale of 12.50"
    for second in (authorize(till.ctx, D("5.00")), sale(till.ctx, D("3.00")),
                   refund(till.ctx, D("1.00")), giftcards.balance(till.ctx, giftcards.GiftCard())):
        with pytest.raises(PinPadBusy, match=r"PIN pad: is busy with a sale of 12\.50"):
            await second
    assert len(await till.journal.search()) == 1  # only the first payment was journaled
    while not first.done():  # the customer answers the pad (a tip prompt, then the card)
        prompt = prompts[-1]
        if not prompt.done:
            if prompt.kind == "tip":
                prompt.choose_tip("notip")
            elif prompt.kind == "card":
                prompt.present_card("4321000000001119", "T")
        await asyncio.sleep(0.01)
    assert first.result().outcome == "approved"
    assert not till.ctx.pinpad.busy  # released with the outcome
    detach()
    assert (await sale(till.ctx, D("3.00"))).outcome == "approved"  # the pad is free again
