"""Issue #46 (round 4): superscript and circled digits (``⁴¹¹¹…``, ``④①①…``), which NFKC turns
into a valid card number, passed the free-text card-number guard and were kept in the journal.
THE detector (``cashier.text``) and the tests' scanner (``tests.support.card_numbers``) now read a
digit in every dress Unicode gives one: any script's decimal digits, superscripts, subscripts, circled,
parenthesized, with a full stop or a comma, and what NFKC spells in digits (``⑩``)."""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cashier.cards import check_token
from cashier.errors import ValidationError
from cashier.journal.model import NewEntry
from cashier.journal.recorder import JournalRecorder
from cashier.redact import luhn_ok
from cashier.text import card_numbers_in, free_text, has_card_number_strict, is_card_number
from tests.support import card_numbers as pans


@functools.cache
def dresses() -> dict[int, list[str]]:
    """Every character standing for one digit: its digit value, or NFKC spelling that digit
    with punctuation only (``⒋`` is ``4.``). Made when a test first asks: a walk over all of
    Unicode, a second of CPU every test worker paid at collection when it was made on import."""
    out: dict[int, list[str]] = {d: [] for d in range(10)}
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        value = unicodedata.digit(ch, None)
        if value is None:
            spelled = unicodedata.normalize("NFKC", ch)
            digits = [c for c in spelled if c.isdecimal()]
            if len(digits) == 1 and all(c.isdecimal() or unicodedata.category(c)[0] == "P"
                                        for c in spelled):
                value = unicodedata.digit(digits[0])
        if value is not None:
            out[value].append(ch)
    return out


#: What stands between groups of digits in free text (none is a letter or a digit).
SEPARATORS = (" ", "-", ".", "/", ",", "_", ":", "*", "\t", "(", ")", "+", " - ", "\u00a0", "\u3000")
KINDS = {"superscript": "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079",
         "subscript": "".join(chr(0x2080 + d) for d in range(10)),
         "circled": "\u24ea" + "".join(chr(0x2460 + d - 1) for d in range(1, 10)),
         "parenthesized": "0" + "".join(chr(0x2474 + d - 1) for d in range(1, 10)),
         "full stop": "\U0001f100" + "".join(chr(0x2488 + d - 1) for d in range(1, 10)),
         "fullwidth": "".join(chr(0xFF10 + d) for d in range(10)),
         "dingbat": "\u24ff" + "".join(chr(0x2776 + d - 1) for d in range(1, 10))}


def test_every_kind_is_in_the_table() -> None:
    for kind, digits in KINDS.items():
        for d, ch in enumerate(digits):
            assert ch in dresses()[d], (kind, d, ch)
    assert len(dresses()[4]) > 70  # every script's 4 and every dress of it


@st.composite
def card_numbers(draw: st.DrawFn) -> str:
    body = draw(st.lists(st.integers(0, 9), min_size=12, max_size=18))
    body[0] = draw(st.integers(1, 9))
    digits = "".join(map(str, body))
    check = next(str(c) for c in range(10) if luhn_ok(digits + str(c)))
    return digits + check


@st.composite
def dressed(draw: st.DrawFn) -> tuple[str, str]:
    """(a Luhn-valid number, that number dressed: each digit in any dress, mixed, cut in groups
    by any separators)."""
    number = draw(card_numbers())
    one_kind = draw(st.sampled_from(sorted(KINDS)) | st.none())
    out = []
    cut = draw(st.sampled_from((0, 4, 3, 5)))
    for i, ch in enumerate(number):
        if cut and i and i % cut == 0:
            out.append(draw(st.sampled_from(SEPARATORS)))
        d = int(ch)
        out.append(KINDS[one_kind][d] if one_kind else draw(st.sampled_from(dresses()[d])))
    return number, "".join(out)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(dressed(), st.sampled_from(("", "Gift ", "Tea x2 ", "ref: ")))
def test_the_detector_sees_a_card_number_in_any_dress(case: tuple[str, str], before: str) -> None:
    number, text = case
    assert number in card_numbers_in(before + text)
    assert is_card_number(text)
    with pytest.raises(ValidationError) as refused:
        free_text("--item", before + text)
    assert refused.value.field == "--item"
    # the tests' scanner sees it too, where it looks: groups of 3 digits or more, one of its
    # separators between two
    groups = re.split(r"[\W_]+", text)
    between = re.findall(r"[\W_]+", text)
    if all(len(g) >= 3 for g in groups) and all(len(b) == 1 and b in " _~-./,:*\t()+"
                                                   for b in between):
        assert number in pans.card_numbers_in(before + text)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(card_numbers(), st.sampled_from(sorted(KINDS)))
def test_the_strict_form_and_the_token_rule_see_through_the_dress(number: str, kind: str) -> None:
    text = "".join(KINDS[kind][int(ch)] for ch in number)
    assert has_card_number_strict(text)
    with pytest.raises(ValidationError):
        check_token("--token", text)


@pytest.mark.parametrize("text", ["Tea \u00bd", "\u00bd\u00bc\u00be", "m\u00b2 12", "\u2460\u2461\u2462",
                                  "\u33a1 4111", "\u2469\u246a", "Room \u2474\u2475",
                                  "\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u2070"
                                  "\u00b9\u00b2\u00b3\u2075"])
def test_what_is_no_card_number_in_any_dress_passes(text: str) -> None:
    assert not card_numbers_in(text)
    assert free_text("name", text) == unicodedata.normalize("NFC", text)


def test_a_dressed_number_is_refused_before_the_journal_keeps_it(tmp_path: Path) -> None:
    """The journal's own guard (the strict form) refuses it too; nothing is kept at rest."""
    journal = JournalRecorder(tmp_path / "j.sqlite")
    superscript = "".join(KINDS["superscript"][int(c)] for c in "4111111111111111")
    circled = "".join(KINDS["circled"][int(c)] for c in "4111111111111111")
    try:
        for text in (superscript, circled):
            with pytest.raises(ValidationError):
                journal.create(NewEntry("sale", Decimal("1.00"), actor="1", message=f"note {text}"))
    finally:
        journal.close()
    assert not pans.card_numbers_at_rest(tmp_path)
    (tmp_path / "left.txt").write_text(f"a line {superscript} and {circled}\n", encoding="utf-8")
    assert pans.card_numbers_at_rest(tmp_path / "left.txt") == ["4111111111111111"] * 2


def test_the_command_line_refuses_an_item_named_with_a_dressed_card_number(tmp_path: Path) -> None:
    """Through the real command (training till): every kind refused in one line naming
    ``--item``, before anything is journaled; the folder holds no card number at rest."""
    import os

    from tests.support.forked_cli import run_cashier

    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env |= {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state")}
    assert run_cashier("sale", "--amount", "1.00", env=env).returncode == 0  # a journal in use
    for kind, digits in KINDS.items():
        name = "Gift " + " ".join("".join(digits[int(c)] for c in "4321000000001119"[i:i + 4])
                                  for i in range(0, 16, 4))
        done = run_cashier("ticket", "new", "--item", f"{name}=1.00", "--pay", "card", env=env)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and not done.stdout and len(lines) == 1, (kind, done.stdout)
        assert lines[0].startswith("cashier: --item: looks like a full card number"), kind
    assert not pans.card_numbers_at_rest(tmp_path)


def test_the_scanner_finds_a_dressed_number_in_a_value_and_on_a_freed_page(tmp_path: Path) -> None:
    import sqlite3

    superscript = "".join(KINDS["superscript"][int(c)] for c in "4321000000001119")
    db = tmp_path / "j.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (a TEXT)")
        conn.execute("INSERT INTO t VALUES (?)", (f"note {superscript}",))
    assert pans.card_numbers_at_rest(tmp_path) == ["4321000000001119"]
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA secure_delete = OFF")
        conn.execute("DELETE FROM t")  # gone from the table, still in the file's bytes
    assert superscript.encode() in db.read_bytes()
    assert pans.card_numbers_at_rest(tmp_path) == ["4321000000001119"]


def test_a_clock_reading_with_its_fraction_is_no_split_card_number() -> None:
    """The sandbox's records keep its clock as seconds and a fraction: ``1764393960.100009``
    joins to a Luhn-valid 16 digits, and a training till's state file failed a scan so. The
    scanner reads that one shape as a time; a number split by points in any other way is found."""
    assert luhn_ok("1764393960100009")
    record = '{"createdAt":1764393960.100009,"times":[1764393960.100009,1764393961.5]}'
    assert pans.card_numbers_in(record) == []
    for split in ("4321.0000.0000.1119", "4321000000.001119", "432100000.0001119",
                  "1764393960.100009.4321", "note 4321-0000-0000-1119 at 1764393960.5"):
        assert pans.card_numbers_in(split), split
