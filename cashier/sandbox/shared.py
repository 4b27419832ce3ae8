"""Helpers every Host API family of the sandbox shares: body reading, sandbox time, masking,
the PIN pad a request addresses, gift card numbers and card types.

Why one module: the families (devices, gift cards, tokens, mode, transactions, ...) used to
import these from each other, in a circle (``host_devices`` <-> ``host_giftcards`` <->
``host_tokens`` <-> ``host_mode``). Here they depend on this module and on ``core``,
``terminals`` and ``triggers`` only; ``tests/sandbox/test_families.py`` keeps it so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any

from cashier.sandbox import triggers
from cashier.sandbox.core import HostCall, invalid_field, missing_field
from cashier.sandbox.terminals import SUPPORTED_LANGUAGES, VirtualTerminal, no_pinpad, terminal_id_for

#: Deepest nesting of objects and arrays a request body may have (the vendor's bodies reach 4).
MAX_JSON_DEPTH = 32
_JSON_STRING = re.compile(rb'"(?:\\.|[^"\\])*"')
_BRACKETS = re.compile(rb"[\[\]{}]")

#: Sandbox gift card numbers (decision): 13 to 19 digits starting with the prefix of the
#: vendor's example gift card 2664654648774.
GIFT_PREFIX = "266465"


class BodyError(ValueError):
    """A request body that is not JSON the sandbox will read (the message says why)."""


def _depth(raw: bytes) -> int:
    deepest = depth = 0
    for bracket in _BRACKETS.findall(_JSON_STRING.sub(b'""', raw)):
        depth += 1 if bracket in (b"{", b"[") else -1
        deepest = max(deepest, depth)
    return deepest


def parse_json(raw: bytes) -> Any:
    """A request body as JSON (numbers with a fraction as ``Decimal``); ``BodyError`` when it is
    not JSON, not UTF-8, or nested deeper than ``MAX_JSON_DEPTH`` (never a RecursionError)."""
    if raw.count(b"{") + raw.count(b"[") > MAX_JSON_DEPTH and _depth(raw) > MAX_JSON_DEPTH:
        raise BodyError(f"the body is nested too deeply (more than {MAX_JSON_DEPTH} levels)")
    try:
        return json.loads(raw, parse_float=Decimal)
    except RecursionError:
        raise BodyError(f"the body is nested too deeply (more than {MAX_JSON_DEPTH} levels)") from None
    except (ValueError, UnicodeDecodeError):
        raise BodyError("the body is not valid JSON") from None


def get(body: Mapping[str, Any], dotted: str) -> Any:
    """The value at a dotted path of a JSON body (``"card.token.value"``), or None."""
    node: Any = body
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def require(body: Mapping[str, Any], dotted: str) -> Any:
    """The value at a dotted path; missing or empty is the host's "missing field"."""
    value = get(body, dotted)
    if value is None or value == "":
        raise missing_field(dotted)
    return value


def require_object(body: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = body.get(name)
    if value is None:
        raise missing_field(name)
    if not isinstance(value, dict):
        raise invalid_field(name, "must be an object")
    return value


def now_text(call: HostCall) -> str:
    """Merchant-local time on the sandbox clock (``/_sandbox/clock`` moves it), as ``dateTime``
    wants it: with milliseconds and the offset."""
    moment = datetime.fromtimestamp(call.state.clock.now()).astimezone()
    return moment.isoformat(timespec="milliseconds")


def masked(number: str) -> str:
    """The vendor's response style: every digit but the last four as X."""
    return "X" * max(len(number) - 4, 0) + number[-4:]


def is_gift_card(number: str) -> bool:
    return number.isdigit() and 13 <= len(number) <= 19 and number.startswith(GIFT_PREFIX)


def card_type(number: str) -> str:
    """``card.type`` of a number: GC for the sandbox's gift cards, else the card brand."""
    return "GC" if is_gift_card(number) else triggers.brand_of(number)


def terminal_of(call: HostCall) -> VirtualTerminal:
    """The virtual terminal the request addresses, switched to the request's ``ui.language``."""
    headers = call.headers if call.method in ("GET", "DELETE") else None
    tid = terminal_id_for(call.option, call.body, headers)
    terminal: VirtualTerminal = call.state.terminals.get(tid)
    if not terminal.connected:
        raise no_pinpad(tid)
    language = get(call.body, "ui.language")
    if language is not None:
        if language not in SUPPORTED_LANGUAGES:
            raise invalid_field("ui.language", f"must be one of {', '.join(SUPPORTED_LANGUAGES)}")
        terminal.language = language
    return terminal
