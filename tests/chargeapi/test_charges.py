"""Our client against the in-process sandbox: charges, captures, refunds and their rules."""

from __future__ import annotations

import asyncio

import pytest

from cashier.chargeapi import (
    AuthenticationError,
    CardError,
    CardErrorCode,
    ChargeApiClient,
    IdempotencyConflictError,
    InvalidRequestError,
    NotFoundError,
)
from cashier.errors import ValidationError
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.chargeapi.app import ChargeApiSim
from cashier.sandbox.chargeapi.testcards import CARD_ERROR_CODES, TEST_CARDS
from tests.support.charge_api import make_client, token

DAY = 86400


async def test_charge_capture_and_partial_refund(client: ChargeApiClient) -> None:
    auth = await client.create_charge(2000, "eur", card=await token(client), captured=False)
    assert auth["status"] == "successful" and auth["captured"] is False and auth.id.startswith("char_")
    assert auth["currency"] == "EUR" and auth["card"]["last4"] == "4242"
    with pytest.raises(InvalidRequestError, match="partial refunds are possible only for a captured"):
        await client.create_refund(auth.id, 500)
    captured = await client.capture_charge(auth.id)
    assert captured["captured"] is True
    with pytest.raises(InvalidRequestError, match="already captured"):
        await client.capture_charge(auth.id)
    refund = await client.create_refund(auth.id, 500, reason="damaged")
    assert refund.id.startswith("re_") and refund["amount"] == 500 and refund["charge"] == auth.id
    after = await client.get_charge(auth.id)
    assert after["amountRefunded"] == 500 and after["refunded"] is True
    with pytest.raises(InvalidRequestError, match="more than the 1500 left"):
        await client.create_refund(auth.id, 1501)
    rest = await client.create_refund(auth.id)
    assert rest["amount"] == 1500
    refunds = await client.list_refunds(auth.id)
    assert [r.id for r in refunds.objects] == [rest.id, refund.id]


async def test_full_refund_of_an_authorization_releases_it(client: ChargeApiClient) -> None:
    auth = await client.create_charge(700, "USD", card=await token(client), captured=False)
    refund = await client.create_refund(auth.id)
    assert refund["amount"] == 700
    with pytest.raises(InvalidRequestError, match="refunded"):
        await client.capture_charge(auth.id)


async def test_capture_window_is_five_days_on_the_sandbox_clock(client: ChargeApiClient,
                                                                sandbox: HostSandbox) -> None:
    early = await client.create_charge(100, "USD", card=await token(client), captured=False)
    late = await client.create_charge(100, "USD", card=await token(client), captured=False)
    sandbox.state.clock.advance(5 * DAY - 60)
    assert (await client.capture_charge(early.id))["captured"] is True
    sandbox.state.clock.advance(120)
    with pytest.raises(InvalidRequestError, match="capture window has closed"):
        await client.capture_charge(late.id)


async def test_incremental_authorization_only_for_pre_and_uncaptured(client: ChargeApiClient) -> None:
    plain = await client.create_charge(1000, "USD", card=await token(client), captured=False)
    with pytest.raises(InvalidRequestError, match="authorizationType=pre"):
        await client.incremental_authorization(plain.id, 200)
    pre = await client.create_charge(1000, "USD", card=await token(client), captured=False,
                                     authorization_type="pre")
    grown = await client.incremental_authorization(pre.id, 250)
    assert grown["amount"] == 1250
    await client.capture_charge(pre.id)
    with pytest.raises(InvalidRequestError, match="already captured"):
        await client.incremental_authorization(pre.id, 1)
    with pytest.raises(ValidationError, match="captured=False"):
        await client.create_charge(1, "USD", card="tok_x", authorization_type="pre")


@pytest.mark.parametrize("code", CARD_ERROR_CODES)
async def test_every_card_error_code_has_a_test_card(client: ChargeApiClient, code: str) -> None:
    number = next(c.number for c in TEST_CARDS if c.outcome == code)
    with pytest.raises(CardError) as info:
        await client.create_charge(100, "USD", card=await token(client, number))
    error = info.value
    assert error.status == 402 and error.type == "card_error" and error.card_code is CardErrorCode(code)
    failed = await client.get_charge(error.charge_id or "")
    assert failed["status"] == "failed" and failed["failureCode"] == code and failed["captured"] is False


async def test_card_data_errors_at_tokenisation(client: ChargeApiClient) -> None:
    cases = [("4242424242424241", "12", "2055", "123", "invalid_number"),
             ("4242424242424242", "13", "2055", "123", "invalid_expiry_month"),
             ("4242424242424242", "12", "2001", "123", "invalid_expiry_year"),
             ("4242424242424242", "12", "2055", "12a", "invalid_cvc")]
    for number, month, year, cvc, code in cases:
        with pytest.raises(CardError) as info:
            await client.create_token(number, month, year, cvc=cvc)
        assert info.value.code == code


async def test_token_is_single_use(client: ChargeApiClient) -> None:
    tok = await token(client)
    await client.create_charge(100, "USD", card=tok)
    with pytest.raises(CardError) as info:
        await client.create_charge(100, "USD", card=tok)
    assert info.value.card_code is CardErrorCode.EXPIRED_TOKEN
    assert (await client.get_token(tok))["used"] is True


async def test_token_expires_on_the_sandbox_clock(client: ChargeApiClient, sandbox: HostSandbox) -> None:
    tok = await token(client)
    sandbox.state.clock.advance(3601)
    with pytest.raises(CardError, match="expired"):
        await client.create_charge(100, "USD", card=tok)


async def test_amount_above_the_maximum_is_limit_exceeded(client: ChargeApiClient) -> None:
    with pytest.raises(CardError) as info:
        await client.create_charge(100_000_000, "USD", card=await token(client))
    assert info.value.card_code is CardErrorCode.LIMIT_EXCEEDED


async def test_authentication_required_passes_through_3d_secure(client: ChargeApiClient) -> None:
    number = next(c.number for c in TEST_CARDS if c.outcome == "authentication_required")
    secured = await client.create_3d_secure(100, "USD", await token(client, number))
    assert secured["threeDSecureInfo"]["liabilityShift"] == "successful"
    charge = await client.create_charge(100, "USD", card=secured.id)
    assert charge["status"] == "successful"


async def test_blacklist_rule_fails_a_matching_charge(client: ChargeApiClient) -> None:
    tok = await client.create_token("5555555555554444", "12", "2055")
    rule = await client.create_blacklist_rule("fingerprint", fingerprint=tok["fingerprint"])
    assert rule.id.startswith("bl_")
    with pytest.raises(CardError) as info:
        await client.create_charge(100, "USD", card=tok.id)
    assert info.value.card_code is CardErrorCode.BLACKLISTED
    assert info.value.blacklist_rule_id == rule.id
    email_rule = await client.create_blacklist_rule("email", email="bad@example.com")
    customer = await client.create_customer("BAD@example.com", card=await token(client))
    with pytest.raises(CardError, match="blacklist"):
        await client.create_charge(100, "USD", customer_id=customer.id)
    await client.delete_blacklist_rule(email_rule.id)
    assert (await client.create_charge(100, "USD", customer_id=customer.id))["status"] == "successful"
    rules = await client.list_blacklist_rules()
    assert [r.id for r in rules.objects] == [rule.id]


async def test_idempotent_replay_and_key_reuse(client: ChargeApiClient, sim: ChargeApiSim) -> None:
    tok = await token(client)
    first = await client.create_charge(1234, "USD", card=tok, idempotency_key="order-17")
    again = await client.create_charge(1234, "USD", card=tok, idempotency_key="order-17")
    assert not first.replayed and again.replayed and dict(again) == dict(first)
    assert first.idempotency_key == "order-17"
    with pytest.raises(InvalidRequestError) as info:
        await client.create_charge(999, "USD", card=tok, idempotency_key="order-17")
    assert info.value.message == "Idempotent key used for request with different parameters."
    assert info.value.code is None  # as the vendor: an invalid_request error has no code
    listed = await client.list_charges()
    assert [c.id for c in listed.objects] == [first.id]


async def test_replays_expire_after_24_hours(client: ChargeApiClient, sandbox: HostSandbox) -> None:
    first = await client.create_customer("a@example.com", idempotency_key="k-cust")
    sandbox.state.clock.advance(24 * 3600 + 1)
    second = await client.create_customer("a@example.com", idempotency_key="k-cust")
    assert not second.replayed and second.id != first.id


async def test_same_key_while_running_is_a_conflict(sandbox: HostSandbox) -> None:
    slow = next(c.number for c in TEST_CARDS if c.outcome == "slow")
    async with make_client(sandbox, max_retries=0) as c1, make_client(sandbox, max_retries=0) as c2:
        tok = await token(c1, slow)
        first = asyncio.create_task(c1.create_charge(100, "USD", card=tok, idempotency_key="dup"))
        await asyncio.sleep(0.02)
        with pytest.raises(IdempotencyConflictError) as info:
            await c2.create_charge(100, "USD", card=tok, idempotency_key="dup")
        assert info.value.status == 409
        charge = await first
        replay = await c2.create_charge(100, "USD", card=tok, idempotency_key="dup")
        assert replay.replayed and replay.id == charge.id


async def test_conflict_is_retried_with_the_same_key(sandbox: HostSandbox) -> None:
    slow = next(c.number for c in TEST_CARDS if c.outcome == "slow")
    async with make_client(sandbox) as c1, make_client(sandbox, max_retries=4, backoff_s=0.05) as c2:
        tok = await token(c1, slow)
        first = asyncio.create_task(c1.create_charge(100, "USD", card=tok, idempotency_key="dup2"))
        await asyncio.sleep(0.02)
        second = await c2.create_charge(100, "USD", card=tok, idempotency_key="dup2")
        assert second.replayed and second.id == (await first).id


@pytest.mark.parametrize("status", [429, 500])
async def test_retry_after_429_and_500_reuses_the_key(client: ChargeApiClient, sim: ChargeApiSim,
                                                      status: int) -> None:
    tok = await token(client)
    sim.inject(status, count=2, path_prefix="/charges")
    charge = await client.create_charge(100, "USD", card=tok)
    assert charge["status"] == "successful"
    assert sim.calls[("POST", "/charges")] == 1  # two answers were injected faults
    listed = await client.list_charges()
    assert len(listed.objects) == 1


async def test_429_beyond_retries_is_a_typed_error(sandbox: HostSandbox, sim: ChargeApiSim) -> None:
    from cashier.chargeapi import RateLimitError

    async with make_client(sandbox, max_retries=1) as c:
        sim.inject(429, count=2, path_prefix="/customers", retry_after_s=0.01)
        with pytest.raises(RateLimitError) as info:
            await c.list_customers()
        assert info.value.status == 429 and info.value.retry_after_s == 0.01


async def test_test_and_live_keys_are_isolated(sandbox: HostSandbox) -> None:
    async with make_client(sandbox, "sk_test_one", "pk_test_one") as one, \
            make_client(sandbox, "sk_test_two", "pk_test_two") as two, \
            make_client(sandbox, "sk_live_one", "pk_live_one") as live:
        charge = await one.create_charge(100, "USD", card=await token(one))
        with pytest.raises(NotFoundError):
            await two.get_charge(charge.id)
        with pytest.raises(NotFoundError):
            await live.get_charge(charge.id)
        with pytest.raises(InvalidRequestError, match="does not exist"):
            await two.create_charge(100, "USD", card=await token(one))
        assert (await live.list_charges()).objects == []


async def test_public_key_only_makes_tokens(sandbox: HostSandbox) -> None:
    async with make_client(sandbox, public="pk_test_alpha") as c:
        tok = await c.create_token("4242424242424242", "12", "2055")
        assert tok.id.startswith("tok_") and tok["first6"] == "424242" and "number" not in tok
        with pytest.raises(AuthenticationError, match="secret key"):
            await c.request("POST", "/checkout-sessions", {"amount": 100, "currency": "USD"}, public=True)
        with pytest.raises(AuthenticationError, match="secret key"):
            await c.request("GET", "/charges", public=True)


async def test_missing_or_malformed_key_is_401(sandbox: HostSandbox) -> None:
    import httpx

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as raw:
        for auth in (None, ("nokey", ""), ("sk_test_", "")):
            answer = await raw.get("/charges", auth=auth)
            assert answer.status_code == 401
            assert answer.json()["error"]["type"] == "invalid_request"


async def test_unset_fields_are_absent_not_null(client: ChargeApiClient) -> None:
    charge = await client.create_charge(100, "USD", card=await token(client))
    assert "description" not in charge and "customerId" not in charge and "metadata" not in charge
    assert None not in charge.values() and None not in charge["card"].values()


async def test_metadata_limits(client: ChargeApiClient) -> None:
    with pytest.raises(ValidationError, match="at most 20 keys"):
        await client.create_charge(100, "USD", card="tok_x", metadata={f"k{i}": "v" for i in range(21)})
    with pytest.raises(ValidationError, match="1 to 40"):
        await client.create_charge(100, "USD", card="tok_x", metadata={"k" * 41: "v"})
    with pytest.raises(ValidationError, match="500"):
        await client.create_charge(100, "USD", card="tok_x", metadata={"k": "v" * 501})
    for metadata, message in (({f"k{i}": "v" for i in range(21)}, "at most 20 keys"),
                              ({"k" * 41: "v"}, "1 to 40"), ({"k": "v" * 501}, "at most 500")):
        with pytest.raises(InvalidRequestError, match=message):  # the sandbox checks too
            await client.request("POST", "/customers", {"email": "m@example.com", "metadata": metadata})
    ok = await client.create_customer("m@example.com", metadata={"k" * 40: "v" * 500})
    assert ok["metadata"] == {"k" * 40: "v" * 500}


async def test_bad_input_names_the_field(client: ChargeApiClient) -> None:
    for params, field in (({"currency": "USD", "card": "tok_x"}, "amount"),
                          ({"amount": "12.5", "currency": "USD", "card": "tok_x"}, "amount"),
                          ({"amount": 100, "currency": "US", "card": "tok_x"}, "currency"),
                          ({"amount": 100, "currency": "USD"}, "card"),
                          ({"amount": 100, "currency": "USD", "card": "tok_x", "colour": "red"}, "colour")):
        with pytest.raises(InvalidRequestError) as info:
            await client.request("POST", "/charges", params)
        assert info.value.message.startswith(field), info.value.message
    with pytest.raises(ValidationError, match="amount"):
        await client.create_charge(12.5, "USD", card="tok_x")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="card data only goes to create_token"):
        await client.create_charge(100, "USD", card={"number": "4242424242424242"})  # type: ignore[arg-type]


async def test_charge_update_keeps_unsent_fields(client: ChargeApiClient) -> None:
    charge = await client.create_charge(100, "USD", card=await token(client), description="first",
                                        metadata={"a": "1"})
    updated = await client.update_charge(charge.id, metadata={"a": "2"})
    assert updated["description"] == "first" and updated["metadata"] == {"a": "2"}
    assert updated["amount"] == 100


async def test_pending_charge_resolved_by_the_testing_operation(client: ChargeApiClient,
                                                                sandbox: HostSandbox) -> None:
    method = await client.create_payment_method("bank_transfer", billing={"name": "Ann"})
    assert method["status"] == "chargeable"
    pending = await client.create_charge(500, "USD", payment_method=method.id)
    assert pending["status"] == "pending"
    done = await client.resolve_pending_charge(pending.id, "successful")
    assert done["status"] == "successful" and done["captured"] is True
    with pytest.raises(InvalidRequestError, match="not pending"):
        await client.resolve_pending_charge(pending.id, "failed")
    other = await client.create_charge(500, "USD", payment_method=method.id)
    failed = await client.resolve_pending_charge(other.id, "failed", failure_code="insufficient_funds")
    assert failed["failureCode"] == "insufficient_funds"
    async with make_client(sandbox, "sk_live_z", None) as live:
        live_method = await live.create_payment_method("bank_transfer")
        live_pending = await live.create_charge(500, "USD", payment_method=live_method.id)
        with pytest.raises(InvalidRequestError, match="test key"):
            await live.resolve_pending_charge(live_pending.id, "successful")


async def test_json_bodies_are_accepted(client: ChargeApiClient, sandbox: HostSandbox) -> None:
    import httpx

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox", auth=("sk_test_alpha", "")) as raw:
        answer = await raw.post("/charges", json={"amount": 300, "currency": "usd", "captured": False,
                                                  "card": {"number": "4242424242424242", "expMonth": 1,
                                                           "expYear": 2055}, "metadata": {"x": "y"}})
        assert answer.status_code == 200 and answer.json()["captured"] is False
        missing = await raw.get("/nowhere")
        assert missing.status_code == 404 and set(missing.json()["error"]) == {"type", "message"}
        wrong = await raw.delete("/charges")
        assert wrong.status_code == 405 and wrong.json()["error"]["type"] == "invalid_request"
        assert "use POST, GET" in wrong.json()["error"]["message"]


def test_https_only_except_loopback() -> None:
    with pytest.raises(ValidationError, match="https"):
        ChargeApiClient("sk_live_abc", "http://api.example.com")
    ChargeApiClient("sk_live_abc", "http://127.0.0.1:8080")
    ChargeApiClient("sk_live_abc", "http://localhost:8080")
    ChargeApiClient("sk_live_abc", "https://api.example.com")
    with pytest.raises(ValidationError, match="secret key"):
        ChargeApiClient("pk_test_abc", "https://api.example.com")
    assert "sk_live" not in repr(ChargeApiClient("sk_live_abc", "https://api.example.com"))
