"""Untrusted text: the one rule for every string that comes from outside the till.

Item and product names, reasons, clerk and customer names, the host's messages, a gift card's or
QR's text reach the paper, the PIN pad, the screen, the journal and the store. Only the receipt
layout may speak ESC/POS, so such text is cleaned here of every control character (C0 and C1:
ESC, GS, DLE, FS...), Unicode format characters (bidi overrides, zero-width joiners: category Cf)
and lone surrogates, and normalised (NFC). A full card number is never free text: a Luhn-valid run
of 13 to 19 decimal digits (ASCII or any script's), whatever separates them, is refused with the
field's name before anything is journaled, pushed, shown or printed. A digit in any other dress
counts as that digit: superscript, subscript, circled, parenthesized, with a full stop or a comma
(Unicode gives each a digit value), and a number NFKC spells in digits and punctuation (``⑩``,
``⒇``).

Spreadsheet-safe CSV lives here as well: a cell a spreadsheet would read as a formula gets a
leading ``'`` (OWASP's advice), and no cell carries a control character.
"""

from __future__ import annotations

import csv
import functools
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from cashier.errors import ValidationError

#: Categories removed outright: controls (C0, C1, DEL), format characters (bidi overrides and
#: isolates, zero-width space/joiners, soft hyphen, BOM), lone surrogates, unassigned points.
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Cn"})
#: Whitespace controls and line/paragraph separators become one space (a line stays one line).
_SPACES = frozenset("\t\n\r\x0b\x0c\x85\u2028\u2029")
#: What a spreadsheet reads as the start of a formula (OWASP CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

CARD_RULE = ("looks like a full card number: nothing was kept, sent or printed; "
             "key a card only where the till asks for a card")


def clean_text(text: str, *, multiline: bool = False) -> str:
    """``text`` with no control, format or surrogate character, NFC-normalised, on one line
    (``multiline`` keeps its line breaks, as ``\n``: terms on the PIN pad).

    Idempotent: cleaning cleaned text changes nothing, so every layer may clean again."""
    if text.isascii() and text.isprintable():
        return text  # the common case, without a pass per character
    if multiline:
        return "\n".join(clean_text(line) for line in
                         text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    out: list[str] = []
    for ch in text:
        if ch in _SPACES:
            out.append(" ")
        elif unicodedata.category(ch) not in _DROPPED:
            out.append(ch)
    # after NFC, composition never brings a control back; clean once more for idempotence
    normal = unicodedata.normalize("NFC", "".join(out))
    return "".join(ch for ch in normal if unicodedata.category(ch) not in _DROPPED)


def clean_data(value: Any) -> Any:
    """Every string in a JSON-like value cleaned (keys too): an event's data, a note."""
    if isinstance(value, str):
        return clean_text(value)
    if value is None or isinstance(value, int | float):  # most of a row: no text, no ABC check
        return value
    if type(value) is dict:  # an event's data: plain text (a column name, a code) kept as is,
        out: dict[str, Any] = {}  # as ``clean_text`` would, without a call per key and value
        for key, item in value.items():
            if not (type(key) is str and key.isascii() and key.isprintable()):
                key = clean_text(str(key))
            if type(item) is str:
                out[key] = item if item.isascii() and item.isprintable() else clean_text(item)
            elif item is None or type(item) is int:
                out[key] = item
            else:
                out[key] = clean_data(item)
        return out
    if isinstance(value, Mapping):
        return {clean_text(str(k)): clean_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean_data(v) for v in value]
    return value


@functools.lru_cache(maxsize=4096)
def _dressed_digits(ch: str) -> str:
    """The ASCII digits ``ch`` stands for, in any dress; ``ch`` itself when it is no digit.

    A decimal digit of any script (``٣``, ``３``), a digit in another dress (``⁴``, ``₄``, ``④``,
    ``⑷``, ``⒋``, ``❹``, ``🄅``: Unicode's digit value), or a number that NFKC spells in digits and
    punctuation only (``⑩`` is ``10``, ``⒇`` is ``(20)``: its digits). A fraction (``½`` is
    ``1⁄2``) or a unit (``㎡``) is no digit."""
    if ch.isdecimal():
        return str(unicodedata.decimal(ch))
    value = unicodedata.digit(ch, None)
    if value is not None:
        return str(value)
    if ch.isnumeric():
        spelled = unicodedata.normalize("NFKC", ch)
        if all(c.isdecimal() or unicodedata.category(c)[0] == "P" for c in spelled):
            digits = "".join(str(unicodedata.decimal(c)) for c in spelled if c.isdecimal())
            if digits:
                return digits
    return ch


def ascii_digits(text: str) -> str:
    """``text`` with every digit, in any dress, as ASCII digits (``_dressed_digits``); the card
    number detector reads this."""
    if text.isascii():
        return text
    return "".join(_dressed_digits(ch) if not ch.isascii() else ch for ch in text)


def _digit_groups(text: str) -> Iterator[list[str]]:
    """Runs of digit groups: digits (any script, any dress, as ASCII) split by non-alphanumeric
    characters; a letter ends a run."""
    groups: list[str] = []
    current: list[str] = []
    for ch in ascii_digits(text):
        if "0" <= ch <= "9":
            current.append(ch)
            continue
        if current:
            groups.append("".join(current))
            current = []
        if ch.isalnum():
            if groups:
                yield groups
            groups = []
    if current:
        groups.append("".join(current))
    if groups:
        yield groups


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def card_numbers_in(text: str) -> list[str]:
    """Every card number hidden in ``text`` (its digits), in any dress: 13 to 19 digits of any
    script or dress (full-width, superscript, circled... ``ascii_digits``), in groups separated
    by any non-alphanumeric characters (``4111.1111...``, ``4111(1111)1111+1111``), that pass
    the Luhn check. Each stretch of
    whole consecutive groups is tried, so a number after or before other digits is found."""
    found: list[str] = []
    for groups in _digit_groups(text):
        for start in range(len(groups)):
            joined = ""
            for group in groups[start:]:
                joined += group
                if len(joined) > 19:
                    break
                if len(joined) >= 13 and _luhn(joined):
                    found.append(joined)
    return found


def has_card_number(text: str) -> bool:
    return bool(card_numbers_in(text))


#: The strict form: one space or dash at most between digits (any script's digits).
_STRICT_RUN = re.compile(r"(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)")


def has_card_number_strict(text: str) -> bool:
    """A Luhn-valid run of 13 to 19 digits with at most one space or dash between two: the
    check of machine fields and of the paper's last guard, where dates, times and amounts
    stand side by side and the any-dress form would see numbers that are not there."""
    for match in _STRICT_RUN.finditer(ascii_digits(text)):
        digits = "".join(ch for ch in match.group(0) if "0" <= ch <= "9")
        if 13 <= len(digits) <= 19 and _luhn(digits):
            return True
    return False


def is_card_number(text: str) -> bool:
    """The whole of ``text`` is one card number, in any dress (a token field, a keyed card)."""
    text = ascii_digits(text)
    digits = "".join(ch for ch in text if "0" <= ch <= "9")
    rest = [ch for ch in text if not "0" <= ch <= "9"]
    return (not any(ch.isalnum() for ch in rest) and 13 <= len(digits) <= 19 and _luhn(digits))


def free_text(field: str, text: str) -> str:
    """THE rule for a free-text field: cleaned, and refused (naming ``field``) when it holds a
    card number in any dress. Checked on the raw text too: a control character between digits
    must not hide one."""
    cleaned = clean_text(text)
    if has_card_number(text) or (cleaned != text and has_card_number(cleaned)):
        raise ValidationError(field, CARD_RULE)
    return cleaned


def profile_text(value: str) -> str:
    """The same rule for a profile's names (products, clerks), as a pydantic validator wants
    it: a plain ``ValueError`` with the rule (pydantic names the field)."""
    try:
        cleaned = free_text("name", value).strip()
    except ValidationError as exc:
        raise ValueError(exc.rule) from None
    if not cleaned:
        raise ValueError("must hold a printable character")
    return cleaned


def optional_free_text(field: str, text: str | None) -> str | None:
    return None if text is None else free_text(field, text)


# ---- CSV ----------------------------------------------------------------------------------------
def csv_cell(value: Any, *, numeric: bool = False) -> str:
    """One cell a spreadsheet shows as text: cleaned of controls, and a leading ``'`` when it
    would start a formula. ``numeric`` is for amounts and counts the till wrote itself (a
    negative amount must stay a number)."""
    if value is None:
        return ""
    text = str(value)
    if numeric:
        return text
    risky = looks_like_formula(text)  # a TAB or CR is a space once cleaned
    text = clean_text(text)
    if risky or looks_like_formula(text):
        return "'" + text
    return text


def looks_like_formula(text: str) -> bool:
    """A cell a spreadsheet would run (starts, after spaces, with ``= + - @``, TAB or CR): the
    exports escape it (``csv_cell``), the catalog's import refuses it."""
    return text.lstrip(" ").startswith(_FORMULA_START)


def write_csv(header: Sequence[str], rows: Iterable[Sequence[Any]], *,
              numeric: Iterable[str] = (), lineterminator: str = "\r\n") -> str:
    """THE CSV writer of every export: header, then rows, each cell through ``csv_cell``; the
    columns named in ``numeric`` hold the till's own numbers and pass as they are, when they
    are numbers (anything else in them is treated as text)."""
    numeric_cols = {header.index(name) for name in numeric}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=lineterminator)
    writer.writerow([csv_cell(h) for h in header])
    for row in rows:
        writer.writerow([csv_cell(v, numeric=i in numeric_cols and _is_number(v))
                         for i, v in enumerate(row)])
    return out.getvalue()


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    text = str(value)
    body = text[1:] if text.startswith("-") else text
    return bool(body) and body.replace(".", "", 1).isdigit() and body.isascii()


__all__ = ["CARD_RULE", "ascii_digits", "card_numbers_in", "clean_data", "clean_text", "csv_cell",
           "free_text", "has_card_number", "has_card_number_strict", "is_card_number",
           "looks_like_formula", "optional_free_text", "profile_text",
           "write_csv"]
