"""``cashier --version``: version, till id and a hash of the profile it runs with."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from cashier import __version__
from cashier.config import baked_profile_path, is_frozen, load_profile


def release_dir() -> Path | None:
    """What the build stamped into a packaged till: ``VERSION`` and the trusted ``root.json``."""
    if not is_frozen():
        return None
    return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent)) / "release"


def running_version() -> str:
    """The version this program is: the build's stamp in a packaged till, the code's from source."""
    folder = release_dir()
    stamp = folder / "VERSION" if folder else None
    if stamp is not None and stamp.is_file():
        return stamp.read_text().strip()
    return __version__


def profile_hash(path: str | Path | None) -> str:
    if path is None or not Path(path).exists():
        return "none"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def version_line(profile_path: str | Path | None) -> str:
    path = profile_path or os.environ.get("CASHIER_PROFILE") or baked_profile_path()
    profile = load_profile(path)
    return f"cashier {running_version()} till {profile.till_id} profile {profile_hash(path)}"
