"""Issue #46 (round 4): ``cashier sale --invoice N`` is a retry of the same payment only (same
amount, same card, same kind), through real ``cashier`` processes and a sandbox over a socket.

The fault: a retry on an approved invoice with a higher amount and another customer's keyed card
made the host amend the earlier sale (the difference on the first customer's card) and the till
recorded "approved" for the customer at the counter.
"""

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
from tests.support.forked_cli import run_cashier, start_python
from tests.support.profiles import write_profile

pytestmark = pytest.mark.socket
FIRST, OTHER = "4321000000001119", "5432000000003332"


class Counter:
    """One till's profile against a served sandbox; the host's ledger and the journal's events."""

    def __init__(self, served: Any, tmp_path: Path) -> None:
        self.journal = tmp_path / "journal.sqlite"
        self.api = served.api
        self.profile = write_profile(tmp_path / "till.toml", host_url=served.api,
                                     journal=self.journal, host_longest_s=1.0)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        self.env.update(XDG_DATA_HOME=str(tmp_path / "data"), CASHIER_ACCESS_TOKEN="RETRY-TOKEN")
        self.control: httpx.Client = served.control()

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run_cashier("--profile", str(self.profile), *args, env=self.env)

    def sale(self, amount: str, card: str | None = FIRST, *more: str) -> subprocess.CompletedProcess[str]:
        keyed = ("--card", card, "--exp", "1230") if card else ()
        return self.run("sale", "--amount", amount, *keyed, *more)

    def ledger(self) -> dict[str, dict[str, Any]]:
        return {r["invoice"]: r for r in self.control.get("/_sandbox/ledger").json()["invoices"]}

    def events(self) -> int:
        store = JournalRecorder(self.journal, reader=True)
        try:
            return len(store.events())
        finally:
            store.close()

    def fault(self, **rule: Any) -> None:
        rule = {"path": "/api/rest/v1/transactions/sale", "count": 1, **rule}
        assert self.control.post("/_sandbox/faults", json={"rules": [rule]}).status_code == 200


def refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """Exit 2, one line on stderr naming the invoice, nothing on stdout."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and not done.stdout, (done.returncode, done.stderr,
                                                                          done.stdout)
    assert lines[0].startswith("cashier: invoice:") and all(w in lines[0] for w in words), lines[0]
    return lines[0]


@pytest.mark.slow
def test_a_retry_on_an_approved_invoice_for_another_amount_or_card_is_refused(
        serve_sandbox: Any, tmp_path: Path) -> None:
    till = Counter(serve_sandbox("LG"), tmp_path)
    first = till.sale("50.00")
    assert first.returncode == 0, first.stderr
    invoice = json.loads(first.stdout)["invoice"]
    held, events = till.ledger(), till.events()
    # the fault as reported: more, and another customer's keyed card
    refused(till.sale("80.00", OTHER, "--invoice", invoice), invoice, "50.00", "80.00")
    refused(till.sale("50.00", OTHER, "--invoice", invoice), invoice, "..1119", "..3332")
    refused(till.sale("80.00", FIRST, "--invoice", invoice), invoice, "50.00")
    refused(till.sale("50.00", None, "--invoice", invoice), invoice, "PIN pad")
    refused(till.run("auth", "--amount", "50.00", "--card", FIRST, "--exp", "1230",
                     "--invoice", invoice), invoice)
    assert till.ledger() == held and till.events() == events  # nothing sent, nothing journaled
    # the same payment again: the host is not asked, the till says what it already holds
    again = till.sale("50.00", FIRST, "--invoice", invoice)
    assert again.returncode == 0 and "nothing sent" in json.loads(again.stdout)["message"]
    assert till.ledger() == held
    # a voided one is settled: refused, nothing sent
    assert till.run("void", "--invoice", invoice).returncode == 0
    refused(till.sale("50.00", FIRST, "--invoice", invoice), invoice, "voided")


#: Another till's program on the same host sells under a number it also issues (argv: profile,
#: invoice, amount, card): what a second till with the same till number does.
_SELLS_ELSEWHERE = """
import asyncio, sys
from decimal import Decimal
from cashier.config import load_profile
from cashier.flows.payments import KeyedCard
from cashier.host.models.common import Amount
from cashier.runtime import open_runtime

async def main() -> None:
    rt = await open_runtime(load_profile(sys.argv[1]))
    try:
        await rt.client.sale(invoice=sys.argv[2], amount=Amount(total=Decimal(sys.argv[3]),
                             tax=Decimal(0)), card=KeyedCard(sys.argv[4], "1230").wire())
    finally:
        await rt.close()

asyncio.run(main())
"""


def sell_elsewhere(till: Counter, invoice: str, amount: str, card: str) -> None:
    other = write_profile(till.journal.with_name("other.toml"), host_url=till.api,
                          journal=till.journal.with_name("other.sqlite"), option="HD")
    proc = start_python(_SELLS_ELSEWHERE, str(other), invoice, amount, card, env=till.env)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err


def test_a_retry_of_a_payment_not_charged_is_the_same_payment_and_asks_the_host_first(
        serve_sandbox: Any, tmp_path: Path) -> None:
    till = Counter(serve_sandbox("HD"), tmp_path)
    till.fault(action="timeout_504", commit=False)  # the host never had it: "not charged"
    lost = till.sale("16.00")
    assert lost.returncode == 2 and json.loads(lost.stdout)["outcome"] == "error", lost.stdout
    invoice = json.loads(lost.stdout)["invoice"]
    events = till.events()
    refused(till.sale("16.00", OTHER, "--invoice", invoice), invoice, "..1119", "..3332")
    refused(till.sale("26.00", FIRST, "--invoice", invoice), invoice, "16.00", "26.00")
    assert invoice not in till.ledger() and till.events() == events
    # the same payment: sent again under its number, approved once
    retried = till.sale("16.00", FIRST, "--invoice", invoice)
    assert retried.returncode == 0, retried.stderr
    out = json.loads(retried.stdout)
    assert out["outcome"] == "approved" and D(out["approved"]) == D("16.00")
    assert D(till.ledger()[invoice]["approvedAmount"]) == D("16.00")
    # another request lands under a number the till holds as not charged (a second till with the
    # same number, a replaced journal): the retry asks the host first and refuses, nothing sent
    till.fault(action="timeout_504", commit=False)
    lost = till.sale("20.00")
    invoice = json.loads(lost.stdout)["invoice"]
    sell_elsewhere(till, invoice, "30.00", OTHER)
    held, events = till.ledger(), till.events()
    refused(till.sale("20.00", FIRST, "--invoice", invoice), invoice, "another payment")
    assert till.ledger() == held and till.events() == events
    assert D(held[invoice]["approvedAmount"]) == D("30.00")


def test_a_declined_pad_payment_retried_on_the_pad_is_read_against_the_card_presented_now(
        serve_sandbox: Any, tmp_path: Path) -> None:
    """The decline named the first card; the retry's customer presents another on the pad and
    the answer is lost: the host's approval is this payment's (not "another request"), so the
    customer is never told "not charged" while charged."""
    till = Counter(serve_sandbox("LG"), tmp_path)
    pin_card = "2221000000000009"  # contactless: the host wants an online PIN (S, declined)
    assert till.control.post("/_sandbox/terminals/1742/customer",
                             json={"card": pin_card}).status_code == 200
    declined = till.sale("12.00", None)
    assert declined.returncode == 1, declined.stdout
    invoice = json.loads(declined.stdout)["invoice"]
    assert till.control.post("/_sandbox/terminals/1742/customer",
                             json={"card": FIRST, "entry_mode": "E"}).status_code == 200
    till.fault(action="drop_after_commit")
    retried = till.sale("12.00", None, "--invoice", invoice)
    out = json.loads(retried.stdout)
    assert (retried.returncode, out["outcome"]) == (0, "approved"), (out, retried.stderr)
    assert out["card"].endswith("1119") and D(out["approved"]) == D("12.00")
    assert D(till.ledger()[invoice]["approvedAmount"]) == D("12.00")
