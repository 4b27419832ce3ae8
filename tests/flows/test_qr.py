"""QR payments against the in-process sandbox (HD, LG): paid, cancelled while polling, paid then
cancelled (reversal T), lost answers, recovery by getqrpaymentstatus."""

from __future__ import annotations

import asyncio
from decimal import Decimal as D
from typing import Any

import httpx
import pytest

from cashier.errors import ValidationError
from cashier.flows import qr
from cashier.flows.recovery import recover
from cashier.journal.model import State

FAST = qr.QrPolling(first_s=0.02, factor=1.5, max_s=0.05, wait_s=5.0)


class Customer:
    """The customer's phone: pays the code the till shows (through the sandbox control)."""

    def __init__(self, till: Any, *, pay: bool = True) -> None:
        self.till = till
        self.pay = pay
        self.codes: list[str] = []
        self.statuses: list[str] = []
        self.tasks: list[asyncio.Task[Any]] = []
        till.ctx.bus.subscribe(self._shown, qr.QrShown)
        till.ctx.bus.subscribe(lambda e: self.statuses.append(e.status), qr.QrStatusChanged)

    def _shown(self, event: qr.QrShown) -> None:
        self.codes.append(event.code)
        if self.pay:
            self.tasks.append(asyncio.ensure_future(self.scan(event.code)))

    async def scan(self, code: str) -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=self.till.sandbox.asgi),
                                     base_url="http://sandbox") as control:
            return await control.post("/_sandbox/qrpayments/pay", json={"qrCode": code})


def host_codes(till: Any) -> dict[str, dict[str, Any]]:
    codes: dict[str, dict[str, Any]] = till.sandbox.state.family("qrpayments").get("codes", {})
    return codes


@pytest.mark.parametrize("option", ["HD", "LG"])
async def test_paid_by_the_customer(make_till: Any, option: str) -> None:
    till = await make_till(option)
    customer = Customer(till)
    forms: list[Any] = []
    till.sandbox.state.terminals.observe("1742", lambda ev: forms.append(ev.prompt.form)
                                         if ev.prompt is not None and ev.prompt.kind == "form" else None)
    out = await qr.pay(till.ctx, D("12.34"), tax=D("1.00"), polling=FAST)
    assert (out.outcome, out.entry.approved, out.entry.response_code) == ("approved", D("12.34"), "A")
    assert out.code == customer.codes[0] and out.entry.card and out.entry.card.endswith("1119")
    assert customer.statuses == ["pending", "paid"]
    types = [e.type for e in await till.journal.events(out.entry.id)]
    assert types == ["created", "sent", "qr_code", "approved"]
    assert host_codes(till)[out.code]["status"] == "paid"
    assert (await till.journal.totals()).amount("qr") == D("12.34")
    if option == "LG":  # the code also went to the PIN pad's stored form
        assert forms and forms[0]["items"] == [{"key": "QR", "value": out.code}]
    else:
        assert forms == []


async def test_paid_then_cancelled_is_a_reversal(make_till: Any) -> None:
    till = await make_till("HD")
    Customer(till)
    paid = await qr.pay(till.ctx, D("20.00"), polling=FAST)
    assert paid.outcome == "approved"
    undone = await qr.cancel(till.ctx, str(paid.entry.invoice))
    assert (undone.outcome, undone.entry.response_code, undone.entry.approved) == ("voided", "T", D("20.00"))
    assert host_codes(till)[str(paid.code)]["status"] == "reversed"
    assert (await till.journal.totals()).amount("qr") == D(0)
    again = await qr.cancel(till.ctx, str(paid.entry.invoice))
    assert again.result.message == "already cancelled"


async def test_cashier_cancels_while_polling(make_till: Any) -> None:
    till = await make_till("LG")
    customer = Customer(till, pay=False)
    stop = asyncio.Event()
    till.ctx.bus.subscribe(lambda e: stop.set() if e.status == "pending" else None, qr.QrStatusChanged)
    out = await qr.pay(till.ctx, D("9.99"), polling=FAST, cancel=stop)
    assert (out.outcome, out.entry.response_code, out.entry.approved) == ("voided", "C", D(0))
    assert "cashier" in out.result.message
    assert customer.statuses == ["pending", "cancelling", "cancelled"]
    assert host_codes(till)[str(out.code)]["status"] == "cancelled"
    late = await customer.scan(str(out.code))  # the code can no longer be used
    assert late.status_code == 409
    terminal = till.sandbox.state.terminals.get("1742")
    assert terminal.prompt is None  # nothing left waiting on the pad


async def test_paid_at_the_moment_of_cancel_is_reversed(make_till: Any) -> None:
    till = await make_till("HD")
    customer = Customer(till, pay=False)
    stop = asyncio.Event()

    async def pay_then_cancel(code: str) -> None:
        await customer.scan(code)
        stop.set()

    till.ctx.bus.subscribe(lambda e: customer.tasks.append(asyncio.ensure_future(pay_then_cancel(e.code))),
                           qr.QrShown)
    slow = qr.QrPolling(first_s=0.5, max_s=0.5, wait_s=5.0)  # the cancel comes before a poll
    out = await qr.pay(till.ctx, D("5.00"), polling=slow, cancel=stop)
    assert (out.outcome, out.entry.response_code, out.entry.approved) == ("voided", "T", D("5.00"))
    assert out.entry.card and out.entry.card.endswith("1119")


async def test_not_paid_in_time_is_cancelled(make_till: Any) -> None:
    till = await make_till("HD")
    Customer(till, pay=False)
    out = await qr.pay(till.ctx, D("3.00"), polling=qr.QrPolling(first_s=0.02, max_s=0.02, wait_s=0.1))
    assert out.outcome == "voided" and "not paid in time" in out.result.message
    assert host_codes(till)[str(out.code)]["status"] == "cancelled"


async def test_lost_code_answer_is_asked_again_on_the_same_invoice(make_till: Any) -> None:
    till = await make_till("LG")
    Customer(till)
    await till.fault("drop_after_commit", path="/qrpayments/getqrcode", count=1)
    out = await qr.pay(till.ctx, D("7.00"), polling=FAST)
    assert out.outcome == "approved"
    assert len(host_codes(till)) == 1  # the retry got the same code, not a second live one


async def test_lost_cancel_answer_is_settled_by_status(make_till: Any) -> None:
    till = await make_till("HD")
    Customer(till, pay=False)
    stop = asyncio.Event()
    stop.set()
    await till.fault("drop_after_commit", path="/qrpayments/cancelqrpayment", count=1)
    out = await qr.pay(till.ctx, D("4.00"), polling=FAST, cancel=stop)
    assert (out.outcome, out.entry.response_code) == ("voided", "C")
    types = [e.type for e in await till.journal.events(out.entry.id)]
    assert types[-3:] == ["sent", "unknown", "voided"]


async def test_recovery_of_a_payment_left_open_by_a_crash(make_till: Any) -> None:
    """The till died while polling: one code was paid, one was not (and is past its wait)."""
    till = await make_till("HD")
    customer = Customer(till, pay=False)
    slow = qr.QrPolling(first_s=30.0, max_s=30.0, wait_s=0.05)
    crashed: list[str] = []
    for _ in range(2):
        task = asyncio.ensure_future(qr.pay(till.ctx, D("6.00"), polling=slow))
        while len(customer.codes) == len(crashed):
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        crashed.append(customer.codes[-1])
    assert (await customer.scan(crashed[0])).status_code == 200
    entries = await till.journal.unresolved()
    assert [e.state for e in entries] == [State.SENT, State.SENT]
    await asyncio.sleep(0.06)  # past the wait: nobody shows the second code any more
    report = await recover(till.ctx)
    assert not report.still_open
    paid, dead = [await till.journal.get(e.id) for e in entries]
    assert (paid.state, paid.approved) == (State.APPROVED, D("6.00"))
    assert (dead.state, dead.response_code) == (State.VOIDED, "C")
    assert host_codes(till)[crashed[1]]["status"] == "cancelled"
    status = await qr.status(till.ctx, str(paid.invoice))
    assert (status.outcome, status.host_status) == ("approved", "paid")


async def test_recovery_keeps_a_code_that_may_still_be_paid(make_till: Any) -> None:
    till = await make_till("HD")
    customer = Customer(till, pay=False)
    task = asyncio.ensure_future(qr.pay(till.ctx, D("2.00"), polling=qr.QrPolling(first_s=30, max_s=30)))
    while not customer.codes:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    report = await recover(till.ctx)
    assert [e.state for e in report.still_open] == [State.SENT]
    assert host_codes(till)[customer.codes[0]]["status"] == "pending"


@pytest.mark.parametrize("option", ["DCP", "DCC"])
async def test_qr_is_refused_where_the_option_lacks_it(make_till: Any, option: str) -> None:
    till = await make_till(option)
    with pytest.raises(ValidationError, match="processing_option"):
        await qr.pay(till.ctx, D("5.00"))
    assert await till.journal.search() == []


@pytest.mark.parametrize("kwargs,field", [
    ({"amount": D("0")}, "amount"), ({"amount": D("1.234")}, "amount"),
    ({"amount": D("5.00"), "tax": D("6.00")}, "tax"),
    ({"amount": D("5.00"), "pad_form": "X" * 13}, "pad_form"),
])
async def test_bad_input_is_refused_before_the_journal(make_till: Any, kwargs: dict[str, Any],
                                                      field: str) -> None:
    till = await make_till("LG")
    with pytest.raises(ValidationError) as err:
        await qr.pay(till.ctx, **kwargs)
    assert err.value.field == field
    assert await till.journal.search() == []
    with pytest.raises(ValidationError, match="wait"):
        qr.QrPolling(wait_s=0)
