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

Two shapes are read as what they are and not as a split number. A clock reading in seconds since
1970 with its fraction (``1764393960.100009``, ten digits, a point, up to nine), as the sandbox's
records write its clock. A journal's lease token (``23501-74564564c99e``: the process id, a dash,
twelve lowercase hex digits with a letter among them, ``cashier.journal.leases``) where the
journal keeps it: a whole value (each entry's owner) or a whole JSON string (an ``owner_taken``
note); in ``entry_owners.owner``, where nothing else is written, twelve hex digits that are all
digits too. The same characters inside other text, or all-digit hex anywhere else, are still read
as a possible split number. Joined, one in ten of either passes Luhn: a training till's state file
failed a test so, and the journal's tests now and then (a token whose hex begins with eight
digits or more, about one process in 40; each process draws a new one).

What it finds carries where (``Found``): the file, the byte offset, the SQLite page, table, row
and column or the WAL frame, and the bytes around it with the run's middle digits masked; its
``repr`` never shows a full run. With ``CASHIER_KEEP_EVIDENCE=DIR`` set, a file holding a find is
copied there (with its ``-wal`` and ``-shm``) for a look afterwards.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from pathlib import Path

from cashier.redact import luhn_ok

_SEPARATOR = r"[ _~\-./,:*\t()+]"
_GROUPED = re.compile(rf"(?<![0-9])[0-9]{{3,19}}(?:{_SEPARATOR}[0-9]{{3,19}})+(?![0-9])")
_PLAIN = re.compile(r"(?<![0-9])[0-9]{13,19}(?![0-9])")
# seconds since 1970 (2001 to 2033: ten digits, 1 or 2 first) and a fraction, alone
_CLOCK_READING = re.compile(r"(?<![0-9.])[12][0-9]{9}\.[0-9]{1,9}(?![0-9]|\.[0-9])")
# a lease token, exactly as cashier.journal.leases makes it (a pid, a dash, token_hex(6), a letter
# among its twelve hex digits) and where the journal keeps it: a whole value (entry_owners.owner) or
# a whole JSON string (an owner_taken note); anywhere else, or all digits, it may be a split number
_LEASE_TOKEN = re.compile(r'(?:^|(?<="))[1-9][0-9]{0,6}-(?=[0-9a-f]{0,11}[a-f])[0-9a-f]{12}(?="|$)',
                          re.MULTILINE)
_OWNER = re.compile(r"[1-9][0-9]{0,6}-[0-9a-f]{12}")


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


_WIDTH = 24  # bytes shown either side of a find


def _masked(run: str) -> str:
    """A run as a report may show it: its first 6 and last 4 digits."""
    return run[:6] + "X" * (len(run) - 10) + run[-4:]


def _around(text: str, start: int, end: int) -> str:
    """The text around ``text[start:end]`` (the run, in brackets), the run's middle digits masked
    and any other long run of digits beside it too: a report never shows a full run."""
    run = text[start:end]
    digits = [i for i, ch in enumerate(run) if ch in "0123456789"]
    keep = set(digits[:6] + digits[-4:])
    masked = "".join("X" if ch in "0123456789" and i not in keep else ch for i, ch in enumerate(run))

    def others(part: str) -> str:
        return re.sub(r"[0-9]{7,}", lambda m: m.group()[:2] + "X" * (len(m.group()) - 4)
                      + m.group()[-2:], part)

    return repr(others(text[max(0, start - _WIDTH):start]) + "[" + masked + "]"
                + others(text[end:end + _WIDTH]))


class Found(str):
    """A card-like run found at rest. Equal to its digits, so a test names the number it expects;
    its ``repr`` (what a failed assertion shows) is masked and says where it was found."""

    file: str
    offset: int | None
    where: str
    around: str

    def __new__(cls, digits: str, file: Path, offset: int | None, where: str,
                around: str) -> Found:
        found = super().__new__(cls, digits)
        found.file, found.offset, found.where, found.around = str(file), offset, where, around
        return found

    def __repr__(self) -> str:
        at = "" if self.offset is None else f", byte {self.offset}"
        return f"<card-like run {_masked(self)} in {self.file}{at}: {self.where}; around {self.around}>"


def card_numbers_in(text: str) -> list[str]:
    """Every Luhn-valid 13-19 digit number in ``text``, with its separators taken out."""
    return [str(run) for run, _start, _end in _runs_in(text)]


def _runs_in(text: str) -> list[tuple[str, int, int]]:
    """``card_numbers_in`` with where each run lies in ``text`` (read as ASCII digits; a read
    shape is replaced by as many ``#``, no separator, so offsets hold)."""
    text = _ascii_digits(text)
    for shape in (_CLOCK_READING, _LEASE_TOKEN):
        text = shape.sub(lambda m: "#" * len(m.group()), text)
    found = [(m.group(), m.start(), m.end()) for m in _PLAIN.finditer(text) if luhn_ok(m.group())]
    for match in _GROUPED.finditer(text):
        spans = [(g.group(), g.start()) for g in re.finditer(r"[0-9]+", match.group(0))]
        for start in range(len(spans)):
            joined = ""
            for group, at in spans[start:]:
                joined += group
                if len(joined) > 19:
                    break
                if len(joined) >= 13 and luhn_ok(joined):
                    first = match.start() + spans[start][1]
                    found.append((joined, first, match.start() + at + len(group)))
    return found


def card_numbers_at_rest(*paths: Path) -> list[Found]:
    """Card numbers in these files (SQLite pages and WAL included) and folders, recursively.

    A SQLite file is binary: its raw pages are scanned for plain runs, and every value it holds
    (the WAL applied) in full, split forms too. A raw run that is only two neighbouring columns'
    digits side by side (a record stores its values with nothing between them) is no number
    that was ever stored; any other raw run counts (a freed page, an older WAL frame)."""
    found: list[Found] = []
    for path in paths:
        files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else [path]
        for file in files:
            if not file.exists():
                continue
            here = _scan(file)
            if here:
                _keep_evidence(file)
            found += here
    return found


def _scan(file: Path) -> list[Found]:
    data = file.read_bytes()
    raw = data.decode("latin-1")
    # text in other dresses is UTF-8 on disk: read as such too, its digits as ASCII
    dressed = _ascii_digits(data.decode("utf-8", "replace"))
    database = file.with_name(file.name.removesuffix("-wal").removesuffix("-journal"))
    if not (raw.startswith("SQLite format 3\x00") or (
            database != file and database.exists()
            and database.read_bytes().startswith(b"SQLite format 3\x00"))):
        plain = [Found(run, file, a, "text", _around(raw, a, b)) for run, a, b in _runs_in(raw)]
        return plain + [Found(run, file, None, "text read as UTF-8", _around(dressed, a, b))
                        for run, a, b in _runs_in(dressed) if run not in plain]
    rows = _stored_rows(database)
    cells = "\n".join(v for row in rows for v in row.read())
    joined = "\n".join("".join(row.values) for row in rows)
    found = [Found(m.group(), file, m.start(),
                   _Pages(database, data, wal=database != file).where(m.start(), m.end()),
                   _around(raw, m.start(), m.end()))
             for m in _PLAIN.finditer(raw)
             if luhn_ok(m.group()) and (m.group() in cells or m.group() not in joined)]
    # a dressed run: one no live value explains (those are read in full below)
    live = _ascii_digits(joined)
    found += [Found(m.group(), file, None, "raw bytes read as UTF-8", _around(dressed, m.start(), m.end()))
              for m in _PLAIN.finditer(dressed)
              if luhn_ok(m.group()) and m.group() not in found and m.group() not in live]
    if database == file and _runs_in(cells):  # then each value read alone, to say where
        for row in rows:
            for column, value in zip(row.columns, row.read(), strict=True):
                found += [Found(run, file, None, f"value of {row.table}.{column}, rowid {row.rowid}",
                                _around(_ascii_digits(value), a, b))
                          for run, a, b in _runs_in(value)]
    return found


def _keep_evidence(file: Path) -> None:
    """With ``CASHIER_KEEP_EVIDENCE=DIR``: the file (and its SQLite companions) copied there."""
    import os
    import shutil
    import tempfile

    folder = os.environ.get("CASHIER_KEEP_EVIDENCE")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    into = Path(tempfile.mkdtemp(prefix="card-run-", dir=folder))
    base = file.with_name(file.name.removesuffix("-wal").removesuffix("-shm").removesuffix("-journal"))
    for part in {file, base, *(base.with_name(base.name + s) for s in ("-wal", "-shm", "-journal"))}:
        if part.is_file():
            shutil.copy2(part, into / part.name)


class _Row:
    """One stored row: its table, rowid (None: a table without one), columns and values."""

    def __init__(self, table: str, rowid: int | None, columns: list[str], values: list[str]) -> None:
        self.table, self.rowid, self.columns, self.values = table, rowid, columns, values

    def read(self) -> list[str]:
        """Its values as the scanner reads them: an entry's owner (``entry_owners.owner``) that is
        a lease token is read as one, all-digit hex too (no other value is written there)."""
        if self.table != "entry_owners":
            return self.values
        return ["#" * len(v) if c == "owner" and _OWNER.fullmatch(v) else v
                for c, v in zip(self.columns, self.values, strict=True)]


def _stored_rows(database: Path) -> list[_Row]:
    """Every row of every table as text, read through SQLite (the WAL applied)."""
    import sqlite3

    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        out: list[_Row] = []
        for table in tables:
            try:
                cur = conn.execute(f'SELECT rowid, * FROM "{table}"')
                with_rowid = True
            except sqlite3.OperationalError:  # WITHOUT ROWID
                cur = conn.execute(f'SELECT * FROM "{table}"')
                with_rowid = False
            columns = [d[0] for d in cur.description][1 if with_rowid else 0:]
            for row in cur:
                values = [v.decode("latin-1") if isinstance(v, bytes) else str(v)
                          for v in row[1 if with_rowid else 0:]]
                out.append(_Row(table, int(row[0]) if with_rowid else None, columns, values))
        return out
    finally:
        conn.close()


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's varint at ``at``: (value, the offset after it)."""
    value = 0
    for i in range(9):
        byte = data[at + i]
        if i == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    raise AssertionError("unreachable")


def _serial_size(kind: int) -> int:
    if kind >= 12:
        return (kind - 12) // 2 if kind % 2 == 0 else (kind - 13) // 2
    return (0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0)[kind]


class _Pages:
    """Says which page, frame, table, row and column a byte offset of a SQLite file (or its WAL)
    falls in: read from the file's own bytes, its tables' pages named through ``dbstat``."""

    def __init__(self, database: Path, data: bytes, *, wal: bool) -> None:
        import sqlite3

        self.data, self.wal = data, wal
        self.tables: dict[int, str] = {}
        self.columns: dict[str, list[str]] = {}
        conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            self.page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
            with contextlib.suppress(sqlite3.OperationalError):  # no dbstat: pages go unnamed
                self.tables = {int(p): str(n) for n, p in conn.execute("SELECT name, pageno FROM dbstat")}
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
                self.columns[name] = [r[1] for r in conn.execute(f'PRAGMA table_info("{name}")')]
        finally:
            conn.close()

    def where(self, start: int, end: int) -> str:
        if not self.wal:
            number, base = start // self.page_size + 1, start - start % self.page_size
            return self._page(number, self.data[base:base + self.page_size], start - base, end - base)
        frame_size = 24 + self.page_size
        if start < 32:
            return "the WAL's header"
        frame, inside = divmod(start - 32, frame_size)
        head = self.data[32 + frame * frame_size:32 + frame * frame_size + 24]
        number = int.from_bytes(head[:4], "big")
        stale = head[8:16] != self.data[16:24]
        what = f"WAL frame {frame + 1}{' (stale: an older WAL generation)' if stale else ''}"
        if inside < 24:
            return f"{what}, its frame header"
        page = self.data[32 + frame * frame_size + 24:32 + (frame + 1) * frame_size]
        return f"{what}, {self._page(number, page, inside - 24, end - start + inside - 24)}"

    def _page(self, number: int, page: bytes, start: int, end: int) -> str:
        table = self.tables.get(number)
        what = f"page {number} ({'of ' + table if table else 'in no table now: freed, or moved'})"
        head = 100 if number == 1 else 0
        if len(page) <= head + 8 or page[head] != 0x0D:  # only table leaves are read further
            named = {0x02: "index interior", 0x05: "table interior", 0x0A: "index leaf"}.get(
                page[head] if len(page) > head else -1, "no b-tree page")
            return f"{what}, {named}"
        for i in range(int.from_bytes(page[head + 3:head + 5], "big")):
            cell = int.from_bytes(page[head + 8 + 2 * i:head + 10 + 2 * i], "big")
            try:
                size, at = _varint(page, cell)
                rowid, at = _varint(page, at)
                header, body = _varint(page, at)
                kinds, pos = [], body
                while pos < at + header:
                    kind, pos = _varint(page, pos)
                    kinds.append(kind)
            except IndexError:
                continue
            body = at + header
            if not cell <= start < min(at + size, len(page)):
                continue
            spans, pos = [], body
            for kind in kinds:
                spans.append((pos, pos + _serial_size(kind)))
                pos += _serial_size(kind)
            names = self.columns.get(table or "", [])
            hit = [names[c] if c < len(names) else f"column {c}" for c, (a, b) in enumerate(spans)
                   if a < end and start < b]
            return (f"{what}, cell {i} (rowid {rowid}), in "
                    f"{' + '.join(hit) if hit else 'the record header'}")
        return f"{what}, in the page's free space (bytes no live cell uses)"
