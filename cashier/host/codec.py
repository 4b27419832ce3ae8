"""JSON for the Host API: amounts are JSON numbers in major units, read back as ``Decimal``.

pydantic writes ``Decimal`` as a string; the host wants ``12.50`` as a number, so bodies are
encoded here and nowhere else.
"""

from __future__ import annotations

import json
import re
import secrets
from decimal import Decimal
from typing import Any

# Decimals leave the C encoder as marked strings, then become bare numbers: as fast as plain
# json and exact. The nonce keeps any real text from ever looking like a marker.
_NONCE = secrets.token_hex(6)
_MARK = f"\x1f{_NONCE}:"
_MARKED = re.compile(r'"\\u001f' + _NONCE + r':([-0-9.]+)\\u001f"')
_encoder = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False,
                            separators=(",", ":"), default=lambda o: _default(o))


def _default(value: Any) -> str:
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError("amounts must be finite")
        return f"{_MARK}{format(value, 'f')}\x1f"
    return str(value)


def dumps(value: Any) -> str:
    """Compact JSON with every ``Decimal`` written as a plain number (``12.50``, never 1.25E+1).

    A float anywhere is refused (``TypeError``): money is never a float on the wire."""
    _refuse_floats(value)
    return _MARKED.sub(r"\1", _encoder.encode(value))


def _refuse_floats(value: Any) -> None:
    kind = type(value)
    if kind is dict:
        for item in value.values():
            if type(item) in _CONTAINERS_OR_FLOAT:
                _refuse_floats(item)
    elif kind is list or kind is tuple:
        for item in value:
            if type(item) in _CONTAINERS_OR_FLOAT:
                _refuse_floats(item)
    elif kind is float:
        raise TypeError("floats are never sent to the host; use Decimal")
    elif isinstance(value, dict | list | tuple | float):  # subclasses: the slow, sure way
        for item in (value.values() if isinstance(value, dict) else
                     value if isinstance(value, list | tuple) else [None]):
            _refuse_floats(item)
        if isinstance(value, float):
            raise TypeError("floats are never sent to the host; use Decimal")


_CONTAINERS_OR_FLOAT = frozenset({dict, list, tuple, float})


def loads(text: str | bytes) -> Any:
    """Parse an answer with every non-integer number as ``Decimal``."""
    return json.loads(text, parse_float=Decimal)
