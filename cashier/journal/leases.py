"""Who owns a payment in flight: a lease each process holds on a journal while it lives.

An entry that may be on the wire (intent, sent, unknown, voiding) belongs to the process that
sent it. Each process writing a journal holds an OS lock on a lock file of its own,
``<journal>.owners/<token>.lock``, for as long as it lives; the journal records the token of the
entry's owner (``entry_owners``, journal v9). Another process asks the OS whether the owner still
holds its lock: a live owner's entry is never settled by ``recover``, a cancel or a restart; a
dead owner's lock was released by the OS however the process ended (kill -9 included), so its
entries may be taken over. No timer and no heartbeat: the OS is the only judge of "alive".
"""

from __future__ import annotations

import os
import secrets
import sys
import threading
from pathlib import Path
from typing import IO

from cashier.errors import ValidationError

#: (pid, journal path) -> this process's lease on that journal (a fork gets a new one).
_LEASES: dict[tuple[int, str], Lease] = {}
_GUARD = threading.Lock()


class EntryOwned(ValidationError):
    """The entry is in flight in another process that is still alive: refused, nothing sent."""

    def __init__(self, what: str, owner: str) -> None:
        self.owner = owner
        pid = owner.split("-", 1)[0]
        super().__init__(what, f"is in flight in process {pid} (it sent it and is still "
                               "waiting for the host): wait for it to end, then try again")


def _try_lock(handle: IO[str]) -> bool:
    """True when this handle now holds the lock (nobody else had it)."""
    try:
        if sys.platform == "win32":  # only one of the two modules exists on each system
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


class Lease:
    """This process's lease on one journal: taken on first use, held until the process ends."""

    def __init__(self, journal: Path) -> None:
        self.folder = owners_folder(journal)
        self.token = f"{os.getpid()}-{secrets.token_hex(6)}"
        self._file: IO[str] | None = None

    def hold(self) -> str:
        """Take the lock (once) and return the token the journal records as the owner."""
        if self._file is None:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            # owner-only, as every file beside the journal
            fd = os.open(self.folder / f"{self.token}.lock", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            handle = open(fd, "w", encoding="ascii")  # noqa: SIM115
            if not _try_lock(handle):  # a fresh random name: nobody else can hold it
                handle.close()
                raise OSError(f"cannot lock the lease file of {self.token}")
            handle.write(str(os.getpid()))
            handle.flush()
            self._file = handle
        return self.token


def owners_folder(journal: Path) -> Path:
    journal = Path(journal)
    return journal.with_name(journal.name + ".owners")


def lease_for(journal: Path) -> Lease:
    """This process's one lease on ``journal`` (every store of the process shares it)."""
    key = (os.getpid(), str(Path(journal).resolve()))
    with _GUARD:
        lease = _LEASES.get(key)
        if lease is None:
            lease = _LEASES[key] = Lease(Path(journal))
        return lease


def alive(journal: Path, token: str) -> bool:
    """Whether the process that recorded ``token`` still lives (it still holds its lock).

    Its own token reads as alive for the process itself (a second open file description of the
    same file cannot take the lock either). A dead owner's file is removed once found free."""
    path = owners_folder(journal) / f"{token}.lock"
    if not token or "/" in token or not path.is_file():
        return False
    try:
        handle = open(path, encoding="ascii")  # noqa: SIM115 (closed below)
    except OSError:
        return False
    try:
        if not _try_lock(handle):
            return True
        path.unlink(missing_ok=True)  # dead: the OS released its lock; tidy the folder
        return False
    finally:
        handle.close()
