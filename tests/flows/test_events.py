"""The journal is the one publisher of every entry's change; subscribers pick their own entries."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from cashier.flows import card_not_present
from cashier.flows.events import DevicePrompt, EventBus, PaymentChanged, QrShown, matches
from cashier.flows.payments import sale
from cashier.journal import Kind, State

VISA = "4242424242424242"


def _card() -> card_not_present.CardDetails:
    return card_not_present.CardDetails.parse(VISA, "12/40", "123", "94107")


async def test_charge_api_transitions_are_published_and_a_refund_shows_on_its_original(
        make_till: Any) -> None:
    till = await make_till()
    charges: list[PaymentChanged] = []
    till.ctx.bus.subscribe(charges.append, PaymentChanged, entry_kinds={Kind.CHARGE})
    sales: list[PaymentChanged] = []
    till.ctx.bus.subscribe(sales.append, PaymentChanged, entry_kinds={"sale"})
    paid = await card_not_present.phone_order(till.ctx, Decimal("10.00"), _card())
    assert paid.entry is not None
    assert [e.entry.state for e in charges] == [State.INTENT, State.SENT, State.APPROVED]
    assert sales == []
    mine: list[Any] = []
    till.ctx.bus.subscribe(mine.append, entry_id=paid.entry.id)
    await card_not_present.refund_charge(till.ctx, paid.entry, Decimal("4.00"))
    assert [e.entry.refunded for e in mine] == [Decimal("4.00")]  # the original, mirrored
    assert all(isinstance(e, PaymentChanged) and e.entry.id == paid.entry.id for e in mine)
    await sale(till.ctx, Decimal("3.00"))
    assert [e.entry.state for e in sales] == [State.SENT, State.APPROVED]


async def test_each_write_is_published_once(make_till: Any) -> None:
    till = await make_till()
    seen: list[Any] = []
    till.ctx.bus.subscribe(seen.append, PaymentChanged)
    result = await sale(till.ctx, Decimal("2.00"))
    assert [(e.entry.id, e.entry.state) for e in seen] == [(result.entry.id, State.SENT),
                                                          (result.entry.id, State.APPROVED)]


async def test_the_old_ctx_changed_announces_nothing_twice(make_till: Any) -> None:
    till = await make_till()
    seen: list[Any] = []
    till.ctx.bus.subscribe(seen.append, PaymentChanged)
    entry = await till.journal.create(Kind.SALE, Decimal("1.00"), actor="1")
    with pytest.deprecated_call():
        assert till.ctx.changed(entry) is entry
    assert [e.entry.id for e in seen] == [entry.id]


def test_matches_by_type_entry_id_and_kind() -> None:
    shown = QrShown(7, "0100000007", "code", Decimal(1))
    assert matches(shown, QrShown, entry_id=7) and not matches(shown, QrShown, entry_id=8)
    assert matches(shown, (DevicePrompt, QrShown)) and not matches(shown, DevicePrompt)
    assert not matches(shown, entry_kinds={"qr"})  # no entry carried: a kind cannot match
    bus = EventBus()
    got: list[Any] = []
    stop = bus.subscribe(got.append, DevicePrompt, entry_id=3)
    bus.publish(DevicePrompt(3, "a"))
    bus.publish(DevicePrompt(4, "b"))
    bus.publish(shown)
    stop()
    bus.publish(DevicePrompt(3, "c"))
    assert [e.text for e in got] == ["a"]
