"""``cashier.text`` and ``cashier.output``: the one cleaning rule, the one card-number detector,
the spreadsheet-safe CSV and files written on purpose (#21)."""

from __future__ import annotations

import csv
import errno
import io
import os
import unicodedata
from pathlib import Path

import pytest

from cashier.cards import check_token
from cashier.config import Product
from cashier.errors import ValidationError
from cashier.host.errors import HostError
from cashier.output import write_output
from cashier.printing.layout import PrintJob
from cashier.text import (
    card_numbers_in,
    clean_text,
    csv_cell,
    free_text,
    has_card_number,
    has_card_number_strict,
    write_csv,
)

HOSTILE = ("Tea\x1bp\x00\x19\xfa", "Bun\x1dV\x00", "\x1b@reset", "\x10\x04\x04status",
           "\x1c\x2e kanji", "\x9bC1 csi\x85", "right\u202eleft\u202d\u2066iso\u2069",
           "zero\u200bwidth\u200d\ufeff", "lone \udcff surrogate", "tab\there\nline\r",
           "e\u0301 composed", "del\x7f")


@pytest.mark.parametrize("text", HOSTILE)
def test_clean_text_leaves_no_control_format_or_surrogate(text: str) -> None:
    cleaned = clean_text(text)
    assert all(unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Cn") for c in cleaned)
    assert clean_text(cleaned) == cleaned  # every layer may clean again
    assert unicodedata.is_normalized("NFC", cleaned)
    cleaned.encode("utf-8")  # writable anywhere


def test_clean_text_keeps_what_a_reader_sees() -> None:
    assert clean_text("Café crème 2x") == "Café crème 2x"
    assert clean_text("e\u0301") == "\u00e9"
    assert clean_text("tab\there") == "tab here"
    assert clean_text("Bun\x1dV0") == "BunV0"
    assert clean_text("one\r\ntwo\x1b", multiline=True) == "one\ntwo"


DRESSES = ("4111.1111.1111.1111", "4111/1111/1111/1111", "4111,1111,1111,1111",
           "4111_1111_1111_1111", "4111:1111:1111:1111", "4111*1111*1111*1111",
           "4111\t1111\t1111\t1111", "4111(1111)1111+1111", "4111.111111111111",
           "4111 - 1111 - 1111 - 1111", "4111\x1b1111\x1b1111\x1b1111",
           "\uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11"
           "\uff11\uff11", "\u0664\u0661\u0661\u0661" + "\u0661" * 12,
           "ref 12 4111 1111 1111 1111 qty 2", "4111111111111111")


@pytest.mark.parametrize("dress", DRESSES)
def test_a_card_number_in_any_dress_is_found_and_refused(dress: str) -> None:
    assert "4111111111111111" in card_numbers_in(dress)
    with pytest.raises(ValidationError) as caught:
        free_text("--item", f"Gift {dress}")
    assert caught.value.field == "--item" and "card number" in caught.value.rule


@pytest.mark.parametrize("text", ("Tea 1.50", "4111.1111.1111.1112", "4111a1111b1111c1111",
                                  "Order 2026-11-25", "41111111111111111111111"))
def test_what_is_not_a_card_number_passes(text: str) -> None:
    assert not has_card_number(text)
    assert free_text("name", text) == text


def test_machine_fields_use_the_strict_form() -> None:
    """A timestamp's digits, side by side, are no card: the journal's guard does not see one."""
    stamp = "2026-11-25T11:43:29.123456+00:00"
    assert not has_card_number_strict(stamp)
    assert has_card_number_strict("4111 1111 1111 1111")
    assert has_card_number_strict("\uff14\uff11\uff11\uff11" + "1" * 12)


def test_a_token_field_refuses_a_card_in_any_dress() -> None:
    with pytest.raises(ValidationError):
        check_token("--token", "4111.1111.1111.1111")


def test_profile_names_and_host_texts_are_cleaned() -> None:
    assert Product(name="Tea\x1bp\x00\x19", price="1.00", barcode="1").name == "Teap"
    with pytest.raises(ValueError, match="card number"):
        Product(name="4111.1111.1111.1111", price="1.00", barcode="1")
    error = HostError(primary_code=1, secondary_code=2, short_text="bad\x1bp0", long_text="\u202eno")
    assert error.short_text == "badp0" and error.long_text == "no"


def test_the_paper_never_gets_a_control_from_a_line() -> None:
    job = PrintJob("t\x1b", ["Tea\x1bp\x00\x19", "Bun\x1dV\x00"], cut=False)
    assert job.lines == ["Teap", "BunV"] and job.title == "t"
    assert job.to_escpos() == b"Teap\nBunV\n"
    job.lines.append("late\x1bp\x00\x19\x19")  # a line slipped in after the job was made
    assert job.to_escpos().endswith(b"\nlatep\n")  # the last pass, where text becomes bytes


@pytest.mark.parametrize("cell", ("=1+1", "+1", "-2+3", "@SUM(1)", "\tx", "\rx"))
def test_a_formula_cell_is_neutralised(cell: str) -> None:
    assert csv_cell(cell).startswith("'")
    assert csv_cell("-2.50", numeric=True) == "-2.50"


def test_write_csv_reads_back_as_text() -> None:
    data = write_csv(["name", "amount"], [["=HYPERLINK(\"x\")", "-1.00"], ["a\x1bb\u202e", 3],
                                          ["ok", "=1+1"]], numeric=["amount"])
    rows = list(csv.reader(io.StringIO(data, newline="")))
    assert rows == [["name", "amount"], ["'=HYPERLINK(\"x\")", "-1.00"], ["ab", "3"],
                    ["ok", "'=1+1"]]  # a formula in a number column is text all the same


def test_a_failed_write_leaves_nothing_and_the_old_file(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.csv"
    target.write_text("old")

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(ValidationError) as caught:
        write_output(str(target), b"new", force=True)
    assert "No space left" in str(caught.value) and "\n" not in str(caught.value)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["report.csv"]
    monkeypatch.undo()
    write_output(str(target), b"new", force=True)
    assert target.read_bytes() == b"new" and oct(target.stat().st_mode & 0o777) == "0o600"
