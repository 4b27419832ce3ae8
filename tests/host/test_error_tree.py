"""One root per API, grouped by what the caller must do: retry safely, outcome unknown, refused."""

from __future__ import annotations

import socket
from decimal import Decimal
from typing import Any

import httpx
import pytest

from cashier.chargeapi import errors as charge
from cashier.host.client import HostClient, HostSettings
from cashier.host.errors import (
    DuplicateInvoice,
    HostError,
    HostNoDecision,
    HostOutcomeUnknown,
    HostProtocolError,
    HostRetrySafe,
    HostTimeout,
    HostUnavailable,
    InvoiceNotFound,
)
from cashier.host.models.common import Amount
from tests.support.host_client import Recorder

AMOUNT = Amount(total=Decimal("1.00"), tax=Decimal(0))


def test_host_tree_has_one_root_and_three_groups() -> None:
    for kind in (HostTimeout, HostUnavailable, HostProtocolError, InvoiceNotFound, DuplicateInvoice):
        assert issubclass(kind, HostError)
    assert issubclass(HostUnavailable, HostRetrySafe) and not issubclass(HostUnavailable, HostOutcomeUnknown)
    assert issubclass(HostTimeout, HostOutcomeUnknown) and issubclass(HostProtocolError, HostOutcomeUnknown)
    assert not issubclass(InvoiceNotFound, HostNoDecision)
    assert InvoiceNotFound(primary_code=9815).refused and not HostTimeout(primary_code=9951).refused
    assert not HostUnavailable("down").refused


async def test_a_refused_connection_is_caught_as_retry_safe_with_its_message() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = HostClient(HostSettings(base_url=f"http://127.0.0.1:{port}/api/rest/v1",
                                     connect_timeout_s=1))
    try:
        with pytest.raises(HostRetrySafe) as info:
            await client.sale(invoice="1", amount=AMOUNT)
    finally:
        await client.aclose()
    assert "not reachable" in str(info.value) and "not reachable" in info.value.long_text


async def test_an_answer_of_the_wrong_shape_is_outcome_unknown(make_client: Any,
                                                               recorder: Recorder) -> None:
    recorder.answers["/transactions/sale"] = (200, {"unexpected": True})
    with pytest.raises(HostOutcomeUnknown):
        await make_client("LG").sale(invoice="1", amount=AMOUNT)


def test_charge_api_tree_groups_by_what_to_do() -> None:
    root = charge.ChargeApiError
    safe, unknown = charge.ChargeApiRetrySafe, charge.ChargeApiOutcomeUnknown
    refused = charge.ChargeApiRefused
    assert {safe, unknown} <= set(charge.ChargeApiNoDecision.__subclasses__())
    kind: type[charge.ChargeApiError]
    for kind in (charge.ChargeApiUnavailable, charge.RateLimitError, charge.IdempotencyConflictError):
        assert issubclass(kind, safe)
    for kind in (charge.ChargeApiTimeout, charge.ChargeApiServerError):
        assert issubclass(kind, unknown)
    for kind in (charge.CardError, charge.InvalidRequestError, charge.NotFoundError,
                 charge.AuthenticationError):
        assert issubclass(kind, refused) and not issubclass(kind, charge.ChargeApiNoDecision)
    for status, group in ((402, refused), (404, refused), (429, safe), (409, safe), (503, unknown)):
        error = charge.error_from_response(status, {"error": {"message": "x"}})
        assert isinstance(error, group) and isinstance(error, root), status
    assert not issubclass(httpx.HTTPError, root)
