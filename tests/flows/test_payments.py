"""Sale, refund, tab and void end to end against the in-process sandbox, per processing option."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows.events import DevicePrompt, PaymentChanged
from cashier.flows.payments import KeyedCard, authorize, capture, incremental, refund, sale
from cashier.flows.recovery import void
from cashier.journal.model import State
from tests.support.tills import assert_agrees

VISA = KeyedCard("4321000000001119", "1228")


@pytest.mark.parametrize("option", ["HD", "LG", "DCP", "DCC"])
async def test_sale_approved_per_option(make_till: Any, option: str) -> None:
    till = await make_till(option)
    seen: list[Any] = []
    till.rt.bus.subscribe(seen.append)
    card = VISA if option == "HD" else None
    result = await sale(till.ctx, D("12.34"), card=card)
    assert result.outcome == "approved"
    e = result.entry
    assert (e.invoice, e.approved, e.requested) == ("0100000001", D("12.34"), D("12.34"))
    assert e.auth_code and e.card and e.card.endswith("1119") and e.token
    states = [ev.entry.state for ev in seen if isinstance(ev, PaymentChanged)]
    assert states[:2] == [State.SENT, State.APPROVED]
    assert any(isinstance(ev, DevicePrompt) for ev in seen) == (option != "HD")
    events = await till.journal.events(e.id)
    assert [ev.type for ev in events] == ["created", "sent", "approved"]
    await assert_agrees(till)


async def test_hd_without_card_is_refused_before_anything_is_journaled(make_till: Any) -> None:
    till = await make_till("HD")
    with pytest.raises(ValidationError, match="card"):
        await sale(till.ctx, D("5.00"))
    assert await till.journal.search() == []


@pytest.mark.parametrize("amount,outcome,state", [
    ("1000000.00", "declined", State.DECLINED), ("32202.00", "error", State.ERROR)])
async def test_declined_and_host_error(make_till: Any, amount: str, outcome: str, state: State) -> None:
    till = await make_till("HD")
    result = await sale(till.ctx, D(amount), card=VISA)
    assert (result.outcome, result.entry.state, result.entry.approved) == (outcome, state, D(0))
    assert (await till.journal.totals()).amount("sale") == D(0)


async def test_partial_approval_is_journaled_as_approved_amount(make_till: Any) -> None:
    till = await make_till("HD")
    result = await sale(till.ctx, D("219.00"), card=VISA)
    assert result.outcome == "approved" and result.entry.partial
    assert result.entry.approved < D("219.00")
    await assert_agrees(till)


async def test_sale_with_tip_keyed_and_on_the_pad(make_till: Any) -> None:
    till = await make_till("HD")
    r = await sale(till.ctx, D("20.00"), tip=D("3.00"), card=VISA)
    assert (r.entry.requested, r.entry.tip, r.entry.approved) == (D("23.00"), D("3.00"), D("23.00"))
    dcp = await make_till("DCP")
    import httpx

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=dcp.sandbox.asgi),
                                 base_url="http://sandbox") as control:
        resp = await control.post("/_sandbox/terminals/1742/customer", json={"tip": "4.00"})
        assert resp.status_code == 200, resp.text
    r = await sale(dcp.ctx, D("20.00"), prompt_tip=True)
    assert r.outcome == "approved"
    assert (r.entry.tip, r.entry.approved) == (D("4.00"), D("24.00"))
    await assert_agrees(dcp)


async def test_retry_reuses_invoice_and_never_charges_twice(make_till: Any) -> None:
    till = await make_till("HD")
    first = await sale(till.ctx, D("40.00"), card=VISA)
    again = await sale(till.ctx, D("40.00"), card=VISA, invoice=first.entry.invoice)
    assert again.entry.id == first.entry.id and "nothing sent" in again.message
    # another amount is another payment: never sent under this number (the host would amend it)
    with pytest.raises(ValidationError, match="a retry is the same payment"):
        await sale(till.ctx, D("55.00"), card=VISA, invoice=first.entry.invoice)
    ledger = await till.ledger()
    assert len(ledger) == 1 and D(ledger[str(first.entry.invoice)]["approvedAmount"]) == D("40.00")
    with pytest.raises(ValidationError, match="invoice"):
        await sale(till.ctx, D("1.00"), card=VISA, invoice="0199999999")


async def test_void_and_refunds(make_till: Any) -> None:
    till = await make_till("LG")
    a = (await sale(till.ctx, D("30.00"))).entry
    b = (await sale(till.ctx, D("10.00"))).entry
    r = await refund(till.ctx, D("12.00"), original_invoice=a.invoice)
    assert r.outcome == "approved" and r.entry.original_invoice == a.invoice
    assert (await till.journal.get(a.id)).refunded == D("12.00")
    with pytest.raises(ValidationError, match=r"18\.00 left"):
        await refund(till.ctx, D("18.01"), original_invoice=a.invoice)
    unlinked = await refund(till.ctx, D("5.00"))
    assert unlinked.outcome == "approved" and unlinked.entry.original_invoice is None
    v = await void(till.ctx, str(b.invoice))
    assert v.outcome == "voided" and v.entry.reversal_reason == "03"
    assert (await till.ledger())[str(b.invoice)]["state"] == "voided"
    # voiding the linked refund gives the amount back to the original
    await void(till.ctx, str(r.entry.invoice))
    assert (await till.journal.get(a.id)).refunded == D(0)
    totals = await till.journal.totals()
    assert (totals.amount("sale"), totals.amount("refund")) == (D("30.00"), D("5.00"))
    declined = (await sale(till.ctx, D("1000000.00"))).entry
    with pytest.raises(ValidationError, match="cannot be voided"):
        await void(till.ctx, str(declined.invoice))
    await assert_agrees(till)


async def test_restaurant_tab(make_till: Any) -> None:
    till = await make_till("HD")
    tab = await authorize(till.ctx, D("50.00"), card=VISA)
    assert tab.outcome == "approved"
    assert [e.id for e in await till.journal.open_authorizations()] == [tab.entry.id]
    more = await incremental(till.ctx, str(tab.entry.invoice), D("25.00"))
    assert more.entry.approved == D("75.00") and more.entry.state is State.APPROVED
    done = await capture(till.ctx, str(tab.entry.invoice), D("70.00"), tip=D("10.00"))
    assert done.outcome == "captured"
    assert (done.entry.captured, done.entry.tip) == (D("80.00"), D("10.00"))
    assert await till.journal.open_authorizations() == []
    totals = await till.journal.totals()
    assert (totals.amount("capture"), totals.amount("auth_open")) == (D("80.00"), D(0))
    await assert_agrees(till)
