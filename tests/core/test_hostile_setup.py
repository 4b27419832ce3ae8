"""Issue 11 items 8-12: loopback URLs, log file modes, till identity, secrets, broken journal or
profile files: refused with one line naming the field or file, exit 2, nothing sent."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import threading
from pathlib import Path

import pytest

from cashier.config import ProfileError, load_profile
from cashier.journal.recorder import JournalOpenError, JournalRecorder
from cashier.net import is_loopback_url
from tests.support.tills import cashier

REAL = 'till_id = "store1-till1"\ntill_number = 3\nterminal_id = "1742"\n'


def write(tmp_path: Path, text: str, name: str = "till.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("url", [
    "http://127.attacker.example/api/rest/v1", "http://127.0.0.1.evil.example/api",
    "http://localhost.evil.example/api", "http://127.0.0.1@evil.example/api",
    "http://[::2]/api", "http://128.0.0.1/api",
])
def test_plain_http_only_to_a_real_loopback_address(tmp_path: Path, url: str) -> None:
    assert not is_loopback_url(url)
    for field in ("host_url", "charge_api_url"):
        with pytest.raises(ProfileError, match=field):
            load_profile(write(tmp_path, REAL + f'{field} = "{url}"\n'))
    from cashier.chargeapi.client import check_url
    from cashier.errors import ValidationError

    with pytest.raises(ValidationError):
        check_url(url)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8787/api", "http://127.9.9.9/api",
                                 "http://localhost:1/api", "http://[::1]:8080/api"])
def test_loopback_addresses_may_use_plain_http(tmp_path: Path, url: str) -> None:
    assert is_loopback_url(url)
    assert load_profile(write(tmp_path, REAL + f'host_url = "{url}"\n')).host_url


def test_log_files_are_owner_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cashier.logs import setup_logging

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])  # what earlier in-process runs left stays out
    monkeypatch.setattr(root, "_cashier_configured", False, raising=False)
    monkeypatch.setattr(root, "level", root.level)
    setup_logging(log_file=tmp_path / "logs" / "cashier.log")
    added = list(root.handlers)
    try:
        logging.getLogger("cashier").warning("hello")
        for handler in added:
            handler.flush()
        mode = stat.S_IMODE(os.stat(tmp_path / "logs" / "cashier.log").st_mode)
        assert mode == 0o600, oct(mode)
    finally:
        for handler in added:
            handler.close()


@pytest.mark.parametrize(("text", "field"), [
    ('till_number = 3\nterminal_id = "1"\n', "till_id"),
    ('till_id = "store1-till1"\nterminal_id = "1"\n', "till_number"),
])
def test_a_real_till_must_name_itself(tmp_path: Path, text: str, field: str) -> None:
    with pytest.raises(ProfileError, match=field):
        load_profile(write(tmp_path, text + 'host_url = "https://gw.example/api/rest/v1"\n'))


@pytest.mark.parametrize(("field", "value"), [
    ("hmac_key_id", "sk_live_51HxYzAbCdEf"), ("terminal_id", "sk_test_abcdef123456"),
    ("company_name", "rk_live_abcdefgh"),
    ("manager_pin_hash", "EA79FB05-3AA7-4500-AF9A-73F986FF2C1D-0123456789ABCDE"),
])
def test_a_value_that_looks_like_a_secret_is_refused_in_every_field(tmp_path: Path, field: str,
                                                                    value: str) -> None:
    text = REAL.replace('terminal_id = "1742"\n', "") if field == "terminal_id" else REAL
    with pytest.raises(ProfileError) as info:
        load_profile(write(tmp_path, text + f'{field} = "{value}"\n'))
    assert field in str(info.value) and value not in str(info.value)


# ---- files that cannot be used ----------------------------------------------------------------
def _broken_journal(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "journal.sqlite"
    if kind == "random":
        path.write_bytes(os.urandom(8192))
    elif kind == "text":
        path.write_text("these are the till's notes\n" * 50)
    elif kind == "truncated":
        store = JournalRecorder(path)
        store.close()
        data = path.read_bytes()
        path.write_bytes(data[:1000])
    elif kind == "other_sqlite":
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        conn.commit()
        conn.close()
    elif kind == "directory":
        path.mkdir()
    elif kind == "readonly":
        JournalRecorder(path).close()
        path.chmod(0o400)
        path.parent.chmod(0o500)
    return path


@pytest.mark.parametrize(("kind", "cause"), [
    ("random", "not a Cashier journal"), ("text", "not a Cashier journal"),
    ("truncated", "not a Cashier journal"), ("other_sqlite", "another program"),
    ("directory", "folder"), ("readonly", "read-only"),
])
def test_a_journal_that_cannot_be_opened_gives_one_line(tmp_path: Path, kind: str,
                                                        cause: str) -> None:
    if kind == "readonly" and os.geteuid() == 0:
        pytest.skip("root writes read-only files; the hostile run covers a read-only mount")
    path = _broken_journal(tmp_path, kind)
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env["CASHIER_JOURNAL_PATH"] = str(path)
        done = cashier("sale", "--amount", "5.00", env=env)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert "journal_path" in lines[0] and str(path) in lines[0] and cause in lines[0]
        assert done.stdout == ""  # nothing sent, no result
    finally:
        path.parent.chmod(0o700)
    if kind == "other_sqlite":
        conn = sqlite3.connect(path)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        conn.close()
        assert tables == {"photos"}  # their file untouched


def test_a_locked_journal_names_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    JournalRecorder(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    failure: list[BaseException] = []

    def open_it() -> None:
        try:
            JournalRecorder(path, lock_timeout_s=0.3)
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=open_it)
    thread.start()
    thread.join(10)
    holder.execute("ROLLBACK")
    holder.close()
    assert failure and isinstance(failure[0], JournalOpenError)
    assert "journal_path" in str(failure[0]) and "locked" in str(failure[0])


def test_a_profile_of_random_bytes_gives_one_line(tmp_path: Path) -> None:
    profile = tmp_path / "till.toml"
    profile.write_bytes(bytes(range(256)) * 4)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    done = cashier("--profile", str(profile), "sale", "--amount", "5.00", env=env)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert str(profile) in lines[0] and "Traceback" not in done.stderr


def test_a_journal_on_a_read_only_mount_gives_one_line(tmp_path: Path) -> None:
    """As root a read-only file is still writable; a read-only mount is not."""
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("needs root to mount (the read-only file case covers other users)")
    disk = tmp_path / "ro"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        path = disk / "journal.sqlite"
        JournalRecorder(path).close()
        assert subprocess.run(["mount", "-o", "remount,ro", str(disk)],
                              capture_output=True).returncode == 0
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env["CASHIER_JOURNAL_PATH"] = str(path)
        done = cashier("sale", "--amount", "5.00", env=env)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert "journal_path" in lines[0] and "read-only" in lines[0] and done.stdout == ""
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def test_a_journal_file_alone_on_a_read_only_mount_gives_one_line(tmp_path: Path) -> None:
    """The file bind-mounted read-only in a writable folder: SQLite opens it (the WAL goes in the
    folder) and the first write fails; one line names the journal, and the log holds no
    traceback."""
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("needs root to mount (the read-only file case covers other users)")
    path = tmp_path / "journal.sqlite"
    JournalRecorder(path).close()
    if subprocess.run(["mount", "--bind", str(path), str(path)], capture_output=True).returncode:
        pytest.skip("cannot bind-mount here")
    try:
        assert subprocess.run(["mount", "-o", "remount,bind,ro", str(path)],
                              capture_output=True).returncode == 0
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env |= {"CASHIER_JOURNAL_PATH": str(path), "CASHIER_LOG_DIR": str(tmp_path / "logs"),
                "XDG_DATA_HOME": str(tmp_path / "data")}
        for argv in (("sale", "--amount", "5.00"), ("ticket", "new", "--item", "Tea=1.00"),
                     ("drawer", "open", "--float", "10")):
            done = cashier(*argv, env=env)
            lines = done.stderr.strip().splitlines()
            assert done.returncode == 2 and len(lines) == 1, done.stderr
            assert f"journal_path {path}" in lines[0] and "read-only" in lines[0]
            assert done.stdout == ""
        logs = "".join(p.read_text() for p in (tmp_path / "logs").glob("*.log"))
        assert (tmp_path / "logs" / "cashier.log").exists()  # the log the traceback went to
        assert "Traceback" not in logs and "unexpected error" not in logs
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def test_the_training_sandbox_state_beside_the_journal_is_owner_only(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    done = cashier("sale", "--amount", "1.00", env=env)
    assert done.returncode == 0, done.stderr
    beside = [p for p in (tmp_path / "data").rglob("*") if p.is_file()]
    assert any(p.name.endswith(".sandbox.json") for p in beside)
    assert {oct(p.stat().st_mode & 0o777) for p in beside} == {"0o600"}, \
        [(p.name, oct(p.stat().st_mode & 0o777)) for p in beside]
