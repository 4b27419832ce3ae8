"""The tests' card-number scanner: finds a full card number at rest in any form, split or not.

A number hides behind separators (``~43210000_00001119``, ``4321 0000 0000 1119``,
``4321-0000-0000-1119``, ``4321_0000_0000_1119``, ``4321.0000.0000.1119``, ``4321/0000/...``,
``4321(0000)0000+1119``, a tab, a comma, a colon, a star) and in other scripts' digits (full-width
``４３２１...``, Arabic-Indic...) and other dresses (superscript ``⁴³²¹``, subscript, circled
``④③②①``, parenthesized ``⑷``, ``⒋``, and what NFKC spells in digits, ``⑩``): each read as its
ASCII digits first (written here again, not taken from the detector under test). Runs of digit
groups (3 or more
digits each, one separator between groups) are joined, and every stretch of consecutive groups
holding 13 to 19 digits is checked with Luhn, as is every plain run of 13 to 19 digits.

One shape is read as what it is and not as a split number: a clock reading in seconds since 1970
with its fraction (``1764393960.100009``, ten digits, a point, up to nine), as the sandbox's records
write its clock; joined, one in ten of them passes Luhn (a training till's state file failed a
test so).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from cashier.redact import luhn_ok

_SEPARATOR = r"[ _~\-./,:*\t()+]"
_GROUPED = re.compile(rf"(?<![0-9])[0-9]{{3,19}}(?:{_SEPARATOR}[0-9]{{3,19}})+(?![0-9])")
_PLAIN = re.compile(r"(?<![0-9])[0-9]{13,19}(?![0-9])")
# seconds since 1970 (2001 to 2033: ten digits, 1 or 2 first) and a fraction, alone
_CLOCK_READING = re.compile(r"(?<![0-9.])[12][0-9]{9}\.[0-9]{1,9}(?![0-9]|\.[0-9])")


def _digits_of(ch: str) -> str:
    """A digit in any dress as its ASCII digits: its Unicode digit value, else what NFKC spells
    (digits and punctuation only: ``⑩`` is 10, a fraction is no digit)."""
    value = unicodedata.digit(ch, None)
    if value is not None:
        return str(value)
    spelled = unicodedata.normalize("NFKC", ch)
    digits = "".join(str(unicodedata.digit(c)) for c in spelled if c.isdecimal())
    if digits and all(c.isdecimal() or unicodedata.category(c)[0] == "P" for c in spelled):
        return digits
    return ch


class _Digits(dict[int, str]):
    """``str.translate``'s table: each character's digits, worked out once."""

    def __missing__(self, code: int) -> str:
        self[code] = _digits_of(chr(code))
        return self[code]


_DIGITS = _Digits()


def _ascii_digits(text: str) -> str:
    if text.isascii():
        return text
    return text.translate(_DIGITS)


def card_numbers_in(text: str) -> list[str]:
    """Every Luhn-valid 13-19 digit number in ``text``, with its separators taken out."""
    text = _CLOCK_READING.sub("<time>", _ascii_digits(text))
    found = [run for run in _PLAIN.findall(text) if luhn_ok(run)]
    for match in _GROUPED.finditer(text):
        groups = re.split(_SEPARATOR, match.group(0))
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
    """Card numbers in these files (SQLite pages and WAL included) and folders, recursively.

    A SQLite file is binary: its raw pages are scanned for plain runs, and every value it holds
    (the WAL applied) in full, split forms too. A raw run that is only two neighbouring columns'
    digits side by side (a record stores its values with nothing between them) is no number
    that was ever stored; any other raw run counts (a freed page, an older WAL frame)."""
    found: list[str] = []
    for path in paths:
        files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else [path]
        for file in files:
            if not file.exists():
                continue
            data = file.read_bytes()
            raw = data.decode("latin-1")
            # text in other dresses is UTF-8 on disk: read as such too, its digits as ASCII
            dressed = _ascii_digits(data.decode("utf-8", "replace"))
            database = file.with_name(file.name.removesuffix("-wal").removesuffix("-journal"))
            if raw.startswith("SQLite format 3\x00") or (
                    database != file and database.exists()
                    and database.read_bytes().startswith(b"SQLite format 3\x00")):
                rows = _stored_rows(database)
                cells = "\n".join(v for row in rows for v in row)
                joined = "\n".join("".join(row) for row in rows)
                runs = [run for run in _PLAIN.findall(raw)
                        if luhn_ok(run) and (run in cells or run not in joined)]
                # a dressed run: one no live value explains (those are read in full below)
                live = _ascii_digits(joined)
                runs += [run for run in _PLAIN.findall(dressed)
                         if luhn_ok(run) and run not in runs and run not in live]
                found += runs
                if database == file:
                    found += card_numbers_in(cells)
            else:
                plain = card_numbers_in(raw)
                found += plain + [n for n in card_numbers_in(dressed) if n not in plain]
    return found


def _stored_rows(database: Path) -> list[list[str]]:
    """Every row of every table as text, read through SQLite (the WAL applied)."""
    import sqlite3

    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [[v.decode("latin-1") if isinstance(v, bytes) else str(v) for v in row]
                for table in tables for row in conn.execute(f'SELECT * FROM "{table}"')]
    finally:
        conn.close()
