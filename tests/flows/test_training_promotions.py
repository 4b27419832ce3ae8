"""Issue #38: a trainee sees a promotion apply. The training till (no store, no products in its
profile) sells the training catalog with its happy hour (20 % off the cold drinks, 16:00 to
18:00 on weekdays) and its quantity price (3 cookies for 4.50), through the real command line;
the clock set by libfaketime to a Monday within and outside the happy hour."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.faketime import LIBFAKETIME
from tests.support.forked_cli import run_cashier


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env.update(XDG_DATA_HOME=str(tmp / "data"), CASHIER_JOURNAL_PATH=str(tmp / "t.sqlite"),
               TZ="UTC")
    return env


def test_a_trainee_sees_three_cookies_for_four_fifty(tmp_path: Path) -> None:
    done = run_cashier("ticket", "new", "--sku", "CCKx3", "--sku", "COL", env=_env(tmp_path))
    assert done.returncode == 1, done.stderr  # 1: the ticket is open (no tender yet)
    ticket: dict[str, Any] = json.loads(done.stdout)
    assert ticket["subtotal"] == "7.30" and ticket["discount_total"] == "0.90"
    assert [p["name"] for p in ticket["promotions"]] == ["3 cookies for 4.50"]


@pytest.mark.skipif(LIBFAKETIME is None or shutil.which("faketime") is None,
                    reason="libfaketime is not installed (scripts/system-deps.sh test)")
@pytest.mark.parametrize(("at", "saved"), [("2026-11-23 17:00:00", {"Happy hour": "0.76"}),
                                           ("2026-11-28 17:00:00", {})])  # a Saturday
def test_a_trainee_sees_happy_hour_price_itself(tmp_path: Path, at: str,
                                                saved: dict[str, str]) -> None:
    env = _env(tmp_path)
    env.update(LD_PRELOAD=str(LIBFAKETIME), FAKETIME=f"@{at}", DONT_FAKE_MONOTONIC="1")
    done = subprocess.run([sys.executable, "-m", "cashier.cli", "ticket", "new", "--sku", "COLx2"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr  # 1: the ticket is open (no tender yet)
    ticket = json.loads(done.stdout)
    assert {p["name"]: p["amount"] for p in ticket["promotions"]} == saved
