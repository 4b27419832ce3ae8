"""The packaged till (``make package-test`` builds it first; ``make test`` leaves these out).

They run the frozen program itself: the smoke sale, ``--version``, a journal export, and the
keyring discovery PyInstaller is known to break.
"""

from __future__ import annotations

import fnmatch
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cashier.config import FORBIDDEN_KEYS
from cashier.redact import luhn_ok

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[2]
PROFILE = Path(os.environ.get("CASHIER_PACKAGE_PROFILE", ROOT / "packaging/tills/example.toml"))
TILL_ID = tomllib.loads(PROFILE.read_text())["till_id"]
BUNDLE = ROOT / "dist" / f"cashier-{TILL_ID}"
EXE = BUNDLE / "cashier"


@pytest.fixture(scope="module", autouse=True)
def _bundle_built() -> None:
    if not EXE.exists():
        pytest.fail(f"no bundle at {BUNDLE}: run `make package-test` (it builds first)")


def frozen(*args: str, env: dict[str, str] | None = None,
           timeout: float = 120) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    full_env.update(env or {})
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=timeout,
                          env=full_env)


def test_version_names_till_and_profile_hash() -> None:
    import hashlib

    result = frozen("--version")
    assert result.returncode == 0, result.stderr
    expected = hashlib.sha256(PROFILE.read_bytes()).hexdigest()[:12]
    assert result.stdout.split() == ["cashier", "0.1.0", "till", TILL_ID, "profile", expected]


def test_smoke_sale_in_training_mode(tmp_path: Path) -> None:
    env = {"CASHIER_TRAINING": "true", "CASHIER_JOURNAL_PATH": str(tmp_path / "j.sqlite"),
           "XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path)}
    result = frozen("--smoke", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "approved" in result.stdout.lower()


def test_journal_export_against_a_temp_journal(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    env = {"CASHIER_TRAINING": "true", "CASHIER_JOURNAL_PATH": str(journal), "HOME": str(tmp_path)}
    sale = frozen("sale", "--amount", "12.34", env=env)
    assert sale.returncode == 0, sale.stdout + sale.stderr
    invoice = json.loads(sale.stdout)["invoice"]
    export = frozen("journal", "export", "--format", "json", env=env)
    assert export.returncode == 0, export.stderr
    assert invoice in export.stdout
    assert "12.34" in export.stdout


def test_frozen_keyring_discovers_its_backends(tmp_path: Path) -> None:
    """PyInstaller has dropped keyring's entry points before: the frozen till must list the
    same backends as the source tree does, so a desktop's Secret Service is found."""
    source = subprocess.run([sys.executable, "-m", "cashier.cli", "credentials", "backends"],
                            capture_output=True, text=True, check=True, cwd=ROOT)
    expected = json.loads(source.stdout)
    result = frozen("credentials", "backends", env={"HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["entry_points"] == expected["entry_points"] != []
    assert found["known"] == expected["known"]
    assert "keyring.backends.SecretService" in found["known"]


def test_bundle_holds_only_allowed_files() -> None:
    listing = (ROOT / "packaging/allowed-files.txt").read_text().splitlines()
    patterns = [line.strip() for line in listing if line.strip() and not line.startswith("#")]
    stray = []
    for path in BUNDLE.rglob("*"):
        if path.is_dir():
            continue
        rel = path.relative_to(BUNDLE).as_posix()
        if not any(fnmatch.fnmatch(rel, pattern) for pattern in patterns):
            stray.append(rel)
    assert stray == []


def test_bundle_holds_no_secret() -> None:
    baked = tomllib.loads((BUNDLE / "_internal/profile/till.toml").read_text())
    assert not {k.lower() for k in baked} & FORBIDDEN_KEYS
    secret_values = [v for v in (os.environ.get("CASHIER_ACCESS_TOKEN"),
                                 os.environ.get("CASHIER_CHARGE_API_SECRET_KEY")) if v]
    for path in BUNDLE.rglob("*"):
        if not path.is_file() or path.stat().st_size > 2_000_000 or path.suffix in {".so", ".zip"}:
            continue
        if path.name == "cacert.pem":  # the public CA bundle: certificate serial numbers, no secrets
            continue
        text = path.read_bytes().decode("utf-8", "ignore")
        for value in secret_values:
            assert value not in text, path
        assert "sk_live_" not in text, path
        for word in text.split():
            digits = "".join(ch for ch in word if ch.isdigit())
            if 13 <= len(digits) <= 19 and digits == word.strip('",') and luhn_ok(digits):
                pytest.fail(f"a card-like number in {path}")
