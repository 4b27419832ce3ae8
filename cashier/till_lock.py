"""One till process per journal: a second window on the same journal would drive a second PIN pad
and journal beside the first. The till holds an OS lock on ``<journal>.lock`` for its lifetime;
the OS drops it when the process ends, however it ends, so a crash never leaves a stale lock.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

from cashier.errors import CashierError


class JournalInUse(CashierError):
    """Another process holds this journal."""

    def __init__(self, journal: Path, pid: str) -> None:
        self.journal = journal
        self.pid = pid
        holder = f"process {pid}" if pid else "another process"
        super().__init__(f"journal: {journal} is in use by {holder} (a Cashier already running on "
                         "this till); use that window, or close it first")


class JournalLock:
    """Held from ``acquire`` until ``release`` (or the end of the process)."""

    def __init__(self, journal: Path) -> None:
        self.journal = Path(journal)
        self.path = self.journal.with_name(self.journal.name + ".lock")
        self._file: IO[str] | None = None

    def acquire(self) -> JournalLock:
        """Take the lock or raise ``JournalInUse`` naming the process that has it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="ascii")  # noqa: SIM115 (held for the process)
        try:
            _lock(handle)
        except OSError:
            handle.seek(0)
            pid = handle.read().strip()
            handle.close()
            raise JournalInUse(self.journal, pid) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle
        return self

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the handle drops the OS lock
            self._file = None


def _lock(handle: IO[str]) -> None:
    if sys.platform == "win32":  # the OS's own lock call: only one of the two modules exists
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
