"""The command line's numbers and JSON: one rule for every integer and structured argument.

argparse's ``type=int`` reads any length (Python refuses more than 4,300 digits with a
``ValueError`` of its own), any script's digits (``٣``), ``1_000`` and spaces, and SQLite cannot
hold past 2**63 - 1 (an ``OverflowError`` deep in a query); ``json.loads`` recurses once per
bracket. Every integer argument is read here instead: ASCII digits only, no more of them than its
bound has, within its bound. Structured arguments are bounded in size and depth before they are
parsed. A refusal is one line naming the argument and the rule (argparse adds the name), exit 2,
before a profile, a journal or the host is touched; the value itself is never echoed (it may be
5,000 digits long).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from cashier.errors import ValidationError

#: The largest integer SQLite holds (a journal's row id, a session, a ticket).
SQLITE_INTEGER_MAX = 2**63 - 1
#: A journal's row number (a drawer session, a ticket, a line) typed by a person: 12 digits at
#: most, far past what a till makes, well inside what SQLite holds.
ROW_NUMBER_MAX = 10**12 - 1
#: A JSON argument (``drawer open --counts``): at most this many characters and levels.
JSON_MAX_CHARS = 4096
JSON_MAX_DEPTH = 2


def whole_number(text: str, field: str, *, low: int = 1, high: int = ROW_NUMBER_MAX,
                 rule: str | None = None) -> int:
    """THE integer rule of the command line: ASCII digits, at most as many as ``high`` has, from
    ``low`` to ``high``; else ``ValidationError(field, rule)``."""
    words = rule or f"must be a whole number from {low} to {high}"
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(high)):
        raise ValidationError(field, words)
    value = int(text)
    if not low <= value <= high:
        raise ValidationError(field, words)
    return value


def number(low: int = 1, high: int = ROW_NUMBER_MAX, *, rule: str | None = None
           ) -> Callable[[str], int]:
    """An argparse ``type`` reading ``whole_number``: a refusal names the argument, one line."""
    def parse(text: str) -> int:
        try:
            return whole_number(text, "", low=low, high=high, rule=rule)
        except ValidationError as exc:
            raise argparse.ArgumentTypeError(exc.rule) from None
    return parse


def number_text(low: int = 1, high: int = ROW_NUMBER_MAX, *, rule: str | None = None
                ) -> Callable[[str], str]:
    """``number``, kept as typed (leading zeros too): for a handler that reads the digits itself
    (``ticket refund --line``) or for digits that are not only a number (``receipt print``: a
    ticket, or an invoice such as 0100000001)."""
    read = number(low, high, rule=rule)

    def parse(text: str) -> str:
        read(text)
        return text
    return parse


def _depth(text: str) -> int:
    """How deeply ``text``'s JSON arrays and objects nest (brackets inside strings skipped),
    counted before ``json.loads`` recurses into them."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def json_value(text: str, field: str, *, example: str, max_chars: int = JSON_MAX_CHARS,
               max_depth: int = JSON_MAX_DEPTH) -> Any:
    """THE JSON rule of the command line: at most ``max_chars`` characters and ``max_depth``
    levels, strict JSON (no NaN or Infinity), integers of at most 19 digits."""
    words = f"must be JSON such as {example}"
    if len(text) > max_chars:
        raise ValidationError(field, f"{words}, at most {max_chars} characters")
    if _depth(text) > max_depth:
        raise ValidationError(field, f"{words}, nested at most {max_depth} deep")

    def no_constant(name: str) -> Any:
        raise ValueError(name)

    def bounded_int(digits: str) -> int:
        if len(digits.lstrip("-")) > len(str(SQLITE_INTEGER_MAX)):
            raise ValueError(digits[:20])
        return int(digits)

    try:
        return json.loads(text, parse_constant=no_constant, parse_int=bounded_int)
    except (ValueError, RecursionError):
        raise ValidationError(field, words) from None


def counts(text: str) -> dict[str, Any]:
    """``drawer open --counts``: a JSON object of denominations and counts (the denomination and
    count rules are the drawer's, ``cashier.drawer.count_denominations``)."""
    example = '{"20.00": 3, "1.00": 10}'
    try:
        value = json_value(text, "", example=example)
    except ValidationError as exc:
        raise argparse.ArgumentTypeError(exc.rule) from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"must be JSON such as {example}")
    return {str(k): v for k, v in value.items()}


__all__ = ["ROW_NUMBER_MAX", "SQLITE_INTEGER_MAX", "counts", "json_value", "number", "number_text",
           "whole_number"]
