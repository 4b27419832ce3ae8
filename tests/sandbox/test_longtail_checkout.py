"""Checkout sessions: create, list by status, retrieve, expiry in sandbox time, notification."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

import pytest

from cashier.sandbox import longtail
from cashier.sandbox.host_checkout import attempt_payment
from tests.support.host_requests import host_call
from tests.support.vendor_schema import check_response, check_schema


@pytest.fixture
def hd(make_sandbox: Any) -> Any:
    sandbox, _client = make_sandbox("HD", checkout_notification_url="http://merchant.example/cs")
    return sandbox


async def create(sandbox: Any, invoice: str, minutes: int = 60) -> dict[str, Any]:
    status, env = await host_call(sandbox.asgi, "POST", "/checkoutsessions/create", {
        "amount": {"total": Decimal("10.99"), "tax": Decimal("0.80")},
        "transaction": {"invoice": invoice}, "currencyCode": "USD",
        "checkoutSession": {"expiresInMinutes": minutes,
                            "staticFields": {"Invoice number": invoice},
                            "customFieldsTitle": "Additional information",
                            "customFields": [{"key": "table", "label": "Table", "optional": True}]}})
    assert status == 200, env
    session: dict[str, Any] = env["result"][0]["checkoutSession"]
    return session


async def test_create_then_retrieve_by_post_and_get(hd: Any) -> None:
    session = await create(hd, "1001")
    assert session["id"].startswith("chse_") and session["status"] == "active"
    assert session["amount"]["total"] == Decimal("10.99")
    status, env = await host_call(hd.asgi, "POST", "/checkoutsessions/retrieve",
                                  {"checkoutSession": {"id": session["id"]}})
    assert status == 200
    check_response("/checkoutsessions/retrieve", env, method="get")
    assert env["result"][0]["checkoutSession"]["id"] == session["id"]
    status, env = await host_call(hd.asgi, "GET", "/checkoutsessions/retrieve",
                                  headers={"CheckoutSessionId": session["id"]})
    assert status == 200
    check_response("/checkoutsessions/retrieve", env, method="get")
    status, env = await host_call(hd.asgi, "POST", "/checkoutsessions/retrieve",
                                  {"checkoutSession": {"id": "chse_nope"}})
    assert status == 400 and "checkoutSession.id" in env["result"][0]["error"]["longText"]


async def test_list_filters_by_status_and_pages(hd: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    delivered: list[dict[str, Any]] = []

    async def capture(url: str, payload: dict[str, Any]) -> None:
        delivered.append(payload)

    monkeypatch.setattr(longtail, "poster", capture)
    a = await create(hd, "2001", minutes=5)
    b = await create(hd, "2002")
    c = await create(hd, "2003")
    attempt_payment(hd, b["id"])
    for _ in range(3):
        attempt_payment(hd, c["id"], approved=False)
    hd.state.clock.advance(5 * 60)
    expected = {"expired": [a["id"]], "paid": [b["id"]], "failed": [c["id"]], "active": []}
    for status_name, ids in expected.items():
        status, env = await host_call(hd.asgi, "POST", "/checkoutsessions/list",
                                      {"checkoutSession": {"status": status_name}})
        assert status == 200
        check_response("/checkoutsessions/list", env, method="get")
        assert [item["checkoutSession"]["id"] for item in env["result"]] == ids
        assert [item["checkoutSession"]["status"] for item in env["result"]] == [status_name] * len(ids)
    status, env = await host_call(hd.asgi, "GET", "/checkoutsessions/list", headers={"Limit": "2"})
    assert status == 200 and env["hasMore"] is True and len(env["result"]) == 2
    status, env = await host_call(hd.asgi, "GET", "/checkoutsessions/list", headers={
        "StartingAfterId": env["result"][-1]["checkoutSession"]["id"]})
    assert [item["checkoutSession"]["id"] for item in env["result"]] == [c["id"]]
    assert env["hasMore"] is False
    await asyncio.sleep(0.01)
    assert [p["checkoutSession"]["id"] for p in delivered] == [b["id"]]
    assert delivered[0]["event"]["type"] == "checkout_session_completed"
    check_schema("CheckoutSessionResponse", delivered[0]["checkoutSession"], request=False)
    last = delivered[0]["checkoutSession"]["lastTransaction"]["result"][0]
    assert last["transaction"]["responseCode"] == "A"


async def test_bad_bodies_name_the_field(hd: Any) -> None:
    for body, field in (
            ({"transaction": {"invoice": "1"}}, "amount.total"),
            ({"amount": {"total": Decimal(1)}, "transaction": {"invoice": "1"},
              "checkoutSession": {"expiresInMinutes": 0}}, "checkoutSession.expiresInMinutes"),
            ({"amount": {"total": Decimal(1)}, "transaction": {"invoice": "1"},
              "checkoutSession": {"customFields": [{"key": "k"}]}}, "customFields[0].label")):
        status, env = await host_call(hd.asgi, "POST", "/checkoutsessions/create", body)
        assert status == 400
        assert field in env["result"][0]["error"]["longText"]
    status, env = await host_call(hd.asgi, "POST", "/checkoutsessions/list",
                                  {"checkoutSession": {"status": "open"}})
    assert status == 400 and "status" in env["result"][0]["error"]["longText"]


@pytest.mark.parametrize("option", ["LG", "DCP", "DCC"])
async def test_checkout_sessions_are_hd_only(make_sandbox: Any, option: str) -> None:
    sandbox, _ = make_sandbox(option)
    status, env = await host_call(sandbox.asgi, "POST", "/checkoutsessions/list", {})
    assert status == 400
    assert f"processing option {option}" in env["result"][0]["error"]["longText"]
