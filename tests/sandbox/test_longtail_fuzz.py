"""Bad input never crashes a long-tail endpoint: one field at a time is given a wrong type, an
oversize text, or removed, and the answer is the host envelope naming that field, never a 500.

``CASHIER_FUZZ_EXAMPLES`` raises the number of examples per endpoint (default 15).
"""

from __future__ import annotations

import asyncio
import copy
import os
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cashier.sandbox.app import HostSandbox
from cashier.sandbox.core import SandboxConfig
from tests.support.host_requests import (
    WALLET_CUSTOMER,
    ach_sale_body,
    assess_body,
    host_call,
    payout_body,
    standalone_body,
)

EXAMPLES = int(os.environ.get("CASHIER_FUZZ_EXAMPLES", "15"))
VISA = "4321000000001119"
CARD = {"number": VISA, "expirationDate": 1230}

BODIES: dict[str, dict[str, Any]] = {
    "/cards/verify": {"card": CARD, "customer": {"postalCode": "65144"}},
    "/cards/identify": {"card": CARD},
    "/risk/assess": assess_body(),
    "/risk/ruleupdate": {"riskRules": {"parameter": "email", "status": "D"},
                         "customer": {"emailAddress": "a@example.com"}},
    "/wallet/initiate": {"amount": {"total": Decimal("5"), "tax": Decimal("0")}, "currencyCode": "USD",
                         "customer": WALLET_CUSTOMER, "sourceIp": "1.2.3.4",
                         "transaction": {"invoice": "1", "vendorReference": "v"}},
    "/3dsecure/standalone": standalone_body("4176660000000027"),
    "/3dsecure/completion": {"transaction": {"invoice": "1"},
                             "threeDSecure": {"trxId": "x", "compInd": "Y"}},
    "/oct/payout": payout_body(),
    "/ach/sale": ach_sale_body(),
    "/ach/bankaggregator/link_token/create": {"bankaggregator": {"client_user_id": "u"}},
    "/updater/request": {"cards": [{"token": "8000000000001119"}]},
    "/dcc/ratelookup": {"currencyCode": "USD", "amount": {"total": Decimal("10")},
                        "clerk": {"numericId": 1}, "card": CARD},
    "/rules/verify": {"amount": {"total": Decimal("10")}, "ruleCheck": ["SURCHARGE"],
                      "transaction": {"invoice": "1"}, "card": CARD},
    "/checkoutsessions/create": {"amount": {"total": Decimal("10")}, "transaction": {"invoice": "1"},
                                 "checkoutSession": {"expiresInMinutes": 5}},
}
HTTP_200_ONLY = ("/wallet/",)
SEEN: dict[str, int] = {}


def leaf_paths(node: Any, prefix: str = "") -> list[str]:
    if isinstance(node, dict) and node:
        out = []
        for key, value in node.items():
            out += leaf_paths(value, f"{prefix}.{key}" if prefix else key)
        return out
    return [prefix]


BAD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**12, max_value=10**12),
    st.text(max_size=5), st.text(min_size=300, max_size=400), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.just("DELETE"))


def mutate(body: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(body)
    node = out
    parts = path.split(".")
    for part in parts[:-1]:
        node = node[part]
    if value == "DELETE":
        del node[parts[-1]]
    else:
        node[parts[-1]] = value
    return out


_sandbox = HostSandbox(SandboxConfig(option="HD", access_token="SANDBOX-TOKEN"))


@pytest.mark.parametrize("path", sorted(BODIES))
def test_one_bad_field_gives_a_clear_error_never_a_crash(path: str) -> None:
    body = BODIES[path]

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize=True)
    @given(field=st.sampled_from(leaf_paths(body)), value=BAD_VALUES)
    def run(field: str, value: Any) -> None:
        bad = mutate(body, field, value)
        status, env = asyncio.run(host_call(_sandbox.asgi, "POST", path, bad))
        assert status in (200, 400, 504), (status, env)
        item = env["result"][0]
        if "error" not in item:
            return  # the value happened to be acceptable
        SEEN[path] = SEEN.get(path, 0) + 1
        error = item["error"]
        assert error.get("primaryCode") != 9999, error  # the sandbox's own crash answer
        if path.startswith(HTTP_200_ONLY) and error.get("code") not in (40101, 40102, 40103):
            assert status == 200, (status, error)  # the handler's own errors keep HTTP 200
        long_text = error["longText"]
        named = field.split(".")
        assert any(part in long_text for part in named) or error["code"] in (40105, 40104), \
            (field, value, long_text)

    run()
    assert SEEN.get(path, 0) >= EXAMPLES // 3, "too few bad values were refused: the test is blind"
