"""Error mapping: the host's envelope, 504 and 9951, read timeouts, refused connections."""

from __future__ import annotations

import asyncio
import socket
from decimal import Decimal
from typing import Any

import httpx
import pytest

from cashier.host.client import HostClient, HostSettings
from cashier.host.errors import (
    HostError,
    HostProtocolError,
    HostTimeout,
    HostUnavailable,
    InvoiceNotFound,
)
from cashier.host.models.common import Amount, Card
from tests.support.host_client import Recorder

AMOUNT = Amount(total=Decimal("12.50"), tax=Decimal(0))
PAN = "4321000000001119"


def _envelope(primary: int | None, short: str, long: str = "", *, code: int | None = None,
              severity: str = "Info") -> dict[str, Any]:
    error: dict[str, Any] = {"shortText": short, "longText": long, "severity": severity}
    if primary is not None:
        error.update(primaryCode=primary, secondaryCode=0)
    if code is not None:
        error["code"] = code
    return {"result": [{"error": error, "server": {"name": "API01"}}]}


async def test_400_envelope_is_a_host_error(make_client: Any, recorder: Recorder) -> None:
    recorder.answers["/transactions/sale"] = (400, _envelope(9842, "NOT IN CARDRANGE", "card type"))
    with pytest.raises(HostError) as info:
        await make_client("LG").sale(invoice="1", amount=AMOUNT)
    err = info.value
    assert type(err) is HostError
    assert (err.primary_code, err.secondary_code, err.http_status) == (9842, 0, 400)
    assert err.short_text == "NOT IN CARDRANGE" and err.severity == "Info" and not err.retryable


async def test_error_with_http_200_is_still_an_error(make_client: Any, recorder: Recorder) -> None:
    recorder.answers["/transactions/sale"] = (200, _envelope(9551, "DECLINED", severity="Error"))
    with pytest.raises(HostError) as info:
        await make_client("LG").sale(invoice="1", amount=AMOUNT)
    assert info.value.primary_code == 9551 and info.value.retryable


@pytest.mark.parametrize(("status", "payload"), [
    (504, _envelope(9951, "RESPONSE TIMEOUT", "Timeout waiting for response", severity="Error")),
    (200, _envelope(9951, "RESPONSE TIMEOUT")),
    (504, b""),
    (504, _envelope(None, "Timed Out", code=64002, severity="Error")),  # OCT/ACH shape, no 9951
    (400, _envelope(None, "Timed Out", code=40001, severity="Error")),
])
async def test_timeouts_are_outcome_unknown(status: int, payload: Any, make_client: Any,
                                            recorder: Recorder) -> None:
    recorder.answers["/transactions/sale"] = (status, payload)
    with pytest.raises(HostTimeout) as info:
        await make_client("LG").sale(invoice="1", amount=AMOUNT)
    assert info.value.primary_code in (9951, None)


async def test_invoice_not_found(make_client: Any, recorder: Recorder) -> None:
    recorder.answers["/transactions/invoice"] = (400, _envelope(9815, "NO INV", "Invoice Not Found"))
    with pytest.raises(InvoiceNotFound):
        await make_client("LG").invoice_status("1")
    request = recorder.last
    assert request.method == "GET" and request.content == b"" and request.headers["Invoice"] == "1"


async def test_decline_is_a_result(make_client: Any, recorder: Recorder) -> None:
    recorder.answers["/transactions/sale"] = (200, {"result": [
        {"amount": {"total": 12.5}, "transaction": {"invoice": "1", "responseCode": "D"}}]})
    result = await make_client("LG").sale(invoice="1", amount=AMOUNT)
    assert result.response_code == "D" and not result.approved
    assert result.approved_amount == 0


@pytest.mark.parametrize("payload", [b"<html>bad gateway</html>", {"result": []}, {"other": 1},
                                     {"result": [{"transaction": "not an object"}]}])
async def test_not_host_shaped_is_a_protocol_error(payload: Any, make_client: Any,
                                                   recorder: Recorder) -> None:
    recorder.answers["/transactions/sale"] = (200, payload)
    with pytest.raises(HostProtocolError):
        await make_client("LG").sale(invoice="1", amount=AMOUNT)


async def test_host_echo_of_a_card_number_is_masked(make_client: Any, recorder: Recorder) -> None:
    recorder.answers["/transactions/sale"] = (400, _envelope(9820, "LUHN FAIL", f"card {PAN} bad"))
    with pytest.raises(HostError) as info:
        await make_client("HD").sale(invoice="1", amount=AMOUNT, card=Card(number=PAN))
    assert PAN not in str(info.value) and "432100XXXXXX1119" in str(info.value)


async def test_read_timeout_after_sending_is_unknown() -> None:
    sent = asyncio.Event()

    async def slow(request: httpx.Request) -> httpx.Response:
        sent.set()
        raise httpx.ReadTimeout("no answer", request=request)

    client = HostClient(HostSettings(base_url="https://host.test/api/rest/v1"),
                        transport=httpx.MockTransport(slow))
    with pytest.raises(HostTimeout) as info:
        await client.sale(invoice="1", amount=AMOUNT)
    assert sent.is_set() and info.value.primary_code == 9951


async def test_real_read_timeout_over_a_socket() -> None:
    """A server that accepts and never answers: the short host timeout fires, outcome UNKNOWN."""
    async def never(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        await asyncio.sleep(5)
        writer.close()

    server = await asyncio.start_server(never, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = HostClient(HostSettings(base_url=f"http://127.0.0.1:{port}/api/rest/v1",
                                     host_timeout_s=0.3, device_timeout_s=0.3))
    try:
        with pytest.raises(HostTimeout):
            await client.sale(invoice="1", amount=AMOUNT)
    finally:
        await client.aclose()
        server.close()


async def test_connection_refused_is_unavailable() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = HostClient(HostSettings(base_url=f"http://127.0.0.1:{port}/api/rest/v1",
                                     connect_timeout_s=1))
    try:
        with pytest.raises(HostUnavailable):
            await client.sale(invoice="1", amount=AMOUNT)
        assert await client.warm_up() is False
    finally:
        await client.aclose()


async def test_timeouts_by_class_of_call(make_client: Any, recorder: Recorder) -> None:
    """Device prompts wait long, host calls are short; HD keyed sales are host calls."""
    seen: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.extensions["timeout"]["read"])
        return recorder.handler(request)

    lg = HostClient(HostSettings(base_url="https://h/api/rest/v1", host_timeout_s=7,
                                 device_timeout_s=99), transport=httpx.MockTransport(handler))
    await lg.sale(invoice="1", amount=AMOUNT)
    await lg.device_reset()
    await lg.device_prompt_signature()
    await lg.sale(invoice="1", amount=AMOUNT, card=Card(number=PAN))
    assert seen == [99, 7, 99, 7]


async def test_rules_verify_falls_back_and_remembers(make_client: Any, recorder: Recorder) -> None:
    recorder.answers["/rules/verify"] = (404, _envelope(9000, "NOT FOUND", "No such endpoint"))
    client = make_client("HD")
    await client.rules_verify({"amount": {"total": Decimal(1)}})
    assert [r.url.path for r in recorder.requests] == ["/api/rest/v1/rules/verify",
                                                       "/api/rest/v1/rule/verify"]
    assert client.rule_verify_path == "/rule/verify"
    await client.rules_verify({"amount": {"total": Decimal(2)}})
    assert recorder.requests[-1].url.path == "/api/rest/v1/rule/verify" and len(recorder.requests) == 3


async def test_rules_verify_keeps_the_spec_path_when_it_works(make_client: Any,
                                                              recorder: Recorder) -> None:
    client = make_client("HD")
    await client.rules_verify({"amount": {"total": Decimal(1)}})
    await client.rules_verify({"amount": {"total": Decimal(1)}})
    assert {r.url.path for r in recorder.requests} == {"/api/rest/v1/rules/verify"}
