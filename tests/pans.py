"""The tests' card-number scanner: finds a full card number at rest in any form, split or not.

A number hides behind separators (``~43210000_00001119``, ``4321 0000 0000 1119``,
``4321-0000-0000-1119``, ``4321_0000_0000_1119``): runs of digit groups (3 or more digits each,
one separator between groups) are joined, and every stretch of consecutive groups holding 13 to
19 digits is checked with Luhn, as is every plain run of 13 to 19 digits.
"""

from __future__ import annotations

import re
from pathlib import Path

from cashier.redact import luhn_ok

_GROUPED = re.compile(r"(?<![0-9])[0-9]{3,19}(?:[ _~\-][0-9]{3,19})+(?![0-9])")
_PLAIN = re.compile(r"(?<![0-9])[0-9]{13,19}(?![0-9])")


def card_numbers_in(text: str) -> list[str]:
    """Every Luhn-valid 13-19 digit number in ``text``, with its separators taken out."""
    found = [run for run in _PLAIN.findall(text) if luhn_ok(run)]
    for match in _GROUPED.finditer(text):
        groups = re.split(r"[ _~\-]", match.group(0))
        for start in range(len(groups)):
            joined = ""
            for group in groups[start:]:
                joined += group
                if len(joined) > 19:
                    break
                if len(joined) >= 13 and luhn_ok(joined):
                    found.append(joined)
    return found


def card_numbers_at_rest(*paths: Path) -> list[str]:
    """Card numbers in these files (SQLite pages and WAL included) and folders, recursively."""
    found: list[str] = []
    for path in paths:
        files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else [path]
        for file in files:
            if file.exists():
                found += card_numbers_in(file.read_bytes().decode("latin-1"))
    return found
