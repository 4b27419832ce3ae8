"""Bracket notation both ways: what the client writes is what the sandbox reads."""

from __future__ import annotations

import base64
import logging
import os
from typing import Any
from urllib.parse import parse_qsl

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cashier.chargeapi.encoding import encode_form, flatten
from cashier.errors import ValidationError
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.chargeapi.wire import ChargeApiFault, nest_pairs, parse_body
from cashier.sandbox.core import SandboxConfig
from cashier.sandbox.faults import Message

names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True)
leaves = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
values: st.SearchStrategy[Any] = st.recursive(
    leaves,
    lambda inner: st.dictionaries(names, inner, min_size=1, max_size=4)
    | st.lists(inner, min_size=1, max_size=4),
    max_leaves=12,
)


@settings(max_examples=int(os.environ.get("CASHIER_FUZZ_EXAMPLES", "10")) * 3, deadline=None)
@given(st.dictionaries(names, values, max_size=5))
def test_round_trip(params: dict[str, Any]) -> None:
    """30 nested forms in ``make test``, 600 in ``make fuzz``."""
    encoded = encode_form(params)
    assert nest_pairs(parse_qsl(encoded, keep_blank_values=True)) == params


def test_nested_metadata_and_lists() -> None:
    pairs = flatten({"metadata": {"order": "A-1"}, "items": [{"name": "x", "qty": 2}], "captured": False})
    assert pairs == [("metadata[order]", "A-1"), ("items[0][name]", "x"), ("items[0][qty]", "2"),
                     ("captured", "false")]


def test_none_left_out_and_float_refused() -> None:
    assert flatten({"a": None, "b": "1"}) == [("b", "1")]
    with pytest.raises(ValidationError, match="amount"):
        flatten({"amount": 12.5})


@pytest.mark.parametrize("pairs, message", [
    ([("a", "1"), ("a[b]", "2")], "mixes"),
    ([("a[b", "1")], "malformed"),
    ([("items[0]", "x"), ("items[2]", "y")], "without gaps"),
    ([("a", "1"), ("a", "2")], "more than once"),
    ([("[x]", "1")], "not a valid parameter name"),
])
def test_bad_forms_refused_with_the_field(pairs: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(ChargeApiFault) as info:
        nest_pairs(pairs)
    assert info.value.status == 400 and message in info.value.message


def test_json_and_multipart_bodies() -> None:
    params, files = parse_body("application/json", b'{"amount": 100, "metadata": {"a": "b"}}')
    assert params == {"amount": 100, "metadata": {"a": "b"}} and files == {}
    body = (b"--XX\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\ndispute_evidence\r\n"
            b"--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"e.pdf\"\r\n"
            b"Content-Type: application/pdf\r\n\r\n%PDF-1\r\n--XX--\r\n")
    params, files = parse_body("multipart/form-data; boundary=XX", body)
    assert params == {"purpose": "dispute_evidence"}
    assert files == {"file": ("e.pdf", b"%PDF-1")}
    with pytest.raises(ChargeApiFault, match="not valid JSON"):
        parse_body("application/json", b"{nope")


async def test_a_client_leaving_mid_request_is_one_log_line(caplog: pytest.LogCaptureFixture) -> None:
    """The body never arrives (the client disconnected): no traceback, no answer attempt fails."""
    sent: list[Message] = []
    auth = b"Basic " + base64.b64encode(b"sk_test_gone:")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/charges", "raw_path": b"/charges", "query_string": b"",
             "root_path": "", "headers": [(b"authorization", auth), (b"content-type", b"application/json")],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 2)}

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    with caplog.at_level(logging.INFO, logger="cashier.sandbox.chargeapi.app"):
        await HostSandbox(SandboxConfig()).asgi(scope, receive, send)
    lines = [r for r in caplog.records if r.name == "cashier.sandbox.chargeapi.app"]
    assert [r.getMessage() for r in lines] == ["Charge API client left mid-request: POST /charges"]
    assert all(r.exc_info is None for r in lines)
