"""Issue #46 (round 4): the tip rules hold for a tip the customer chooses on the PIN pad. On LG a
sale sent without a tip lets the gateway ask for one; a tip past the rules (500.00 on 10.00,
amount and tip past the till's ``max_amount``) was approved and journaled unchecked. Now the till
voids it (journaled first), says which rule in one line, and the payment (the ticket) is still
due. Real ``cashier`` processes against ``cashier sandbox serve`` over a socket."""

from __future__ import annotations

import json
import os
import subprocess
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.journal.recorder import JournalRecorder
from tests.support.forked_cli import run_cashier
from tests.support.profiles import write_profile

pytestmark = pytest.mark.socket


class PadTill:
    """An LG till with a PIN pad (terminal 1742) whose next customers tip what the test says."""

    def __init__(self, served: Any, tmp_path: Path, *extra: str, option: str = "LG") -> None:
        self.journal = tmp_path / "journal.sqlite"
        self.profile = write_profile(tmp_path / "till.toml", host_url=served.api, option=option,
                                     journal=self.journal, host_longest_s=1.0,
                                     extra=("max_amount = 100.00", *extra))
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        self.env.update(XDG_DATA_HOME=str(tmp_path / "data"), CASHIER_ACCESS_TOKEN="TIP-TOKEN")
        self.control: httpx.Client = served.control()

    def customer_tips(self, tip: str) -> None:
        answer = self.control.post("/_sandbox/terminals/1742/customer", json={"tip": tip})
        assert answer.status_code == 200, answer.text

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run_cashier("--profile", str(self.profile), *args, env=self.env)

    def ledger(self) -> dict[str, dict[str, Any]]:
        return {r["invoice"]: r for r in self.control.get("/_sandbox/ledger").json()["invoices"]}

    def events(self, invoice: str) -> list[str]:
        store = JournalRecorder(self.journal, reader=True)
        try:
            entry = store.by_invoice(invoice)
            assert entry is not None
            return [e.type for e in store.events(entry.id)]
        finally:
            store.close()


def voided(done: subprocess.CompletedProcess[str], till: PadTill, rule: str) -> dict[str, Any]:
    """Exit 2, the JSON result says voided and which rule; the host holds it voided."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    out: dict[str, Any] = json.loads(done.stdout)
    assert out["outcome"] == "voided" and out["state"] == "voided", out
    assert "chosen on the PIN pad breaks the tip rule" in out["message"] and rule in out["message"]
    assert "still due" in out["message"] and "\n" not in out["message"]
    assert till.ledger()[out["invoice"]]["state"] == "voided"
    assert till.events(out["invoice"]) == ["created", "sent", "approved", "tip_refused",
                                           "void_requested", "void_done"]
    return out


def test_a_tip_chosen_on_the_pad_past_the_rules_is_voided_and_said(serve_sandbox: Any,
                                                                   tmp_path: Path) -> None:
    till = PadTill(serve_sandbox("LG"), tmp_path)
    till.customer_tips("500.00")  # on 10.00
    out = voided(till.run("sale", "--amount", "10.00"), till,
                 "tip: must not be more than the amount (10.00)")
    assert D(out["tip"]) == D("500.00")
    till.customer_tips("99000.00")  # past max_amount too: the first rule broken is said
    voided(till.run("sale", "--amount", "10.00"), till, "must not be more than the amount (10.00)")
    till.customer_tips("50.00")  # within the amount, but 60.00 and 50.00 pass max_amount 100.00
    voided(till.run("sale", "--amount", "60.00"), till,
           "tip: amount and tip together must be at most 100.00 (this till's max_amount)")
    till.customer_tips("50.00")  # a tab: LG asks on an authorization too
    voided(till.run("auth", "--amount", "60.00"), till, "this till's max_amount")
    till.customer_tips("4.00")  # within the rules: approved as before
    kept = till.run("sale", "--amount", "10.00")
    assert kept.returncode == 0, kept.stderr
    assert json.loads(kept.stdout)["approved"] == "14.00"


def test_a_ticket_whose_pad_tip_breaks_the_rules_stays_due(serve_sandbox: Any,
                                                          tmp_path: Path) -> None:
    till = PadTill(serve_sandbox("DCP"), tmp_path, 'tip_mode = "pad"', option="DCP")
    till.customer_tips("25.00")  # "other" on the pad: any amount, no request field bounds it
    done = till.run("ticket", "new", "--item", "Tea=10.00", "--pay", "card")
    assert done.returncode == 1, (done.stdout, done.stderr)  # not paid
    ticket = json.loads(done.stdout)
    assert ticket["state"] == "open" and D(ticket["remaining"]) == D("10.00"), ticket
    assert D(ticket["tip"]) == D(0), ticket
    invoice = next(iter(till.ledger()))
    assert till.ledger()[invoice]["state"] == "voided"
    assert "tip_refused" in till.events(invoice)
