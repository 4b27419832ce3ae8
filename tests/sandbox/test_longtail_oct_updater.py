"""Original credit transfers and the account updater against the sandbox."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.support.host_requests import host_call, payout_body
from tests.support.vendor_schema import check_response


@pytest.fixture
def hd(make_sandbox: Any) -> Any:
    sandbox, _client = make_sandbox("HD")
    return sandbox


@pytest.mark.parametrize("number", ["4515300011000159", "4515300011000167", "5312600000002167"])
async def test_payout_to_oct_cards_is_approved(hd: Any, number: str) -> None:
    status, env = await host_call(hd.asgi, "POST", "/oct/payout", payout_body(number))
    assert status == 200
    check_response("/oct/payout", env)
    item = env["result"][0]
    assert item["transaction"]["responseCode"] == "A"
    assert item["amount"]["total"] == Decimal("135.87")
    assert item["card"]["number"].endswith(number[-4:])
    assert number not in str(env)


async def test_payout_to_a_card_not_enabled_for_oct_declines(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/oct/payout", payout_body("4321000000001119"))
    assert status == 200
    check_response("/oct/payout", env)
    assert env["result"][0]["transaction"]["responseCode"] == "D"


async def test_payout_to_a_company_and_by_token(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/oct/payout", payout_body(
        companyName="Acme", emailAddress="pay@acme.example", ipAddress="1.2.3.4"))
    assert status == 200
    token = env["result"][0]["card"]["token"]["value"]
    body = payout_body()
    body["card"] = {"token": {"value": token}}
    status, env = await host_call(hd.asgi, "POST", "/oct/payout", body)
    assert status == 200
    assert env["result"][0]["transaction"]["responseCode"] == "A"


async def test_oct_errors_have_no_primary_code(hd: Any) -> None:
    body = payout_body()
    del body["sourceIp"]
    status, env = await host_call(hd.asgi, "POST", "/oct/payout", body)
    assert status == 400
    check_response("/oct/payout", env, 400)
    error = env["result"][0]["error"]
    assert "sourceIp" in error["longText"]
    assert "primaryCode" not in error and error["code"] == 40102
    status, env = await host_call(hd.asgi, "POST", "/oct/payout", payout_body("4321000000001118"))
    assert status == 400
    assert "primaryCode" not in env["result"][0]["error"]


async def test_update_recipient_after_a_payout(hd: Any) -> None:
    update = {"customer": {"emailAddress": "john@example.com", "newEmailAddress": "j.s@example.com"},
              "sourceIp": "1.2.3.4"}
    status, env = await host_call(hd.asgi, "POST", "/oct/updaterecipient", update)
    assert status == 400
    assert "primaryCode" not in env["result"][0]["error"]
    await host_call(hd.asgi, "POST", "/oct/payout", payout_body())
    status, env = await host_call(hd.asgi, "POST", "/oct/updaterecipient", update)
    assert status == 200
    check_response("/oct/updaterecipient", env)
    assert env["result"][0]["customer"]["newEmailAddress"] == "j.s@example.com"
    # the old address is gone, the new one can be updated again
    status, _ = await host_call(hd.asgi, "POST", "/oct/updaterecipient", update)
    assert status == 400


async def tokens_for(hd: Any, numbers: list[str]) -> list[str]:
    tokens = []
    for number in numbers:
        status, env = await host_call(hd.asgi, "POST", "/cards/verify",
                                      {"card": {"number": number, "expirationDate": 1230}})
        assert status == 200
        tokens.append(env["result"][0]["card"]["token"]["value"])
    return tokens


async def test_updater_is_pending_for_an_hour_of_sandbox_time_then_complete(hd: Any) -> None:
    numbers = ["4321000000001119", "5432000000003332", "373400000002221", "6011013928534509",
               "4761739001010010"]
    tokens = await tokens_for(hd, numbers) + ["8123456789019999"]
    status, env = await host_call(hd.asgi, "POST", "/updater/request",
                                  {"cards": [{"token": t} for t in tokens]})
    assert status == 200
    check_response("/updater/request", env)
    request_id = env["result"][0]["updaterRequestId"]
    status, env = await host_call(hd.asgi, "POST", "/updater/status", {"updaterRequestId": request_id})
    assert status == 200
    check_response("/updater/status", env)
    assert env["result"][0]["updaterStatus"] == "P"
    assert "cards" not in env["result"][0]
    hd.state.clock.advance(3599)
    _, env = await host_call(hd.asgi, "POST", "/updater/status", {"updaterRequestId": request_id})
    assert env["result"][0]["updaterStatus"] == "P"
    hd.state.clock.advance(2)
    _, env = await host_call(hd.asgi, "POST", "/updater/status", {"updaterRequestId": request_id})
    check_response("/updater/status", env)
    item = env["result"][0]
    assert item["updaterStatus"] == "C"
    statuses = {card["token"]: card["status"] for card in item["cards"]}
    assert [statuses[t] for t in tokens] == ["A", "B", "C", "D", "E", "T"]
    by_token = {card["token"]: card for card in item["cards"]}
    assert by_token[tokens[0]]["newToken"] != tokens[0]
    assert "newExpirationDate" in by_token[tokens[1]]


async def test_updater_bad_requests(hd: Any) -> None:
    for body, field in (({"cards": []}, "cards"), ({"cards": [{"token": 5}]}, "cards[0].token"),
                        ({}, "cards")):
        status, env = await host_call(hd.asgi, "POST", "/updater/request", body)
        assert status == 400
        assert field in env["result"][0]["error"]["longText"]
        assert "primaryCode" not in env["result"][0]["error"]
    status, env = await host_call(hd.asgi, "POST", "/updater/status",
                                  {"updaterRequestId": "bad91cf7-0664-40d5-877f-cd4cbe36fc9a"})
    assert status == 400
    check_response("/updater/status", env, 400)


@pytest.mark.parametrize(("path", "body"), [("/oct/payout", payout_body()),
                                            ("/updater/request", {"cards": [{"token": "1"}]})])
async def test_oct_and_updater_are_hd_only(make_sandbox: Any, path: str, body: dict[str, Any]) -> None:
    sandbox, _ = make_sandbox("DCP")
    status, env = await host_call(sandbox.asgi, "POST", path, body)
    assert status == 400
    assert "processing option DCP" in env["result"][0]["error"]["longText"]
