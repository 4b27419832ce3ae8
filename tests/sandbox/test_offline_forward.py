"""Offline mode stores and forwards: authSource O while offline, the processor decides when the
mode goes online again, and a stored approval that declines shows as declined on GET invoice."""

from __future__ import annotations

from decimal import Decimal

import httpx
import pytest

from cashier.sandbox.host_mode import is_offline
from tests.support.host_requests import amount, ledger_of
from tests.support.vendor_schema import check_all, record_answers


def control(sandbox) -> httpx.AsyncClient:  # type: ignore[no-untyped-def]
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi), base_url="http://sandbox")


@pytest.mark.parametrize("option", ["LG", "DCP"])
async def test_offline_sale_is_stored_then_forwarded(make_sandbox, option: str) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox(option)
    seen = record_answers(client)  # every answer checked against the vendor's schemas
    await client.mode_offline()
    sold = await client.sale(invoice="1", amount=amount("12.00"))
    assert sold.response_code == "A"
    assert sold.transaction.auth_source == "O" and sold.transaction.deferred_auth == "D"
    kept = await client.sale(invoice="2", amount=amount("8.00"))
    assert kept.transaction.auth_source == "O"
    async with control(sandbox) as http:
        stored = (await http.get("/_sandbox/mode/stored")).json()
        assert [s["invoice"] for s in stored["stored"]] == ["1", "2"]
        # the processor will refuse invoice 1 when it is forwarded
        said = await http.post("/_sandbox/mode/stored", json={"invoice": "1", "declineOnForward": True})
        assert said.status_code == 200, said.text
        unknown = await http.post("/_sandbox/mode/stored", json={"invoice": "99"})
        assert unknown.status_code == 404
    before = await client.invoice_status("1")
    assert before.response_code == "A"  # still the gateway's approval while offline
    await client.mode_online()
    after = await client.invoice_status("1")
    assert after.response_code == "D"
    assert ledger_of(sandbox)["1"]["state"] == "declined"
    approved = await client.invoice_status("2")
    assert approved.response_code == "A" and approved.amount is not None
    assert approved.amount.total == Decimal("8.00")
    online = await client.sale(invoice="3", amount=amount("5.00"))
    assert online.transaction.auth_source == "E"
    check_all(seen)


async def test_forwarding_at_the_maximum_duration_applies_the_triggers(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG", offline_max_s=60.0)
    await client.mode_offline()
    # a declining amount is approved by the gateway while offline ...
    stored = await client.sale(invoice="5", amount=amount("1000000.00"))
    assert stored.response_code == "A" and stored.transaction.auth_source == "O"
    sandbox.state.clock.advance(61)
    assert not is_offline(sandbox.state)  # the maximum ended it, and forwarded what it held
    after = await client.invoice_status("5")
    assert after.response_code == "D"


async def test_a_voided_stored_sale_is_not_forwarded(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    await client.mode_offline()
    await client.sale(invoice="7", amount=amount("4.00"))
    await client.void("7")
    await client.mode_online()
    assert ledger_of(sandbox)["7"]["state"] == "voided"


async def test_gift_card_is_declined_offline(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    from cashier.sandbox.terminals import CustomerScript

    sandbox, client = make_sandbox("LG")
    await client.giftcard_activate(invoice="8", amount=Decimal("10.00"))
    await client.mode_offline()
    sandbox.state.terminals.set_script("1742", CustomerScript(card="2664654648774"))
    sold = await client.sale(invoice="9", amount=amount("4.00"))
    assert sold.response_code == "D"
