"""The Debian package and signed updates, with the frozen till (``make package-test``; root).

Builds versions N and N+1 from the frozen folder ``make package`` made (the PyInstaller run is
reused: only the version stamp differs), installs N from its ``.deb`` on this machine, sells
once in training, publishes N+1 to a repository served on loopback, applies it, checks the
version and the journal; then refuses a tampered archive and tampered metadata (exit 2, version
unchanged), rolls back a version that fails its self-check, upgrades with N+1's ``.deb`` (the
journal stays) and purges (the journal still stays). Purged at the end whatever happens.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[2]
PROFILE = Path(os.environ.get("CASHIER_PACKAGE_PROFILE", ROOT / "packaging/tills/example.toml"))
TILL_ID = tomllib.loads(PROFILE.read_text())["till_id"]
NAME = f"cashier-{TILL_ID}"
PACKAGE = NAME.lower().replace("_", "-")
APP = Path("/opt") / NAME
#: every ``till`` command here trains on the packaged (real) till's profile, so it journals in the
#: training journal beside the till's, never the till's own (issue #46; ``training_journal_path``)
JOURNAL = Path("/var/lib/cashier") / f"journal-{TILL_ID}.training.sqlite"
N, N1, N2 = "0.90.0", "0.90.1", "0.90.2"


def sh(*cmd: str, check: bool = True, timeout: float = 900, **kw: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout, check=False,
                          **kw)  # type: ignore[call-overload]
    if check and done.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done  # type: ignore[no-any-return]


def source_cli(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    """The back office's ``cashier`` (a source install): keys and publishing."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return sh(sys.executable, "-m", "cashier.cli", *args, env=env, cwd=ROOT, **kw)


def till(*args: str, check: bool = False, url: str = "") -> subprocess.CompletedProcess[str]:
    """The installed till, as a cashier's session would start it (training, offscreen)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CASHIER_TRAINING="true")
    env.pop("PYTHONPATH", None)
    env.pop("CASHIER_JOURNAL_PATH", None)
    if url:
        env["CASHIER_UPDATE_URL"] = url
    return sh("/usr/bin/cashier", *args, check=check, env=env)


def build(dist: Path, version: str, keys: Path, *extra: str) -> None:
    sh(sys.executable, str(ROOT / "packaging/build.py"), "--profile", str(PROFILE), "--version",
       version, "--update-keys", str(keys), "--dist", str(dist), "--fast", *extra,
       env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT, timeout=3600)


def apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    done = sh("apt-get", "-y", "-q", *args, check=False, env=env)
    if done.returncode != 0 and args[0] == "install":  # stale package lists: refresh once
        sh("apt-get", "update", "-qq", env=env)
        done = sh("apt-get", "-y", "-q", *args, check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def purge() -> None:
    sh("apt-get", "-y", "-q", "purge", PACKAGE, check=False,
       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def journal_notes(type_: str) -> list[dict[str, object]]:
    with sqlite3.connect(f"file:{JOURNAL}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT data FROM events WHERE type = ? ORDER BY id", (type_,)).fetchall()
    return [json.loads(data)["_note"] for (data,) in rows]


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    if os.geteuid() != 0 or shutil.which("dpkg-deb") is None or shutil.which("apt-get") is None:
        pytest.skip("installs a Debian package: needs root, dpkg-deb and apt-get")
    folder = tmp_path_factory.mktemp("deb")
    purge()
    made_here = [p for p in (JOURNAL.parent, Path("/var/log/cashier")) if not p.exists()]
    group_before = sh("getent", "group", "cashier", check=False).returncode == 0
    # a journal of this till already here (an earlier run stopped before its clean-up): set
    # aside, so the test reads only what it journals (its notes were counted with an earlier
    # run's, stop 50), and put back after
    aside = folder / "journal-before"
    aside.mkdir()
    for path in JOURNAL.parent.glob(f"journal-{TILL_ID}*"):
        shutil.move(path, aside / path.name)
    yield folder
    purge()
    # what the package leaves on purpose (the journal, its folders, the group) and this test made
    for path in JOURNAL.parent.glob(f"journal-{TILL_ID}*"):  # journals, -wal, sandbox state, leases
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()
    for path in aside.iterdir():
        shutil.move(path, JOURNAL.parent / path.name)
    for path in made_here:
        shutil.rmtree(path, ignore_errors=True)
    if not group_before:
        sh("groupdel", "cashier", check=False)


@pytest.fixture(scope="module")
def built(work: Path) -> dict[str, Path]:
    keys = work / "keys"
    source_cli("update", "keys", "init", str(keys))
    build(work / "n", N, keys, "--no-archive")
    build(work / "n1", N1, keys)
    # N+2 fails its start-up self-check: N+1's bundle with Python's own library taken out
    broken = work / "n2" / NAME
    shutil.copytree(work / "n1" / NAME, broken, symlinks=True)
    (broken / "_internal" / "base_library.zip").unlink()
    (broken / "_internal" / "release" / "VERSION").write_text(N2 + "\n")
    archive = work / "n2" / f"{NAME}_{N2}.tar.xz"
    with archive.open("wb") as out:
        tar = subprocess.Popen(["tar", "-C", str(work / "n2"), "-cf", "-", NAME], stdout=subprocess.PIPE)
        subprocess.run(["xz", "-0", "-T0", "-c"], stdin=tar.stdout, stdout=out, check=True)
        assert tar.wait() == 0
    return {"keys": keys, "deb_n": work / "n" / f"{PACKAGE}_{N}_amd64.deb",
            "deb_n1": work / "n1" / f"{PACKAGE}_{N1}_amd64.deb",
            "tar_n1": work / "n1" / f"{NAME}_{N1}.tar.xz", "tar_n2": archive}


@pytest.fixture(scope="module")
def served(work: Path) -> Iterator[tuple[Path, str]]:
    """The repository on loopback, served by a plain static web server in its own process."""
    repo = work / "repo"
    repo.mkdir()
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                               "--directory", str(repo)], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()  # "Serving HTTP on 127.0.0.1 port NNNN (http://...)"
    port = line.split(" port ")[1].split()[0]
    yield repo, f"http://127.0.0.1:{port}"
    server.terminate()
    server.wait(timeout=10)


def test_install_sell_update_refuse_roll_back_upgrade_purge(built: dict[str, Path],
                                                           served: tuple[Path, str]) -> None:
    repo, url = served
    # -- install N: one command ---------------------------------------------------------------
    apt("install", str(built["deb_n"]))
    assert till("--version", check=True).stdout.split()[:2] == ["cashier", N]
    assert os.readlink(APP / "current") == f"versions/{N}"
    assert Path(f"/usr/share/applications/{NAME}.desktop").read_text().count("Exec=/usr/bin/cashier") == 1
    assert Path("/usr/share/icons/hicolor/scalable/apps/cashier.svg").is_file()
    depends = sh("dpkg-query", "-W", "-f=${Depends}", PACKAGE).stdout
    assert "libxcb-cursor0" in depends and "libxkbcommon-x11-0" in depends
    for folder in (Path("/var/lib/cashier"), Path("/var/log/cashier")):
        mode = folder.stat().st_mode & 0o7777
        assert (mode, folder.group()) == (0o2770, "cashier"), folder
    missing = sh("ldd", str(APP / "current" / "_internal/PySide6/Qt/plugins/platforms/libqxcb.so")).stdout
    assert "not found" not in missing  # Depends brought every library the window loads

    # -- sell once in training ------------------------------------------------------------------
    sale = till("sale", "--amount", "12.34", check=True)
    invoice = json.loads(sale.stdout)["invoice"]
    assert JOURNAL.exists()
    assert not (JOURNAL.parent / f"journal-{TILL_ID}.sqlite").exists()  # the till's own: untouched

    # -- publish N+1 and apply it ---------------------------------------------------------------
    source_cli("update", "publish", str(built["tar_n1"]), "--keys", str(built["keys"]),
               "--repo", str(repo))
    check = till("update", "check", url=url, check=True)
    assert json.loads(check.stdout) == {"current": N, "available": N1}
    applied = till("update", "apply", url=url)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert json.loads(applied.stdout) == {"applied": N1, "rolled_back": None, "current": N1}
    assert till("--version", check=True).stdout.split()[1] == N1
    assert journal_notes("update_installed") == [{"version": N1, "previous": N}]
    export = till("journal", "export", "--format", "json", check=True)
    assert invoice in export.stdout  # the sale is still in the journal the new version reads

    # -- tampered archive, tampered metadata: exit 2, one line, version unchanged ---------------
    source_cli("update", "publish", str(built["tar_n2"]), "--keys", str(built["keys"]),
               "--repo", str(repo))
    stored = repo / "targets" / NAME / N2 / f"{NAME}_{N2}.tar.xz"
    original = stored.read_bytes()
    tampered = bytearray(original)
    tampered[len(tampered) // 2] ^= 0x01
    stored.write_bytes(bytes(tampered))
    refused = till("update", "apply", url=url)
    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "LengthOrHashMismatchError" in refused.stderr
    stored.write_bytes(original)
    timestamp = repo / "metadata" / "timestamp.json"
    signed_text = timestamp.read_text()
    timestamp.write_text(signed_text.replace('"version": ', '"version": 1', 1))
    refused = till("update", "apply", url=url)
    assert refused.returncode == 2
    assert refused.stderr.strip().startswith("cashier: update metadata refused")
    assert len(refused.stderr.strip().splitlines()) == 1
    timestamp.write_text(signed_text)
    assert till("--version", check=True).stdout.split()[1] == N1

    # -- N+2 fails its self-check: rolled back by itself, journaled -----------------------------
    rolled = till("update", "apply", url=url)
    assert rolled.returncode == 1, rolled.stdout + rolled.stderr
    assert json.loads(rolled.stdout) == {"applied": None, "rolled_back": N2, "current": N1}
    assert till("--version", check=True).stdout.split()[1] == N1
    notes = journal_notes("update_rolled_back")
    assert [(n["version"], n["back_to"]) for n in notes] == [(N2, N1)]

    # -- upgrade with N+1's .deb: the journal and the running version stay ----------------------
    events_before = len(journal_notes("update_installed"))
    apt("install", str(built["deb_n1"]))
    assert till("--version", check=True).stdout.split()[1] == N1
    assert len(journal_notes("update_installed")) == events_before
    assert invoice in till("journal", "export", "--format", "json", check=True).stdout

    # -- remove and purge: the program goes, the journal stays -----------------------------------
    apt("purge", PACKAGE)
    assert not APP.exists() and not Path("/usr/bin/cashier").exists()
    assert JOURNAL.exists()
