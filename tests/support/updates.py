"""Signed updates in tests: a small fake bundle archived as ``make package`` lays it out, and a
quiet static file server for the repository."""

from __future__ import annotations

import http.server
import tarfile
from pathlib import Path

NAME = "cashier-till-7"


def fake_archive(folder: Path, version: str, *, exit_code: int = 0, stamped: str | None = None) -> Path:
    """``cashier-till-7_<version>.tar.xz`` as ``make package`` lays it out, with a tiny program."""
    bundle = folder / f"build-{version}" / NAME
    (bundle / "_internal" / "release").mkdir(parents=True)
    program = bundle / "cashier"
    program.write_text(f"#!/bin/sh\necho {version} \"$@\"\nexit {exit_code}\n")
    program.chmod(0o755)
    (bundle / "_internal" / "release" / "VERSION").write_text((stamped or version) + "\n")
    archive = folder / f"{NAME}_{version}.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        tar.add(bundle, arcname=NAME)
    return archive


class Quiet(http.server.SimpleHTTPRequestHandler):
    """A static file server that keeps the test's output clean (no line per request)."""

    def log_message(self, format: str, *args: object) -> None:
        return None
