"""One tax rule (issue #36): ``cashier ticket new`` checks a cash tender against the ticket's
total with the ticket's own tax (``money.tax_of``, half-up to the currency's unit), not a second
rule of its own (it rounded up to 0.01). At 8.25 % a 1.00 line's tax is 0.0825: 0.08 by the one
rule (the ticket, its receipt, the reports), 0.09 by the old check, which let 101.09 in cash
through as 100.00 over and then journaled a ticket the tender was refused on."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.profiles import write_profile
from tests.support.tills import cashier


def _profile(tmp_path: Path) -> str:
    return str(write_profile(tmp_path / "till.toml", host_url=None, journal=tmp_path / "j.sqlite",
                             extra=('tax_rate = "8.25"',)))


def test_a_cash_tender_is_checked_against_the_tickets_own_tax(tmp_path: Path,
                                                               env: dict[str, str]) -> None:
    profile = _profile(tmp_path)
    assert cashier("--profile", profile, "drawer", "open", "--float", "100.00", env=env).returncode == 0
    over = cashier("--profile", profile, "ticket", "new", "--item", "Tea=1.00", "--pay", "cash=101.09",
                   env=env)
    assert over.returncode == 2, over.stderr
    assert "cash" in over.stderr and "largest_note" in over.stderr and "100.01" in over.stderr
    listed = cashier("--profile", profile, "ticket", "list", env=env)
    assert json.loads(listed.stdout) == {"tickets": []}  # refused before anything was journaled
    paid = cashier("--profile", profile, "ticket", "new", "--item", "Tea=1.00", "--pay", "cash=101.08",
                   env=env)
    assert paid.returncode == 0, paid.stderr
    t = json.loads(paid.stdout)
    assert (t["subtotal"], t["tax"], t["total"], t["change"]) == ("1.00", "0.08", "1.08", "100.00")
