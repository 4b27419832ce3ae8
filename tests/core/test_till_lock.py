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
