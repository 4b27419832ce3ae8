"""Seeded fuzz of every Charge API route of the sandbox (in process, so hundreds of bodies take
seconds): whatever the body, never a 5xx, always the error shape.

Bodies are JSON objects built from the field names our spec and the vendor's SDKs use (so they
reach the handlers' rules, not only the unknown-parameter check) with values of every JSON
kind, nested a few levels. Path ids are real objects of the account, so updates run too.
``CASHIER_FUZZ_EXAMPLES`` raises the count for ``make fuzz``-style runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from cashier.sandbox.app import HostSandbox
from cashier.sandbox.chargeapi.app import ENDPOINTS
from cashier.sandbox.core import SandboxConfig

EXAMPLES = int(os.environ.get("CASHIER_FUZZ_EXAMPLES", "3")) * 10
FIELDS = ["amount", "currency", "card", "customerId", "captured", "description", "metadata", "options",
          "paymentMethod", "paymentLinkId", "number", "expMonth", "expYear", "cvc", "email", "id",
          "chargeId", "planId", "quantity", "interval", "name", "ruleType", "evidence", "lineItems",
          "product", "status", "failureCode", "threeDSecure", "fraudCheckData", "shipping", "billing",
          "defaultCardId", "maxSuccessfulCharges", "trialEnd", "includeTotalCount", "limit", "type"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True),
                    st.text(max_size=12), st.sampled_from(["4242424242424242", "EUR", "tok_x", "12", "2055"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), inner,
                                                   max_size=4)), max_leaves=12)
#: One field changed (or added) on a valid body at a time, so the rules past the first check run too.
OVERRIDES = st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=2)
CARD = {"number": "4242424242424242", "expMonth": "12", "expYear": "2055", "cvc": "123"}
VALID: dict[str, dict[str, Any]] = {
    "/charges": {"amount": 100, "currency": "EUR", "card": CARD, "metadata": {"a": "1"}},
    "/customers": {"email": "f@example.com", "card": CARD},
    "/customers/{customer_id}/cards": CARD,
    "/refunds": {"chargeId": "{charge_id}", "amount": 1},
    "/plans": {"amount": 100, "currency": "EUR", "interval": "month", "name": "p"},
    "/subscriptions": {"customerId": "{customer_id}", "planId": "{plan_id}"},
    "/tokens": CARD, "/credits": {"amount": 100, "currency": "EUR", "card": CARD},
    "/blacklist": {"ruleType": "email", "email": "x@example.com"},
    "/payment-methods": {"type": "bank_transfer"},
    "/payment-links": {"amount": 100, "currency": "EUR"},
    "/checkout-sessions": {"amount": 100, "currency": "EUR"},
    "/charges/{charge_id}": {"description": "d", "metadata": {"a": "1", "b": "2"}},
    "/customers/{customer_id}": {"description": "d", "metadata": {"a": "1", "b": "2"}},
}
ROUTES = [(path, method) for path, table in ENDPOINTS for method in table]


class Api:
    """A synchronous face on the in-process sandbox, one event loop for all examples."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = httpx.AsyncClient(transport=httpx.ASGITransport(app=HostSandbox(SandboxConfig()).asgi),
                                        base_url="http://sandbox", auth=("sk_test_fuzz", ""))

    def request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        return self.loop.run_until_complete(self.client.request(method, path, **kw))

    def post(self, path: str, **kw: Any) -> httpx.Response:
        return self.request("POST", path, **kw)

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.close()


@pytest.fixture(scope="module")
def api() -> Any:
    client = Api()
    try:
        card = {"number": "4242424242424242", "expMonth": "12", "expYear": "2055"}
        customer = client.post("/customers", json={"email": "f@example.com", "card": card}).json()
        charge = client.post("/charges", json={"amount": 100, "currency": "EUR", "card": card}).json()
        plan = client.post("/plans", json={"amount": 100, "currency": "EUR", "interval": "month",
                                           "name": "p"}).json()
        ids = {"charge_id": charge["id"], "customer_id": customer["id"], "card_id": customer["defaultCardId"],
               "plan_id": plan["id"], "refund_id": "re_x", "method_id": "pm_x", "sub_id": "sub_x",
               "event_id": "evt_x", "token_id": "tok_x", "rule_id": "bl_x", "credit_id": "cr_x",
               "dispute_id": "dp_x", "file_id": "file_x", "warning_id": "fw_x", "payout_id": "po_x",
               "session_id": "cs_x", "link_id": "pl_x"}
        yield client, ids
    finally:
        client.close()


@seed(20261123)
@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(overrides=OVERRIDES, keep=st.booleans())
def test_no_body_makes_a_5xx_and_every_error_has_the_shape(api: Any, overrides: dict[str, Any],
                                                           keep: bool) -> None:
    """Each example goes to every route (on a valid body of it, or alone)."""
    client, ids = api
    for route, method in ROUTES:
        path = re.sub(r"\{(\w+)\}", lambda m: ids[m.group(1)], route)
        base = {k: ids[v[1:-1]] if isinstance(v, str) and v.startswith("{") else v
                for k, v in VALID.get(route, {}).items()} if keep else {}
        body = {**base, **overrides}
        if method == "POST":
            # NaN and Infinity as Python writes them: hostile JSON the sandbox must refuse cleanly
            answer = client.post(path, content=json.dumps(body), headers={"Content-Type": "application/json"})
        else:  # GET and DELETE take the body's scalars as query parameters
            query = {k: str(v) for k, v in body.items() if isinstance(v, str | int | bool)}
            answer = client.request(method, path, params=query)
        assert answer.status_code < 500, (method, path, body, answer.text)
        if answer.status_code != 200:
            error = answer.json()["error"]
            assert isinstance(error["type"], str) and isinstance(error["message"], str)
            assert error["type"] == "card_error" or "code" not in error
