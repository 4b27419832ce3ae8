"""JSON for the Host API: amounts are JSON numbers in major units, read back as ``Decimal``.

pydantic writes ``Decimal`` as a string; the host wants ``12.50`` as a number, so bodies are
encoded here and nowhere else.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

_dumps_str = json.JSONEncoder(ensure_ascii=False).encode


def dumps(value: Any) -> str:
    """Compact JSON with every ``Decimal`` written as a plain number (``12.50``, never 1.25E+1)."""
    parts: list[str] = []
    _encode(value, parts)
    return "".join(parts)


def _encode(value: Any, out: list[str]) -> None:
    if isinstance(value, dict):
        out.append("{")
        first = True
        for key, item in value.items():
            if not first:
                out.append(",")
            first = False
            out.append(_dumps_str(str(key)))
            out.append(":")
            _encode(item, out)
        out.append("}")
    elif isinstance(value, list | tuple):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _encode(item, out)
        out.append("]")
    elif isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError("amounts must be finite")
        out.append(format(value, "f"))
    elif isinstance(value, bool) or value is None:
        out.append("true" if value is True else "false" if value is False else "null")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        raise TypeError("floats are never sent to the host; use Decimal")
    else:
        out.append(_dumps_str(str(value)))


def loads(text: str | bytes) -> Any:
    """Parse an answer with every non-integer number as ``Decimal``."""
    return json.loads(text, parse_float=Decimal)
