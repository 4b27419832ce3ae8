"""3-D Secure standalone and completion against the sandbox, and the removed endpoints."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.support.host_requests import host_call, standalone_body
from tests.support.vendor_schema import check_response, check_schema

FRICTIONLESS, FINGERPRINT, CHALLENGE = "4176660000000027", "4176660000000068", "4176660000000092"
#: Our spec: required on a sale or authorization that carries 3-D Secure data.
SALE_FIELDS = ("cryptogram", "ecommIndicator", "securityLevelIndicator", "programProtocol",
               "directoryServerTranId", "authenticationSource")


@pytest.fixture
def hd(make_sandbox: Any) -> Any:
    sandbox, _client = make_sandbox("HD")
    return sandbox


async def completion(sandbox: Any, trx_id: str, comp_ind: str = "Y",
                     invoice: str = "730518") -> tuple[int, dict[str, Any]]:
    return await host_call(sandbox.asgi, "POST", "/3dsecure/completion",
                           {"transaction": {"invoice": invoice},
                            "threeDSecure": {"trxId": trx_id, "compInd": comp_ind}})


def assert_usable(three_ds: dict[str, Any]) -> None:
    for name in SALE_FIELDS:
        assert three_ds.get(name), name
    for name, schema in (("cryptogram", "ThreeDSecureCryptogram"),
                         ("ecommIndicator", "ThreeDSecureEcommIndicator"),
                         ("programProtocol", "ThreeDSecureProgramProtocol"),
                         ("directoryServerTranId", "ThreeDSecureDirectoryServerTranId"),
                         ("securityLevelIndicator", "ThreeDSecureSecurityLevelIndicator"),
                         ("authenticationSource", "ThreeDSecureAuthenticationSource")):
        check_schema(schema, three_ds[name])


async def test_frictionless_card_gives_the_result_at_once(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/3dsecure/standalone", standalone_body(FRICTIONLESS))
    assert status == 200
    check_response("/3dsecure/standalone", env)
    item = env["result"][0]
    assert item["transaction"]["responseCode"] == "A"
    assert item["threeDSecure"]["ecommIndicator"] == "5"
    assert_usable(item["threeDSecure"])
    assert "redirectUrl" not in item
    assert FRICTIONLESS not in str(env)


async def test_fingerprint_requires_completion_which_then_gives_the_result(hd: Any) -> None:
    status, env = await host_call(hd.asgi, "POST", "/3dsecure/standalone", standalone_body(FINGERPRINT))
    assert status == 200
    check_response("/3dsecure/standalone", env)
    item = env["result"][0]
    assert item["transaction"]["responseCode"] == "H"
    assert item["redirectUrl"].startswith("https://")
    assert "cryptogram" not in item["threeDSecure"]
    trx_id = item["threeDSecure"]["trxId"]
    status, env = await completion(hd, trx_id)
    assert status == 200
    check_response("/3dsecure/completion", env)
    done = env["result"][0]
    assert done["transaction"]["responseCode"] == "A"
    assert done["threeDSecure"]["trxId"] == trx_id
    assert_usable(done["threeDSecure"])
    # a second completion is refused
    status, env = await completion(hd, trx_id)
    assert status == 400
    assert env["result"][0]["error"]["shortText"] == "ALREADY DONE"


async def test_unfinished_fingerprint_is_attempted_eci_6(hd: Any) -> None:
    _, env = await host_call(hd.asgi, "POST", "/3dsecure/standalone", standalone_body(FINGERPRINT))
    status, env = await completion(hd, env["result"][0]["threeDSecure"]["trxId"], "U")
    assert status == 200
    assert env["result"][0]["threeDSecure"]["ecommIndicator"] == "6"


@pytest.mark.parametrize(("comp_ind", "code"), [("Y", "A"), ("N", "D")])
async def test_challenge_passes_or_fails_through_completion(hd: Any, comp_ind: str, code: str) -> None:
    status, env = await host_call(hd.asgi, "POST", "/3dsecure/standalone", standalone_body(CHALLENGE))
    assert status == 200
    check_response("/3dsecure/standalone", env)
    item = env["result"][0]
    assert item["transaction"]["responseCode"] == "G"
    assert "/challenge/" in item["redirectUrl"]
    status, env = await completion(hd, item["threeDSecure"]["trxId"], comp_ind)
    assert status == 200
    check_response("/3dsecure/completion", env)
    done = env["result"][0]
    assert done["transaction"]["responseCode"] == code
    assert ("cryptogram" in done["threeDSecure"]) is (code == "A")


async def test_completion_for_an_unknown_transaction_or_wrong_invoice(hd: Any) -> None:
    status, env = await completion(hd, "a7bbd49a-ffe6-49b2-8a92-541f0a3b053d")
    assert status == 400
    check_response("/3dsecure/completion", env, 400)
    _, env = await host_call(hd.asgi, "POST", "/3dsecure/standalone", standalone_body(FINGERPRINT))
    status, env = await completion(hd, env["result"][0]["threeDSecure"]["trxId"], invoice="999")
    assert status == 400


async def test_result_is_usable_in_a_sale(hd: Any) -> None:
    _, env = await host_call(hd.asgi, "POST", "/3dsecure/standalone", standalone_body(FRICTIONLESS))
    item = env["result"][0]
    from cashier.sandbox.host_3ds import find_result

    assert find_result(hd.state, item["threeDSecure"]["cryptogram"]) is not None
    three_ds = {k: v for k, v in item["threeDSecure"].items() if k != "trxId"}
    sale = {"amount": {"total": Decimal("160"), "tax": Decimal("0")}, "clerk": {"numericId": 1},
            "transaction": {"invoice": "730518", "purchaseCard": {
                "customerReference": "730518", "destinationPostalCode": "65144",
                "productDescriptors": ["Retail"]}},
            "card": {"token": {"value": item["card"]["token"]["value"]}},
            "threeDSecure": three_ds}
    status, env = await host_call(hd.asgi, "POST", "/transactions/sale", sale)
    assert status == 200, env
    assert env["result"][0]["transaction"]["responseCode"] == "A"
    assert env["result"][0]["card"]["number"].endswith("0027")


async def test_phone_number_needs_phone_country(hd: Any) -> None:
    body = standalone_body(FRICTIONLESS)
    body["customer"]["phoneNumber"] = "3110001234"
    status, env = await host_call(hd.asgi, "POST", "/3dsecure/standalone", body)
    assert status == 400
    assert "customer.phoneCountry" in env["result"][0]["error"]["longText"]
    body["customer"]["phoneCountry"] = "1"
    status, env = await host_call(hd.asgi, "POST", "/3dsecure/standalone", body)
    assert status == 200


@pytest.mark.parametrize(("path", "value", "field"), [
    ("threeDSecure", {"initiate": "02"}, "threeDSecure.initiate"),
    ("completionUrl", None, "completionUrl"),
    ("customer", {"firstName": "John"}, "customer.lastName")])
async def test_bad_standalone_bodies_name_the_field(hd: Any, path: str, value: Any, field: str) -> None:
    body = standalone_body(FRICTIONLESS)
    if value is None:
        del body[path]
    else:
        body[path] = value
    status, env = await host_call(hd.asgi, "POST", "/3dsecure/standalone", body)
    assert status == 400
    assert field in env["result"][0]["error"]["longText"]


@pytest.mark.parametrize("path", [
    "/3dsecure/sale", "/3dsecure/authorization", "/3dsecure/verifycard", "/tappp/sale",
    "/trustly/initiate", "/vippreferred/sale", "/venmo/sale", "/trustly", "/venmo"])
async def test_removed_endpoints_answer_404_in_the_host_envelope(hd: Any, path: str) -> None:
    status, env = await host_call(hd.asgi, "POST", path, {"transaction": {"invoice": "1"}})
    assert status == 404
    error = env["result"][0]["error"]
    assert error["shortText"] and error["longText"]
    assert env["result"][0]["server"]["name"]


async def test_3ds_is_hd_only(make_sandbox: Any) -> None:
    sandbox, _ = make_sandbox("LG")
    status, env = await host_call(sandbox.asgi, "POST", "/3dsecure/standalone",
                                  standalone_body(FRICTIONLESS))
    assert status == 400
    assert "processing option LG" in env["result"][0]["error"]["longText"]
