"""The tests' own card-number scanner (``tests/support/card_numbers.py``) finds a stored card
number in any form, SQLite files included, and does not take a database's binary structure for
separators."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from cashier.redact import luhn_ok
from tests.support.card_numbers import card_numbers_at_rest


def test_a_split_card_number_in_a_database_value_is_found(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (a TEXT)")
        conn.execute("INSERT INTO t VALUES ('card 4321 0000 0000 1119 kept')")
    assert card_numbers_at_rest(tmp_path) == ["4321000000001119"]


def test_a_plain_card_number_in_a_text_file_and_in_raw_pages_is_found(tmp_path: Path) -> None:
    (tmp_path / "log.txt").write_text("x 4321-0000-0000-1119 y\n")
    assert card_numbers_at_rest(tmp_path) == ["4321000000001119"]


def test_two_neighbouring_columns_of_digits_are_not_a_card(tmp_path: Path) -> None:
    """Two numbers in adjacent columns sit side by side on the page (a record stores its values
    with nothing between them); they were never one value."""
    db = tmp_path / "j.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (a TEXT, b TEXT)")
        conn.execute("INSERT INTO t VALUES ('43210000', '00001119')")
    raw = db.read_bytes()
    assert b"43210000" in raw and b"00001119" in raw
    assert card_numbers_at_rest(tmp_path) == []


def test_a_card_number_left_on_a_freed_page_is_found(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (a TEXT)")
        conn.execute("INSERT INTO t VALUES ('4321000000001119')")
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA secure_delete = OFF")  # (this SQLite may zero freed space by default)
        conn.execute("DELETE FROM t")  # gone from the table, still in the file's bytes
    assert b"4321000000001119" in db.read_bytes()
    assert card_numbers_at_rest(tmp_path) == ["4321000000001119"]


def test_a_card_number_in_any_dress_in_a_database_value_is_found(tmp_path: Path) -> None:
    """The dresses of #21: any punctuation between the groups, and other scripts' digits."""
    dresses = ("4321.0000.0000.1119", "4321/0000/0000/1119", "4321,0000,0000,1119",
               "4321:0000:0000:1119", "4321*0000*0000*1119", "4321\t0000\t0000\t1119",
               "4321(0000)0000+1119", "4321.000000001119",
               "\uff14\uff13\uff12\uff11 \uff10\uff10\uff10\uff10 \uff10\uff10\uff10\uff10 "
               "\uff11\uff11\uff11\uff19",
               "\u0664\u0663\u0662\u0661" + "\u0660" * 8 + "\u0661\u0661\u0661\u0669")
    db = tmp_path / "j.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (a TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [(f"note {d} kept",) for d in dresses])
    assert card_numbers_at_rest(tmp_path) == ["4321000000001119"] * len(dresses)


#: A lease token as ``cashier.journal.leases`` makes one (a pid, a dash, ``token_hex(6)``) whose
#: pid and leading hex digits join to a Luhn-valid 13 digits, as about one process in 400 draws.
TOKEN = "23501-74564564c99e"


def test_a_lease_token_where_the_journal_keeps_it_is_no_card_number(tmp_path: Path) -> None:
    """The journal keeps each entry's owner (``entry_owners.owner``) and an ``owner_taken`` note
    (a JSON string): the scanner read ``23501`` + ``74564564`` as a split card number, and the
    journal's tests failed now and then, each new process drawing a new token."""
    assert luhn_ok("2350174564564")
    db = tmp_path / "j.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE entry_owners (entry_id INTEGER PRIMARY KEY, owner TEXT, since TEXT)")
        conn.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, data TEXT)")
        conn.execute("INSERT INTO entry_owners VALUES (1, ?, '2026-11-29T08:32:34.296+00:00')", (TOKEN,))
        # all twelve hex digits digits (one process in 280): still a token where only tokens go
        conn.execute("INSERT INTO entry_owners VALUES (2, '23501-745645601200', '2026-11-29')")
        conn.execute("INSERT INTO events(data) VALUES (?)",
                     (json.dumps({"_note": {"from": TOKEN, "to": "23501-0a0b0c0d0e0f"}}),))
    (tmp_path / "note.json").write_text(json.dumps({"from": TOKEN}) + f"\n{TOKEN}\n")
    assert card_numbers_at_rest(tmp_path) == []


@pytest.mark.parametrize("near", [
    f"note {TOKEN}",                      # inside other text: a split number may look so
    f"{TOKEN} kept",
    "4321-" + TOKEN,                      # one group more before it
    "23501-74564564C99E",                 # upper case: no token of ours
    "23501-74564564c99",                  # eleven hex digits
    "23501-74564564c99ef",                # thirteen
    "23501-745645601200",                 # twelve hex digits that are all digits: 17 digits
    "02350-174564564c99",                 # no pid begins with 0
    '"23501-745645601200"',               # all digits, even as a whole JSON string
])
def test_what_is_not_exactly_a_lease_token_where_the_journal_keeps_it_is_found(
        tmp_path: Path, near: str) -> None:
    db = tmp_path / "j.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (a TEXT)")
        conn.execute("INSERT INTO t VALUES (?)", (near,))
    assert card_numbers_at_rest(db), near
    (tmp_path / "log.txt").write_text(f"x {near} y\n")
    assert card_numbers_at_rest(tmp_path / "log.txt"), near


def test_a_find_says_where_it_is_and_never_shows_the_full_run(tmp_path: Path) -> None:
    """A failed scan names the file, the table, row and column (a value), the page and the
    columns a raw run spans, or the page's free space (a freed cell), with the bytes around the
    run, its middle digits masked; nothing of it shows all 16 digits."""
    db = tmp_path / "j.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA secure_delete = OFF")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT)")
        conn.execute("INSERT INTO t VALUES (7, 'card 4321 0000 0000 1119 kept', 'x')")
        conn.execute("INSERT INTO t VALUES (8, 'kept 4321000000001119', 'y')")
    found = card_numbers_at_rest(db)
    shown = repr(found)
    assert "4321000000001119" not in shown and "0000 0000" not in shown
    assert "value of t.a, rowid 7" in shown and "[4321 00XX XXXX 1119]" in shown
    assert "page 2 (of t), cell 1 (rowid 8), in a" in shown and "432100XXXXXX1119" in shown
    assert found == ["4321000000001119"] * 3  # equal to the digits a test names
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA secure_delete = OFF")
        conn.execute("DELETE FROM t WHERE id = 8")
    assert "page 2 (of t), in the page's free space" in repr(card_numbers_at_rest(db))


def test_a_find_in_a_wal_frame_names_the_frame(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    conn = sqlite3.connect(db)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        conn.execute("CREATE TABLE t (a TEXT)")
        conn.commit()
        conn.execute("INSERT INTO t VALUES ('4321000000001119')")
        conn.commit()
        shown = repr(card_numbers_at_rest(tmp_path / "j.sqlite-wal"))
    finally:
        conn.close()
    assert "j.sqlite-wal, byte " in shown and "WAL frame " in shown and "of t), cell 0" in shown
    assert "4321000000001119" not in shown


def test_the_evidence_is_kept_only_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "scan").mkdir()
    log = tmp_path / "scan" / "log.txt"
    log.write_text("x 4321-0000-0000-1119 y\n")
    monkeypatch.delenv("CASHIER_KEEP_EVIDENCE", raising=False)
    assert card_numbers_at_rest(log) and not (tmp_path / "kept").exists()
    monkeypatch.setenv("CASHIER_KEEP_EVIDENCE", str(tmp_path / "kept"))
    assert card_numbers_at_rest(log)
    assert [p.name for p in (tmp_path / "kept").rglob("*") if p.is_file()] == ["log.txt"]
