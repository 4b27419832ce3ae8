"""THE rule for a customer's e-mail address, checked before anything is queued.

Decision (docs/decisions/019-email-receipts.md): an address is one plain ASCII ``local@domain``
of at most 254 characters, as typed on the PIN pad or by the cashier; nothing that could break
a mail header (CR, LF or any control character, spaces, ``<>()[],;:"\\``) and no display name.
Internationalised addresses are refused: not every mail server takes them (SMTPUTF8), and a
refusal at the counter beats a bounce the customer never sees.
"""

from __future__ import annotations

import re

from cashier.errors import ValidationError
from cashier.redact import mask_address as mask_address

#: The longest address SMTP carries (RFC 5321's path limit less the angle brackets).
MAX_ADDRESS = 254
_LOCAL = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
_BREAKS_HEADER = re.compile(r"[\x00-\x20\x7f<>()\[\],;:\"\\]")


def check_address(text: str, field: str = "to") -> str:
    """The address to queue, or one ``ValidationError`` naming ``field`` and the rule broken.
    Surrounding spaces (a pad's padding) are dropped; anything else is refused, never fixed."""
    address = text.strip(" ")
    if not address:
        raise ValidationError(field, "must be an e-mail address such as name@example.com")
    if any(ch in address for ch in "\r\n") or _BREAKS_HEADER.search(address):
        raise ValidationError(field, "must not contain spaces, line breaks, control characters "
                                     "or any of < > ( ) [ ] , ; : \" \\")
    if not address.isascii():
        raise ValidationError(field, "must be a plain ASCII address (no accented letters)")
    if len(address) > MAX_ADDRESS:
        raise ValidationError(field, "must be at most {limit} characters", limit=MAX_ADDRESS)
    local, at, domain = address.rpartition("@")
    if not at or not local or "@" in local:
        raise ValidationError(field, "must be one address with one @, such as name@example.com")
    if len(local) > 64 or not _LOCAL.match(local):
        raise ValidationError(field, "must have a name before the @ of at most 64 letters, "
                                     "digits or . _ - + (no dot at its ends, no two dots)")
    labels = domain.split(".")
    if len(labels) < 2 or not all(_LABEL.match(label) for label in labels) \
            or not labels[-1].isalpha() or len(labels[-1]) < 2:
        raise ValidationError(field, "must end in a domain such as example.com after the @")
    return address
