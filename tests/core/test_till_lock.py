"""One till process per journal: a second start is refused, naming the process that holds it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cashier.till_lock import JournalInUse, JournalLock


def test_a_second_holder_is_refused_naming_the_first(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    first = JournalLock(journal).acquire()
    script = ("import sys\nfrom cashier.till_lock import JournalLock, JournalInUse\n"
              "try:\n    JournalLock(sys.argv[1]).acquire()\nexcept JournalInUse as exc:\n"
              "    print(exc); sys.exit(3)\n")
    other = subprocess.run([sys.executable, "-c", script, str(journal)], capture_output=True,
                           text=True, timeout=30)
    assert other.returncode == 3, other.stderr
    assert f"in use by process {os.getpid()}" in other.stdout
    with pytest.raises(JournalInUse, match=str(os.getpid())):
        JournalLock(journal).acquire()  # a second window in this process too
    first.release()
    JournalLock(journal).acquire().release()  # free again once the first let go


def test_a_second_start_knocks_and_the_running_till_answers(tmp_path: Path) -> None:
    from cashier.till_lock import Door, knock

    journal = tmp_path / "journal.sqlite"
    assert knock(journal, timeout_s=0.5) is False  # nobody runs on it
    knocks: list[str] = []
    door = Door(journal, lambda: knocks.append("shown"))
    try:
        assert door.open
        assert knock(journal) is True and knocks == ["shown"]
        assert knock(tmp_path / "other.sqlite", timeout_s=0.5) is False  # one door per journal
        assert Door(journal, lambda: None).open is False  # a second door on it is not opened
    finally:
        door.close()
    assert knock(journal, timeout_s=0.5) is False  # the till ended: nobody answers
