"""The headless commands as a script runs them: separate processes, JSON out, exit codes."""

from __future__ import annotations

import json
import os
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.config import load_profile
from cashier.flows.payments import sale
from cashier.runtime import open_runtime
from tests.support.profiles import write_profile
from tests.support.tills import cashier


def test_training_sale_then_void_in_two_processes(env: dict[str, str], tmp_path: Path) -> None:
    sold = cashier("sale", "--amount", "12.34", "--tip", "2.00", env=env)
    assert sold.returncode == 0, sold.stderr
    result = json.loads(sold.stdout)
    assert result["outcome"] == "approved" and result["training"] is True
    assert (result["requested"], result["approved"], result["tip"]) == ("14.34", "14.34", "2.00")
    assert result["invoice"] == "0100000001" and result["authorization_code"]
    voided = cashier("void", "--invoice", result["invoice"], env=env)
    assert voided.returncode == 0, voided.stderr
    assert json.loads(voided.stdout)["outcome"] == "voided"
    declined = cashier("sale", "--amount", "1111.00", env=env)  # declined after 0 s
    assert declined.returncode == 1 and json.loads(declined.stdout)["outcome"] == "declined"
    exported = cashier("journal", "export", "--format", "csv", "--output", str(tmp_path / "j.csv"),
                       env=env)
    assert exported.returncode == 0
    rows = (tmp_path / "j.csv").read_text().splitlines()
    assert len(rows) == 3 and "voided" in rows[1]
    data = json.loads(cashier("journal", "export", "--format", "json", env=env).stdout)
    assert [e["state"] for e in data["entries"]] == ["voided", "declined"]
    rec = cashier("recover", env=env)
    assert rec.returncode == 0 and json.loads(rec.stdout) == {"resolved": [], "still_open": []}


@pytest.mark.parametrize("args,field", [
    (["sale", "--amount", "12.345"], "--amount"),
    (["sale", "--amount", "-3"], "--amount"),
    (["sale", "--amount", "5", "--card", "4321000000001119"], "--exp"),
    (["sale", "--amount", "5", "--card", "4321000000001118", "--exp", "1228"], "card"),
    (["sale", "--amount", "5", "--invoice", "12ab"], "--invoice"),
    (["void", "--invoice", "0100000009"], "invoice"),
    (["batch", "close", "--override"], "--manager"),
    (["refund"], "--amount"),
])
def test_bad_arguments_give_a_clear_line_and_no_traceback(env: dict[str, str], args: list[str],
                                                          field: str) -> None:
    done = cashier(*args, env=env)
    assert done.returncode != 0
    assert field in done.stderr and "Traceback" not in done.stderr
    assert "4321000000001118" not in done.stderr + done.stdout


def test_hd_batch_commands(env: dict[str, str], tmp_path: Path) -> None:
    profile = write_profile(tmp_path / "hd.toml", host_url=None, option="HD",
                            journal=tmp_path / "hd.sqlite")
    sold = cashier("--profile", str(profile), "sale", "--amount", "8.00", "--card", "4321000000001119",
                   "--exp", "1228", env=env)
    assert sold.returncode == 0, sold.stderr
    assert "4321000000001119" not in sold.stdout
    totals = json.loads(cashier("--profile", str(profile), "batch", "totals", env=env).stdout)
    assert totals["matches"] and totals["host"]["sale_amount"] == "8.00"
    closed = cashier("--profile", str(profile), "batch", "close", env=env)
    assert closed.returncode == 0, closed.stderr
    assert json.loads(closed.stdout)["batch_no"] == 1


@pytest.mark.socket
async def test_flows_over_a_real_socket(serve_sandbox: Any, tmp_path: Path) -> None:
    served = serve_sandbox("LG")
    with served.control() as control:
        control.post("/_sandbox/faults", json={"path": "/api/rest/v1/transactions/sale",
                                               "action": "drop_after_commit", "count": 1})
    os.environ["CASHIER_ACCESS_TOKEN"] = "SOCKET-TOKEN"
    profile = load_profile(write_profile(tmp_path / "p.toml", host_url=served.api,
                                         journal=tmp_path / "s.sqlite"))
    rt = await open_runtime(profile)
    try:
        lost = await sale(rt.ctx, D("31.00"))
        fine = await sale(rt.ctx, D("32.00"))
    finally:
        await rt.close()
        del os.environ["CASHIER_ACCESS_TOKEN"]
    assert (lost.outcome, lost.entry.approved) == ("approved", D("31.00"))
    assert fine.outcome == "approved"
    with served.control() as control:
        ledger = {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}
    assert D(ledger[str(lost.entry.invoice)]["approvedAmount"]) == D("31.00")
