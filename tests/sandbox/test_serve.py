"""``cashier sandbox serve`` over a real socket: keyed HD sale with AVS, LG device sale with a tip,
faults as a client sees them, clean stop on SIGTERM and SIGINT."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from cashier.host.errors import HostTimeout
from tests.support.host_requests import amount, customer, keyed
from tests.support.sandbox_server import Served, start

pytestmark = pytest.mark.socket
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def hd() -> Iterator[Served]:
    served = start("--option", "HD")
    yield served
    if served.proc.poll() is None:
        served.proc.kill()


@pytest.fixture
def lg() -> Iterator[Served]:
    served = start("--option", "LG")
    yield served
    if served.proc.poll() is None:
        served.proc.kill()


async def test_hd_keyed_sale_with_avs_over_a_socket(hd: Served) -> None:
    assert hd.url.startswith("http://127.0.0.1:") and not hd.url.endswith(":0")
    async with hd.client("HD") as client:
        sale = await client.sale(invoice="1001", amount=amount("25.00", "2.00"), card=keyed(),
                                 customer=customer("90210", "88 Ocean Ave"))
        assert sale.response_code == "A" and sale.transaction.avs is not None
        assert sale.transaction.avs.result == "X"  # the street prefix 88 wins
        declined = await client.sale(invoice="1002", amount=amount("25.00"), card=keyed(),
                                     customer=customer("78123"))
        assert declined.response_code == "D"
    assert hd.stop() == 0


async def test_lg_device_sale_with_tip_over_a_socket(lg: Served) -> None:
    async with httpx.AsyncClient(base_url=lg.url) as http:
        response = await http.post("/_sandbox/terminals/1742/customer",
                                   json={"card": "5432000000003332", "entry_mode": "E", "tip": "4.00"})
        assert response.status_code == 200, response.text
    async with lg.client("LG") as client:
        sale = await client.sale(invoice="2001", amount=amount("20.00", "1.60"))
        assert sale.response_code == "A" and sale.amount is not None
        assert sale.amount.total == Decimal("24.00") and sale.amount.tip == Decimal("4.00")
        assert sale.device is not None and sale.device.terminal_id == "1742"
    async with httpx.AsyncClient(base_url=lg.url) as http:
        ledger = (await http.get("/_sandbox/ledger")).json()
    assert ledger["invoices"][0]["approvedAmount"] == "24.00"
    assert lg.stop(signal.SIGINT) == 0


async def test_dropped_answer_over_a_socket_is_a_timeout_and_committed(hd: Served) -> None:
    async with httpx.AsyncClient(base_url=hd.url) as http:
        response = await http.post("/_sandbox/faults", json={
            "path": "/api/rest/v1/transactions/sale", "action": "drop_after_commit", "count": 1})
        assert response.status_code == 200
    async with hd.client("HD") as client:
        with pytest.raises(HostTimeout):
            await client.sale(invoice="3001", amount=amount("10.00"), card=keyed(), customer=customer())
        status = await client.invoice_status("3001")
        assert status.response_code == "A"
    async with httpx.AsyncClient(base_url=hd.url) as http:
        await http.post("/_sandbox/faults", json={"path": "/api/rest/v1/transactions/sale",
                                                  "action": "reset", "count": 1})
    async with hd.client("HD") as client:
        with pytest.raises(HostTimeout):
            await client.sale(invoice="3002", amount=amount("10.00"), card=keyed(), customer=customer())
        from cashier.host.errors import InvoiceNotFound

        with pytest.raises(InvoiceNotFound):
            await client.invoice_status("3002")
    assert hd.stop() == 0
    assert hd.proc.stderr is not None and "Traceback" not in hd.proc.stderr.read()


@pytest.mark.slow
def test_state_file_survives_restart_and_bad_port(tmp_path: Path) -> None:
    import asyncio

    path = tmp_path / "state.json"
    first = start("--option", "HD", "--state", str(path), cold=True)  # a cold start, as a till's

    async def sale(url: str) -> str | None:
        async with Served(first.proc, url).client("HD") as client:
            result = await client.sale(invoice="4001", amount=amount("10.00"), card=keyed(),
                                       customer=customer())
            return result.transaction.authorization_code

    code = asyncio.run(sale(first.url))
    assert first.stop() == 0
    second = start("--option", "HD", "--state", str(path), cold=True)

    async def status(url: str) -> str | None:
        async with Served(second.proc, url).client("HD") as client:
            return (await client.invoice_status("4001")).transaction.authorization_code

    assert asyncio.run(status(second.url)) == code
    assert second.stop() == 0
    bad = subprocess.run([sys.executable, "-m", "cashier.cli", "sandbox", "serve", "--port", "70000"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "--port" in bad.stderr and "Traceback" not in bad.stderr
