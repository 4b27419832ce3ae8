"""Schemathesis against the sandbox with the vendor OpenAPI file: no 5xx but a declared 504, and
every error in the host's envelope.

Bounded: a few seeded examples per operation (``CASHIER_FUZZ_EXAMPLES`` raises it for
``make fuzz``). Bodies and parameters come from the vendor's request schemas; the interface
headers and the access token are set valid so the bodies reach the handlers (the header rules have
their own tests).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings

from cashier.sandbox.app import HostSandbox
from cashier.sandbox.core import SandboxConfig
from tests.support.vendor_schema import vendor_spec

EXAMPLES = int(os.environ.get("CASHIER_FUZZ_EXAMPLES", "3"))
GOOD_HEADERS = {"InterfaceVersion": "1.0", "InterfaceName": "Fuzz", "CompanyName": "Cashier",
                "AccessToken": "FUZZ-TOKEN"}


def _any_of(node: Any) -> Any:
    """The vendor's ``oneOf`` lists are not exclusive (GUIDE §3: a token or LG body also matches
    the DCP variant), so ``oneOf`` can never be satisfied by such a body; generate from ``anyOf``."""
    if isinstance(node, dict):
        if "oneOf" in node:
            node["anyOf"] = node.pop("oneOf")
        for value in node.values():
            _any_of(value)
    elif isinstance(node, list):
        for value in node:
            _any_of(value)
    return node


@pytest.fixture(scope="module")
def operations() -> list[Any]:
    import copy

    import schemathesis
    from schemathesis.core.result import Err

    schema = schemathesis.openapi.from_dict(_any_of(copy.deepcopy(vendor_spec())))
    found = []
    for result in schema.get_all_operations():
        if isinstance(result, Err):
            raise result.err()  # an operation schemathesis cannot read fails the fixture with its reason
        operation = result.ok()
        if operation.path.startswith(("/paymentlinks", "/checkoutsessions")):
            continue  # a separate host in the vendor file, not the Host API under /api/rest/v1
        found.append(operation)
    return found


def _send(client: Any, case: Any) -> Any:
    path = case.formatted_path
    headers = {k: str(v) for k, v in (case.headers or {}).items() if isinstance(v, str | int)}
    headers = {k: v for k, v in headers.items() if v.isascii() and "\n" not in v and "\r" not in v}
    headers.update(GOOD_HEADERS)
    content = None
    if case.body is not None and case.method.upper() not in ("GET", "DELETE"):
        content = json.dumps(case.body).encode()
        headers["Content-Type"] = "application/json"
    return client.request(case.method.upper(), "/api/rest/v1" + path, content=content, headers=headers,
                          params=case.query or None)


def _assert_host_answer(operation: Any, response: Any) -> None:
    where = f"{operation.method.upper()} {operation.path} -> {response.status_code}"
    assert response.status_code < 500 or response.status_code == 504, where + ": " + response.text[:300]
    if response.status_code >= 400:
        body = response.json()
        error = body["result"][0]["error"]
        assert isinstance(error, dict) and error.get("shortText"), where
        assert "Traceback" not in response.text, where
        # 9999 is the sandbox's last line of defence: a handler that crashed
        assert error.get("primaryCode") != 9999, where + ": " + response.text[:300]
    else:
        assert isinstance(response.json()["result"], list), where


def _fuzz_one(client: Any, operation: Any) -> Any:
    @seed(20261122)
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy())
    def run(case: Any) -> None:
        _assert_host_answer(operation, _send(client, case))

    return run


#: the operations are fuzzed in this many slices, each its own test
SLICES = 6


@pytest.mark.parametrize("part", range(SLICES))
def test_vendor_schema_fuzz(operations: list[Any], part: int) -> None:
    """HD runs the card-data bodies; the device variants and options have their own tests. Each
    sixth of the operations is its own test: ``make test`` runs the first, ``make long`` the
    rest."""
    import time

    from hypothesis.errors import Unsatisfiable
    from starlette.testclient import TestClient

    sandbox = HostSandbox(SandboxConfig(option="HD", access_token=None, delay_scale=0.0))
    unsatisfiable: list[str] = []
    started = time.monotonic()
    with TestClient(sandbox.asgi, raise_server_exceptions=True) as client:
        for operation in operations[part::SLICES]:
            run = _fuzz_one(client, operation)
            try:
                run()
            except Unsatisfiable:
                unsatisfiable.append(f"{operation.method.upper()} {operation.path}")
    print(f"fuzzed {len(operations[part::SLICES])} operations in {time.monotonic() - started:.1f}s; "
          f"unsatisfiable: {unsatisfiable}")
    assert not unsatisfiable


def test_fuzz_covers_the_endpoints(operations: list[Any]) -> None:
    paths = {op.path for op in operations}
    assert {"/transactions/sale", "/transactions/invoice", "/batches/submit"} <= paths
    assert len(operations) >= 60
