"""Card data at the journal's boundary: what may be written and what is refused.

The journal keeps a masked card (first 6 + last 4 at most) and never a full number, in any text
column or event note: a Luhn-valid run of 13 to 19 digits is refused wherever it hides. The detector is
``cashier.text``'s: its strict form here (machine fields hold dates and amounts side by side), its
any-dress form for free text, which the flows check before anything reaches the journal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cashier.errors import ValidationError
from cashier.redact import mask_pan
from cashier.text import has_card_number_strict


def contains_pan(text: str) -> bool:
    """A Luhn-valid run of 13 to 19 digits (one space or dash at most between two)."""
    return has_card_number_strict(text)


def guard_text(field: str, value: Any) -> None:
    """Refuse anything that looks like a full card number, wherever it hides."""
    if isinstance(value, str):
        if contains_pan(value):
            raise ValidationError(field, "looks like a full card number; the journal keeps only a "
                                         "masked card (first 6 and last 4) or a token")
    elif value is None or isinstance(value, int | float):
        return  # no text to hide a number in (and no ABC check for the commonest values)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            guard_text(f"{field}.{key}", item)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            guard_text(f"{field}[{i}]", item)


def masked_card(card: str | None) -> tuple[str | None, str | None]:
    """(masked card, last four). A full number is masked here, so it is never stored."""
    if not card:
        return None, None
    card = card.strip()
    digits = re.sub(r"\D", "", card)
    if len(digits) > 10:  # more visible digits than first 6 + last 4
        card = mask_pan(digits)
    if len(card) > 32:
        raise ValidationError("card", "must be a masked card number of at most 32 characters")
    last4 = digits[-4:] if len(digits) >= 4 else None
    return card, last4
