"""Build one till's bundle: ``python packaging/build.py --profile packaging/tills/NAME.toml``.

Steps: check the profile (no secrets, every field valid); make a clean virtual environment with
only Cashier and its runtime dependencies (nothing stray from the developer's venv); run
PyInstaller with ``packaging/cashier.spec``; add the desktop entry and icon; write a compressed
archive beside the folder. Prints the sizes it made.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
DIST = ROOT / "dist"
PYINSTALLER = "pyinstaller==6.22.3"


def run(cmd: list[str], **kwargs: object) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)  # type: ignore[call-overload]


def clean_venv(python: str) -> Path:
    """A virtual environment that only ever held Cashier's runtime and PyInstaller."""
    # setuptools reuses build/lib between installs, so a module deleted from the source tree
    # would still ship; start every install from the source as it is now
    for stale in (ROOT / "build" / "lib", *ROOT.glob("build/bdist.*")):
        shutil.rmtree(stale, ignore_errors=True)
    venv = BUILD / "package-venv"
    stamp = venv / ".requirements"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + PYINSTALLER.encode()).hexdigest()
    if not stamp.exists() or stamp.read_text() != wanted:
        shutil.rmtree(venv, ignore_errors=True)
        run([python, "-m", "venv", str(venv)])
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
               "--disable-pip-version-check"]
        run([*pip, str(ROOT), PYINSTALLER])
        stamp.write_text(wanted)
    else:  # same dependencies: refresh Cashier's own code only
        run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps",
             "--force-reinstall", "--disable-pip-version-check", str(ROOT)])
    return venv


def make_archive(bundle: Path) -> Path:
    """``<bundle>.tar.xz``: xz packs Qt's libraries a third smaller than gzip.

    The system ``xz`` compresses on every core; without it, Python's lzma does it on one.
    """
    archive = bundle.parent / f"{bundle.name}.tar.xz"
    archive.unlink(missing_ok=True)
    tar, xz = shutil.which("tar"), shutil.which("xz")
    if tar and xz:
        with archive.open("wb") as out:
            packer = subprocess.Popen([tar, "-C", str(bundle.parent), "-cf", "-", bundle.name],
                                      stdout=subprocess.PIPE)
            subprocess.run([xz, "-T0", "-6", "-c"], stdin=packer.stdout, stdout=out, check=True)
            if packer.wait() != 0:
                raise SystemExit("tar failed while packing the bundle")
    else:
        with tarfile.open(archive, "w:xz", preset=6) as tar_file:
            tar_file.add(bundle, arcname=bundle.name)
    return archive


def bundle_bytes(bundle: Path) -> int:
    """Bytes on disk, each file once (links are not followed)."""
    return sum(f.lstat().st_size for f in bundle.rglob("*") if f.is_file() and not f.is_symlink())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profile", required=True, help="the till profile TOML to bake in")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the clean venv")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from cashier.config import ProfileError, load_profile

    try:
        profile = load_profile(args.profile)
    except ProfileError as exc:
        print(exc, file=sys.stderr)
        return 2
    name = f"cashier-{profile.till_id}"
    venv = clean_venv(args.python)

    with tempfile.TemporaryDirectory() as tmp:
        baked = Path(tmp) / "till.toml"
        shutil.copyfile(args.profile, baked)
        env = dict(os.environ, PYTHONNOUSERSITE="1")
        run([str(venv / "bin" / "pyinstaller"), "--noconfirm", "--clean", "--log-level", "WARN",
             "--distpath", str(DIST), "--workpath", str(BUILD / "pyinstaller"),
             str(ROOT / "packaging" / "cashier.spec"), "--",
             "--profile", str(baked), "--till-id", profile.till_id], env=env, cwd=ROOT)

    bundle = DIST / name
    for link in [p for p in bundle.rglob("*") if p.is_symlink() and not p.exists()]:
        link.unlink()  # links to the Qt libraries the spec left out
    shutil.copyfile(ROOT / "packaging" / "cashier.svg", bundle / "cashier.svg")
    desktop = (ROOT / "packaging" / "cashier.desktop").read_text()
    (bundle / f"{name}.desktop").write_text(desktop.replace("@TILL_ID@", profile.till_id))
    archive = make_archive(bundle)
    size = bundle_bytes(bundle)
    print(f"bundle  {bundle}  {size / 2**20:.1f} MiB")
    print(f"archive {archive}  {archive.stat().st_size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
