"""One till process per journal: a second window on the same journal would drive a second PIN pad
and journal beside the first. The till holds an OS lock on ``<journal>.lock`` for its lifetime;
the OS drops it when the process ends, however it ends, so a crash never leaves a stale lock.
A second start on the same journal knocks at the running till's ``Door`` and that window comes
to the front, as a cashier double-clicking the icon again expects.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
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


# ---- a second start brings the running window to the front ------------------------------------
#: what the second start sends, and what the running till answers once it has asked its window
KNOCK, SHOWN = b"show\n", b"shown\n"


def _door_address(journal: Path) -> str | None:
    """A Linux abstract socket named after the journal (no file to leave behind after a crash);
    None elsewhere, where a second start only says which process holds the journal."""
    if not sys.platform.startswith("linux"):
        return None
    import hashlib

    digest = hashlib.sha256(str(Path(journal).resolve()).encode()).hexdigest()[:24]
    return f"\0cashier-till-{digest}"


class Door:
    """Held by the running window: a second start on the same journal knocks, and ``on_knock``
    runs on the door's thread (the window relays it to its own thread)."""

    def __init__(self, journal: Path, on_knock: Callable[[], None]) -> None:
        import socket
        import threading

        self.on_knock = on_knock
        self._server: socket.socket | None = None
        address = _door_address(journal)
        if address is None:
            return
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            server.bind(address)
            server.listen(4)
        except OSError:  # another till process has it (the lock says which); no door then
            server.close()
            return
        self._server = server
        threading.Thread(target=self._serve, name="second-start-door", daemon=True).start()

    @property
    def open(self) -> bool:
        return self._server is not None

    def _serve(self) -> None:
        server = self._server
        while server is not None:
            try:
                conn, _ = server.accept()
            except OSError:
                return  # closed
            with conn:
                conn.settimeout(1.0)
                try:
                    if conn.recv(16) == KNOCK:
                        self.on_knock()
                        conn.sendall(SHOWN)
                except OSError:
                    continue

    def close(self) -> None:
        if self._server is not None:
            import socket

            server, self._server = self._server, None
            with contextlib.suppress(OSError):
                server.shutdown(socket.SHUT_RDWR)
            server.close()


def knock(journal: Path, timeout_s: float = 2.0) -> bool:
    """A second start: ask the window running on ``journal`` to come to the front. True when it
    answered (the cashier sees that window; this start has nothing more to do)."""
    import socket

    address = _door_address(journal)
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout_s)
            conn.connect(address)
            conn.sendall(KNOCK)
            return conn.recv(16) == SHOWN
    except OSError:
        return False
