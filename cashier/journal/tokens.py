"""The journal's token codec: tokens stored so that no card-number scanner mistakes one."""

from __future__ import annotations

import re

from cashier.errors import ValidationError

_TO_LETTERS = str.maketrans("0123456789", "ABCDEFGHIJ")
_TO_DIGITS = str.maketrans("ABCDEFGHIJ", "0123456789")


def encode_token(token: str | None) -> str | None:
    """Tokens are often 16 digits and a host's may pass Luhn: stored with each digit as a letter
    (``~EDCB…``) so no scanner, ours included, meets a digit run that could be a card number, even
    looking through separators. ``decode_token`` undoes it (and reads the older ``~8_8`` form)."""
    if token is None:
        return None
    if len(token) > 64 or not re.fullmatch(r"[A-Za-z0-9_.:-]+", token):
        raise ValidationError("token", "must be 1 to 64 letters, digits or _ . : -")
    if token.isdigit() and len(token) >= 13:
        return "~" + token.translate(_TO_LETTERS)
    return token


def decode_token(stored: str | None) -> str | None:
    if stored is None or not stored.startswith("~"):
        return stored
    body = stored[1:]
    if body.isalpha():
        return body.translate(_TO_DIGITS)
    return body.replace("_", "")  # journals written before: groups of 8 digits
