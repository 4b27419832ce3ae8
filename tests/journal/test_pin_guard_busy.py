"""The PIN guard's file locked longer than the guard waits (many PIN checks at once on a disk
busy with fsyncs: ``make hostile`` beside ``make chaos`` saw "cashier: unexpected error: database
is locked") is a one-line refusal, never an unexpected error; the PIN is not accepted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cashier.clerks import Clerk, ManagerRules, PinBusy, Roster
from cashier.journal import pin_guard
from cashier.journal.pin_guard import PinGuard
from tests.support.profiles import pin_hash


def test_a_guard_file_held_past_the_wait_refuses_in_one_line(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    roster = Roster([Clerk(id=102, name="Bob", pin_hash=pin_hash("2222"), role="manager")],
                    ManagerRules())
    guard = PinGuard(tmp_path / "journal.sqlite", tmp_path / "manager-pins.sqlite")
    assert guard.check(roster, 102, "2222", "test").id == 102  # the file made, the PIN right
    monkeypatch.setattr(pin_guard, "BUSY_S", 0.2)  # the wait, short for the test
    holder = sqlite3.connect(str(tmp_path / "manager-pins.sqlite"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another check holds the file
    try:
        with pytest.raises(PinBusy, match=r"^pin: other PIN checks kept the till busy"):
            guard.check(roster, 102, "2222", "test")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert guard.check(roster, 102, "2222", "test").id == 102  # free again: accepted


def test_the_window_says_the_busy_refusal_in_its_words_in_both_languages(qapp: object) -> None:
    from ui.core_words import error_words
    from ui.i18n import Language

    refusal = PinBusy("pin: other PIN checks kept the till busy: type the PIN again")
    language = Language()
    try:
        assert error_words(refusal) == "Other PIN checks kept the till busy: type the PIN again."
        language.switch("es")
        assert error_words(refusal).startswith("Otras comprobaciones de PIN")
    finally:
        language.switch("en")
