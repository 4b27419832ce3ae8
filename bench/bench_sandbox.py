"""Sandbox throughput: sequential HD keyed sales through the real HostClient.

- ``sandbox_sales_per_s_inprocess`` (goal >= 2000): one client over ``httpx.ASGITransport``.
- ``sandbox_sales_per_s_socket`` (goal >= 500): ``cashier sandbox serve`` on loopback, 4 clients
  each with its own keep-alive connection, sales sent concurrently (uvicorn with httptools).
- ``sandbox_state_median_ms_100`` and ``_10000``: median latency of a keyed sale with ``--state``
  (the SQLite store) holding 100 and 10,000 invoices; ``sandbox_state_latency_ratio`` (goal
  <= 1.5) is the second over the first: a request costs the same however much is stored.

Each figure is the best of three rounds: the machine is shared, and a neighbour's burst says
nothing about the sandbox.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import httpx

from cashier.host.client import HostClient, HostSettings
from cashier.host.models.common import Amount, Card, Customer

GOALS = {"sandbox_sales_per_s_inprocess": (">=", 2000.0), "sandbox_sales_per_s_socket": (">=", 500.0),
         "sandbox_state_latency_ratio": ("<=", 1.5)}
ROOT = Path(__file__).resolve().parent.parent
CARD = Card(number="4321000000001119", expiration_date=1230, entry_mode="M",
            security_code={"indicator": "1", "value": "333"})
CUSTOMER = Customer(postal_code="94719")
AMOUNT = Amount(total=Decimal("12.50"), tax=Decimal("0.92"))


def _client(base_url: str, transport: httpx.AsyncBaseTransport | None = None) -> HostClient:
    settings = HostSettings(base_url=base_url, processing_option="HD")
    return HostClient(settings, access_token="BENCH-TOKEN", transport=transport)


async def _sales(client: HostClient, first: int, count: int) -> None:
    for n in range(first, first + count):
        result = await client.sale(invoice=str(n), amount=AMOUNT, card=CARD, customer=CUSTOMER)
        if result.response_code != "A":
            raise RuntimeError(f"sale {n} answered {result.response_code}")


async def inprocess(count: int = 1000, rounds: int = 3) -> float:
    from cashier.sandbox.app import HostSandbox
    from cashier.sandbox.core import SandboxConfig

    sandbox = HostSandbox(SandboxConfig(option="HD", access_token="BENCH-TOKEN"))
    async with _client("http://sandbox/api/rest/v1", httpx.ASGITransport(app=sandbox.asgi)) as client:
        await _sales(client, 1, 200)  # warm up
        best = 0.0
        for r in range(rounds):  # best of a few rounds: the machine is shared
            started = time.perf_counter()
            await _sales(client, 10_000 * (r + 1), count)
            best = max(best, count / (time.perf_counter() - started))
        return best


async def over_socket(url: str, count: int = 1000, connections: int = 4, rounds: int = 3) -> float:
    clients = [_client(url + "/api/rest/v1") for _ in range(connections)]
    try:
        await asyncio.gather(*(_sales(c, 100_000 + i * 1000, 50) for i, c in enumerate(clients)))
        per = count // connections
        best = 0.0
        for r in range(rounds):
            first = 200_000 * (r + 1)
            started = time.perf_counter()
            await asyncio.gather(*(_sales(c, first + i * per, per) for i, c in enumerate(clients)))
            best = max(best, per * connections / (time.perf_counter() - started))
        return best
    finally:
        for c in clients:
            await c.aclose()


async def state_median_ms(stored: int, samples: int = 300) -> float:
    """Median ms per sale with ``--state`` after ``stored`` invoices are in the store."""
    import json
    import statistics
    import tempfile

    from cashier.sandbox.app import HostSandbox
    from cashier.sandbox.core import SandboxConfig

    with tempfile.TemporaryDirectory() as tmp:
        sandbox = HostSandbox(SandboxConfig(option="HD", access_token="BENCH-TOKEN",
                                            state_file=str(Path(tmp) / "state.sqlite")))
        async with _client("http://sandbox/api/rest/v1",
                           httpx.ASGITransport(app=sandbox.asgi)) as client:
            await _sales(client, 1, 1)
            store = sandbox.state.store
            assert store is not None
            # fill the store with copies of a real record (as many sales would leave)
            template = json.loads(store.db.execute(
                "SELECT value FROM item WHERE family='transactions' AND key='1'").fetchone()[0])
            rows = [("transactions", "invoices", str(n), json.dumps({**template, "invoice": str(n)}))
                    for n in range(2, stored + 1)]
            store.db.execute("BEGIN")
            store.db.executemany("INSERT INTO item VALUES (?, ?, ?, ?)", rows)
            store.db.execute("COMMIT")
            times: list[float] = []
            for n in range(samples):
                started = time.perf_counter()
                await _sales(client, 5_000_000 + n, 1)
                times.append((time.perf_counter() - started) * 1000)
            store.close()
            return statistics.median(times)


def _serve() -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "cashier.cli", "sandbox", "serve", "--port", "0",
                             "--option", "HD", "--access-token", "BENCH-TOKEN"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("sandbox listening on "):
        proc.kill()
        raise RuntimeError(f"sandbox did not start: {line!r}")
    return proc, line.strip().rsplit(" ", 1)[1]


def run() -> dict[str, float]:
    figures = {"sandbox_sales_per_s_inprocess": round(asyncio.run(inprocess()), 1)}
    small = asyncio.run(state_median_ms(100))
    large = asyncio.run(state_median_ms(10_000))
    figures["sandbox_state_median_ms_100"] = round(small, 3)
    figures["sandbox_state_median_ms_10000"] = round(large, 3)
    figures["sandbox_state_latency_ratio"] = round(large / small, 3)
    proc, url = _serve()
    try:
        figures["sandbox_sales_per_s_socket"] = round(asyncio.run(over_socket(url)), 1)
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    return figures


if __name__ == "__main__":
    print(run())
