"""The journal is the one publisher of every entry's change; subscribers pick their own entries."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from cashier.flows import card_not_present
from cashier.flows.events import DevicePrompt, EventBus, PaymentChanged, QrShown, matches
from cashier.flows.payments import sale
from cashier.journal import Kind, State
from cashier.journal.model import NewEntry

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
    entry = await till.journal.create(NewEntry(Kind.SALE, Decimal("1.00"), actor="1"))
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


async def test_ticket_changes_are_published_by_the_journal_not_the_flow(make_till: Any) -> None:
    """Every write that moves a ticket (its lines, a tender's entry, its close) is followed by
    one ``TicketChanged`` from the journal, after the entry's own ``PaymentChanged``."""
    from cashier.flows.ticket import Tender, TicketSession, TicketSettings
    from cashier.journal.ticket_model import TicketChanged

    till = await make_till()
    seen: list[Any] = []
    till.ctx.bus.subscribe(seen.append, (PaymentChanged, TicketChanged))
    session = await TicketSession.start(till.ctx, TicketSettings())
    await session.add_line("Tea", Decimal("2.50"))
    assert [type(e).__name__ for e in seen] == ["TicketChanged", "TicketChanged"]
    assert seen[-1].ticket.lines[0].name == "Tea" and seen[-1].ticket.total == Decimal("2.50")
    seen.clear()
    ticket = await session.pay(Tender("card"))
    assert ticket.state == "paid"
    assert [type(e).__name__ for e in seen] == ["PaymentChanged", "TicketChanged"] * 2 + ["TicketChanged"]
    assert [e.ticket.state for e in seen if isinstance(e, TicketChanged)] == ["open", "open", "paid"]
    assert seen[3].ticket.paid == Decimal("2.50")  # the approved tender, as the ticket reads it


async def test_drawer_moves_are_published_as_the_journal_records_them(tmp_path: Any) -> None:
    from cashier.cashdesk import CashDesk, open_recorder
    from cashier.config import load_profile
    from cashier.journal.drawer_rows import DrawerMoved

    profile = load_profile(None, journal_path=tmp_path / "journal.sqlite")
    desk = CashDesk(profile, open_recorder(profile))
    try:
        bus = EventBus()
        moves: list[DrawerMoved] = []
        bus.subscribe(moves.append, DrawerMoved)
        desk.subscribe(bus.publish)
        session = desk.open(clerk="101", float_amount="50.00")
        desk.pay_in("5.00", "change from the bank", clerk="101")
        assert [(m.type, m.amount, m.session_id) for m in moves] == [
            ("float", Decimal("50.00"), session.id), ("pay_in", Decimal("5.00"), session.id)]
        # recorded by the journal's one writer of events, once each
        types = [e.type for e in desk.recorder.events() if e.type.startswith("drawer_")]
        assert types == ["drawer_float", "drawer_pay_in"]
        with pytest.raises(Exception, match="reason"):
            desk.pay_in("5.00", "", clerk="101")
        assert len(moves) == 2 and desk.recorder.take_changes() == []  # a refusal publishes nothing
    finally:
        desk.close()
        desk.recorder.close()
