"""/wallet/initiate, /wallet/sale and /wallet/refund against the sandbox (HTTP 200 only)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.support.host_requests import WALLET_CUSTOMER, host_call
from tests.support.vendor_schema import check_response


@pytest.fixture
def hd(make_sandbox: Any) -> Any:
    sandbox, _client = make_sandbox("HD")
    return sandbox


async def initiate(sandbox: Any, invoice: str, total: str = "160.00") -> dict[str, Any]:
    status, env = await host_call(sandbox.asgi, "POST", "/wallet/initiate", {
        "amount": {"total": Decimal(total), "tax": Decimal("15")}, "currencyCode": "USD",
        "customer": WALLET_CUSTOMER, "sourceIp": "63.57.84.101",
        "transaction": {"invoice": invoice, "vendorReference": "12382-01"}})
    assert status == 200, env
    check_response("/wallet/initiate", env)
    return env


def sale_body(invoice: str, total: str = "160.00", **wallet: Any) -> dict[str, Any]:
    return {"amount": {"total": Decimal(total)}, "transaction": {"invoice": invoice},
            "sourceIp": "63.57.84.101", "customer": {"browserType": "Mozilla/5.0"},
            "currencyCode": "USD",
            "wallet": wallet or {"payerId": "6CB2GS6AQRS5S", "paymentMethodNonce": "nonce-1",
                                 "deviceData": "{}"}}


async def test_initiate_sale_refund_round_trip(hd: Any) -> None:
    env = await initiate(hd, "1001")
    item = env["result"][0]
    assert item["wallet"]["clientToken"]
    assert item["transaction"]["invoice"] == "1001"
    status, env = await host_call(hd.asgi, "POST", "/wallet/sale", sale_body("1001", "150.00"))
    assert status == 200
    check_response("/wallet/sale", env)
    sale = env["result"][0]
    assert sale["transaction"]["responseCode"] == "A"
    assert sale["amount"]["total"] == Decimal("150.00")
    assert sale["wallet"]["status"] == "SETTLING"
    assert "paymentMethodId" not in sale["wallet"]
    refund: dict[str, Any] = {"amount": {"total": Decimal("100")},
                              "transaction": {"invoice": "1002", "originalInvoice": "1001",
                                              "originalDate": "2024-05-21T09:18:23.283-07:00"}}
    status, env = await host_call(hd.asgi, "POST", "/wallet/refund", refund)
    assert status == 200
    check_response("/wallet/refund", env)
    assert env["result"][0]["transaction"]["responseCode"] == "A"
    # only 50.00 is left to refund
    refund["transaction"]["invoice"] = "1003"
    status, env = await host_call(hd.asgi, "POST", "/wallet/refund", refund)
    assert status == 200
    assert "50.00" in env["result"][0]["error"]["longText"]
    refund["amount"] = {"total": Decimal("50.00")}
    status, env = await host_call(hd.asgi, "POST", "/wallet/refund", refund)
    assert env["result"][0]["transaction"]["responseCode"] == "A"


async def test_usage_m_vaults_a_payment_method_for_later_sales(hd: Any) -> None:
    await initiate(hd, "2001")
    status, env = await host_call(hd.asgi, "POST", "/wallet/sale", sale_body(
        "2001", payerId="P1", paymentMethodNonce="n", deviceData="{}", paymentMethodIdUsage="M"))
    assert status == 200
    check_response("/wallet/sale", env)
    method_id = env["result"][0]["wallet"]["paymentMethodId"]
    status, env = await host_call(hd.asgi, "POST", "/wallet/sale",
                                  sale_body("2002", "20.00", paymentMethodId=method_id))
    assert status == 200
    check_response("/wallet/sale", env)
    assert env["result"][0]["transaction"]["responseCode"] == "A"
    assert env["result"][0]["wallet"]["paymentMethodId"] == method_id
    status, env = await host_call(hd.asgi, "POST", "/wallet/sale",
                                  sale_body("2003", "20.00", paymentMethodId="unknown1"))
    assert status == 200
    assert "wallet.paymentMethodId" in env["result"][0]["error"]["longText"]


async def test_sale_without_initiate_or_twice_is_an_error_with_http_200(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/wallet/sale", sale_body("3001"))
    assert status == 200
    assert env["result"][0]["error"]["shortText"] == "NOT INITIATED"
    await initiate(hd, "3001")
    await host_call(hd.asgi, "POST", "/wallet/sale", sale_body("3001"))
    status, env = await host_call(hd.asgi, "POST", "/wallet/sale", sale_body("3001"))
    assert status == 200
    assert env["result"][0]["error"]["shortText"] == "DUPLICATE INV"


async def test_sale_above_the_initiated_amount_is_refused(hd: Any) -> None:
    await initiate(hd, "4001", "10.00")
    status, env = await host_call(hd.asgi, "POST", "/wallet/sale", sale_body("4001", "10.01"))
    assert status == 200
    assert "amount.total" in env["result"][0]["error"]["longText"]


async def test_refund_decline_trigger(hd: Any) -> None:
    await initiate(hd, "5001", "50.00")
    await host_call(hd.asgi, "POST", "/wallet/sale", sale_body("5001", "50.00"))
    status, env = await host_call(hd.asgi, "POST", "/wallet/refund", {
        "amount": {"total": Decimal("19.19")},
        "transaction": {"invoice": "5002", "originalInvoice": "5001", "originalDate": "2024-05-21"}})
    assert status == 200
    check_response("/wallet/refund", env)
    assert env["result"][0]["transaction"]["responseCode"] == "D"


@pytest.mark.parametrize(("path", "field"), [
    ("/wallet/initiate", "customer.addressLine1"), ("/wallet/sale", "customer.browserType"),
    ("/wallet/refund", "transaction.originalInvoice")])
async def test_missing_fields_are_named_with_http_200(hd: Any, path: str, field: str) -> None:
    body: dict[str, Any] = {"amount": {"total": Decimal(1), "tax": Decimal(0)}, "currencyCode": "USD",
                            "sourceIp": "1.2.3.4",
                            "transaction": {"invoice": "6001", "vendorReference": "x"},
                            "customer": {}}
    status, env = await host_call(hd.asgi, "POST", path, body)
    assert status == 200
    assert field in env["result"][0]["error"]["longText"]


async def test_wallet_is_hd_only(make_sandbox: Any) -> None:
    sandbox, _ = make_sandbox("DCC")
    status, env = await host_call(sandbox.asgi, "POST", "/wallet/initiate", {})
    assert "processing option DCC" in env["result"][0]["error"]["longText"]
    assert status in (200, 400)
