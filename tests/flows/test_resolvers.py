"""The resolvers of the kinds the invoice lookup cannot tell (gift card requests, QR payments)
come from the composition root (issue #36): the runtime passes them to the flow context, and a
context without one refuses to settle such an entry rather than asking the invoice lookup (which
would call a landed reload "not charged")."""

from __future__ import annotations

import dataclasses
from decimal import Decimal as D
from typing import Any

import pytest

from cashier import runtime
from cashier.flows import giftcards as gc
from cashier.flows import qr
from cashier.flows.base import OWN_RESOLVER_KINDS, RecoveryPolicy, resolve
from cashier.flows.events import PaymentChanged
from cashier.journal.model import Kind, State
from cashier.sandbox.faults import FaultRule

NUMBER = "2664650000001234"


def test_the_runtime_passes_a_resolver_for_each_kind_that_needs_one() -> None:
    assert set(runtime.RESOLVERS) == OWN_RESOLVER_KINDS
    assert runtime.RESOLVERS[Kind.QR] is qr.resolve_qr
    assert {runtime.RESOLVERS[k] for k in OWN_RESOLVER_KINDS - {Kind.QR}} == {gc.resolve_giftcard}


async def test_a_lost_reload_is_settled_by_the_resolver_the_runtime_passed(make_till: Any) -> None:
    till = await make_till("LG", policy=RecoveryPolicy(grace_s=0.0, delays_s=(0.0,)))
    assert till.ctx.resolvers == runtime.RESOLVERS
    card = gc.GiftCard(number=NUMBER)
    await gc.activate(till.ctx, card, D("20.00"))
    await till.fault("drop_after_commit", path="/giftcards/reload", count=1)

    def after_sent(event: Any) -> None:  # the card cannot be asked right after the lost answer
        if isinstance(event, PaymentChanged) and event.entry.state is State.SENT:
            till.sandbox.faults.add([FaultRule("/api/rest/v1/giftcards/balance", "reset", count=1)])

    stop = till.ctx.bus.subscribe(after_sent)
    lost = await gc.reload(till.ctx, card, D("7.00"))
    stop()
    assert lost.outcome == "unknown"
    unwired = dataclasses.replace(till.ctx, resolvers={})
    with pytest.raises(LookupError, match="giftcard_reload"):
        await resolve(unwired, lost.entry)
    assert (await till.journal.get(lost.entry.id)).state is State.UNKNOWN  # nothing guessed
    settled = await resolve(till.ctx, lost.entry)
    assert (settled.state, settled.approved) == (State.APPROVED, D("7.00"))
