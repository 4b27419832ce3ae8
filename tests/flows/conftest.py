"""A till against the in-process sandbox: runtime (journal + client + bus) and sandbox helpers."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.config import load_profile
from cashier.flows.base import RecoveryPolicy
from cashier.runtime import Runtime, open_runtime
from tests.forked_cli import run_cashier, start_cashier

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


class ServedSandbox:
    """``cashier sandbox serve --port 0`` in a process of its own: a host over a real socket
    (forked from the worker's pre-imported command: ``tests.forked_cli.start_cashier``)."""

    def __init__(self, option: str, tmp: Path) -> None:
        self.proc = start_cashier("sandbox", "serve", "--port", "0", "--option", option, cwd=tmp)
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            self.proc.kill()
            self.proc.wait(10)
            raise RuntimeError(f"sandbox did not start: {line!r} {self.proc.stderr.read()}")
        self.url = line.strip().split("listening on ", 1)[1]
        self.api = self.url + "/api/rest/v1"

    def control(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except Exception:
            self.proc.kill()


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


def write_profile(path: Path, *, host_url: str | None, option: str = "LG", journal: Path,
                  till_number: int = 1, host_s: float = 10.0, host_longest_s: float | None = None,
                  connect_s: float | None = None, extra: tuple[str, ...] = ()) -> Path:
    lines = ["[till]", 'till_id = "chaos"', f"till_number = {till_number}",
             f'processing_option = "{option}"', f'journal_path = "{journal}"', 'terminal_id = "1742"']
    if host_url:
        lines.append(f'host_url = "{host_url}"')
    lines += list(extra)
    lines += ["[till.timeouts]", f"host_s = {host_s}", "recovery_s = 1.0"]
    if host_longest_s is not None:  # a sandbox run without delay triggers answers sooner
        lines.append(f"host_longest_s = {host_longest_s}")
    if connect_s is not None:
        lines.append(f"connect_s = {connect_s}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def cashier(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the ``cashier`` command in its own process, as a script or a cashier would."""
    return run_cashier(*args, env=env)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment of a command run: no CASHIER_* from outside, data under the test's folder."""
    out = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    out["XDG_DATA_HOME"] = str(tmp_path / "data")
    return out


#: Another till's program on the same host: voids an invoice there (argv: profile, invoice).
_OTHER_TILL_VOIDS = """
import asyncio, sys
from cashier.config import load_profile
from cashier.runtime import open_runtime

async def main() -> None:
    rt = await open_runtime(load_profile(sys.argv[1]))
    try:
        await rt.client.void(sys.argv[2])
    finally:
        await rt.close()

asyncio.run(main())
"""


def void_elsewhere(profile: Path, invoice: str, env: dict[str, str]) -> None:
    """Another till's process (``profile``) voids ``invoice`` at the host, behind the back of the
    till that sold it: what ``recover`` and the close must find and correct (issue 27)."""
    done = subprocess.run([sys.executable, "-c", _OTHER_TILL_VOIDS, str(profile), invoice],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
