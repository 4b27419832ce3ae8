"""Hostile request bodies: deep nesting answers 400 in the envelope and the server keeps serving;
a Host API body not sent as JSON is refused; a client that goes away mid-request is one log line."""

from __future__ import annotations

import http.client
import logging
from typing import Any

import httpx
import pytest

from tests.support.host_requests import HEADERS, amount, customer, keyed, ledger_of
from tests.support.sandbox_server import Served, start

DEEP = b'{"a":' * 50_000 + b"1" + b"}" * 50_000
SALE = (b'{"dateTime":"2024-05-21T09:18:23.283-07:00","amount":{"total":1.00,"tax":0},'
        b'"clerk":{"numericId":1},"transaction":{"invoice":"77"},'
        b'"card":{"number":"4321000000001119","expirationDate":1230,"entryMode":"M",'
        b'"securityCode":{"indicator":"1","value":"333"}},"customer":{"postalCode":"94719"}}')


def raw(sandbox: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi), base_url="http://sandbox")


async def test_deep_nesting_is_a_400_and_the_sandbox_keeps_serving(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    async with raw(sandbox) as http:
        host = await http.post("/api/rest/v1/transactions/sale", content=DEEP, headers=HEADERS)
        assert host.status_code == 400
        error = host.json()["result"][0]["error"]
        assert error["code"] == 40103 and "nested too deeply" in error["longText"]
        shallow_but_deep = b"[" * 40 + b"]" * 40  # under the recursion limit, over ours
        assert (await http.post("/api/rest/v1/transactions/sale", content=shallow_but_deep,
                                headers=HEADERS)).status_code == 400
        for path in ("/_sandbox/faults", "/_sandbox/clock", "/_sandbox/terminals/1742/customer",
                     "/_sandbox/mode/stored", "/_sandbox/tokens/settings"):
            control = await http.post(path, content=DEEP, headers=HEADERS)
            assert control.status_code == 400, (path, control.text)
            assert "nested too deeply" in control.json()["error"]
        # a string full of brackets is not nesting
        braces = b'{"note":"' + b"{[" * 100 + b'"}'
        not_nested = await http.post("/_sandbox/clock", content=braces)
        assert "advance_seconds" in not_nested.json()["error"]
    sold = await client.sale(invoice="1", amount=amount("3.00"), card=keyed(), customer=customer())
    assert sold.response_code == "A"


@pytest.mark.parametrize("content_type", ["text/plain", None, "application/x-www-form-urlencoded"])
async def test_a_host_body_not_sent_as_json_is_refused(make_sandbox, content_type: str | None) -> None:  # type: ignore[no-untyped-def]
    sandbox, _client = make_sandbox("HD")
    headers = {k: v for k, v in HEADERS.items() if k != "Content-Type"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    async with raw(sandbox) as http:
        answer = await http.post("/api/rest/v1/transactions/sale", content=SALE, headers=headers)
        assert answer.status_code == 400
        error = answer.json()["result"][0]["error"]
        assert error["shortText"] == "INVALID FORMAT" and error["code"] == 40103
        assert "Content-Type must be application/json" in error["longText"]
        assert ledger_of(sandbox) == {}  # nothing was processed
        fine = await http.post("/api/rest/v1/transactions/sale", content=SALE,
                               headers={**headers, "Content-Type": "application/json; charset=utf-8"})
        assert fine.status_code == 200, fine.text


@pytest.mark.parametrize("path", ["/api/rest/v1/transactions/sale", "/_sandbox/faults"])
async def test_a_client_that_leaves_mid_request_is_one_line(make_sandbox: Any,
                                                            caplog: pytest.LogCaptureFixture,
                                                            path: str) -> None:
    sandbox, _client = make_sandbox("HD")
    messages: list[dict[str, Any]] = [{"type": "http.request", "body": SALE[:40], "more_body": True},
                                      {"type": "http.disconnect"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "scheme": "http", "server": ("sandbox", 80),
             "client": ("127.0.0.1", 5000), "http_version": "1.1",
             "headers": [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]}
    with caplog.at_level(logging.DEBUG, logger="cashier.sandbox"):
        await sandbox.asgi(scope, receive, send)
    records = [r for r in caplog.records if r.name.startswith("cashier.sandbox")]
    assert len(records) == 1 and "disconnected mid-request" in records[0].getMessage()
    assert records[0].exc_info is None


@pytest.mark.socket
def test_deep_nesting_over_a_socket_keeps_the_connection() -> None:
    served: Served = start("--option", "HD")
    try:
        host, port = served.url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        headers = {**HEADERS, "AccessToken": "SOCKET-TOKEN"}
        conn.request("POST", "/api/rest/v1/transactions/sale", body=DEEP, headers=headers)
        first = conn.getresponse()
        assert first.status == 400 and b"nested too deeply" in first.read()
        sock = conn.sock
        conn.request("POST", "/_sandbox/faults", body=DEEP, headers=headers)
        second = conn.getresponse()
        assert second.status == 400 and b"nested too deeply" in second.read()
        conn.request("POST", "/api/rest/v1/transactions/sale", body=SALE, headers=headers)
        third = conn.getresponse()
        assert third.status == 200, third.read()
        third.read()
        assert conn.sock is sock  # the same connection served all three
        conn.close()
    finally:
        served.stop()
        assert served.proc.stderr is not None
        assert "Traceback" not in served.proc.stderr.read()
