"""A till against the in-process sandbox: runtime (journal + client + bus) and sandbox helpers."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.config import load_profile
from cashier.flows.base import RecoveryPolicy
from cashier.runtime import Runtime, open_runtime
from tests.support.charge_api import Served, serving
from tests.support.sandbox_server import ServedSandbox

#: A profile's max_amount that lets the sandbox's large amount triggers through (tests only).
TRIGGER_MAX = Decimal("2000000.00")


class SandboxTill:
    """One till: its runtime plus direct access to the sandbox's ledger and fault controls."""

    def __init__(self, runtime: Runtime, sandbox: Any) -> None:
        self.rt = runtime
        self.ctx = runtime.ctx
        self.journal = runtime.journal
        self.sandbox = sandbox
        self._control = httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                          base_url="http://sandbox")

    async def fault(self, action: str, path: str = "/transactions/sale", **rule: Any) -> None:
        body = {"path": "/api/rest/v1" + path, "action": action, **rule}
        r = await self._control.post("/_sandbox/faults", json=body)
        assert r.status_code == 200, r.text

    async def clear_faults(self) -> None:
        await self._control.delete("/_sandbox/faults")

    async def ledger(self) -> dict[str, dict[str, Any]]:
        r = await self._control.get("/_sandbox/ledger")
        return {rec["invoice"]: rec for rec in r.json()["invoices"]}

    async def close(self) -> None:
        await self._control.aclose()
        await self.rt.close()


@pytest.fixture
async def make_till(make_sandbox: Callable[..., Any], tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    tills: list[SandboxTill] = []

    async def make(option: str = "LG", *, till_number: int = 1, policy: RecoveryPolicy | None = None,
                   journal: Path | None = None, sandbox: Any = None) -> SandboxTill:
        if sandbox is None:
            sandbox, _ = make_sandbox(option, access_token=None)
        # the sandbox's amount triggers reach 1,000,000.00: above a real till's max_amount
        profile = load_profile(None, processing_option=option, till_number=till_number,
                               journal_path=journal or tmp_path / f"journal-{len(tills)}.sqlite",
                               max_amount=TRIGGER_MAX)
        rt = await open_runtime(profile, sandbox=sandbox, policy=policy)
        till = SandboxTill(rt, sandbox)
        tills.append(till)
        return till

    yield make
    for till in tills:
        await till.close()


@pytest.fixture
def serve_sandbox(tmp_path: Path) -> Any:
    served: list[ServedSandbox] = []

    def start(option: str = "LG") -> ServedSandbox:
        s = ServedSandbox(option, tmp_path)
        served.append(s)
        return s

    yield start
    for s in served:
        s.stop()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment of a command run: no CASHIER_* from outside, data under the test's folder."""
    out = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    out["XDG_DATA_HOME"] = str(tmp_path / "data")
    return out


@pytest.fixture
def served() -> Iterator[Served]:
    """The Charge API sandbox behind uvicorn on a free loopback port, in a background thread."""
    with serving(0.25) as serving_now:
        yield serving_now
