"""HMAC-SHA256 request signing, shared by the client and the sandbox.

Our spec does not say what is signed. Decision (docs/decisions/001-host-api.md): the signed content is the
raw request body bytes (empty for GET and DELETE), so the same function signs and verifies.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

SCHEME = "HMAC-SHA256"
_HEADER = re.compile(r"^HMAC-SHA256 Credential=([^&\s]+)&Signature=([A-Za-z0-9+/=]+)$")


def signed_content(body: bytes) -> bytes:
    """What gets signed: the raw body as sent on the wire."""
    return body


def signature(secret: bytes, body: bytes) -> str:
    digest = hmac.new(secret, signed_content(body), hashlib.sha256).digest()
    return base64.b64encode(digest).decode("ascii")


def authorization_header(key_id: str, secret: bytes, body: bytes) -> str:
    return f"{SCHEME} Credential={key_id}&Signature={signature(secret, body)}"


def parse_authorization(value: str) -> tuple[str, str] | None:
    """(key id, signature) from an Authorization header, or None when it is not ours."""
    match = _HEADER.match(value.strip())
    return (match.group(1), match.group(2)) if match else None


def verify(secret: bytes, body: bytes, sig: str) -> bool:
    return hmac.compare_digest(signature(secret, body), sig)
