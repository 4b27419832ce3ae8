"""A till's bundle: its size on disk, its archive, and how fast the frozen program paints.

Measures the bundle ``make package`` built last (``dist/cashier-<till_id>/``); with none there,
it reports nothing and says so rather than building one (a build takes minutes).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROFILE = Path(os.environ.get("CASHIER_PACKAGE_PROFILE", ROOT / "packaging/tills/example.toml"))

GOALS = {
    "bundle_mib": ("<=", 130.0),
    "archive_mib": ("<=", 45.0),
    "frozen_startup_to_window_s": ("<=", 0.7),
}


def _first_paint_s(exe: Path, home: Path) -> float:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CASHIER_STARTUP_PROBE="1",
               CASHIER_TRAINING="true", HOME=str(home), XDG_DATA_HOME=str(home / "data"),
               XDG_STATE_HOME=str(home / "state"))
    started = time.time()
    proc = subprocess.Popen([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("first-paint "):
                return float(line.split()[1]) - started
        raise RuntimeError("the frozen till exited before painting")
    finally:
        proc.kill()
        proc.wait()


def run() -> dict[str, float]:
    import tempfile

    till_id = tomllib.loads(PROFILE.read_text())["till_id"]
    bundle = ROOT / "dist" / f"cashier-{till_id}"
    if not (bundle / "cashier").exists():
        print(f"bench_package: no bundle at {bundle}; run `make package` first")
        return {}
    # the archive of this bundle: named, as the build names it, by the version stamped inside
    stamped = bundle / "_internal" / "release" / "VERSION"
    version = stamped.read_text().strip() if stamped.exists() else ""
    archive = ROOT / "dist" / f"cashier-{till_id}_{version}.tar.xz"
    size = sum(f.lstat().st_size for f in bundle.rglob("*") if f.is_file() and not f.is_symlink())
    figures = {"bundle_mib": round(size / 2**20, 1)}
    if archive.exists():
        figures["archive_mib"] = round(archive.stat().st_size / 2**20, 1)
    else:
        print(f"bench_package: no archive at {archive}; `make package` writes it")
    with tempfile.TemporaryDirectory() as home:
        _first_paint_s(bundle / "cashier", Path(home))  # warm the page cache once
        runs = [_first_paint_s(bundle / "cashier", Path(home)) for _ in range(5)]
    figures["frozen_startup_to_window_s"] = round(statistics.median(runs), 3)
    return figures
