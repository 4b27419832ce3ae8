"""Issue #46 (round 4): a till's clock past the last day its invoice numbers can be bound to
(2052-05-18: day N starts at N x 10,000 in 8 digits) was refused as "sequence: must be a whole
number". The refusal names the clock, the date it says and the rule; nothing is sent or kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.journal.model import NewEntry
from cashier.journal.recorder import JournalRecorder
from tests.support.faketime import LIBFAKETIME
from tests.support.profiles import write_profile


def test_the_last_day_issues_numbers_and_the_day_after_is_refused_naming_the_clock(
        tmp_path: Path) -> None:
    now = [datetime(2052, 5, 18, 23, 59, tzinfo=UTC)]
    journal = JournalRecorder(tmp_path / "j.sqlite", clock=lambda: now[0], invoice_time_floor=True)
    try:
        assert journal.create(NewEntry("sale", Decimal("1.00"), actor="1")).invoice == "0199990001"
        now[0] += timedelta(minutes=2)
        with pytest.raises(ValidationError) as refused:
            journal.create(NewEntry("sale", Decimal("1.00"), actor="1"))
        assert refused.value.field == "clock"
        assert str(refused.value) == ("clock: the till's clock says 2052-05-19, after 2052-05-18, "
                                      "the last day invoice numbers can be bound to: set the clock "
                                      "right")
        assert len(journal.all_rows()) == 1
    finally:
        journal.close()


@pytest.mark.socket
@pytest.mark.skipif(LIBFAKETIME is None or shutil.which("faketime") is None,
                    reason="libfaketime is not installed (scripts/system-deps.sh test)")
def test_a_sale_under_a_clock_in_2060_is_refused_in_one_line_naming_the_clock(
        serve_sandbox: Any, tmp_path: Path) -> None:
    served = serve_sandbox("LG")
    journal = tmp_path / "j.sqlite"
    profile = write_profile(tmp_path / "till.toml", host_url=served.api, journal=journal)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env.update(CASHIER_ACCESS_TOKEN="CLOCK-TOKEN", XDG_STATE_HOME=str(tmp_path / "state"),
               LD_PRELOAD=str(LIBFAKETIME), FAKETIME="@2060-03-01 10:00:00",
               DONT_FAKE_MONOTONIC="1")
    done = subprocess.run([sys.executable, "-m", "cashier.cli", "--profile", str(profile), "sale",
                           "--amount", "1.00"], env=env, capture_output=True, text=True, timeout=120)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and not done.stdout and len(lines) == 1, done.stderr
    assert lines[0].startswith("cashier: clock: the till's clock says 2060-03-01, after 2052-05-18")
    assert "sequence" not in lines[0]
    with served.control() as control:
        assert control.get("/_sandbox/ledger").json()["invoices"] == []
    kept = JournalRecorder(journal, reader=True)
    try:
        assert kept.all_rows() == [] and kept.invoice_high_water() == 0
    finally:
        kept.close()
