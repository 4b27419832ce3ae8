"""The envelope: headers per operation, ``result[0]``, dateTime, amounts as JSON numbers."""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cashier.host import codec, signing
from cashier.host.client import HostClient
from cashier.host.endpoints import ENDPOINTS, RULE_VERIFY_FALLBACK
from cashier.host.models.common import Amount
from tests.support.host_client import TOKEN, Recorder

SPEC = Path(__file__).resolve().parents[2].parent / "shared" / "spec" / "host-api.md"


async def test_common_headers_and_unwrap(make_client: Any, recorder: Recorder) -> None:
    recorder.answers["/transactions/sale"] = (200, {"result": [
        {"transaction": {"invoice": "42", "responseCode": "A"}, "amount": {"total": 12.5}},
        {"transaction": {"invoice": "ignored"}}]})
    result = await make_client("LG").sale(invoice="42", amount=Amount(total=Decimal("12.50")))
    assert result.transaction.invoice == "42" and result.amount is not None
    assert result.amount.total == Decimal("12.5") and isinstance(result.amount.total, Decimal)
    h = recorder.last.headers
    assert (h["InterfaceVersion"], h["InterfaceName"], h["CompanyName"]) == ("0.1", "Cashier", "Cashier")
    assert h["AccessToken"] == TOKEN and h["Content-Type"] == "application/json"
    assert "TerminalID" not in h  # transactions carry the terminal in the body


async def test_no_access_token_on_the_exchange(make_client: Any, recorder: Recorder) -> None:
    await make_client("HD").exchange_access_token(client_guid="G" * 36, auth_token="A" * 36)
    assert "AccessToken" not in recorder.last.headers
    assert recorder.body()["credential"] == {"clientGuid": "G" * 36, "authToken": "A" * 36}


async def test_amount_goes_as_a_json_number(make_client: Any, recorder: Recorder) -> None:
    await make_client("LG").sale(invoice="1", amount=Amount(total=Decimal("12.50"), tax=Decimal("0.92")))
    raw = recorder.last.content.decode()
    assert '"total":12.50' in raw and '"tax":0.92' in raw and '"12.50"' not in raw
    assert json.loads(raw, parse_float=Decimal)["amount"]["total"] == Decimal("12.50")
    assert codec.dumps({"a": Decimal("12.50")}) == '{"a":12.50}'
    assert codec.dumps({"a": Decimal("1E+1")}) == '{"a":10}'
    with pytest.raises(TypeError):
        codec.dumps({"a": 12.5})


async def test_date_time_is_iso_with_offset(make_client: Any, recorder: Recorder) -> None:
    await make_client("LG").mode_offline()
    stamp = recorder.body()["dateTime"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d", stamp)


async def test_terminal_header_on_device_info_and_clear(make_client: Any, recorder: Recorder) -> None:
    lg: HostClient = make_client("LG")
    await lg.device_info()
    assert recorder.last.method == "GET" and recorder.last.headers["TerminalID"] == "1742"
    assert recorder.last.content == b""
    await lg.device_clear_line_items()
    assert recorder.last.method == "DELETE" and recorder.last.headers["TerminalID"] == "1742"
    await make_client("DCP", terminal_id=None).device_info()
    assert "TerminalID" not in recorder.last.headers  # optional on the device controllers


async def test_invoice_and_void_headers(make_client: Any, recorder: Recorder) -> None:
    c = make_client("HD")
    await c.void("2405210001", reversal_reason="01", token="8048471746471119")
    h = recorder.last.headers
    assert (h["Invoice"], h["ReversalReason"], h["Token"]) == ("2405210001", "01", "8048471746471119")
    await c.invoice_status("2405210001", api_options=["RETURNBIN", "USECARDNAME"])
    assert recorder.last.headers["ApiOptions"] == "RETURNBIN,USECARDNAME"


async def test_batch_headers_and_body(make_client: Any, recorder: Recorder) -> None:
    c = make_client("HD")
    await c.batch_totals(date(2024, 5, 21), inclusive=False)
    h = recorder.last.headers
    assert (h["BusinessDate"], h["Inclusive"]) == ("2024-05-21", "N") and recorder.last.content == b""
    await c.batch_submit("2024-05-21")
    assert recorder.body()["batch"] == {"inclusive": "Y"}
    assert recorder.body()["transaction"] == {"businessDate": "2024-05-21"}


async def test_hmac_signs_the_exact_body(make_client: Any, recorder: Recorder) -> None:
    c = make_client("HD", hmac_key_id="key-1", hmac_secret=b"s3cret")
    await c.batch_submit("2024-05-21")
    parsed = signing.parse_authorization(recorder.last.headers["Authorization"])
    assert parsed is not None and parsed[0] == "key-1"
    assert signing.verify(b"s3cret", recorder.last.content, parsed[1])
    assert not signing.verify(b"other", recorder.last.content, parsed[1])


async def test_giftcard_balance_history_option(make_client: Any, recorder: Recorder) -> None:
    await make_client("LG").giftcard_balance(invoice="7", history=True)
    assert recorder.body()["apiOptions"] == ["RETURNHIST"]


# ---- the endpoint table of our spec --------------------------------------------------------
def _spec_rows() -> list[tuple[str, str, str]]:
    """(method, path, options) for every path named in the spec's endpoint table."""
    rows: list[tuple[str, str, str]] = []
    in_table = False
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| Method | Path |"):
            in_table = True
            continue
        if in_table:
            if not line.startswith("|"):
                break
            cells = [c.strip() for c in line.strip("|").split("|")]
            if set(cells[0]) <= {"-"}:
                continue
            for path in cells[1].split(","):
                rows.append((cells[0], path.strip(), cells[3]))
    return rows


def test_spec_table_is_read() -> None:
    rows = _spec_rows()
    paths = {p for _, p, _ in rows}
    assert len(rows) >= 70
    assert {"/risk/rulestatus", "/risk/ruleupdate", "/checkoutsessions/list",
            "/checkoutsessions/retrieve", "/ach/bankaggregator/link_token/create"} <= paths


@pytest.mark.parametrize(("method", "path", "options"), _spec_rows(),
                         ids=[f"{m} {p}" for m, p, _ in _spec_rows()])
def test_client_has_a_method_for_every_operation(method: str, path: str, options: str) -> None:
    matches = [e for e in ENDPOINTS if e.method == method and e.path == path]
    assert len(matches) == 1, f"{method} {path} is not in cashier.host.endpoints"
    entry = matches[0]
    assert callable(getattr(HostClient, entry.client_method, None)), entry.client_method
    if options != "not stated":
        assert entry.options == frozenset(options.split())


def test_table_has_nothing_the_spec_does_not() -> None:
    spec = {(m, p) for m, p, _ in _spec_rows()}
    assert {(e.method, e.path) for e in ENDPOINTS} == spec
    assert RULE_VERIFY_FALLBACK not in {p for _, p in spec}


async def test_every_table_method_reaches_its_path(make_client: Any, recorder: Recorder) -> None:
    """The generic operations (body as a mapping) send to the path the table names."""
    generic = [e for e in ENDPOINTS if e.path.split("/")[1] in
               ("risk", "wallet", "3dsecure", "oct", "ach", "updater", "dcc", "rules",
                "checkoutsessions")]
    client = make_client("HD")
    for entry in generic:
        body: dict[str, Any] = {"transaction": {"invoice": "1", "originalInvoice": "1"}}
        await getattr(client, entry.client_method)(body)
        assert recorder.last.method == entry.method
        assert recorder.last.url.path == "/api/rest/v1" + entry.path, entry.client_method
