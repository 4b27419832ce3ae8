"""``cashier --version``: version, till id and a hash of the profile it runs with."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cashier import __version__
from cashier.config import baked_profile_path, load_profile


def profile_hash(path: str | Path | None) -> str:
    if path is None or not Path(path).exists():
        return "none"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def version_line(profile_path: str | Path | None) -> str:
    path = profile_path or os.environ.get("CASHIER_PROFILE") or baked_profile_path()
    profile = load_profile(path)
    return f"cashier {__version__} till {profile.till_id} profile {profile_hash(path)}"
