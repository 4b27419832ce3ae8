"""Time only moves forward for money (issue 27): real ``cashier`` processes under libfaketime,
the clock set back and forward. The cash stays in the drawer session open when it was taken, the
business date never goes back, the Z report's sums hold, and the jump is journaled."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from decimal import Decimal as D
from pathlib import Path

import pytest

from cashier.journal.recorder import JournalRecorder
from tests.support.faketime import LIBFAKETIME
from tests.support.forked_cli import run_cashier

pytestmark = pytest.mark.skipif(LIBFAKETIME is None or shutil.which("faketime") is None,
                                reason="libfaketime is not installed (scripts/system-deps.sh test)")


def _cashier(journal: Path, tmp: Path, *args: str, offset: str | None = None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env["XDG_DATA_HOME"] = str(tmp / "data")
    env["CASHIER_JOURNAL_PATH"] = str(journal)
    if offset is not None:  # this process's clock, moved by libfaketime (relative to now): a
        # library preloaded at the start of a new program
        env.update(LD_PRELOAD=str(LIBFAKETIME), FAKETIME=offset, DONT_FAKE_MONOTONIC="1")
        done = subprocess.run([sys.executable, "-m", "cashier.cli", *args], env=env,
                              capture_output=True, text=True, timeout=120)
    else:  # the true clock: a process forked from the worker's pre-imported command
        done = run_cashier(*args, env=env, timeout=120)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout) if done.stdout.strip().startswith("{") else {}


@pytest.mark.slow
def test_a_clock_set_back_then_forward_keeps_the_drawer_and_its_report_whole(tmp_path: Path) -> None:
    journal = tmp_path / "till.sqlite"
    _cashier(journal, tmp_path, "drawer", "open", "--float", "20.00")
    # the clock an hour behind: the 1.00 is still this session's cash
    _cashier(journal, tmp_path, "ticket", "new", "--item", "Tea=1.00", "--pay", "cash=1.00",
             offset="-1h")
    # then a day ahead: another 6.00 in cash
    _cashier(journal, tmp_path, "ticket", "new", "--item", "Cake=6.00", "--pay", "cash=6.00",
             offset="+1d")
    _cashier(journal, tmp_path, "drawer", "close", "--counted", "27.00")
    cash = _cashier(journal, tmp_path, "report", "z")["cash"]
    assert isinstance(cash, dict)
    expected = (D(cash["float"]) + D(cash["cash_sales"]) - D(cash["cash_refunds"])
                + D(cash["pay_ins"]) - D(cash["pay_outs"]))
    assert (D(cash["cash_sales"]), D(cash["expected"])) == (D("7.00"), expected)
    assert D(cash["over_short"]) == D(cash["counted"]) - D(cash["expected"]) == 0
    store = JournalRecorder(journal, reader=True)
    try:
        events = store.events()
        entries = sorted(store.search(kinds=["cash"]), key=lambda e: e.id)
    finally:
        store.close()
    stamps = [e.at for e in events]
    assert stamps == sorted(stamps)  # the journal's time never went back
    days = [e.business_date for e in entries]
    assert days == sorted(days) and len(set(days)) == 2  # nor the business date; the day ahead counts
    moved = [e.data["_note"] for e in events if e.type == "clock_moved"]
    assert any(m["by_s"] < -3000 for m in moved), moved  # an hour back, journaled
