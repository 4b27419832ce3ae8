"""DCC rate lookup and rule verification (surcharge) against the sandbox."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.support.host_requests import host_call
from tests.support.vendor_schema import check_response


@pytest.fixture
def hd(make_sandbox: Any) -> Any:
    sandbox, _client = make_sandbox("HD")
    return sandbox


def dcc_body(number: str, total: str = "160.00") -> dict[str, Any]:
    return {"currencyCode": "USD", "amount": {"total": Decimal(total)}, "clerk": {"numericId": 1576},
            "card": {"number": number, "expirationDate": 1230}}


@pytest.mark.parametrize(("number", "currency", "minor"), [
    ("3337000000005551", "JPY", 0), ("5290111111111111", "EUR", 2), ("4616222222222257", "CAD", 2)])
async def test_foreign_cards_get_a_rate(hd: Any, number: str, currency: str, minor: int) -> None:
    status, env = await host_call(hd.asgi, "POST", "/dcc/ratelookup", dcc_body(number))
    assert status == 200
    check_response("/dcc/ratelookup", env)
    dcc = env["result"][0]["dcc"]
    assert dcc["supportIndicator"] == "1"
    assert dcc["currencyCode"] == currency
    assert dcc["currencyMinorUnits"] == minor
    rate = Decimal(dcc["conversionRate"])
    foreign = Decimal(dcc["foreignAmount"])
    assert abs(foreign - Decimal("160.00") * rate) <= Decimal(1).scaleb(-minor) / 2
    assert -foreign.as_tuple().exponent <= minor  # type: ignore[operator]
    assert number not in str(env)


async def test_domestic_card_cannot_use_dcc(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/dcc/ratelookup", dcc_body("4321000000001119"))
    assert status == 200
    check_response("/dcc/ratelookup", env)
    assert env["result"][0]["dcc"] == {"supportIndicator": "0"}


async def test_dcc_by_token_and_missing_clerk(hd: Any) -> None:
    _, env = await host_call(hd.asgi, "POST", "/dcc/ratelookup", dcc_body("5290111111111111"))
    token = env["result"][0]["card"]["token"]["value"]
    body = dcc_body("x")
    body["card"] = {"token": {"value": token}}
    status, env = await host_call(hd.asgi, "POST", "/dcc/ratelookup", body)
    assert status == 200 and env["result"][0]["dcc"]["currencyCode"] == "EUR"
    del body["clerk"]
    status, env = await host_call(hd.asgi, "POST", "/dcc/ratelookup", body)
    assert status == 400
    check_response("/dcc/ratelookup", env, 400)
    assert "clerk.numericId" in env["result"][0]["error"]["longText"]


def rule_body(number: str, total: str = "160.00") -> dict[str, Any]:
    return {"amount": {"total": Decimal(total)}, "ruleCheck": ["SURCHARGE"],
            "transaction": {"invoice": "0510093358"}, "card": {"number": number, "expirationDate": 1230}}


@pytest.mark.parametrize("path", ["/rules/verify", "/rule/verify"])
async def test_both_rule_paths_answer(hd: Any, path: str) -> None:
    status, env = await host_call(hd.asgi, "POST", path, rule_body("4321000000001119"))
    assert status == 200
    check_response(path, env)
    item = env["result"][0]
    assert item["surcharge"]["result"] == "P"
    assert item["surcharge"]["percentage"] == Decimal("3.00")
    assert item["amount"] == {"total": Decimal("164.80"), "surcharge": Decimal("4.80")}


async def test_debit_card_is_not_eligible_for_surcharge(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/rule/verify", rule_body("4761739001010010"))
    assert status == 200
    check_response("/rule/verify", env)
    item = env["result"][0]
    assert item["surcharge"]["result"] == "F"
    assert item["amount"]["total"] == Decimal("160.00")


@pytest.mark.parametrize(("change", "field"), [
    ({"ruleCheck": ["TIP"]}, "ruleCheck"), ({"ruleCheck": None}, "ruleCheck"),
    ({"transaction": {}}, "transaction.invoice")])
async def test_bad_rule_bodies_name_the_field(hd: Any, change: dict[str, Any], field: str) -> None:
    body = rule_body("4321000000001119")
    body.update(change)
    status, env = await host_call(hd.asgi, "POST", "/rules/verify", body)
    assert status == 400
    assert field in env["result"][0]["error"]["longText"]


@pytest.mark.parametrize("path", ["/dcc/ratelookup", "/rules/verify", "/rule/verify"])
async def test_dcc_and_rules_are_hd_only(make_sandbox: Any, path: str) -> None:
    sandbox, _ = make_sandbox("LG")
    status, env = await host_call(sandbox.asgi, "POST", path, rule_body("4321000000001119"))
    assert status == 400
    assert "processing option LG" in env["result"][0]["error"]["longText"]
