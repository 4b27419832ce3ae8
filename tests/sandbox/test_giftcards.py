"""Gift cards through the real HostClient: the full lifecycle, cancel, LG pad reads, refusals."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from cashier.host.errors import HostError
from cashier.host.models.common import Card, Token
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.host_giftcards import TRAINING_GIFT_CARD, card_key, redeem, training_customer_card
from cashier.sandbox.shared import is_gift_card
from cashier.sandbox.terminals import DEFAULT_CARD
from tests.support.host_requests import host_call
from tests.support.vendor_schema import check_all, record_answers

GIFT = "2664654648774"


def keyed_gift(number: str = GIFT) -> Card:
    return Card(number=number, expiration_date=1230)


def by_token(token: str) -> Card:
    return Card(token=Token(value=token))


def test_the_training_customer_presents_a_gift_card_for_a_gift_card_request() -> None:
    """Issue 22: a Visa selected in the training pad's list was presented for a gift card sale."""
    visa = "4321000000001119"
    assert training_customer_card(visa, purpose="sale", gift_card_sale=True) == TRAINING_GIFT_CARD
    balance = training_customer_card(visa, purpose="giftcard balance", gift_card_sale=False)
    assert balance == TRAINING_GIFT_CARD
    assert training_customer_card(None, purpose="sale", gift_card_sale=True) == TRAINING_GIFT_CARD
    assert training_customer_card(GIFT, purpose="sale", gift_card_sale=True) == GIFT  # a gift card row
    assert training_customer_card(visa, purpose="sale", gift_card_sale=False) == visa
    assert training_customer_card(None, purpose="sale", gift_card_sale=False) == DEFAULT_CARD


async def test_full_lifecycle_with_cancel_restoring_the_previous_balance(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    seen = record_answers(client)
    activated = await client.giftcard_activate(invoice="1", amount=Decimal("25.00"), card=keyed_gift())
    assert activated.transaction is not None and activated.transaction.response_code == "A"
    assert activated.card is not None and activated.card.number == "XXXXXXXXX8774"
    assert activated.card.balance is not None and activated.card.balance.amount == Decimal("25.00")
    assert activated.card.token is not None
    token = activated.card.token.value
    reloaded = await client.giftcard_reload(invoice="2", amount=Decimal("10.00"), card=by_token(token))
    assert reloaded.card is not None and reloaded.card.balance is not None
    assert reloaded.card.balance.amount == Decimal("35.00")
    # cancel the reload: back to 25.00, still active
    cancelled = await client.giftcard_cancel(invoice="3", token=token)
    assert cancelled.card is not None and cancelled.card.balance is not None
    assert cancelled.card.balance.amount == Decimal("25.00")
    assert cancelled.amount is not None and cancelled.amount.total == Decimal("10.00")
    record = sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, GIFT)]
    assert record["state"] == "active" and record["balance"] == "25.00"
    # nothing left to cancel
    with pytest.raises(HostError) as twice:
        await client.giftcard_cancel(invoice="4", token=token)
    assert twice.value.primary_code == 9101
    # deactivate keeps the balance; reactivate makes it usable again
    off = await client.giftcard_deactivate(invoice="5", reason="Lost or Stolen", card=keyed_gift())
    assert off.card is not None and off.card.deactivation_reason == "Lost or Stolen"
    assert sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, GIFT)]["state"] == "deactivated"
    with pytest.raises(HostError) as reload_off:
        await client.giftcard_reload(invoice="6", amount=Decimal("5.00"), card=keyed_gift())
    assert reload_off.value.primary_code == 9101 and "not active" in (reload_off.value.long_text or "")
    balance = await client.giftcard_balance(invoice="7", card=keyed_gift())
    assert balance.card is not None and balance.card.balance is not None
    assert balance.card.balance.amount == Decimal("25.00") and balance.card.expiration_date == 1230
    on = await client.giftcard_reactivate(invoice="8", card=keyed_gift())
    assert on.card is not None and on.card.balance is not None and on.card.balance.amount == Decimal("25.00")
    # cashback takes the balance as cash and deactivates
    cash = await client.giftcard_cashback(invoice="9", card=keyed_gift())
    assert cash.amount is not None and cash.amount.total == Decimal("25.00")
    record = sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, GIFT)]
    assert record["state"] == "deactivated" and record["balance"] == "0"
    # cancel the cashback: the money is back on an active card
    undone = await client.giftcard_cancel(invoice="10", token=token)
    assert undone.card is not None and undone.card.balance is not None
    assert undone.card.balance.amount == Decimal("25.00")
    assert sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, GIFT)]["state"] == "active"
    history = await client.giftcard_balance(invoice="11", card=keyed_gift(), history=True)
    kinds = [h.transaction_type for h in history.history or []]
    assert kinds == ["Activate", "Reload", "Cancel", "Deactivate", "Reactivate", "Cashback", "Cancel"]
    check_all(seen)
    ledger = {g["number"]: g for g in (await _ledger(sandbox))["giftcards"]}
    assert ledger["XXXXXXXXX8774"]["balance"] == "25.00"


async def _ledger(sandbox: HostSandbox) -> dict[str, Any]:
    import httpx

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as http:
        ledger: dict[str, Any] = (await http.get("/_sandbox/ledger")).json()
        return ledger


async def test_allocate_and_deprecated_cashout(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    seen = record_answers(client)
    new = await client.giftcard_allocate(invoice="20", amount=Decimal("50.00"), program_id="95")
    assert new.card is not None and new.card.number is not None and is_gift_card(new.card.number)
    assert new.card.balance is not None and new.card.balance.amount == Decimal("50.00")
    assert new.program_id == "95"
    number = new.card.number
    assert sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, number)]["state"] == "active"
    out = await client.giftcard_cashout(invoice="21", card=keyed_gift(number))
    assert out.amount is not None and out.amount.total == Decimal("50.00")
    assert sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, number)]["balance"] == "0"
    check_all(seen)


async def test_lg_reads_the_gift_card_on_the_pad(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    seen = record_answers(client)
    activated = await client.giftcard_activate(invoice="30", amount=Decimal("15.00"))
    assert activated.device is not None and activated.device.terminal_id == "1742"
    assert activated.card is not None and activated.card.number == "XXXXXXXXX8774"
    balance = await client.giftcard_balance(invoice="31")
    assert balance.card is not None and balance.card.balance is not None
    assert balance.card.balance.amount == Decimal("15.00")
    # a customer presenting a credit card for a gift card operation is refused
    sandbox.state.terminals.get("1742").script.card = "4321000000001119"
    with pytest.raises(HostError) as refused:
        await client.giftcard_balance(invoice="32")
    assert refused.value.primary_code == 9842
    check_all(seen)


async def test_refusals(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await client.giftcard_activate(invoice="40", card=keyed_gift())  # no amount: no funds
    assert sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, GIFT)]["balance"] == "0"
    with pytest.raises(HostError) as again:
        await client.giftcard_activate(invoice="41", amount=Decimal("5"), card=keyed_gift())
    assert again.value.primary_code == 9101 and again.value.short_text == "ACTIVATE FAILED"
    with pytest.raises(HostError) as not_off:
        await client.giftcard_reactivate(invoice="42", card=keyed_gift())
    assert not_off.value.short_text == "REACT FAILED"
    # reactivate refuses funds; deactivate needs its reason
    status, envelope = await host_call(sandbox.asgi, "POST", "/giftcards/reactivate",
                                       {"card": {"number": GIFT, "present": "N"}, "amount": {"total": 5},
                                        "transaction": {"invoice": "43"}})
    assert status == 400 and envelope["result"][0]["error"]["longText"].startswith("amount:")
    status, envelope = await host_call(sandbox.asgi, "POST", "/giftcards/deactivate",
                                       {"card": {"number": GIFT, "present": "N"},
                                        "transaction": {"invoice": "44"}})
    assert status == 400 and "card.deactivationReason" in envelope["result"][0]["error"]["longText"]
    with pytest.raises(HostError) as unknown:
        await client.giftcard_cancel(invoice="45", token="0000000000009999")
    assert unknown.value.primary_code == 9846
    with pytest.raises(HostError) as not_gift:
        await client.giftcard_balance(invoice="46", card=keyed_gift("4321000000001119"))
    assert not_gift.value.primary_code == 9842
    with pytest.raises(HostError) as never:
        await client.giftcard_balance(invoice="47", card=keyed_gift("2664650000000001"))
    assert never.value.primary_code == 9101


async def test_a_sale_cannot_be_cancelled(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    activated = await client.giftcard_activate(invoice="50", amount=Decimal("20.00"), card=keyed_gift())
    assert activated.card is not None and activated.card.token is not None
    taken = redeem(sandbox.state, GIFT, Decimal("30.00"), "51")
    assert taken == Decimal("20.00")  # what the balance allowed
    assert sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, GIFT)]["balance"] == "0.00"
    with pytest.raises(HostError) as refused:
        await client.giftcard_cancel(invoice="52", token=activated.card.token.value)
    assert "void" in (refused.value.long_text or "")
    assert sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, GIFT)]["balance"] == "0.00"


async def test_dcp_is_refused(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _sandbox, client = make_sandbox("DCP")
    with pytest.raises(HostError) as refused:
        await client.giftcard_balance(invoice="60")
    assert refused.value.short_text == "NOT SUPPORTED"
