"""The journal's token codec: tokens stored so that no card-number scanner mistakes one."""

from __future__ import annotations

import re

from cashier.errors import ValidationError


def encode_token(token: str | None) -> str | None:
    """Tokens are often 16 digits and may pass Luhn: stored in groups of 8 so no scanner (ours
    included) mistakes one for a card number. ``decode_token`` undoes it."""
    if token is None:
        return None
    if len(token) > 64 or not re.fullmatch(r"[A-Za-z0-9_.:-]+", token):
        raise ValidationError("token", "must be 1 to 64 letters, digits or _ . : -")
    if token.isdigit() and len(token) >= 13:
        return "~" + "_".join(token[i:i + 8] for i in range(0, len(token), 8))
    return token


def decode_token(stored: str | None) -> str | None:
    if stored is None or not stored.startswith("~"):
        return stored
    return stored[1:].replace("_", "")
