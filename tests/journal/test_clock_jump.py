"""Issue 27: a clock jump is journaled once with the write that notices it and handed to the
journal's publisher as ``ClockMoved`` (the window's status bar shows it); a read between the jump
and that write does not hide it. The clock is the journal's seam (``JournalRecorder.clock``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from cashier.journal.model import ClockMoved, Kind, NewEntry
from cashier.journal.recorder import JournalRecorder


def test_a_jump_is_journaled_once_and_published_even_after_a_read(tmp_path: Path) -> None:
    offset = timedelta(0)
    store = JournalRecorder(tmp_path / "j.sqlite", clock=lambda: datetime.now(UTC) + offset)
    try:
        store.create(NewEntry(Kind.SALE, Decimal("1.00"), actor="1"))
        assert not [c for c in store.take_changes() if isinstance(c, ClockMoved)]
        offset = timedelta(hours=-1)  # set back an hour
        store.due_jobs()  # a read in between reads the clock too: it must not hide the jump
        store.create(NewEntry(Kind.SALE, Decimal("2.00"), actor="1"))
        moved = [c for c in store.take_changes() if isinstance(c, ClockMoved)]
        assert len(moved) == 1 and moved[0].back and -3700 < moved[0].by_s < -3500, moved
        assert moved[0].span in ("1 h 00 min", "59 min") and "back" in moved[0].words
        store.create(NewEntry(Kind.SALE, Decimal("3.00"), actor="1"))  # the same jump: journaled once
        notes = [e.data["_note"] for e in store.events() if e.type == "clock_moved"]
        assert len(notes) == 1 and notes[0]["by_s"] == moved[0].by_s
        stamps = [e.at for e in store.events()]
        assert stamps == sorted(stamps)  # the journal's time never went back
    finally:
        store.close()


def test_the_span_of_a_jump_reads_in_days_hours_and_minutes() -> None:
    assert ClockMoved(90061, "", None).span == "1 d 1 h"
    assert ClockMoved(3900, "", None).span == "1 h 05 min"
    assert ClockMoved(-240, "", None).span == "4 min"
    assert ClockMoved(-240, "", None).words == "the clock moved back 4 min"
