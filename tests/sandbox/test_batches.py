"""Batch totals and batch close on the sandbox host (HD)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from cashier.host.errors import HostError, InvoiceNotFound
from tests.support.host_requests import amount, customer, host_call, keyed, ledger_of

TODAY = date.today().isoformat()


async def _day(client) -> None:  # type: ignore[no-untyped-def]
    await client.sale(invoice="1", amount=amount("100.00"), card=keyed(), customer=customer())
    await client.sale(invoice="2", amount=amount("50.00"), card=keyed(), customer=customer())
    await client.sale(invoice="3", amount=amount("7.00"), card=keyed(), customer=customer())
    await client.void("3")
    await client.authorization(invoice="4", amount=amount("80.00"), card=keyed(), customer=customer())
    await client.refund(invoice="5", amount=amount("20.00"), original_invoice="1", card=keyed())


async def test_totals_reflect_sales_refunds_and_voids(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await _day(client)
    status, env = await host_call(sandbox.asgi, "GET", "/reports/batchtotals",
                                  headers={"BusinessDate": TODAY})
    assert status == 200
    batch = env["result"][0]["batch"]
    assert batch["saleAmount"] == Decimal("150.00") and batch["saleCount"] == 2  # void and auth left out
    assert batch["refundAmount"] == Decimal("20.00") and batch["refundCount"] == 1
    assert batch["netAmount"] == Decimal("130.00") and batch["netCount"] == 3
    status, env = await host_call(sandbox.asgi, "GET", "/reports/batchtotals",
                                  headers={"BusinessDate": "2000-01-01", "Inclusive": "N"})
    assert env["result"][0]["batch"]["saleCount"] == 0
    status, env = await host_call(sandbox.asgi, "GET", "/reports/batchtotals")
    assert status == 400 and "BusinessDate" in env["result"][0]["error"]["longText"]


async def test_submit_mismatch_then_close_settles(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await _day(client)
    status, env = await host_call(sandbox.asgi, "POST", "/batches/submit", {
        "transaction": {"businessDate": TODAY}, "batch": {"inclusive": "Y", "netAmount": Decimal("1.00")}})
    error = env["result"][0]["error"]
    assert status == 400 and (error["primaryCode"], error["secondaryCode"]) == (9300, 2)
    assert ledger_of(sandbox)["1"]["state"] == "sale"  # nothing closed
    status, env = await host_call(sandbox.asgi, "POST", "/batches/submit", {
        "transaction": {"businessDate": TODAY}, "batch": {"inclusive": "Y", "netAmount": Decimal("130.00"),
                                                           "netCount": 3}})
    assert status == 200 and env["result"][0]["batch"]["netAmount"] == Decimal("130.00")
    for invoice in ("1", "2", "5"):
        with pytest.raises(InvoiceNotFound):
            await client.invoice_status(invoice)
    assert (await client.invoice_status("4")).transaction.sale_flag == "A"  # open auth stays
    closed = sandbox.state.family("batches")["closed"]
    assert len(closed) == 1 and sorted(closed[0]["invoices"]) == ["1", "2", "5"]
    with pytest.raises(InvoiceNotFound):  # settled: no void any more
        await client.void("2")
    # a linked refund of a settled sale still works, in the next batch
    later = await client.refund(invoice="6", amount=amount("10.00"), original_invoice="1", card=keyed())
    assert later.response_code == "A"
    status, env = await host_call(sandbox.asgi, "GET", "/reports/batchtotals",
                                  headers={"BusinessDate": TODAY})
    assert env["result"][0]["batch"]["netAmount"] == Decimal("-10.00")


async def test_submit_needs_inclusive_and_business_date(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD")
    status, env = await host_call(sandbox.asgi, "POST", "/batches/submit",
                                  {"transaction": {"businessDate": TODAY}, "batch": {}})
    assert status == 400 and "batch.inclusive" in env["result"][0]["error"]["longText"]
    status, env = await host_call(sandbox.asgi, "POST", "/batches/submit", {"batch": {"inclusive": "Y"}})
    assert status == 400 and "transaction" in env["result"][0]["error"]["longText"]
    status, env = await host_call(sandbox.asgi, "POST", "/batches/submit", {
        "transaction": {"businessDate": TODAY}, "batch": {"inclusive": "Y", "netCount": 2}})
    assert status == 400 and env["result"][0]["error"]["secondaryCode"] == 3


async def test_client_batch_calls(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _sandbox, client = make_sandbox("HD")
    await client.sale(invoice="9", amount=amount("12.00"), card=keyed(), customer=customer())
    totals = await client.batch_totals(TODAY)
    assert totals.model_dump(by_alias=True)["batch"]["netAmount"] == Decimal("12.00")
    with pytest.raises(HostError):
        await client.batch_submit(TODAY, net_amount=Decimal("99.00"))
    closed = await client.batch_submit(TODAY, net_amount=Decimal("12.00"))
    assert closed.model_dump(by_alias=True)["batch"]["saleCount"] == 1
