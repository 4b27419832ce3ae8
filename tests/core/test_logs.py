"""The till's log file: written where the profile says, owner-only, with no card data."""

import os
import subprocess
import sys
from pathlib import Path


def test_verbose_sale_log_has_no_card_number(tmp_path: Path) -> None:
    env = dict(os.environ, CASHIER_LOG_DIR=str(tmp_path / "log"),
               CASHIER_JOURNAL_PATH=str(tmp_path / "journal.sqlite"), CASHIER_PROCESSING_OPTION="HD")
    result = subprocess.run(
        [sys.executable, "-m", "cashier.cli", "-v", "sale", "--amount", "3.21",
         "--card", "4321000000001119", "--exp", "1230"],
        capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    log = tmp_path / "log" / "cashier.log"
    text = log.read_text()
    assert "transactions/sale" in text  # verbose logging reached the file
    assert "4321000000001119" not in text + result.stderr + result.stdout
    assert (log.parent.stat().st_mode & 0o777) == 0o700
