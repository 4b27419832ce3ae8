"""One redaction step for every log record and exception text.

A card number keeps its first 6 and last 4 digits at most; security codes, track data,
PIN blocks, access tokens, auth tokens and secrets never survive; an e-mail address keeps its
first letter and its domain (``mask_address``).
"""

from __future__ import annotations

import logging
import re

#: 13 to 19 digits, maybe grouped by spaces or dashes. Decision: every such run is masked,
#: Luhn-valid or not, so a mistyped card number is not logged in full either.
_PAN = re.compile(r"(?<![\dA-Za-z])\d(?:[ -]?\d){12,18}(?![\dA-Za-z])")
_TRACK = re.compile(r"%B\d{12,19}\^[^?]*\?|;\d{12,19}=[^?]*\?|\b\d{12,19}=\d{4,}[\dA-Za-z]*")
# key = value pairs whose value must vanish, in JSON, headers, Python reprs or keyword style
_SECRET_KEYS = (
    r"securityCode|security_code|cvv2?|cvc|csc|pinBlock|pin_block|pin|"
    r"track[12]?|trackData|track_data|track[12]Data|"
    r"accessToken|access_token|authToken|auth_token|clientGuid|client_guid|"
    r"password|passwd|secret|secret_key|secretKey|hmac_secret|apiPassword|api_password|"
    r"Authorization|Signature|p2peData|p2pe_data|P2PEData|ksn|p2peKsn|"
    r"accountNumber|account_number|linkToken|link_token|publicToken|public_token"
)
_SECRET_JSON = re.compile(
    rf'("(?:{_SECRET_KEYS})"\s*:\s*)(\{{[^{{}}]*\}}|"[^"]*"|[^,}}\s]+)', re.IGNORECASE
)
# Python reprs: 'key': {...} / 'key': '...' and pydantic's key=Model(...) / key='...'
_SECRET_PY = re.compile(
    rf"""(['"]?\b(?:{_SECRET_KEYS})['"]?\s*[=:]\s*)(\{{[^{{}}]*\}}|\w+\([^()]*\)|'[^']*'|"[^"]*")""",
    re.IGNORECASE,
)
_SECRET_KV = re.compile(rf"\b((?:{_SECRET_KEYS})\s*[=:]\s*)([^\s,;&'\"\[]+)", re.IGNORECASE)
_AUTH_SCHEME = re.compile(r"\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]{8,}")
_UUIDISH = re.compile(r"\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\b")
_SK = re.compile(r"\b(sk|pk|pr|pu)_(test|live)_[A-Za-z0-9]+")
#: An e-mail address in any text (a customer's, typed for an e-mailed receipt): masked.
_EMAIL = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)")


def luhn_ok(digits: str) -> bool:
    """Luhn mod-10, used to tell card numbers from other long numbers."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def mask_pan(number: str) -> str:
    """First 6 and last 4 at most, the rest as X; short numbers keep only the last 4."""
    digits = re.sub(r"\D", "", number)
    if len(digits) < 13:
        return "X" * max(len(digits) - 4, 0) + digits[-4:]
    return digits[:6] + "X" * (len(digits) - 10) + digits[-4:]


def mask_address(address: str) -> str:
    """A customer's e-mail address as the till keeps it once the receipt is sent: the first
    letter and the domain (``j***@example.com``); nothing of it when it has no ``@``."""
    local, at, domain = address.rpartition("@")
    if not at or not local:
        return "***"
    return f"{local[0]}***@{domain}"


def _mask_email(match: re.Match[str]) -> str:
    return mask_address(match.group(0))


def _mask_match(match: re.Match[str]) -> str:
    return mask_pan(match.group(0))


def redact(text: str) -> str:
    """Remove every secret this module knows the shape of."""
    if not text:
        return text
    text = _TRACK.sub("[TRACK]", text)
    text = _SECRET_JSON.sub(r'\1"[REDACTED]"', text)
    text = _SECRET_PY.sub(r"\1'[REDACTED]'", text)
    text = _SECRET_KV.sub(r"\1[REDACTED]", text)
    text = _AUTH_SCHEME.sub(r"\1 [REDACTED]", text)
    text = _SK.sub(r"\1_\2_[REDACTED]", text)
    text = _UUIDISH.sub("[REDACTED-ID]", text)
    text = _EMAIL.sub(_mask_email, text)
    return _PAN.sub(_mask_match, text)


class RedactingFilter(logging.Filter):
    """Rewrites each record's message and exception text before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string still gets logged, redacted
            message = str(record.msg)
        record.msg = redact(message)
        record.args = None
        if record.exc_info:
            formatter = logging.Formatter()
            record.exc_text = redact(formatter.formatException(record.exc_info))
            record.exc_info = None
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def install_redaction(logger: logging.Logger | None = None) -> None:
    """Put the filter on every handler of the root logger (and new ones through the logger)."""
    target = logger or logging.getLogger()
    flt = RedactingFilter()
    if not any(isinstance(f, RedactingFilter) for f in target.filters):
        target.addFilter(flt)
    for handler in target.handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(flt)
