"""A day of every kind of money movement against the in-process sandbox (issue #28): the books'
tests balance it with the host, the window's books screens show it."""

from __future__ import annotations

import asyncio
from decimal import Decimal as D
from typing import Any

import httpx

from cashier.flows import giftcards as gc
from cashier.flows import payments, qr
from cashier.flows.payments import KeyedCard
from cashier.flows.recovery import void
from cashier.journal.model import State

CARD = KeyedCard("4321000000001119", "1230")
GIFT = "2664650000005678"
FAST = qr.QrPolling(first_s=0.02, factor=1.5, max_s=0.05, wait_s=5.0)


async def pay_qr(till: Any, amount: D) -> Any:
    """A QR payment the customer's phone pays (through the sandbox's control)."""
    tasks: list[asyncio.Task[Any]] = []

    async def scan(code: str) -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=till.sandbox.asgi),
                                     base_url="http://sandbox") as control:
            await control.post("/_sandbox/qrpayments/pay", json={"qrCode": code})

    unsubscribe = till.ctx.bus.subscribe(lambda e: tasks.append(asyncio.ensure_future(scan(e.code))),
                                         qr.QrShown)
    try:
        return await qr.pay(till.ctx, amount, polling=FAST)
    finally:
        if callable(unsubscribe):
            unsubscribe()
        await asyncio.gather(*tasks)


async def a_day_of_every_kind(till: Any) -> None:
    """Card (keyed), gift card (whole and partial), QR, a captured tab with a tip, a refund, a void,
    and the gift card's own balance moves (which the host keeps out of the card batch)."""
    ctx = till.ctx
    assert (await payments.sale(ctx, D("12.50"), card=CARD)).outcome == "approved"
    assert (await payments.sale(ctx, D("7.25"), tip=D("1.00"), card=CARD)).outcome == "approved"
    card = gc.GiftCard(number=GIFT)
    assert (await gc.activate(ctx, card, D("30.00"))).outcome == "approved"
    assert (await gc.reload(ctx, card, D("10.00"))).outcome == "approved"
    assert (await payments.sale(ctx, D("15.00"), giftcard=card)).outcome == "approved"
    short = await payments.sale(ctx, D("40.00"), giftcard=card)   # 25.00 left on the card
    assert (short.entry.approved, short.entry.requested) == (D("25.00"), D("40.00"))
    assert (await pay_qr(till, D("9.99"))).outcome == "approved"
    tab = await payments.authorize(ctx, D("20.00"), card=CARD)
    assert (await payments.capture(ctx, str(tab.entry.invoice), tip=D("3.00"))).outcome == "captured"
    sold = await payments.sale(ctx, D("50.00"), card=CARD)
    assert (await payments.refund(ctx, D("5.00"),
                                  original_invoice=str(sold.entry.invoice))).outcome == "approved"
    gone = await payments.sale(ctx, D("8.00"), card=CARD)
    assert (await void(ctx, str(gone.entry.invoice))).entry.state is State.VOIDED
