"""/cards/verify and /cards/identify against the sandbox, shapes checked with the vendor schema."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.host_requests import host_call
from tests.support.vendor_schema import check_response

VISA = "4321000000001119"


@pytest.fixture
def hd(make_sandbox: Any) -> Any:
    sandbox, _client = make_sandbox("HD")
    return sandbox


async def verify(sandbox: Any, **extra: Any) -> tuple[int, dict[str, Any]]:
    body: dict[str, Any] = {"card": {"number": VISA, "expirationDate": 1230}}
    for key, value in extra.items():
        body[key] = value
    return await host_call(sandbox.asgi, "POST", "/cards/verify", body)


async def test_verify_plain_card_approves_with_token_and_masked_number(hd: Any) -> None:
    status, env = await verify(hd)
    assert status == 200
    check_response("/cards/verify", env)
    item = env["result"][0]
    assert item["transaction"]["responseCode"] == "A"
    assert item["card"]["number"] == "XXXXXXXXXXXX1119"
    assert item["card"]["type"] == "VS"
    assert item["card"]["token"]["value"].endswith("1119")
    assert VISA not in str(env)
    assert "avs" not in item["transaction"]


@pytest.mark.parametrize(("address", "postal", "expected"), [
    ("65 Easy St", None, "A"), ("69 Main", None, "E"), ("78 Oak", None, "N"), ("82 Elm", None, "R"),
    ("85 Pine", None, "U"), ("88 Bay", None, "X"), ("89 Sea", None, "Y"), ("90 Hill", None, "Z"),
    (None, "65144", "A"), (None, "89101", "Y"), (None, "78000", "N"),
])
async def test_verify_avs_triggers(hd: Any, address: str | None, postal: str | None,
                                   expected: str) -> None:
    customer = {k: v for k, v in (("addressLine1", address), ("postalCode", postal)) if v}
    status, env = await verify(hd, customer=customer)
    assert status == 200
    check_response("/cards/verify", env)
    tx = env["result"][0]["transaction"]
    assert tx["avs"]["result"] == expected
    assert tx["responseCode"] == ("D" if expected == "N" else "A")


async def test_address_matching_no_trigger_is_n_but_not_a_failure(hd: Any) -> None:
    status, env = await verify(hd, customer={"addressLine1": "12 Nowhere", "postalCode": "12345"})
    assert status == 200
    tx = env["result"][0]["transaction"]
    assert tx["avs"]["result"] == "N"
    assert tx["avs"]["valid"] == "Y"
    assert tx["responseCode"] == "A"


@pytest.mark.parametrize(("code", "expected"), [
    ("333", "M"), ("4444", "N"), ("555", "P"), ("6666", "S"), ("777", "U"), ("123", "M")])
async def test_verify_csc_triggers(hd: Any, code: str, expected: str) -> None:
    status, env = await verify(hd, card={"number": VISA, "expirationDate": 1230,
                                         "securityCode": {"indicator": "1", "value": code}})
    assert status == 200
    check_response("/cards/verify", env)
    item = env["result"][0]
    assert item["card"]["securityCode"]["result"] == expected
    assert "value" not in item["card"]["securityCode"]
    assert item["transaction"]["responseCode"] == ("D" if expected == "N" else "A")


async def test_verify_failure_with_poshandleavsfail_gives_f(hd: Any) -> None:
    status, env = await verify(hd, customer={"postalCode": "78000"}, apiOptions=["POSHANDLEAVSFAIL"])
    assert status == 200
    assert env["result"][0]["transaction"]["responseCode"] == "f"
    status, env = await verify(hd, card={"number": VISA, "expirationDate": 1230,
                                         "securityCode": {"indicator": "1", "value": "444"}},
                               apiOptions=["POSHANDLEAVSFAIL"])
    assert env["result"][0]["transaction"]["responseCode"] == "f"


@pytest.mark.parametrize(("first", "last", "code"), [
    ("John", "Smith", "E"), ("Jo", "Smith", "A"), ("Mary", "Smith", "B"), ("John", "Smi", "C"),
    ("John", "Jones", "D"), (None, "Smith", "I"), (None, "Smit", "J"), ("Mary", "Jones", "N"),
])
async def test_account_name_inquiry_codes(hd: Any, first: str | None, last: str, code: str) -> None:
    customer = {"lastName": last} | ({"firstName": first} if first else {})
    status, env = await verify(hd, customer=customer, apiOptions=["USEANI"])
    assert status == 200
    check_response("/cards/verify", env)
    assert env["result"][0]["accountNameInquiry"]["aniResponseCode"] == code


async def test_account_name_inquiry_needs_last_name_and_is_visa_only(hd: Any) -> None:
    status, env = await verify(hd, customer={"firstName": "John"}, apiOptions=["USEANI"])
    assert status == 400
    assert "customer.lastName" in env["result"][0]["error"]["longText"]
    status, env = await host_call(hd.asgi, "POST", "/cards/verify", {
        "card": {"number": "5432000000003332", "expirationDate": 1230},
        "customer": {"lastName": "Smith"}, "apiOptions": ["USEANI"]})
    assert status == 200
    assert env["result"][0]["accountNameInquiry"]["aniResponseCode"] == "U"


async def test_verify_without_ani_option_returns_no_ani(hd: Any) -> None:
    status, env = await verify(hd, customer={"lastName": "Smith"})
    assert status == 200
    assert "accountNameInquiry" not in env["result"][0]


@pytest.mark.parametrize(("number", "status", "primary"), [
    ("4321000000001118", 400, 9820),      # Luhn failure
    ("4321000000011001", 504, 9951),      # timeout trigger
    ("4321000000009401", 400, 9401),
    ("9999999999999995", 400, 9842),      # no card range
])
async def test_verify_error_triggers(hd: Any, number: str, status: int, primary: int) -> None:
    got, env = await verify(hd, card={"number": number, "expirationDate": 1230})
    assert got == status
    error = env["result"][0]["error"]
    assert error["primaryCode"] == primary
    check_response("/cards/verify", env, status)
    assert number not in str(env)


async def test_verify_with_token_from_an_earlier_verify(hd: Any) -> None:
    _, env = await verify(hd)
    token = env["result"][0]["card"]["token"]["value"]
    status, env2 = await host_call(hd.asgi, "POST", "/cards/verify", {"card": {"token": {"value": token}}})
    assert status == 200
    assert env2["result"][0]["card"]["number"] == "XXXXXXXXXXXX1119"
    assert env2["result"][0]["card"]["token"]["value"] == token
    status, env3 = await host_call(hd.asgi, "POST", "/cards/verify",
                                   {"card": {"token": {"value": "8000000000001119"}}})
    assert status == 400
    assert env3["result"][0]["error"]["primaryCode"] == 9846


@pytest.mark.parametrize(("number", "bin_", "ctype", "debit"), [
    (VISA, "43210000", "VS", "N"), ("4761739001010010", "47617390", "VS", "Y"),
    ("5432000000003332", "54320000", "MC", "N"), ("373400000002221", "373400", "AX", "N"),
    ("6011013928534509", "60110139", "NS", "N"), ("3337000000005551", "33370000", "JC", "N"),
])
async def test_identify_returns_bin_type_and_debit_capability(hd: Any, number: str, bin_: str,
                                                              ctype: str, debit: str) -> None:
    status, env = await host_call(hd.asgi, "POST", "/cards/identify",
                                  {"card": {"number": number, "expirationDate": 1230, "entryMode": "M"}})
    assert status == 200
    check_response("/cards/identify", env)
    card = env["result"][0]["card"]
    assert card == card | {"bin": bin_, "type": ctype, "debitCapable": debit}
    assert len(card["bin"]) <= 8
    assert number not in str(env)


async def test_lg_verify_reads_the_card_at_the_pin_pad(make_sandbox: Any) -> None:
    sandbox, _ = make_sandbox("LG")
    status, env = await host_call(sandbox.asgi, "POST", "/cards/verify", {"device": {"terminalId": "1742"}})
    assert status == 200
    check_response("/cards/verify", env)
    item = env["result"][0]
    assert item["device"]["terminalId"] == "1742"
    assert item["card"]["number"].endswith("1119")


@pytest.mark.parametrize("option", ["DCP", "DCC"])
async def test_cards_refused_outside_hd_and_lg(make_sandbox: Any, option: str) -> None:
    sandbox, _ = make_sandbox(option)
    for path in ("/cards/verify", "/cards/identify"):
        status, env = await host_call(sandbox.asgi, "POST", path,
                                      {"card": {"number": VISA, "expirationDate": 1230}})
        assert status == 400
        assert "processing option" in env["result"][0]["error"]["longText"]
