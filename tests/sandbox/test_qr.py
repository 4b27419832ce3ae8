"""QR payments through the real HostClient; the customer pays through the control route."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx
import pytest

from cashier.host.errors import HostError
from cashier.host.models.common import Amount
from tests.support.vendor_schema import check_all, record_answers


async def pay(sandbox: Any, code: str, **extra: Any) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as http:
        return await http.post("/_sandbox/qrpayments/pay", json={"qrCode": code, **extra})


def amount(total: str, tax: str = "0") -> Amount:
    return Amount(total=Decimal(total), tax=Decimal(tax))


async def test_paid_then_cancelled_is_reversed(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    seen = record_answers(client)
    got = await client.qr_get_code(invoice="801", amount=amount("16.00", "1.00"))
    assert got.qr_code is not None and got.qr_code.value
    code = got.qr_code.value
    assert got.transaction is not None and got.transaction.sale_flag == "S"
    details = await client.qr_get_details(code)
    assert details.amount is not None and details.amount.total == Decimal("16.00")
    pending = await client.qr_payment_status(code)
    assert not (pending.transaction.response_code or "").strip()  # no code yet: still pending
    r = await pay(sandbox, code, card="5432000000003332")
    assert r.status_code == 200 and r.json()["status"] == "paid"
    assert "5432000000003332" not in r.text
    paid = await client.qr_payment_status(code)
    assert paid.response_code == "A" and paid.transaction.invoice == "801"
    assert paid.card is not None and paid.card.number == "XXXXXXXXXXXX3332" and paid.card.entry_mode == "Q"
    assert paid.transaction.authorization_code
    again = await pay(sandbox, code)
    assert again.status_code == 409  # a paid code cannot be paid twice
    cancelled = await client.qr_cancel(code)
    assert cancelled.response_code == "T"
    assert (await client.qr_payment_status(code)).response_code == "T"
    check_all(seen)


async def test_unpaid_cancelled_code_cannot_be_used(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    seen = record_answers(client)
    got = await client.qr_get_code(invoice="802", amount=amount("9.00"), sale=False)
    assert got.transaction is not None and got.transaction.sale_flag == "A"
    assert got.qr_code is not None
    code = got.qr_code.value
    cancelled = await client.qr_cancel(code)
    assert cancelled.response_code == "C"
    assert (await client.qr_payment_status(code)).response_code == "C"
    r = await pay(sandbox, code)
    assert r.status_code == 409 and "can no longer be used" in r.json()["error"]
    for use in (client.qr_get_details(code), client.qr_cancel(code)):
        with pytest.raises(HostError) as refused:
            await use
        assert (refused.value.primary_code, refused.value.secondary_code) == (9870, 6)
    check_all(seen)
    # a new code for the same invoice is allowed once the old one is cancelled
    fresh = await client.qr_get_code(invoice="802", amount=amount("9.00"))
    assert fresh.qr_code is not None and fresh.qr_code.value != code


async def test_retry_returns_the_same_code_and_unknown_codes_fail(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    first = await client.qr_get_code(invoice="803", amount=amount("5.00"))
    retry = await client.qr_get_code(invoice="803", amount=amount("5.00"))
    assert first.qr_code is not None and retry.qr_code is not None
    assert first.qr_code.value == retry.qr_code.value
    with pytest.raises(HostError) as other_amount:
        await client.qr_get_code(invoice="803", amount=amount("6.00"))
    assert (other_amount.value.primary_code, other_amount.value.secondary_code) == (9870, 4)
    with pytest.raises(HostError) as unknown:
        await client.qr_payment_status("https://pay.sandbox.invalid/NOPE")
    assert (unknown.value.primary_code, unknown.value.secondary_code) == (9870, 1)
    r = await pay(sandbox, "https://pay.sandbox.invalid/NOPE")
    assert r.status_code == 404
    r = await pay(sandbox, first.qr_code.value, card="4321000000001118")
    assert r.status_code == 400 and r.json()["error"].startswith("card:")


async def test_qr_is_refused_on_the_controllers(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _sandbox, client = make_sandbox("DCP")
    with pytest.raises(HostError) as refused:
        await client.qr_get_code(invoice="804", amount=amount("5.00"))
    assert refused.value.short_text == "NOT SUPPORTED"
