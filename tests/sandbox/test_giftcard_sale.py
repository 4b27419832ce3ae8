"""A gift card pays: keyed, by token or read on the PIN pad; partial for the balance; void and
refund put the money back on the card. In-process, over a socket, and through the sale flow."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cashier.config import load_profile
from cashier.flows import payments
from cashier.host.errors import HostError
from cashier.host.models.common import Card, Token
from cashier.runtime import open_runtime
from cashier.sandbox.host_giftcards import card_key
from cashier.sandbox.terminals import CustomerScript
from tests.support.host_requests import amount, host_call, ledger_of
from tests.support.sandbox_server import Served, start
from tests.support.vendor_schema import check_all, record_answers

GIFT = "2664654648774"


def keyed_gift(number: str = GIFT) -> Card:
    return Card(number=number, expiration_date=1230)


def gift_balance(sandbox: Any, number: str = GIFT) -> str:
    record: dict[str, Any] = sandbox.state.family("giftcards")["cards"][card_key(sandbox.state, number)]
    return str(record["balance"])


async def test_keyed_gift_card_pays_and_a_void_puts_the_money_back(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await client.giftcard_activate(invoice="1", amount=Decimal("50.00"), card=keyed_gift())
    sold = await client.sale(invoice="2", amount=amount("12.50"), card=keyed_gift())
    assert sold.response_code == "A"
    assert sold.amount is not None and sold.amount.total == Decimal("12.50")
    assert sold.card is not None and sold.card.type == "GC" and sold.card.number == "XXXXXXXXX8774"
    assert sold.card.balance is not None and sold.card.balance.amount == Decimal("37.50")
    assert gift_balance(sandbox) == "37.50"
    assert ledger_of(sandbox)["2"]["state"] == "sale"
    status = await client.invoice_status("2")
    assert status.response_code == "A" and status.amount is not None
    assert status.amount.total == Decimal("12.50")
    await client.void("2")
    assert gift_balance(sandbox) == "50.00"
    assert ledger_of(sandbox)["2"]["state"] == "voided"


async def test_short_balance_is_partially_approved_only_when_allowed(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    seen = record_answers(client)  # every answer checked against the vendor's schemas
    await client.giftcard_activate(invoice="10", amount=Decimal("20.00"), card=keyed_gift())
    declined = await client.sale(invoice="11", amount=amount("30.00"), card=keyed_gift(), api_options=())
    assert declined.response_code == "D"
    assert declined.transaction.host_response is not None
    assert declined.transaction.host_response.reason_code == "51"
    assert gift_balance(sandbox) == "20.00"  # nothing taken
    partial = await client.sale(invoice="12", amount=amount("30.00"), card=keyed_gift())
    assert partial.response_code == "P"
    assert partial.amount is not None and partial.amount.total == Decimal("20.00")
    assert partial.card is not None and partial.card.balance is not None
    assert partial.card.balance.amount == Decimal("0.00")
    empty = await client.sale(invoice="13", amount=amount("1.00"), card=keyed_gift())
    assert empty.response_code == "D"  # an empty card pays nothing, even partially
    await client.void("12")
    check_all(seen)


async def test_token_sale_refund_reloads_and_raising_the_invoice_spends_more(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    activated = await client.giftcard_activate(invoice="20", amount=Decimal("40.00"), card=keyed_gift())
    assert activated.card is not None and activated.card.token is not None
    token = activated.card.token.value
    sold = await client.sale(invoice="21", amount=amount("10.00"),
                             card=Card(token=Token(value=token)))
    assert sold.response_code == "A" and gift_balance(sandbox) == "30.00"
    assert sold.token == token  # the card's one token, as in the gift card answers
    # the same invoice raised to 15.00: the card pays the 5.00 difference once
    raised = await client.sale(invoice="21", amount=amount("15.00"), card=Card(token=Token(value=token)))
    assert raised.amount is not None and raised.amount.total == Decimal("15.00")
    again = await client.sale(invoice="21", amount=amount("15.00"), card=Card(token=Token(value=token)))
    assert again.amount is not None and again.amount.total == Decimal("15.00")
    assert gift_balance(sandbox) == "25.00"
    refunded = await client.refund(invoice="22", amount=amount("6.00"), original_invoice="21",
                                  card=Card(token=Token(value=token)))
    assert refunded.response_code == "A" and gift_balance(sandbox) == "31.00"
    await client.void("22")  # voiding the refund takes it off the card again
    assert gift_balance(sandbox) == "25.00"
    # an unlinked refund to the keyed card reloads it too
    await client.refund(invoice="23", amount=amount("5.00"), card=keyed_gift())
    assert gift_balance(sandbox) == "30.00"


async def test_inactive_card_declines_and_an_authorization_is_refused(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    never = await client.sale(invoice="30", amount=amount("5.00"), card=keyed_gift())
    assert never.response_code == "D" and never.transaction.host_response is not None
    assert never.transaction.host_response.reason_code == "78"
    await client.giftcard_activate(invoice="31", amount=Decimal("5.00"), card=keyed_gift())
    with pytest.raises(HostError) as refused:
        await client.authorization(invoice="32", amount=amount("5.00"), card=keyed_gift())
    assert refused.value.short_text == "NOT SUPPORTED"
    assert gift_balance(sandbox) == "5.00"


async def test_lg_customer_presents_a_gift_card_on_the_pad(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    await client.giftcard_activate(invoice="40", amount=Decimal("25.00"))  # the pad reads the gift card
    sandbox.state.terminals.set_script("1742", CustomerScript(card=GIFT))
    sold = await client.sale(invoice="41", amount=amount("30.00"))
    assert sold.response_code == "P"
    assert sold.amount is not None and sold.amount.total == Decimal("25.00")
    assert sold.card is not None and sold.card.type == "GC"
    assert sold.device is not None and sold.device.terminal_id == "1742"
    assert gift_balance(sandbox) == "0.00"


async def test_raw_body_with_gift_number_is_no_longer_out_of_card_range(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _client = make_sandbox("HD", access_token=None)
    await host_call(sandbox.asgi, "POST", "/giftcards/activate",
                    {"card": {"number": GIFT, "present": "N"}, "amount": {"total": 9},
                     "transaction": {"invoice": "50"}})
    status, envelope = await host_call(sandbox.asgi, "POST", "/transactions/sale", {
        "amount": {"total": 4, "tax": 0}, "clerk": {"numericId": 1},
        "transaction": {"invoice": "51"},
        "card": {"number": GIFT, "entryMode": "M", "present": "N", "expirationDate": 1230,
                 "securityCode": {"indicator": "0", "value": ""}},
        "customer": {"postalCode": "94719"}})
    assert status == 200, envelope
    assert envelope["result"][0]["transaction"]["responseCode"] == "A"


async def test_sale_flow_pays_with_a_keyed_gift_card(make_sandbox, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    sandbox, _client = make_sandbox("HD", access_token=None)
    profile = load_profile(None, processing_option="HD", journal_path=tmp_path / "j.sqlite")
    rt = await open_runtime(profile, sandbox=sandbox)
    try:
        await rt.client.giftcard_activate(invoice="9000000001", amount=Decimal("8.00"),
                                          card=keyed_gift())
        result = await payments.sale(rt.ctx, Decimal("10.00"),
                                     card=payments.KeyedCard(number=GIFT, expiration="1230"))
        assert result.entry.approved == Decimal("8.00")
        assert gift_balance(sandbox) == "0.00"
    finally:
        await rt.close()


@pytest.mark.socket
async def test_gift_card_sale_and_void_over_a_socket() -> None:
    served: Served = start("--option", "HD")
    try:
        client = served.client("HD")
        async with client:
            await client.giftcard_activate(invoice="60", amount=Decimal("15.00"), card=keyed_gift())
            sold = await client.sale(invoice="61", amount=amount("20.00"), card=keyed_gift())
            assert sold.response_code == "P"
            assert sold.amount is not None and sold.amount.total == Decimal("15.00")
            await client.void("61")
            balance = await client.giftcard_balance(invoice="62", card=keyed_gift())
            assert balance.card is not None and balance.card.balance is not None
            assert balance.card.balance.amount == Decimal("15.00")
    finally:
        served.stop()


async def test_sale_flow_on_lg_with_a_gift_card_presented_on_the_pad(make_sandbox, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    sandbox, _client = make_sandbox("LG", access_token=None)
    profile = load_profile(None, processing_option="LG", journal_path=tmp_path / "j.sqlite")
    rt = await open_runtime(profile, sandbox=sandbox)
    try:
        await rt.client.giftcard_activate(invoice="9000000002", amount=Decimal("25.00"))
        sandbox.state.terminals.set_script("1742", CustomerScript(card=GIFT))
        result = await payments.sale(rt.ctx, Decimal("30.00"))
        assert result.entry.approved == Decimal("25.00")  # partial: what the card held
        assert result.entry.card is not None and result.entry.card.endswith("8774")
        assert GIFT not in str(result.as_dict())
        assert gift_balance(sandbox) == "0.00"
    finally:
        await rt.close()
