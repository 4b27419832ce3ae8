"""Charge API client throughput against the official SDK, on the same socket-served sandbox.

The sandbox runs as its own process (``cashier sandbox serve --port 0``) so server and
clients do not share an interpreter. Each side charges a customer's saved card, so the
server does the same work per charge; the figures are charges per second and their ratios.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time

from cashier.chargeapi.client import ChargeApiClient

GOALS = {"charge_api_vs_sdk_sequential": (">=", 1.0), "charge_api_vs_sdk_concurrent4": (">=", 2.5)}
CHARGES = int(os.environ.get("CASHIER_BENCH_GATEWAY_CHARGES", "300"))
CARD = {"number": "4242424242424242", "expMonth": "12", "expYear": "2055"}


def _start_sandbox() -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "cashier.cli", "sandbox", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        match = re.search(r"sandbox listening on (http://\S+)", line)
        if match:
            return proc, match.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError("the sandbox did not start")


def _sdk(url: str, n: int) -> float:
    import shift4

    shift4.api_url, shift4.uploads_url, shift4.secret_key = url, url, "sk_test_benchsdk"
    customer = shift4.customers.create({"email": "sdk@example.com", "card": CARD})
    params = {"amount": 1234, "currency": "USD", "customerId": customer["id"]}
    for _ in range(20):
        shift4.charges.create(params)
    start = time.perf_counter()
    for _ in range(n):
        shift4.charges.create(params)
    return n / (time.perf_counter() - start)


async def _ours(url: str, n: int, concurrency: int) -> float:
    async with ChargeApiClient(f"sk_test_benchours{concurrency}", url, max_connections=concurrency) as client:
        token = await client.create_token(CARD["number"], CARD["expMonth"], CARD["expYear"],
                                          use_public_key=False)
        customer = await client.create_customer("ours@example.com", card=token.id)
        for _ in range(20):
            await client.create_charge(1234, "USD", customer_id=customer.id)
        remaining = n

        async def worker() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                await client.create_charge(1234, "USD", customer_id=customer.id)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return n / (time.perf_counter() - start)


def run() -> dict[str, float]:
    proc, url = _start_sandbox()
    try:
        sdk = _sdk(url, CHARGES)
        seq = asyncio.run(_ours(url, CHARGES, 1))
        conc = asyncio.run(_ours(url, CHARGES, 4))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    print(f"Charge API: SDK sequential {sdk:.0f}/s, ours sequential {seq:.0f}/s, "
          f"ours 4 concurrent {conc:.0f}/s ({CHARGES} charges each)")
    return {"charge_api_sdk_charges_per_s": sdk, "charge_api_charges_per_s": seq,
            "charge_api_concurrent4_charges_per_s": conc,
            "charge_api_vs_sdk_sequential": seq / sdk, "charge_api_vs_sdk_concurrent4": conc / sdk}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.2f}")
