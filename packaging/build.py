"""Build one till's bundle: ``python packaging/build.py --profile packaging/tills/NAME.toml``.

Steps: check the profile (no secrets, every field valid); make a clean virtual environment with
only Cashier and its runtime dependencies (nothing stray from the developer's venv); run
PyInstaller with ``packaging/cashier.spec`` (skipped when nothing it reads changed since the last
run: the frozen folder under ``build/frozen`` is reused); stamp the version and the trusted update
root (``--update-keys DIR``) into the bundle; add the desktop entry and icon; write
``dist/cashier-<till_id>_<version>.tar.xz`` (what ``cashier update publish`` takes) and the Debian
package ``dist/cashier-<till_id>_<version>_amd64.deb`` (``packaging/deb.py``). Prints the sizes.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
DIST = ROOT / "dist"
PYINSTALLER = "pyinstaller==6.22.3"


def run(cmd: list[str], **kwargs: object) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)  # type: ignore[call-overload]


def requirements_key() -> str:
    """What the clean venv holds: the runtime dependencies and PyInstaller (not the dev tools)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = "\n".join([*project["dependencies"], PYINSTALLER])
    return hashlib.sha256(pins.encode()).hexdigest()


def clean_venv(python: str) -> Path:
    """A virtual environment that only ever held Cashier's runtime and PyInstaller."""
    # setuptools reuses build/lib between installs, so a module deleted from the source tree
    # would still ship; start every install from the source as it is now
    for stale in (ROOT / "build" / "lib", *ROOT.glob("build/bdist.*")):
        shutil.rmtree(stale, ignore_errors=True)
    venv = BUILD / "package-venv"
    stamp = venv / ".requirements"
    wanted = requirements_key()
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


def make_archive(bundle: Path, version: str, level: int = 6) -> Path:
    """``<bundle>_<version>.tar.xz``: xz packs Qt's libraries a third smaller than gzip.

    The system ``xz`` compresses on every core; without it, Python's lzma does it on one.
    """
    archive = bundle.parent / f"{bundle.name}_{version}.tar.xz"
    archive.unlink(missing_ok=True)
    tar, xz = shutil.which("tar"), shutil.which("xz")
    if tar and xz:
        with archive.open("wb") as out:
            packer = subprocess.Popen([tar, "-C", str(bundle.parent), "-cf", "-", bundle.name],
                                      stdout=subprocess.PIPE)
            subprocess.run([xz, "-T0", f"-{level}", "-c"], stdin=packer.stdout, stdout=out, check=True)
            if packer.wait() != 0:
                raise SystemExit("tar failed while packing the bundle")
    else:
        with tarfile.open(archive, "w:xz", preset=cast(Any, level)) as tar_file:
            tar_file.add(bundle, arcname=bundle.name)
    return archive


def bundle_bytes(bundle: Path) -> int:
    """Bytes on disk, each file once (links are not followed)."""
    return sum(f.lstat().st_size for f in bundle.rglob("*") if f.is_file() and not f.is_symlink())


def project_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def freeze_key() -> str:
    """A hash of everything PyInstaller reads: the same key means the same frozen folder."""
    digest = hashlib.sha256(requirements_key().encode())
    files = [ROOT / "packaging" / "cashier.spec", ROOT / "packaging" / "entry.py",
             ROOT / "packaging" / "icu_data.py"]  # the spec runs it on ICU's data
    for folder in ("cashier", "ui", "resources"):
        files += sorted(p for p in (ROOT / folder).rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def freeze(python: str) -> Path:
    """PyInstaller's folder under ``build/frozen``, the same for every till; reused while its
    inputs match (a till's profile is baked into its copy, not here)."""
    frozen_dist = BUILD / "frozen"
    frozen, stamp = frozen_dist / "cashier", frozen_dist / "cashier.key"
    key = freeze_key()
    if (frozen / "cashier").exists() and stamp.exists() and stamp.read_text() == key:
        print(f"reusing {frozen} (nothing PyInstaller reads has changed)", flush=True)
        return frozen
    venv = clean_venv(python)
    stamp.unlink(missing_ok=True)
    env = dict(os.environ, PYTHONNOUSERSITE="1")
    run([str(venv / "bin" / "pyinstaller"), "--noconfirm", "--clean", "--log-level", "WARN",
         "--distpath", str(frozen_dist), "--workpath", str(BUILD / "pyinstaller"),
         str(ROOT / "packaging" / "cashier.spec")], env=env, cwd=ROOT)
    for link in [p for p in frozen.rglob("*") if p.is_symlink() and not p.exists()]:
        link.unlink()  # links to the Qt libraries the spec left out
    stamp.write_text(key)
    return frozen


def stamp_release(bundle: Path, profile_path: Path, version: str, update_keys: Path | None) -> None:
    """The till's profile (``_internal/profile/till.toml``), ``_internal/release/VERSION``
    (``cashier --version``) and the trusted update root."""
    baked = bundle / "_internal" / "profile"
    baked.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(profile_path, baked / "till.toml")
    release = bundle / "_internal" / "release"
    release.mkdir(parents=True, exist_ok=True)
    (release / "VERSION").write_text(version + "\n")
    if update_keys is not None:
        shutil.copyfile(update_keys / "root.json", release / "root.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profile", required=True, help="the till profile TOML to bake in")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the clean venv")
    parser.add_argument("--version", default="", help="X.Y.Z (default: the project's version)")
    parser.add_argument("--update-keys", default="",
                        help="the keys folder of `cashier update keys init`: bakes its root.json")
    parser.add_argument("--no-deb", action="store_true", help="skip the Debian package")
    parser.add_argument("--no-archive", action="store_true", help="skip the .tar.xz archive")
    parser.add_argument("--dist", default=str(DIST), help="where the results go (default dist/)")
    parser.add_argument("--fast", action="store_true",
                        help="compress lightly (xz -0): larger files, made in a fraction of the time")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from cashier.config import ProfileError, load_profile
    from cashier.errors import ValidationError
    from cashier.updates.versions import parse_version

    try:
        profile = load_profile(args.profile)
        version = args.version or project_version()
        parse_version(version, "VERSION")
    except (ProfileError, ValidationError) as exc:
        print(exc, file=sys.stderr)
        return 2
    update_keys = Path(args.update_keys) if args.update_keys else None
    if update_keys is not None and not (update_keys / "root.json").is_file():
        print(f"UPDATE_KEYS: {update_keys} holds no root.json (make it with "
              "`cashier update keys init DIR`)", file=sys.stderr)
        return 2
    name = f"cashier-{profile.till_id}"
    frozen = freeze(args.python)

    dist = Path(args.dist)
    bundle = dist / name
    shutil.rmtree(bundle, ignore_errors=True)
    shutil.copytree(frozen, bundle, symlinks=True)
    stamp_release(bundle, Path(args.profile), version, update_keys)
    shutil.copyfile(ROOT / "packaging" / "cashier.svg", bundle / "cashier.svg")
    desktop = (ROOT / "packaging" / "cashier.desktop").read_text()
    (bundle / f"{name}.desktop").write_text(desktop.replace("@TILL_ID@", profile.till_id))
    print(f"bundle  {bundle}  {bundle_bytes(bundle) / 2**20:.1f} MiB")
    if not args.no_archive:
        archive = make_archive(bundle, version, 0 if args.fast else 6)
        print(f"archive {archive}  {archive.stat().st_size / 2**20:.1f} MiB")
    if not args.no_deb:
        deb_module = importlib.import_module("deb")  # packaging/deb.py, beside this script
        deb = deb_module.build_deb(bundle, profile, version, dist, level=0 if args.fast else 6)
        print(f"deb     {deb}  {deb.stat().st_size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
