"""Client overhead: one sale built, serialised, sent and parsed through ``HostClient``, against
a bare ``httpx.AsyncClient`` POST of the same bytes on the same in-process transport.

The transport answers a fixed sale response instantly, so the difference is the client's own
work: body building, validation, JSON encoding, headers, unwrapping and model parsing.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from decimal import Decimal

import httpx

from cashier.host.client import HostClient, HostSettings
from cashier.host.models.common import Amount

GOALS = {"client_vs_bare_httpx": ("<=", 1.5)}

ANSWER = json.dumps({"result": [{
    "dateTime": "2024-05-21T09:18:25.104-07:00", "amount": {"total": 12.50, "tax": 0.92},
    "card": {"type": "VS", "number": "XXXXXXXXXXXX1119", "entryMode": "E", "present": "Y",
             "token": {"value": "8048471746471119"}},
    "clerk": {"numericId": 1576}, "device": {"terminalId": "1742"},
    "merchant": {"mid": 15877, "name": "Merchant XYZ"},
    "receipt": [{"key": "TransactionResponse", "printName": "Response", "printValue": "APPROVED"}],
    "server": {"name": "API01"},
    "transaction": {"invoice": "2405210001", "responseCode": "A", "authorizationCode": "OK978Z",
                    "authSource": "E", "saleFlag": "S", "retrievalReference": "402F9H0230S0"}}]}).encode()


class FixedTransport(httpx.AsyncBaseTransport):
    """Answers every request with the same sale response, reading the request body first."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        return httpx.Response(200, content=ANSWER, headers={"Content-Type": "application/json"})


async def _measure(rounds: int) -> dict[str, float]:
    transport = FixedTransport()
    settings = HostSettings(base_url="http://bench/api/rest/v1", processing_option="LG",
                            terminal_id="1742", store_postal_code="94719")
    client = HostClient(settings, access_token="EA79FB05-3AA7-4500-AF9A-73F986FF2C1D",
                        transport=transport)
    bare = httpx.AsyncClient(base_url="http://bench/api/rest/v1", transport=transport,
                             headers={"InterfaceVersion": "0.1", "InterfaceName": "Cashier",
                                      "CompanyName": "Cashier"})
    amount = Amount(total=Decimal("12.50"), tax=Decimal("0.92"))
    body = client._payment_body("2405210001", amount, None, None, ("ALLOWPARTIALAUTH",), None, None)
    body["dateTime"] = client.now()
    payload = json.dumps(body, default=str).encode()
    headers = {"AccessToken": "EA79FB05-3AA7-4500-AF9A-73F986FF2C1D",
               "Content-Type": "application/json"}

    async def via_client() -> None:
        result = await client.sale(invoice="2405210001", amount=amount)
        assert result.approved

    async def via_bare() -> None:
        response = await bare.post("/transactions/sale", content=payload, headers=headers)
        assert response.json()["result"][0]["transaction"]["responseCode"] == "A"

    for _ in range(200):  # warm both paths
        await via_client()
        await via_bare()
    client_us: list[float] = []
    bare_us: list[float] = []
    for _ in range(rounds):  # interleaved, so drift hits both alike
        t0 = time.perf_counter()
        await via_bare()
        t1 = time.perf_counter()
        await via_client()
        t2 = time.perf_counter()
        bare_us.append((t1 - t0) * 1e6)
        client_us.append((t2 - t1) * 1e6)
    await client.aclose()
    await bare.aclose()
    bare_p50 = statistics.median(bare_us)
    client_p50 = statistics.median(client_us)
    return {"bare_httpx_us_p50": round(bare_p50, 1), "client_sale_us_p50": round(client_p50, 1),
            # what the client adds on top of the bare call: build, validate, encode, parse
            "client_overhead_us_p50": round(client_p50 - bare_p50, 1),
            "client_vs_bare_httpx": round(client_p50 / bare_p50, 3)}


def run() -> dict[str, float]:
    rounds = 500 if os.environ.get("BENCH_QUICK") else 3000
    return asyncio.run(_measure(rounds))


if __name__ == "__main__":
    print(run())
