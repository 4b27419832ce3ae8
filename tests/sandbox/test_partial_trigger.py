"""The partial-approval trigger (219.00) on the amount sought: capture, incremental, raised invoice.

The client sends no ``apiOptions`` on capture and incremental authorization, so those bodies go
raw here (with ``ALLOWPARTIALAUTH``) and through the client (without it: declined, nothing lost).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cashier.sandbox import triggers
from tests.support.host_requests import amount, customer, host_call, keyed, ledger_of

PARTIAL = ["ALLOWPARTIALAUTH"]


def _token_body(invoice: str, total: str, token: str) -> dict[str, Any]:
    return {"amount": {"total": Decimal(total), "tax": Decimal(0)}, "clerk": {"numericId": 1},
            "transaction": {"invoice": invoice}, "card": {"token": {"value": token}},
            "apiOptions": PARTIAL}


async def test_capture_of_229_on_a_10_authorization_is_partial(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    auth = await client.authorization(invoice="1", amount=amount("10.00"), card=keyed(),
                                      customer=customer())
    assert auth.response_code == "A" and auth.token is not None
    status, envelope = await host_call(sandbox.asgi, "POST", "/transactions/capture",
                                       _token_body("1", "229.00", auth.token))
    assert status == 200, envelope
    item = envelope["result"][0]
    assert item["transaction"]["responseCode"] == "P"
    # 10.00 on file plus half of the 219.00 sought
    assert item["amount"]["total"] == Decimal("119.50")
    assert ledger_of(sandbox)["1"]["approvedAmount"] == "119.50"


async def test_capture_seeking_219_without_the_option_keeps_the_authorization(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    auth = await client.authorization(invoice="2", amount=amount("10.00"), card=keyed(),
                                      customer=customer())
    assert auth.token is not None
    captured = await client.capture(invoice="2", amount=amount("229.00"), token=auth.token)
    assert captured.response_code == "D"
    assert ledger_of(sandbox)["2"]["approvedAmount"] == "10.00"


async def test_incremental_authorization_of_219_is_partial(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    auth = await client.authorization(invoice="3", amount=amount("50.00"), card=keyed(),
                                      customer=customer())
    assert auth.token is not None
    status, envelope = await host_call(sandbox.asgi, "POST", "/transactions/authorization",
                                       _token_body("3", "269.00", auth.token))
    assert status == 200, envelope
    item = envelope["result"][0]
    assert item["transaction"]["responseCode"] == "P"
    assert item["amount"]["total"] == Decimal("159.50")
    assert ledger_of(sandbox)["3"]["state"] == "authorized"


async def test_invoice_raised_by_219_is_partial(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await client.sale(invoice="4", amount=amount("1.00"), card=keyed(), customer=customer())
    raised = await client.sale(invoice="4", amount=amount("220.00"), card=keyed(), customer=customer())
    assert raised.response_code == "P"
    assert raised.amount is not None and raised.amount.total == Decimal("110.50")
    assert ledger_of(sandbox)["4"]["approvedAmount"] == "110.50"


def test_other_increments_are_approved_in_full() -> None:
    outcome = triggers.amount_outcome(Decimal("229.00"), Decimal("218.00"), kind="capture",
                                      partial_allowed=True)
    assert outcome.response_code == "A" and outcome.approved == Decimal("218.00")
