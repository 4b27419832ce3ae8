"""Form encoding with bracket notation, as the Charge API reads nested parameters.

``{"metadata": {"k": "v"}, "items": [{"n": 1}], "captured": False}`` becomes
``metadata[k]=v&items[0][n]=1&captured=false``. Unset (``None``) values are left out; floats
are refused (amounts are integers in minor units).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from cashier.errors import ValidationError


def flatten(params: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for key, value in params.items():
        name = f"{prefix}[{key}]" if prefix else str(key)
        pairs.extend(_pairs(name, value))
    return pairs


def _pairs(name: str, value: Any) -> list[tuple[str, str]]:
    if value is None:
        return []
    if isinstance(value, bool):
        return [(name, "true" if value else "false")]
    if isinstance(value, float):
        raise ValidationError(name, "floats are not sent: use an integer of minor units or a string")
    if isinstance(value, int | str | Decimal):
        return [(name, str(value))]
    if isinstance(value, Mapping):
        return flatten(value, name)
    if isinstance(value, Sequence):
        out: list[tuple[str, str]] = []
        for index, item in enumerate(value):
            out.extend(_pairs(f"{name}[{index}]", item))
        return out
    raise ValidationError(name, f"cannot be form-encoded ({type(value).__name__})")


def encode_form(params: Mapping[str, Any]) -> str:
    return urlencode(flatten(params))
