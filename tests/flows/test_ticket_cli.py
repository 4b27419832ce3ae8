"""``cashier ticket`` as a script runs it: separate processes, one JSON object, exit codes, and a
SIGKILL in the middle of a ticket followed by recovery over a real socket."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.forked_cli import run_cashier
from tests.support.profiles import write_profile
from tests.support.tills import cashier


def test_new_split_show_list_and_export(env: dict[str, str]) -> None:
    assert cashier("drawer", "open", "--float", "100.00", env=env).returncode == 0
    done = cashier("ticket", "new", "--item", "Coffee=3.50x2", "--item", "Cake=4.00", "--tip", "1.00",
                   "--pay", "card=5.00", "--pay", "cash=20", env=env)
    assert done.returncode == 0, done.stderr
    t = json.loads(done.stdout)
    assert (t["ticket"], t["state"], t["subtotal"], t["tax"], t["tip"], t["total"]) == (
        1, "paid", "11.00", "0.00", "1.00", "12.00")
    assert (t["paid"], t["remaining"], t["change"]) == ("12.00", "0.00", "13.00")
    # issue #37: a typed line also says what it was sold as (no sku, the default class and rate)
    assert t["lines"][0] == {"name": "Coffee", "quantity": 2, "unit_price": "3.50", "amount": "7.00",
                             "sku": None, "catalog_version": None, "tax_class": "standard",
                             "tax_rate": "0"}
    card, cash = t["tenders"]
    assert (card["kind"], card["amount"], card["outcome"], card["tendered"]) == ("card", "5.00",
                                                                               "approved", None)
    assert card["invoice"] == "0100000001" and card["card"].endswith("1119")
    assert (cash["kind"], cash["amount"], cash["tendered"], cash["outcome"]) == ("cash", "7.00",
                                                                               "20.00", "approved")
    shown = cashier("ticket", "show", "1", env=env)
    assert shown.returncode == 0 and json.loads(shown.stdout) == t
    listed = json.loads(cashier("ticket", "list", env=env).stdout)
    assert [x["ticket"] for x in listed["tickets"]] == [1]
    assert json.loads(cashier("ticket", "list", "--open", env=env).stdout) == {"tickets": []}
    exported = json.loads(cashier("journal", "export", "--format", "json", env=env).stdout)
    assert exported["tickets"][0]["tenders"] == t["tenders"]
    assert {e["ticket_id"] for e in exported["entries"]} == {1}


def test_partial_leaves_it_open_then_pay_then_cancel(env: dict[str, str]) -> None:
    assert cashier("drawer", "open", "--float", "100.00", env=env).returncode == 0
    part = cashier("ticket", "new", "--amount", "219.00", "--pay", "card", env=env)
    assert part.returncode == 1, part.stderr
    t = json.loads(part.stdout)
    assert t["state"] == "open" and t["remaining"] == "109.50" and t["tenders"][0]["outcome"] == "partial"
    paid = cashier("ticket", "pay", "1", "--pay", "cash=100", env=env)
    assert paid.returncode == 1 and json.loads(paid.stdout)["remaining"] == "9.50"
    gone = cashier("ticket", "cancel", "1", env=env)
    assert gone.returncode == 0, gone.stderr
    t = json.loads(gone.stdout)
    assert t["state"] == "cancelled"
    assert [x["outcome"] for x in t["tenders"]] == ["voided", "returned"]
    again = cashier("ticket", "pay", "1", "--pay", "cash=5", env=env)
    assert again.returncode == 2 and "not open" in again.stderr


def test_decline_then_another_card_exits_by_outcome(env: dict[str, str]) -> None:
    declined = cashier("ticket", "new", "--amount", "1111.00", "--pay", "card", env=env)
    assert declined.returncode == 1
    assert json.loads(declined.stdout)["tenders"][0]["outcome"] == "declined"
    ok = cashier("ticket", "new", "--amount", "30", "--pay", "card=31.00", "--pay", "card", env=env)
    assert ok.returncode == 2  # an amount above what remains: one line, nothing sent
    assert "remains" in ok.stderr and ok.stdout == ""
    shown = json.loads(cashier("ticket", "show", "2", env=env).stdout)
    assert (shown["state"], shown["tenders"]) == ("open", [])


@pytest.mark.parametrize("args,field", [
    (["ticket", "new", "--pay", "card"], "--item"),
    (["ticket", "new", "--item", "Tea"], "--item"),
    (["ticket", "new", "--item", "Tea=2.005"], "--item price"),
    (["ticket", "new", "--amount", "5", "--pay", "cash"], "cash"),
    (["ticket", "new", "--amount", "5", "--pay", "cheque"], "--pay"),
    (["ticket", "new", "--amount", "5", "--card", "4321000000001119", "--exp", "1228"], "--card"),
    (["ticket", "pay", "x1", "--pay", "card"], "TICKET"),
    (["ticket", "show", "7"], "ticket"),
])
def test_bad_input_exits_2_and_sends_nothing(env: dict[str, str], args: list[str], field: str) -> None:
    done = cashier(*args, env=env)
    assert done.returncode == 2, done.stdout
    assert field in done.stderr and "Traceback" not in done.stderr
    assert "4321000000001119" not in done.stderr + done.stdout
    assert json.loads(cashier("ticket", "list", env=env).stdout) == {"tickets": []}


def _card_entry_sent(journal: Path) -> bool:
    if not journal.exists():
        return False
    try:
        with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as conn:
            row = conn.execute("SELECT COUNT(*) FROM entries WHERE kind = 'sale' AND state = 'sent' "
                               "AND ticket_id IS NOT NULL").fetchone()
    except sqlite3.Error:
        return False
    return bool(row[0])


@pytest.mark.slow
def test_sigkill_mid_ticket_then_recovery(serve_sandbox: Any, env: dict[str, str], tmp_path: Path) -> None:
    served = serve_sandbox("LG")
    journal = tmp_path / "killed.sqlite"
    profile = write_profile(tmp_path / "till.toml", host_url=served.api, journal=journal)
    env = {**env, "CASHIER_ACCESS_TOKEN": "SANDBOX-TOKEN"}
    opened = run_cashier("--profile", str(profile), "drawer", "open", "--float", "100.00", env=env)
    assert opened.returncode == 0, opened.stderr
    with served.control() as control:  # the customer takes a while to tap
        control.post("/_sandbox/terminals/1742/customer", json={"delay_ms": 1500, "once": True})
    proc = subprocess.Popen([sys.executable, "-m", "cashier.cli", "--profile", str(profile), "ticket",
                             "new", "--item", "Lamp=30.00", "--pay", "cash=10", "--pay", "card"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    with served.control() as control:
        # killed once the request reached the host (the pad waits for the customer), not merely
        # once it was journaled as sent: a kill between the two is a sale the host never had
        while not (_card_entry_sent(journal) and control.get("/_sandbox/terminals/1742").json()
                   .get("state") == "waiting for card"):
            assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
            time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    # the customer taps at the pad; the host approves what the till never heard (waited for on
    # the host's ledger, not for a fixed time: a loaded machine takes longer)
    deadline = time.monotonic() + 60  # generous: a loaded 2-core machine starves the server
    with served.control() as control:
        while not any(r["state"] == "sale" for r in control.get("/_sandbox/ledger").json()["invoices"]):
            assert time.monotonic() < deadline, "the host never approved the card tender"
            time.sleep(0.05)
    base = ["--profile", str(profile)]
    listed = run_cashier(*base, "ticket", "list", "--open", env=env)
    [ticket] = json.loads(listed.stdout)["tickets"]
    assert ticket["tenders"][-1]["outcome"] == "unknown" and ticket["paid"] == "10.00"
    rec = run_cashier(*base, "recover", "--grace", "0.3", env=env)
    assert rec.returncode == 0, rec.stderr
    assert json.loads(rec.stdout)["tickets_paid"] == [1]
    shown = json.loads(run_cashier(*base, "ticket", "show", "1", env=env).stdout)
    assert [x["outcome"] for x in shown["tenders"]] == ["approved", "approved"]
    # settling the last tender settled the ticket (issue #46): nothing is left to pay again
    assert (shown["state"], shown["remaining"]) == ("paid", "0.00")
    again = run_cashier(*base, "ticket", "pay", "1", "--pay", "card", env=env)
    assert again.returncode == 2 and "not open" in again.stderr
    with served.control() as control:
        ledger = control.get("/_sandbox/ledger").json()["invoices"]
    assert [(r["state"], r["approvedAmount"]) for r in ledger] == [("sale", "20.00")]


def test_refund_a_line_then_the_rest_back_to_the_card(env: dict[str, str]) -> None:
    done = cashier("ticket", "new", "--item", "Coffee=3.50x2", "--item", "Cake=4.00", "--pay", "card",
                   env=env)
    assert done.returncode == 0, done.stderr
    assert cashier("ticket", "refund", "1", "--line", "3", env=env).returncode == 2  # no line 3
    line = cashier("ticket", "refund", "1", "--line", "2", env=env)  # the cake
    assert line.returncode == 0, line.stderr
    first = json.loads(line.stdout)["refunded"]
    assert [(r["kind"], r["amount"], r["state"]) for r in first] == [("refund", "4.00", "approved")]
    rest = cashier("ticket", "refund", "1", env=env)
    assert rest.returncode == 0, rest.stderr
    assert [(r["kind"], r["amount"]) for r in json.loads(rest.stdout)["refunded"]] == [("refund", "7.00")]
    assert cashier("ticket", "refund", "1", env=env).returncode != 0  # nothing left to give back
    exported = json.loads(cashier("journal", "export", "--format", "json", env=env).stdout)
    refunds = [e for e in exported["entries"] if e["kind"] == "refund"]
    assert sorted(e["approved"] for e in refunds) == ["4.00", "7.00"]
    assert all(e["original_invoice"] == "0100000001" and e["ticket_id"] == 1 for e in refunds)
