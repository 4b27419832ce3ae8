"""Logging set-up: every handler redacts card data and credentials before writing."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from cashier.redact import RedactingFilter


def setup_logging(verbose: bool = False, log_file: Path | None = None) -> None:
    root = logging.getLogger()
    if getattr(root, "_cashier_configured", False):
        return
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    handlers[0].setLevel(logging.DEBUG if verbose else logging.WARNING)
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(fmt)
        handler.addFilter(RedactingFilter())
        root.addHandler(handler)
    root._cashier_configured = True  # type: ignore[attr-defined]
