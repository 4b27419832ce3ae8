"""Bad input to the sandbox host: always the host's envelope naming the field, never a 500."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.host_requests import HEADERS, host_call

SALE = {"amount": {"total": 5, "tax": 0}, "clerk": {"numericId": 1},
        "transaction": {"invoice": "1"}, "device": {"terminalId": "1742"}}


async def _raw(app: Any, method: str, path: str, content: bytes | None = None,
               headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://sandbox") as http:
        response = await http.request(method, path, content=content, headers=headers if headers is not None
                                      else HEADERS)
    return response.status_code, response.json()


def _error(env: dict[str, Any]) -> dict[str, Any]:
    error: dict[str, Any] = env["result"][0]["error"]
    assert env["result"][0]["server"]["name"]
    return error


@pytest.mark.parametrize(("content", "needle"), [
    (b"{not json", "not valid JSON"),
    (b"[1, 2]", "JSON object"),
    (b'{"amount": {"total": "abc", "tax": 0}}', "amount.total"),
    (b'{"amount": {"total": 0, "tax": 0}, "transaction": {"invoice": "1"}}', "amount.total"),
    (b'{"amount": {"total": 5, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "ABC"}}',
     "transaction.invoice"),
    (b'{"amount": {"total": 5, "tax": 0}, "transaction": {"invoice": "1"}}', "clerk"),
    (b'{"clerk": {"numericId": 1}, "transaction": {"invoice": "1"}}', "amount"),
    (b'{"amount": {"total": 5.12345, "tax": 0}, "transaction": {"invoice": "1"}}', "3 decimals"),
    (b'{"amount": {"total": 5, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "1"},'
     b' "apiOptions": "ALLOWPARTIALAUTH", "device": {"terminalId": "1"}}', "apiOptions"),
    (b'{"amount": {"total": 5, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "1"},'
     b' "device": "1742"}', "device"),
    (b'{"amount": {"total": 5, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "1",'
     b' "authType": "9"}, "device": {"terminalId": "1"}}', "authType"),
    (b'{"amount": {"total": 5, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "1"},'
     b' "card": {"number": 4321000000001119}}', "card.number"),
])
async def test_bad_sale_bodies(make_sandbox, content: bytes, needle: str) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("LG")
    status, env = await _raw(sandbox.asgi, "POST", "/api/rest/v1/transactions/sale", content)
    assert status == 400
    error = _error(env)
    assert needle in error["longText"] and error["primaryCode"] and error["severity"] == "Info"
    assert sandbox.state.family("transactions").get("invoices", {}) == {}


async def test_get_and_delete_invoice_header_rules(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD")
    status, env = await host_call(sandbox.asgi, "GET", "/transactions/invoice")
    assert status == 400 and "Invoice" in _error(env)["longText"]
    status, env = await host_call(sandbox.asgi, "GET", "/transactions/invoice", headers={"Invoice": "12AB"})
    assert status == 400 and "Invoice" in _error(env)["longText"]
    status, env = await host_call(sandbox.asgi, "GET", "/transactions/invoice", headers={"Invoice": "999"})
    assert status == 400 and _error(env)["primaryCode"] == 9815
    status, env = await host_call(sandbox.asgi, "DELETE", "/transactions/invoice",
                                  headers={"Invoice": "999", "ReversalReason": "10"})
    assert status == 400 and "ReversalReason" in _error(env)["longText"]
    status, env = await _raw(sandbox.asgi, "GET", "/api/rest/v1/transactions/invoice", b"{}",
                             {**HEADERS, "Invoice": "1"})
    assert status == 400 and "must not carry a body" in _error(env)["longText"]


async def test_unknown_path_wrong_method_and_option(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("LG")
    status, env = await _raw(sandbox.asgi, "POST", "/api/rest/v1/transactions/nothing", b"{}")
    assert status == 404 and "No such endpoint" in _error(env)["longText"]
    status, env = await _raw(sandbox.asgi, "PUT", "/api/rest/v1/transactions/sale", b"{}")
    assert status == 405 and _error(env)["shortText"] == "BAD METHOD"
    status, env = await host_call(sandbox.asgi, "POST", "/batches/submit",
                                  {"transaction": {"businessDate": "2024-05-21"},
                                   "batch": {"inclusive": "Y"}})
    assert status == 400 and "processing option LG" in _error(env)["longText"]


@pytest.mark.parametrize(("header", "value", "needle"), [
    ("InterfaceName", None, "InterfaceName is required"),
    ("CompanyName", "A" * 27, "at most 26"),
    ("InterfaceVersion", "1-0", "must not contain"),
])
async def test_interface_headers_are_required(make_sandbox: Any, header: str, value: str | None,
                                              needle: str) -> None:
    sandbox, _ = make_sandbox("LG")
    headers = {k: v for k, v in HEADERS.items() if k != header}
    if value is not None:
        headers[header] = value
    status, env = await _raw(sandbox.asgi, "GET", "/api/rest/v1/merchants/merchant", None, headers)
    assert status == 400 and needle in _error(env)["longText"]


async def test_handler_crash_is_an_envelope_not_a_trace(make_sandbox, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from cashier.sandbox import host_merchant

    async def boom(call: Any) -> dict[str, Any]:
        raise RuntimeError("secret internals")

    from cashier.sandbox.core import HostRoute

    sandbox, _ = make_sandbox("HD")
    route = sandbox.routes[("GET", "/merchants/merchant")]
    monkeypatch.setitem(sandbox.routes, ("GET", "/merchants/merchant"),
                        HostRoute(route.method, route.path, route.options, boom))
    status, env = await host_call(sandbox.asgi, "GET", "/merchants/merchant")
    assert status == 400 and _error(env)["primaryCode"] == 9999 and "secret" not in str(env)
    assert host_merchant.merchant is route.handler
