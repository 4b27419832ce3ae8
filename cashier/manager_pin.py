"""Manager PIN: only a salted scrypt hash is stored (in the till profile's ``manager_pin_hash``).

Decision: a training till without a hash uses the PIN 1234 (its hash is the constant below, so no
PIN is written anywhere); a live till without a hash keeps the manager screen locked. Print a hash
for a profile with ``cashier manager-pin``. It lives in the core: which PIN opens the manager's
screen is a rule of the till, not of the window.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

TRAINING_PIN_HINT = "1234"
_N, _R, _P = 2**14, 8, 1
#: scrypt hash of the training PIN (1234) with a fixed salt; the PIN itself is never stored.
TRAINING_PIN_HASH = ("scrypt$16384$8$1$dHJhaW5pbmctdGlsbA==$"
                     "UwrROJSppXtMM/bwz08FNgzNU4T1ozmvGAegrq+bEq0=")


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    if not pin.isdigit() or not 4 <= len(pin) <= 8:
        raise ValueError("pin: must be 4 to 8 digits")
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return (f"scrypt${_N}${_R}${_P}${base64.b64encode(salt).decode()}$"
            f"{base64.b64encode(digest).decode()}")


def verify_pin(pin: str, stored: str | None) -> bool:
    """True when ``pin`` matches ``stored``; a malformed hash never matches."""
    if not stored or not pin.isdigit():
        return False
    try:
        scheme, n, r, p, salt_b64, digest_b64 = stored.split("$")
        if scheme != "scrypt":
            return False
        salt = base64.b64decode(salt_b64)
        expected = base64.b64decode(digest_b64)
        got = hashlib.scrypt(pin.encode(), salt=salt, n=int(n), r=int(r), p=int(p), dklen=len(expected))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)


def effective_hash(manager_pin_hash: str | None, training: bool) -> str | None:
    if manager_pin_hash:
        return manager_pin_hash
    return TRAINING_PIN_HASH if training else None
