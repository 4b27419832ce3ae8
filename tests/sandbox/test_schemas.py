"""Answers for cashier and manager operations validate against the vendor RESPONSE schemas, and
carry the fields a client needs."""

from __future__ import annotations

import base64
from datetime import date
from decimal import Decimal

from tests.support.host_requests import amount, customer, host_call, keyed
from tests.support.vendor_schema import check_response, variant_errors

CARD = {"number": "4321000000001119", "expirationDate": 1230, "entryMode": "M",
        "securityCode": {"indicator": "1", "value": "333"}}
BASE = {"clerk": {"numericId": 1576}, "customer": {"postalCode": "65000", "addressLine1": "89 Oak"}}


def _check_variant(env: dict, variant: int) -> None:  # type: ignore[type-arg]
    ref = "#/paths/~1merchants~1merchant/get/responses/200/content/application~1json/schema"
    errors = variant_errors(f"{ref}/oneOf/{variant}", env)
    assert not errors, errors[:5]


def _item(env: dict) -> dict:  # type: ignore[type-arg]
    item: dict = env["result"][0]  # type: ignore[type-arg]
    return item


async def test_transaction_answers_match_the_vendor(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD")
    app = sandbox.asgi
    status, env = await host_call(app, "POST", "/transactions/sale", {
        **BASE, "amount": {"total": Decimal("6.66"), "tax": 0}, "card": CARD,
        "transaction": {"invoice": "1"}})
    assert status == 200
    check_response("/transactions/sale", env)
    item = _item(env)
    for needed in ("amount", "card", "transaction", "merchant", "server", "dateTime", "receipt"):
        assert needed in item
    assert {"invoice", "responseCode", "authorizationCode", "authSource", "saleFlag",
            "retrievalReference"} <= set(item["transaction"])
    token = item["card"]["token"]["value"]

    status, env = await host_call(app, "POST", "/transactions/authorization", {
        **BASE, "amount": {"total": 40, "tax": 0}, "card": CARD, "transaction": {"invoice": "2"}})
    check_response("/transactions/authorization", env)
    auth_token = _item(env)["card"]["token"]["value"]
    status, env = await host_call(app, "POST", "/transactions/capture", {
        "clerk": {"numericId": 1}, "amount": {"total": 45, "tax": 0, "tip": 5},
        "card": {"token": {"value": auth_token}}, "transaction": {"invoice": "2"}})
    assert status == 200
    check_response("/transactions/capture", env)
    status, env = await host_call(app, "POST", "/transactions/refund", {
        "clerk": {"numericId": 1}, "amount": {"total": 1, "tax": 0}, "card": {**CARD, "present": "N"},
        "transaction": {"invoice": "3", "originalInvoice": "1"}})
    assert status == 200
    check_response("/transactions/refund", env)
    status, env = await host_call(app, "GET", "/transactions/invoice",
                                  headers={"Invoice": "1", "Token": token})
    assert status == 200
    check_response("/transactions/invoice", env, method="get")
    assert "device" not in _item(env)
    assert set(_item(env)["transaction"]) == {"authorizationCode", "authSource", "invoice",
                                              "responseCode", "saleFlag"}
    status, env = await host_call(app, "POST", "/transactions/manualsale", {
        **BASE, "amount": {"total": 9, "tax": 0}, "card": CARD,
        "transaction": {"invoice": "4", "authorizationCode": "VC12"}})
    check_response("/transactions/manualsale", env)
    status, env = await host_call(app, "POST", "/transactions/signature", {
        "transaction": {"invoice": "4"},
        "signature": {"format": "P", "data": base64.b64encode(b"x").decode()}})
    assert status == 200
    check_response("/transactions/signature", env)
    status, env = await host_call(app, "DELETE", "/transactions/invoice",
                                  headers={"Invoice": "4", "ReversalReason": "03"})
    assert status == 200
    check_response("/transactions/invoice", env, method="delete")


async def test_manager_answers_match_the_vendor(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await client.sale(invoice="9", amount=amount("5"), card=keyed(), customer=customer())
    today = date.today().isoformat()
    status, env = await host_call(sandbox.asgi, "GET", "/reports/batchtotals",
                                  headers={"BusinessDate": today})
    check_response("/reports/batchtotals", env, method="get")
    status, env = await host_call(sandbox.asgi, "POST", "/batches/submit", {
        "transaction": {"businessDate": today}, "batch": {"inclusive": "Y", "netAmount": 5}})
    assert status == 200
    check_response("/batches/submit", env)
    for variant, options in enumerate(("", "RETURNPROCESSORS")):
        status, env = await host_call(sandbox.asgi, "GET", "/merchants/merchant",
                                      headers={"ApiOptions": options} if options else None)
        # the vendor's oneOf (Default / RETURNPROCESSORS) is not exclusive: both variants accept
        # either answer, so validate against the variant the option asks for
        _check_variant(env, variant)
        assert _item(env)["merchant"]["mid"] == 15877
    status, env = await host_call(sandbox.asgi, "GET", "/merchants/merchant",
                                  headers={"ApiOptions": "RETURNPROCESSORS"})
    assert all("ranges" in entry for entry in _item(env)["merchant"]["cardTypes"])
    status, env = await host_call(sandbox.asgi, "POST", "/credentials/accesstoken",
                                  {"credential": {"clientGuid": "G", "authToken": "A"}})
    check_response("/credentials/accesstoken", env)


async def test_error_answers_match_the_vendor(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD")
    status, env = await host_call(sandbox.asgi, "GET", "/transactions/invoice", headers={"Invoice": "77"})
    assert status == 400
    check_response("/transactions/invoice", env, status=400, method="get")
    status, env = await host_call(sandbox.asgi, "POST", "/transactions/sale", {
        **BASE, "amount": {"total": 1, "tax": 0}, "transaction": {"invoice": "5"},
        "card": {**CARD, "number": "4321000000011001"}})
    assert status == 504
    check_response("/transactions/sale", env, status=504)
    status, env = await host_call(sandbox.asgi, "POST", "/batches/submit", {
        "transaction": {"businessDate": "2024-01-01"}, "batch": {"inclusive": "Y", "netAmount": 3}})
    assert status == 400
    check_response("/batches/submit", env, status=400)
