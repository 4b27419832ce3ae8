"""``/_sandbox`` controls: ledger, faults (lost answers, 504, reset, delay), reset, clock."""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

import httpx
import pytest

from cashier.host.errors import HostTimeout, InvoiceNotFound
from tests.support.host_requests import amount, customer, keyed, ledger_of

SALE_PATH = "/api/rest/v1/transactions/sale"


async def control(sandbox: Any, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as http:
        response = await http.request(method, path, json=body)
    return response.status_code, response.json()


async def test_ledger_lists_invoices_giftcards_batches_without_card_numbers(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await client.sale(invoice="1", amount=amount("10.00"), card=keyed(), customer=customer())
    await client.authorization(invoice="2", amount=amount("20.00"), card=keyed(), customer=customer())
    status, view = await control(sandbox, "GET", "/_sandbox/ledger")
    assert status == 200 and set(view) == {"invoices", "giftcards", "batches"}
    states = {row["invoice"]: (row["state"], row["approvedAmount"]) for row in view["invoices"]}
    assert states == {"1": ("sale", "10.00"), "2": ("authorized", "20.00")}
    assert "4321000000001119" not in str(view)


async def test_drop_after_commit_is_a_timeout_but_committed(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    status, rules = await control(sandbox, "POST", "/_sandbox/faults",
                                  {"path": SALE_PATH, "action": "drop_after_commit", "count": 1})
    assert status == 200 and rules["rules"][0]["action"] == "drop_after_commit"
    with pytest.raises(HostTimeout):
        await client.sale(invoice="3", amount=amount("10.00"), card=keyed(), customer=customer())
    assert ledger_of(sandbox)["3"]["state"] == "sale"
    found = await client.invoice_status("3")  # recovery finds the approval
    assert found.response_code == "A"
    again = await client.sale(invoice="3", amount=amount("10.00"), card=keyed(), customer=customer())
    assert again.transaction.authorization_code == found.transaction.authorization_code
    assert sandbox.faults.rules == []  # count spent


@pytest.mark.parametrize(("commit", "committed"), [(True, True), (False, False)])
async def test_timeout_504_commit_or_not(make_sandbox, commit: bool, committed: bool) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await control(sandbox, "POST", "/_sandbox/faults",
                  {"path": SALE_PATH, "action": "timeout_504", "commit": commit, "count": 1})
    with pytest.raises(HostTimeout) as info:
        await client.sale(invoice="4", amount=amount("10.00"), card=keyed(), customer=customer())
    assert info.value.http_status == 504 and info.value.primary_code == 9951
    assert ("4" in ledger_of(sandbox)) is committed


async def test_reset_commits_nothing(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await control(sandbox, "POST", "/_sandbox/faults", {"rules": [{"path": SALE_PATH, "action": "reset"}]})
    with pytest.raises(HostTimeout):
        await client.sale(invoice="5", amount=amount("10.00"), card=keyed(), customer=customer())
    assert "5" not in ledger_of(sandbox)
    with pytest.raises(InvoiceNotFound):
        await client.invoice_status("5")
    status, _ = await control(sandbox, "DELETE", "/_sandbox/faults")
    assert status == 200 and sandbox.faults.rules == []
    ok = await client.sale(invoice="5", amount=amount("10.00"), card=keyed(), customer=customer())
    assert ok.response_code == "A"


async def test_delay_and_probability(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await control(sandbox, "POST", "/_sandbox/faults", {"seed": 7, "rules": [
        {"path": SALE_PATH, "action": "delay", "delay_ms": 150, "count": 1},
        {"path": "/api/rest/v1/transactions/invoice", "action": "timeout_504", "probability": 0}]})
    started = time.monotonic()
    await client.sale(invoice="6", amount=amount("10.00"), card=keyed(), customer=customer())
    assert time.monotonic() - started >= 0.14
    assert (await client.invoice_status("6")).response_code == "A"  # probability 0 never fires


@pytest.mark.parametrize(("body", "needle"), [
    ({"path": SALE_PATH, "action": "explode"}, "action"),
    ({"path": "transactions/sale", "action": "reset"}, "path"),
    ({"path": SALE_PATH, "action": "reset", "probability": 2}, "probability"),
    ({"path": SALE_PATH, "action": "reset", "count": 0}, "count"),
    ({"path": SALE_PATH, "action": "delay"}, "delay_ms"),
    ({"path": SALE_PATH, "action": "reset", "commit": "yes"}, "commit"),
    ({"path": SALE_PATH, "action": "reset", "colour": "red"}, "unknown field"),
    ([], "send a rule"),
    ({"rules": [{"path": SALE_PATH, "action": "reset"}], "seed": "x"}, "seed"),
])
async def test_bad_fault_rules_are_400_with_the_field(make_sandbox, body: Any, needle: str) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD")
    status, answer = await control(sandbox, "POST", "/_sandbox/faults", body)
    assert status == 400 and needle in answer["error"]
    assert sandbox.faults.rules == []


async def test_reset_and_clock(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await client.sale(invoice="7", amount=amount("10.00"), card=keyed(), customer=customer())
    status, _ = await control(sandbox, "POST", "/_sandbox/reset")
    assert status == 200 and ledger_of(sandbox) == {}
    before = sandbox.state.clock.now()
    status, answer = await control(sandbox, "POST", "/_sandbox/clock", {"advance_seconds": 86400})
    assert status == 200 and answer["offset_seconds"] == 86400
    assert sandbox.state.clock.now() - before >= 86400
    await client.sale(invoice="8", amount=amount("10.00"), card=keyed(), customer=customer())
    from datetime import date, timedelta

    assert ledger_of(sandbox)["8"]["businessDate"] == (date.today() + timedelta(days=1)).isoformat()
    for bad in ({"advance_seconds": -5}, {"advance_seconds": "soon"}, {}, None):
        status, answer = await control(sandbox, "POST", "/_sandbox/clock", bad)
        assert status == 400 and "advance_seconds" in answer["error"]


async def test_unknown_control_and_wrong_method_are_json(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD")
    status, answer = await control(sandbox, "GET", "/_sandbox/nothing")
    assert status == 404 and "/_sandbox/ledger" in answer["error"]
    status, answer = await control(sandbox, "DELETE", "/_sandbox/ledger")
    assert status == 405 and "not allowed" in answer["error"]
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as http:
        response = await http.post("/_sandbox/faults", content=b"{oops")
    assert response.status_code == 400 and "not valid JSON" in response.json()["error"]


async def test_extra_control_routes_hook() -> None:
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from cashier.sandbox.app import FAMILIES, HostSandbox
    from cashier.sandbox.core import Family, SandboxConfig

    async def hello(request: Request) -> JSONResponse:
        return JSONResponse({"option": request.app.state.sandbox.config.option})

    extra = Family("hello", controls=[
        Route("/_sandbox/hello", hello),
        lambda sb: [Route("/_sandbox/factory", lambda r: JSONResponse({"ok": True}))]])
    sandbox = HostSandbox(SandboxConfig(option="DCP"), families=(*FAMILIES, extra))
    assert await control(sandbox, "GET", "/_sandbox/hello") == (200, {"option": "DCP"})
    assert await control(sandbox, "GET", "/_sandbox/factory") == (200, {"ok": True})


async def test_state_file_survives_a_restart(make_sandbox, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "ledger.json"
    _sandbox, client = make_sandbox("HD", state_file=str(path))
    first = await client.sale(invoice="9", amount=amount("10.00"), card=keyed(), customer=customer())
    assert path.exists() and "4321000000001119" not in path.read_text()
    again, client2 = make_sandbox("HD", state_file=str(path))
    found = await client2.invoice_status("9")
    assert found.transaction.authorization_code == first.transaction.authorization_code
    captured = await client2.sale(invoice="9", amount=amount("10.00"), card=keyed(), customer=customer())
    assert captured.amount is not None and captured.amount.total == Decimal("10.00")
    assert again.state.family("sequences")["approval"] == 1


async def test_fractional_probability_is_accepted_and_seeded(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    """JSON fractions arrive as Decimal in the sandbox; 0.5 must be a valid probability."""
    import httpx

    sandbox, _client = make_sandbox("HD")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as raw:
        answer = await raw.post("/_sandbox/faults", json={"rules": [
            {"path": "/api/rest/v1/transactions/sale", "action": "reset", "probability": 0.5}]})
        assert answer.status_code == 200, answer.text
        assert answer.json()["rules"][0]["probability"] == 0.5
