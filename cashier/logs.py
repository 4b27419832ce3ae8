"""Logging set-up: every handler redacts card data and credentials before writing."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path

from cashier.config import ensure_private_dir
from cashier.redact import RedactingFilter


class PrivateRotatingFileHandler(RotatingFileHandler):
    """Log files are the store's records, like the journal: created (and rotated) 0600."""

    def _open(self):  # type: ignore[no-untyped-def]
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with contextlib.suppress(OSError):  # a file created earlier 0644, or a FAT stick
            os.fchmod(fd, 0o600)
        return open(fd, self.mode, encoding=self.encoding, errors=self.errors)

    def handleError(self, record: logging.LogRecord) -> None:
        """A log that cannot be written (full disk) never prints a traceback at the counter."""


def setup_logging(verbose: bool = False, log_file: Path | None = None, *,
                  console: bool = True) -> None:
    """The log file takes INFO and up (DEBUG with ``verbose``). Standard error takes WARNING and
    up when ``console`` (the window, a server) or when there is no log file to hold them; a
    one-shot command (``console=False``) keeps its standard error for its own lines, so a refusal
    is one line: its warnings, and the traceback of an unexpected error, go to the log file
    (``--verbose`` puts everything on standard error too)."""
    root = logging.getLogger()
    if getattr(root, "_cashier_configured", False):
        return
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handlers: list[logging.Handler] = []
    if log_file is not None:
        try:
            ensure_private_dir(log_file.parent)
            handlers.append(PrivateRotatingFileHandler(log_file, maxBytes=5 * 2**20, backupCount=5,
                                                encoding="utf-8"))
        except OSError as exc:  # a read-only log folder must not stop the till
            print(f"cashier: cannot write the log at {log_file}: {exc}", file=sys.stderr)
    if verbose or console or not handlers:
        stream = logging.StreamHandler(sys.stderr)
        stream.setLevel(logging.DEBUG if verbose else logging.WARNING)
        handlers.insert(0, stream)
    for handler in handlers:
        handler.setFormatter(fmt)
        handler.addFilter(RedactingFilter())
        root.addHandler(handler)
    if not verbose:  # one line per HTTP request drowns what a support person looks for
        logging.getLogger("httpx").setLevel(logging.WARNING)
    root._cashier_configured = True  # type: ignore[attr-defined]
