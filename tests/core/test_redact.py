"""No full card number, security code, track data, PIN block or token survives a log line or an
exception text; a card number shows first 6 and last 4 at most."""

from __future__ import annotations

import io
import json
import logging
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cashier.host.client import HostClient, HostSettings
from cashier.host.errors import HostError
from cashier.host.models.common import Amount, Card, SecurityCode
from cashier.redact import RedactingFilter, luhn_ok, mask_pan, redact

PAN = "4321000000001119"  # published test Visa, Luhn-valid
CVV = "7391"
TRACK1 = f"%B{PAN}^CARDHOLDER/TEST^25121010000000000000?"
TRACK2 = f";{PAN}=25121010000000000?"
ACCESS = "EA79FB05-3AA7-4500-AF9A-73F986FF2C1D"
PLAIN_TOKEN = "Zk3pQ9vT2mXw8rYb4nLc6hJd1sFg7aEu0oIiKk5lMmNnBbVvCcXxZz"  # 52 chars, not a UUID
PIN_BLOCK = "A1B2C3D4E5F60718"
SECRETS = (PAN, CVV, TRACK1, TRACK2, ACCESS, PLAIN_TOKEN, PIN_BLOCK, "10000000000000")


def _assert_clean(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret!r} survived in {text!r}"
    assert "1119" not in text or "432100" in text or "XXXX" in text


@pytest.fixture
def captured() -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactingFilter())
    logger = logging.getLogger("cashier.test.redact")
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    return logger, stream


def test_log_lines_in_every_shape(captured: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = captured
    body = {"card": {"number": PAN, "securityCode": {"indicator": "1", "value": CVV},
                     "trackData": TRACK2}, "pinBlock": PIN_BLOCK,
            "credential": {"accessToken": PLAIN_TOKEN}}
    logger.info("json %s", json.dumps(body))
    logger.info("repr %r", body)
    logger.info("headers AccessToken: %s; TrackData=%s", PLAIN_TOKEN, TRACK1)
    logger.info("kw cvv=%s pin_block=%s access_token=%s", CVV, PIN_BLOCK, ACCESS)
    logger.info("grouped 4321 0000 0000 1119 and dashed 4321-0000-0000-1119, raw track %s=2512101", PAN)
    logger.info("bad luhn %s", "4321000000001118")
    text = stream.getvalue()
    _assert_clean(text)
    assert "4321000000001118" not in text
    assert text.count("432100XXXXXX1119") >= 3


def test_exception_text_in_the_log(captured: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = captured
    try:
        raise ValueError(f"card {PAN} cvv={CVV} token {ACCESS} track {TRACK1}")
    except ValueError:
        logger.exception("sale failed")
    text = stream.getvalue()
    _assert_clean(text)
    assert "Traceback" in text and "432100XXXXXX1119" in text


def test_setup_logging_writes_redacted_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cashier import logs

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])  # restored afterwards, with the level and the flag
    monkeypatch.setattr(root, "level", root.level)
    monkeypatch.setattr(root, "_cashier_configured", False, raising=False)
    log_file = tmp_path / "till.log"
    logs.setup_logging(log_file=log_file)
    try:
        logging.getLogger("cashier.flows").warning("sale card=%s accessToken=%s", PAN, PLAIN_TOKEN)
    finally:
        for h in root.handlers:
            h.close()
    text = log_file.read_text(encoding="utf-8")
    assert "432100XXXXXX1119" in text
    _assert_clean(text)


async def test_client_errors_and_models_carry_no_secret() -> None:
    """A host that echoes the request back: the exception and every repr stay clean."""
    def echo(request: httpx.Request) -> httpx.Response:
        return httpx.Response(400, json={"result": [{"error": {
            "primaryCode": 9000, "shortText": "INVALID", "longText": request.content.decode()[:255],
            "severity": "Info"}}]})

    client = HostClient(HostSettings(base_url="https://h/api/rest/v1", processing_option="HD"),
                        access_token=ACCESS, transport=httpx.MockTransport(echo))
    card = Card(number=PAN, expiration_date="1225", security_code=SecurityCode(value=CVV))
    with pytest.raises(HostError) as info:
        await client.sale(invoice="1", amount=Amount(total=Decimal("12.50")), card=card)
    _assert_clean(str(info.value))
    _assert_clean(repr(info.value))
    _assert_clean(repr(card))
    _assert_clean(str(card))


def test_mask_pan_keeps_at_most_first_6_last_4() -> None:
    assert mask_pan(PAN) == "432100XXXXXX1119"
    assert mask_pan("373400000002221") == "373400XXXXX2221"
    assert mask_pan("1119") == "1119"
    assert luhn_ok(PAN) and not luhn_ok("4321000000001118")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.text(alphabet="0123456789", min_size=13, max_size=19), st.sampled_from([" ", ": ", "=", "|"]))
def test_any_long_digit_run_is_masked(digits: str, sep: str) -> None:
    out = redact(f"before{sep}{digits}{sep}after")
    assert digits not in out
    assert digits[:6] + "X" * (len(digits) - 10) + digits[-4:] in out


def test_ordinary_text_is_left_alone() -> None:
    line = "invoice 2405210001 total 12.50 at 2024-05-21T09:18:23.283-07:00 mid 15877"
    assert redact(line) == line
