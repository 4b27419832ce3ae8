"""ACH verify/sale/refund/status, bank-account linking and the ACH notification."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import pytest

from cashier.sandbox import longtail
from tests.support.host_requests import ACCOUNT, ach_sale_body, host_call
from tests.support.vendor_schema import check_response, check_schema


class Receiver:
    """A tiny HTTP server on a real socket that records the JSON bodies POSTed to it."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.server: asyncio.Server | None = None
        self.url = ""

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.decode("latin-1").split("\r\n"):
            if line.lower().startswith("content-length:"):
                length = int(line.split(":", 1)[1])
        self.bodies.append(json.loads(await reader.readexactly(length)))
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()
        self.arrived.set()

    async def wait(self, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while len(self.bodies) < count and time.monotonic() < deadline:
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), deadline - time.monotonic())
            except TimeoutError:
                break
        return self.bodies


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    rec = Receiver()
    rec.server = await asyncio.start_server(rec.handle, "127.0.0.1", 0)
    port = rec.server.sockets[0].getsockname()[1]
    rec.url = f"http://127.0.0.1:{port}/ach-notification"
    yield rec
    rec.server.close()
    await rec.server.wait_closed()


@pytest.fixture
def hd(make_sandbox: Any) -> Any:
    sandbox, _client = make_sandbox("HD")
    return sandbox


async def test_verify_answers_pending_and_notifies_over_a_socket(make_sandbox: Any,
                                                                 receiver: Receiver) -> None:
    sandbox, _ = make_sandbox("HD", ach_notification_url=receiver.url)
    status, env = await host_call(sandbox.asgi, "POST", "/ach/verify", {
        "ach": {**ACCOUNT, "verificationType": "P"}, "sourceIp": "1.2.3.4"})
    assert status == 200
    check_response("/ach/verify", env)
    item = env["result"][0]
    assert item["transaction"]["responseCode"] == "P"
    assert item["token"]["type"] == "ACH" and item["token"]["value"].endswith("7890")
    [note] = await receiver.wait(1)
    check_schema("webhook_ach_verification_status_update", note, request=False)
    assert note["event"]["type"] == "ach.verify.verification_status_update"
    assert note["notificationId"] == item["notificationId"]
    assert note["transaction"]["responseCode"] == "A"
    assert "1234567890" not in json.dumps(note)


async def test_sale_refund_and_status_with_notifications(make_sandbox: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    delivered: list[tuple[str, dict[str, Any]]] = []

    async def capture(url: str, payload: dict[str, Any]) -> None:
        delivered.append((url, payload))

    monkeypatch.setattr(longtail, "poster", capture)
    sandbox, _ = make_sandbox("HD", ach_notification_url="http://merchant.example/ach")
    status, env = await host_call(sandbox.asgi, "POST", "/ach/sale", ach_sale_body())
    assert status == 200
    check_response("/ach/sale", env)
    sale = env["result"][0]
    assert sale["transaction"]["responseCode"] == "P"
    token = sale["token"]["value"]
    status, env = await host_call(sandbox.asgi, "POST", "/ach/status", {"transaction": {"invoice": "192029"}})
    assert status == 200
    assert env["result"][0]["transaction"]["responseCode"] == "A"
    refund: dict[str, Any] = {"amount": {"total": Decimal("35.87")}, "token": {"value": token},
                              "transaction": {"invoice": "192030", "originalInvoice": "192029"},
                              "sourceIp": "1.2.3.4"}
    status, env = await host_call(sandbox.asgi, "POST", "/ach/refund", refund)
    assert status == 200
    check_response("/ach/refund", env)
    assert env["result"][0]["transaction"]["originalInvoice"] == "192029"
    await asyncio.sleep(0.05)
    kinds = [payload["event"]["type"] for _, payload in delivered]
    assert kinds == ["ach.sale.status_update", "ach.refund.status_update"]
    check_schema("webhook_ach_sale_status_update", delivered[0][1], request=False)
    check_schema("webhook_ach_refund_status_update", delivered[1][1], request=False)
    assert delivered[0][1]["transaction"]["invoice"] == "192029"
    # more than what is left cannot be refunded
    refund["transaction"]["invoice"] = "192031"
    refund["amount"] = {"total": Decimal("100.01")}
    status, env = await host_call(sandbox.asgi, "POST", "/ach/refund", refund)
    assert status == 400 and "amount.total" in env["result"][0]["error"]["longText"]


async def test_refund_requires_original_invoice(hd: Any) -> None:
    body = {"amount": {"total": Decimal("1")}, "transaction": {"invoice": "2"}, "ach": ACCOUNT,
            "sourceIp": "1.2.3.4"}
    status, env = await host_call(hd.asgi, "POST", "/ach/refund", body)
    assert status == 400
    check_response("/ach/refund", env, 400)
    error = env["result"][0]["error"]
    assert "transaction.originalInvoice" in error["longText"] and "primaryCode" not in error


async def test_declined_account_and_balance_check(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/ach/sale",
                                  ach_sale_body("3001", accountNumber="5559999"))
    assert status == 200
    _, env = await host_call(hd.asgi, "POST", "/ach/status", {"transaction": {"invoice": "3001"}})
    assert env["result"][0]["transaction"]["responseCode"] == "D"
    status, env = await host_call(hd.asgi, "POST", "/ach/sale",
                                  ach_sale_body("3002", "5000.01", verifyBalance=True))
    assert status == 200
    check_response("/ach/sale", env)
    item = env["result"][0]
    assert item["ach"]["balanceVerificationResult"] == "VF"
    assert item["transaction"]["responseCode"] == "D"
    status, env = await host_call(hd.asgi, "POST", "/ach/sale", ach_sale_body("3003", "5000.00",
                                                                         verifyBalance=True))
    assert env["result"][0]["ach"]["balanceVerificationResult"] == "VS"


@pytest.mark.parametrize(("change", "field"), [
    ({"routingNumber": "121000249"}, "ach.routingNumber"),
    ({"accountType": "XX"}, "ach.accountType"),
    ({"accountNumber": "12ab"}, "ach.accountNumber"),
    ({"accountHolderName": "J" * 23}, "ach.accountHolderName")])
async def test_bad_bank_accounts_name_the_field(hd: Any, change: dict[str, str], field: str) -> None:
    status, env = await host_call(hd.asgi, "POST", "/ach/sale", ach_sale_body(**change))
    assert status == 400
    assert field in env["result"][0]["error"]["longText"]


async def test_notification_failure_never_fails_the_answer(make_sandbox: Any) -> None:
    sandbox, _ = make_sandbox("HD", ach_notification_url="http://127.0.0.1:9/nothing-listens")
    started = time.monotonic()
    status, env = await host_call(sandbox.asgi, "POST", "/ach/sale", ach_sale_body())
    assert status == 200 and env["result"][0]["transaction"]["responseCode"] == "P"
    assert time.monotonic() - started < 1.0
    await asyncio.sleep(0.2)  # the failed delivery is logged, nothing escapes


async def test_link_token_and_public_token_exchange(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/ach/bankaggregator/link_token/create",
                                  {"bankaggregator": {"client_user_id": "user-1", "language": "en",
                                                      "redirectUrl": "https://merchant.example/ach"}})
    assert status == 200
    check_response("/ach/bankaggregator/link_token/create", env)
    link = env["result"][0]["bankaggregator"]
    assert link["link_token"].startswith("link-sandbox-") and link["client_user_id"] == "user-1"
    assert env["result"][0]["transaction"]["responseCode"] == "S"
    status, env = await host_call(hd.asgi, "POST", "/ach/bankaggregator/link_token/create",
                                  {"bankaggregator": {"client_user_id": "u", "redirectUrl": "merchant.com"}})
    assert status == 400 and "bankaggregator.redirectUrl" in env["result"][0]["error"]["longText"]
    metadata = json.dumps({"account": {"id": "a1", "mask": "4321", "type": "depository"}})
    status, env = await host_call(hd.asgi, "POST", "/ach/bankaggregator/public_token/exchange", {
        "ach": {"accountHolderName": "John Smith"},
        "bankaggregator": {"public_token": "public-sandbox-0b7f845f", "metadata": metadata}})
    assert status == 200
    check_response("/ach/bankaggregator/public_token/exchange", env)
    item = env["result"][0]
    assert item["ach"] == {"accountLastFour": "4321"}
    # the token works for a sale
    body = {"amount": {"total": Decimal("10")}, "transaction": {"invoice": "4001"},
            "token": {"value": item["token"]["value"]}, "sourceIp": "1.2.3.4"}
    status, env = await host_call(hd.asgi, "POST", "/ach/sale", body)
    assert status == 200 and env["result"][0]["transaction"]["responseCode"] == "P"


async def test_ach_is_hd_only(make_sandbox: Any) -> None:
    sandbox, _ = make_sandbox("LG")
    status, env = await host_call(sandbox.asgi, "POST", "/ach/sale", ach_sale_body())
    assert status == 400
    assert "processing option LG" in env["result"][0]["error"]["longText"]
