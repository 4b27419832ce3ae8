"""Sandbox authentication: AccessToken, the token exchange, HMAC-SHA256 signatures."""

from __future__ import annotations

from typing import Any

import pytest

from cashier.host import codec, signing
from tests.support.host_requests import HEADERS, host_call

NO_TOKEN = {k: v for k, v in HEADERS.items() if k != "AccessToken"}


async def _merchant(sandbox: Any, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    import httpx

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox/api/rest/v1") as http:
        response = await http.get("/merchants/merchant", headers=headers)
    return response.status_code, codec.loads(response.content)


async def test_missing_and_unknown_access_token(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD")
    status, env = await _merchant(sandbox, NO_TOKEN)
    error = env["result"][0]["error"]
    assert status == 400 and (error["primaryCode"], error["secondaryCode"]) == (9862, 1)
    status, env = await _merchant(sandbox, {**NO_TOKEN, "AccessToken": "SOMEONE-ELSE"})
    error = env["result"][0]["error"]
    assert status == 400 and (error["primaryCode"], error["secondaryCode"]) == (9862, 2)
    assert error["longText"] == "AccessToken not found"
    assert (await _merchant(sandbox, HEADERS))[0] == 200


async def test_training_accepts_any_token_but_not_none(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD", access_token=None)
    assert (await _merchant(sandbox, {**NO_TOKEN, "AccessToken": "anything"}))[0] == 200
    assert (await _merchant(sandbox, NO_TOKEN))[0] == 400


async def test_exchange_issues_a_52_character_token_that_works(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    result = await client.exchange_access_token(client_guid="4E2A-GUID", auth_token="AUTH-TOKEN-1")
    token = result.model_dump(by_alias=True)["credential"]["accessToken"]
    assert len(token) == 52
    assert token in sandbox.state.issued_access_tokens
    assert (await _merchant(sandbox, {**NO_TOKEN, "AccessToken": token}))[0] == 200


async def test_exchange_with_a_fixed_pair(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD", credential_pair=("GUID-1", "AUTH-1"))
    status, env = await host_call(sandbox.asgi, "POST", "/credentials/accesstoken",
                                  {"credential": {"clientGuid": "GUID-1", "authToken": "WRONG"}},
                                  headers={"AccessToken": ""})
    assert status == 400 and env["result"][0]["error"]["shortText"] == "AuthToken"
    status, env = await host_call(sandbox.asgi, "POST", "/credentials/accesstoken",
                                  {"credential": {"clientGuid": "GUID-1", "authToken": "AUTH-1"}})
    assert status == 200 and len(env["result"][0]["credential"]["accessToken"]) == 52
    status, env = await host_call(sandbox.asgi, "POST", "/credentials/accesstoken", {"credential": {}})
    assert status == 400 and "credential.clientGuid" in env["result"][0]["error"]["longText"]


@pytest.mark.parametrize(("key", "secret", "token", "status", "secondary"), [
    ("k1", b"s3cret", True, 200, None),
    ("k1", b"s3cret", False, 200, None),  # a verified signature identifies the caller
    ("k1", b"wrong", True, 400, 5),
    ("k9", b"s3cret", True, 400, 4),
])
async def test_hmac_signature(make_sandbox: Any, key: str, secret: bytes, token: bool, status: int,
                              secondary: int | None) -> None:
    sandbox, _ = make_sandbox("HD", hmac_keys={"k1": b"s3cret"})
    headers = dict(HEADERS if token else NO_TOKEN)
    headers["Authorization"] = signing.authorization_header(key, secret, b"")
    got, env = await _merchant(sandbox, headers)
    assert got == status
    if secondary is not None:
        assert env["result"][0]["error"]["secondaryCode"] == secondary


async def test_hmac_malformed_and_signed_body(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD", hmac_keys={"k1": b"s3cret"})
    status, env = await _merchant(sandbox, {**HEADERS, "Authorization": "Bearer x"})
    assert status == 400 and env["result"][0]["error"]["secondaryCode"] == 3
    import httpx

    from cashier.host.client import HostClient, HostSettings

    settings = HostSettings(base_url="http://sandbox/api/rest/v1", processing_option="HD",
                            hmac_key_id="k1", hmac_secret=b"s3cret")
    client = HostClient(settings, access_token=None, transport=httpx.ASGITransport(app=sandbox.asgi))
    from tests.support.host_requests import amount, customer, keyed

    sale = await client.sale(invoice="1", amount=amount("5.00"), card=keyed(), customer=customer())
    assert sale.response_code == "A"  # the body signature verified, no AccessToken sent


async def test_a_card_token_is_never_an_access_token(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    """Card tokens and access tokens live apart: a card token must not open the API."""
    from decimal import Decimal

    import pytest

    from cashier.host.errors import HostError
    from cashier.host.models.common import Amount, Card

    _sandbox, client = make_sandbox("HD")
    sale = await client.sale(invoice="900001", amount=Amount(total=Decimal("5.00"), tax=Decimal(0)),
                             card=Card(number="4321000000001119", expiration_date="1230",
                                       entry_mode="M"))
    card_token = sale.token
    assert card_token
    client.set_access_token(card_token)
    with pytest.raises(HostError):
        await client.invoice_status("900001")
