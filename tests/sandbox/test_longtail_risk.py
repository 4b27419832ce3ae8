"""/risk/assess and the risk rule calls against the sandbox."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.host_requests import assess_body, host_call
from tests.support.vendor_schema import check_response

VISA = "4321000000001119"


@pytest.fixture
def hd(make_sandbox: Any) -> Any:
    sandbox, _client = make_sandbox("HD")
    return sandbox


async def test_assess_approves_and_returns_the_ids_a_sale_needs(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/risk/assess", assess_body())
    assert status == 200
    check_response("/risk/assess", env)
    item = env["result"][0]
    assert item["risk"]["assessment"] == "A"
    assert item["risk"]["tranId"]
    assert len(item["transaction"]["gatewayRiskId"]) == 36
    assert item["transaction"]["invoice"] == "2405210001"
    assert str(item["amount"]["total"]) == "76.25"
    assert item["card"]["token"]["value"].endswith("1119")
    assert VISA not in str(env)
    from cashier.sandbox.host_risk import find_assessment

    stored = find_assessment(hd.state, item["transaction"]["gatewayRiskId"])
    assert stored is not None and stored["tranId"] == item["risk"]["tranId"]


@pytest.mark.parametrize(("email", "expected"), [
    ("ann+deny@example.com", "D"), ("ann+review@example.com", "R"),
    ("ann+escalate@example.com", "E"), ("ann@example.com", "A")])
async def test_assess_outcomes_from_email_triggers(hd: Any, email: str, expected: str) -> None:
    status, env = await host_call(hd.asgi, "POST", "/risk/assess",
                                  assess_body(customer={"emailAddress": email}))
    assert status == 200
    check_response("/risk/assess", env)
    assert env["result"][0]["risk"]["assessment"] == expected


async def test_region_longer_than_three_is_refused(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/risk/assess",
                                  assess_body(customer={"region": "NEVA"}))
    assert status == 400
    assert "customer.region" in env["result"][0]["error"]["longText"]


@pytest.mark.parametrize("missing", ["risk", "transaction", "amount", "card", "sourceIp", "currencyCode"])
async def test_missing_required_parts_are_named(hd: Any, missing: str) -> None:
    body = assess_body()
    del body[missing]
    status, env = await host_call(hd.asgi, "POST", "/risk/assess", body)
    assert status == 400
    assert missing in env["result"][0]["error"]["longText"]


async def test_rule_update_then_status_then_assess_follows_the_rule(hd: Any) -> None:
    email = {"customer": {"emailAddress": "bob@example.com"}}
    status, env = await host_call(hd.asgi, "POST", "/risk/rulestatus",
                                  {"riskRules": {"parameter": "email"}, **email})
    assert status == 200
    rules = env["result"][0]["riskRules"]
    assert rules == rules | {"parameter": "email", "status": "C", "result": "N"}
    status, env = await host_call(hd.asgi, "POST", "/risk/ruleupdate",
                                  {"riskRules": {"parameter": "email", "status": "D"}, **email})
    assert status == 200
    assert env["result"][0]["riskRules"]["result"] == "N"
    assert env["result"][0]["transaction"]["responseCode"] == "A"
    status, env = await host_call(hd.asgi, "POST", "/risk/rulestatus",
                                  {"riskRules": {"parameter": "email"}, **email})
    assert env["result"][0]["riskRules"]["status"] == "D"
    status, env = await host_call(hd.asgi, "POST", "/risk/assess", assess_body(**email))
    assert env["result"][0]["risk"]["assessment"] == "D"
    # clearing the rule restores the default outcome
    await host_call(hd.asgi, "POST", "/risk/ruleupdate",
                    {"riskRules": {"parameter": "email", "status": "C"}, **email})
    status, env = await host_call(hd.asgi, "POST", "/risk/assess", assess_body(**email))
    assert env["result"][0]["risk"]["assessment"] == "A"


async def test_card_rule_applies_without_storing_the_card_number(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/risk/ruleupdate",
                                  {"riskRules": {"parameter": "card", "status": "R"},
                                   "card": {"number": VISA}})
    assert status == 200 and env["result"][0]["riskRules"]["result"] == "N"
    status, env = await host_call(hd.asgi, "POST", "/risk/assess", assess_body())
    assert env["result"][0]["risk"]["assessment"] == "R"
    assert VISA not in str(hd.state.snapshot())


@pytest.mark.parametrize("parameter", ["card", "token"])
async def test_status_a_is_refused_for_card_and_token_with_result_e(hd: Any, parameter: str) -> None:
    subject: dict[str, Any] = {"card": {"number": VISA}}
    if parameter == "token":
        _, env = await host_call(hd.asgi, "POST", "/risk/assess", assess_body())
        subject = {"card": {"token": {"value": env["result"][0]["card"]["token"]["value"]}}}
    status, env = await host_call(hd.asgi, "POST", "/risk/ruleupdate",
                                  {"riskRules": {"parameter": parameter, "status": "A"}, **subject})
    assert status == 200
    item = env["result"][0]
    assert item["riskRules"]["result"] == "E"
    assert item["transaction"]["responseCode"] == "E"
    assert "status" not in item["riskRules"]


async def test_status_a_is_allowed_for_email(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/risk/ruleupdate",
                                  {"riskRules": {"parameter": "email", "status": "A"},
                                   "customer": {"emailAddress": "carl+deny@example.com"}})
    assert status == 200 and env["result"][0]["riskRules"]["result"] == "N"
    status, env = await host_call(hd.asgi, "POST", "/risk/assess",
                                  assess_body(customer={"emailAddress": "carl+deny@example.com"}))
    assert status == 200
    assert env["result"][0]["risk"]["assessment"] == "A"


async def test_rule_status_for_an_unknown_token_reports_e(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/risk/rulestatus",
                                  {"riskRules": {"parameter": "token"},
                                   "card": {"token": {"value": "8123456789010000"}}})
    assert status == 200
    assert env["result"][0]["riskRules"]["result"] == "E"
    assert env["result"][0]["transaction"]["responseCode"] == "E"


@pytest.mark.parametrize(("rules", "field"), [
    ({"parameter": "phone", "status": "D"}, "riskRules.parameter"),
    ({"parameter": "email", "status": "Q"}, "riskRules.status"),
    ({"status": "D"}, "riskRules.parameter")])
async def test_bad_rule_bodies_name_the_field(hd: Any, rules: dict[str, str], field: str) -> None:
    status, env = await host_call(hd.asgi, "POST", "/risk/ruleupdate",
                                  {"riskRules": rules, "customer": {"emailAddress": "a@b.c"}})
    assert status == 400
    assert field in env["result"][0]["error"]["longText"]


@pytest.mark.parametrize("path", ["/risk/assess", "/risk/rulestatus", "/risk/ruleupdate"])
async def test_risk_is_hd_only(make_sandbox: Any, path: str) -> None:
    sandbox, _ = make_sandbox("LG")
    status, env = await host_call(sandbox.asgi, "POST", path, assess_body())
    assert status == 400
    assert "processing option LG" in env["result"][0]["error"]["longText"]
