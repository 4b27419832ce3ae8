"""Charge API fixtures: the real sandbox in-process, and over a real loopback socket
(tests/support/charge_api.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from cashier.chargeapi.client import ChargeApiClient
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.chargeapi.app import ChargeApiSim, charge_api_sim
from cashier.sandbox.core import SandboxConfig
from tests.support.charge_api import Served, make_client, serving


@pytest.fixture
def sandbox() -> HostSandbox:
    return HostSandbox(SandboxConfig(delay_scale=0.05))


@pytest.fixture
def sim(sandbox: HostSandbox) -> ChargeApiSim:
    return charge_api_sim(sandbox)


@pytest.fixture
async def client(sandbox: HostSandbox) -> AsyncIterator[ChargeApiClient]:
    async with make_client(sandbox) as c:
        yield c


@pytest.fixture
def served() -> Iterator[Served]:
    """The sandbox behind uvicorn on a free loopback port, in a background thread."""
    with serving(0.25) as serving_now:
        yield serving_now


@pytest.fixture(scope="module")
def served_module() -> Iterator[Served]:
    """One socket-served sandbox for a module's quick cases; each case keeps to its own account
    (its own ``sk_test_`` key), so they do not see each other's records."""
    with serving(0.05) as serving_now:
        yield serving_now
