"""Refunds and voids as real ``cashier`` processes run them (issue #46, "Money and authority,
round 4"): a sale refunded in part is never voided (the till refuses it, and the host refuses it
when another till sends it); a ticket line is refunded at most once, across commands and
processes; a ticket whose last tender ``recover`` settled is paid as if the answer had come on
time.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.journal.model import State
from cashier.journal.recorder import JournalRecorder
from tests.support.cli_tills import CliTill
from tests.support.forked_cli import start_python
from tests.support.tills import cashier

CARD = ("--card", "4321000000001119", "--exp", "1230")


def _one_line(err: str) -> bool:
    lines = [line for line in err.splitlines() if line.strip()]
    return len(lines) == 1 and "Traceback" not in err


def _training_journal(env: dict[str, str]) -> Path:
    [journal] = Path(env["XDG_DATA_HOME"]).rglob("journal-training.sqlite")
    return journal


def _counts(journal: Path) -> tuple[int, int]:
    """Entries and events: what a refused command must leave as it was."""
    store = JournalRecorder(journal, reader=True)
    try:
        return len(store.all_rows()), len(store.events())
    finally:
        store.close()


# ---- 1. a sale with a refund against it is never voided -------------------------------------
def test_a_refunded_sale_is_refused_a_void_with_one_line_nothing_journaled(
        env: dict[str, str], tmp_path: Path) -> None:
    sold = cashier("sale", "--amount", "20.00", *CARD, env=env)
    assert sold.returncode == 0, sold.stderr
    invoice = json.loads(sold.stdout)["invoice"]
    part = cashier("refund", "--amount", "5.00", "--original-invoice", invoice, env=env)
    assert part.returncode == 0, part.stderr
    journal = _training_journal(env)
    before = _counts(journal)
    voided = cashier("void", "--invoice", invoice, env=env)
    assert voided.returncode == 2 and voided.stdout == "", voided.stdout
    assert _one_line(voided.stderr), voided.stderr
    assert "invoice: was refunded (5.00 of 20.00): refund the rest (15.00) instead" in voided.stderr
    assert _counts(journal) == before  # nothing journaled
    report = json.loads(cashier("report", "x", env=env).stdout)
    assert (report["net"], report["voids"]["count"], report["refunds"]["amount"]) == ("15.00", 0, "5.00")
    # the rest refunded: still never voided; the money went back once
    rest = cashier("refund", "--amount", "15.00", "--original-invoice", invoice, env=env)
    assert rest.returncode == 0, rest.stderr
    again = cashier("void", "--invoice", invoice, env=env)
    assert again.returncode == 2 and "was refunded (20.00 of 20.00)" in again.stderr
    report = json.loads(cashier("report", "x", env=env).stdout)
    assert (report["net"], report["voids"]["count"]) == ("0.00", 0)


#: Another till's program on the same host sends a void of an invoice and prints what the host
#: answered (argv: profile, invoice): the host, not the till that sold, must refuse it.
_OTHER_TILL_TRIES_VOID = """
import asyncio, json, sys
from cashier.config import load_profile
from cashier.host.errors import HostError
from cashier.runtime import open_runtime

async def main() -> None:
    rt = await open_runtime(load_profile(sys.argv[1]))
    try:
        await rt.client.void(sys.argv[2])
        print(json.dumps({"voided": True}))
    except HostError as exc:
        print(json.dumps({"code": exc.code, "primary": exc.primary_code, "refused": exc.refused,
                          "text": exc.long_text, "http": exc.http_status}))
    finally:
        await rt.close()

asyncio.run(main())
"""


@pytest.mark.socket
def test_the_host_refuses_a_void_of_a_refunded_sale_and_the_journal_counts_once(
        serve_sandbox: Any, tmp_path: Path) -> None:
    """Till A sells; till B refunds part of it (its journal has no such sale, the host does);
    till A, which never heard of the refund, sends the void: the host refuses it (50100,
    invalid status) at once, and A's journal keeps the sale approved, no void counted. Another
    till's void sent at the host directly is refused the same way, and ``recover`` finds the
    host and the journal agree."""
    served = serve_sandbox("LG")
    seller = CliTill(served, tmp_path, "a", number=1)
    refunder = CliTill(served, tmp_path, "b", number=2)
    sold = seller.run("sale", "--amount", "20.00", *CARD)
    assert sold.returncode == 0, sold.stderr
    invoice = json.loads(sold.stdout)["invoice"]
    part = refunder.run("refund", "--amount", "5.00", "--original-invoice", invoice)
    assert part.returncode == 0, part.stderr
    voided = seller.run("void", "--invoice", invoice)
    assert voided.returncode == 1, voided.stdout + voided.stderr  # refused: the sale stands
    result = json.loads(voided.stdout)
    assert (result["outcome"], result["state"]) == ("approved", "approved")
    assert "invalid status" in result["message"] and "refund the rest" in result["message"]
    entry = seller.entries()[invoice]
    assert (entry.state, entry.approved) == (State.APPROVED, D("20.00"))
    other = start_python(_OTHER_TILL_TRIES_VOID, str(refunder.profile), invoice, env=refunder.env)
    said, err = other.communicate(timeout=60)
    assert other.wait() == 0, err
    answer = json.loads(said)
    assert (answer["code"], answer["refused"], answer["http"]) == ("50100", True, 400), answer
    with served.control() as control:
        held = {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}
    assert (held[invoice]["state"], held[invoice]["refundedAmount"]) == ("sale", "5.00")
    recovered = seller.run("recover")
    assert recovered.returncode == 0, recovered.stderr
    assert "corrected" not in json.loads(recovered.stdout)
    seller.assert_journal_is_host()
    report = json.loads(seller.run("report", "x").stdout)
    assert (report["gross"], report["voids"]["count"]) == ("20.00", 0)


def _host_and_journal(till: CliTill) -> dict[str, tuple[str, str, str]]:
    """Every invoice as the host holds it (state, approved, refunded), asserted to be what the
    till's journal holds (nothing left unresolved)."""
    with till.served.control() as control:
        ledger = {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}
    held = {i: (r["state"], r["approvedAmount"], str(D(r.get("refundedAmount", "0")) + D("0.00")))
            for i, r in ledger.items()}
    words = {("sale", State.APPROVED): "sale", ("refund", State.APPROVED): "refund"}
    mine = {i: (words.get((str(e.kind), e.state), str(e.state)), str(e.approved), str(e.refunded))
            for i, e in till.entries().items()
            if i in ledger or e.state not in (State.ERROR, State.DECLINED)}  # not charged
    assert held == mine, (held, mine)
    return held


def _next(invoice: str) -> str:
    return f"{int(invoice) + 1:010d}"


def _until(check: Any, what: str, timeout_s: float = 60.0) -> Any:
    """Wait for a real event (a host's ledger, a fault fired), at most ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not (found := check()):
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)
    return found


REFUND_PATH = "/api/rest/v1/transactions/refund"
STATUS_PATH = "/api/rest/v1/transactions/invoice"
#: How slowly the host answers a question about an invoice while an answer is being lost: long
#: enough to kill the process while it asks, short of a till's host_s (the invoice floor asks too)
SLOW_MS = 700


@pytest.mark.slow
@pytest.mark.socket
def test_a_refund_whose_answer_was_lost_holds_the_void_until_recovery_tells(
        serve_sandbox: Any, tmp_path: Path) -> None:
    """The refund reached the host, its answer was lost, and the process that sent it was killed
    while it asked the host what happened: the sale may have been refunded, so a void is
    refused, nothing sent; once ``recover`` tells the refund approved, the void is refused as
    for any refunded sale, and the journal and the host agree."""
    served = serve_sandbox("LG")
    till = CliTill(served, tmp_path, "t")
    sold = till.run("sale", "--amount", "30.00", *CARD)
    invoice = json.loads(sold.stdout)["invoice"]
    control = served.control()
    rules = [{"path": REFUND_PATH, "action": "drop_after_commit", "count": 1},
             # every question about an invoice answered slowly (the invoice floor's too)
             {"path": STATUS_PATH, "action": "delay", "delay_ms": SLOW_MS}]
    assert control.post("/_sandbox/faults", json={"rules": rules}).status_code == 200
    proc = till.start("refund", "--amount", "10.00", "--original-invoice", invoice)
    _until(lambda: any(e.kind == "refund" and e.state is State.UNKNOWN
                       for e in till.entries().values()), "the refund's answer lost")
    proc.send_signal(signal.SIGKILL)  # while it asks the host
    proc.communicate()
    control.delete("/_sandbox/faults")
    assert [r["state"] for r in control.get("/_sandbox/ledger").json()["invoices"]] == [
        "sale", "refund"]
    voided = till.run("void", "--invoice", invoice)
    assert voided.returncode == 2 and _one_line(voided.stderr), voided.stdout + voided.stderr
    assert "refund whose answer is not known yet" in voided.stderr
    assert till.run("recover").returncode == 0
    again = till.run("void", "--invoice", invoice)
    assert again.returncode == 2 and "was refunded (10.00 of 30.00)" in again.stderr
    assert _host_and_journal(till) == {invoice: ("sale", "30.00", "10.00"),
                                       _next(invoice): ("refund", "10.00", "0.00")}
    control.close()


def test_a_ticket_whose_tender_was_refunded_is_not_cancelled_by_a_void(env: dict[str, str]) -> None:
    """An open ticket's card tender refunded in part from the Journal (``cashier refund``): the
    ticket's cancel would void it whole; it is refused, nothing voided."""
    part = cashier("ticket", "new", "--amount", "219.00", "--pay", "card", env=env)
    assert part.returncode == 1, part.stderr  # partly approved: open, 109.50 remains
    invoice = json.loads(part.stdout)["tenders"][0]["invoice"]
    assert cashier("refund", "--amount", "5.00", "--original-invoice", invoice,
                   env=env).returncode == 0
    gone = cashier("ticket", "cancel", "1", env=env)
    assert gone.returncode == 2 and _one_line(gone.stderr), gone.stdout + gone.stderr
    assert f"ticket: ticket 1: its tender invoice {invoice} was refunded (5.00 of 109.50)" in gone.stderr
    shown = json.loads(cashier("ticket", "show", "1", env=env).stdout)
    assert (shown["state"], shown["tenders"][0]["outcome"]) == ("open", "partial")


# ---- 2. a ticket line is refunded at most once ------------------------------------------------
def _paid_ticket(run: Any) -> int:
    made = run("ticket", "new", "--item", "Coffee=3.50x2", "--item", "Cake=4.00", "--pay", "card",
               *CARD)
    assert made.returncode == 0, made.stderr
    return int(json.loads(made.stdout)["ticket"])


def test_a_line_is_refunded_once_across_commands_and_a_repeat_is_refused_before_sending(
        env: dict[str, str]) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return cashier(*args, env=env)

    ticket = str(_paid_ticket(run))
    journal = _training_journal(env)
    before = _counts(journal)
    for args, words in ((("--line", "1", "--line", "1"),
                         "--line: each line at most once; lines count from 1 to 2"),
                        (("--line", "3"), "--line: each line at most once; lines count from 1 to 2"),
                        # a 0 is no line number at all: the command line's integer rule says so first
                        (("--line", "0"), "--line: must be a line number from 1")):
        refused = run("ticket", "refund", ticket, *args)
        assert refused.returncode == 2 and refused.stdout == "", refused.stdout
        assert _one_line(refused.stderr) and words in refused.stderr, refused.stderr
    assert _counts(journal) == before  # nothing journaled, nothing sent
    first = run("ticket", "refund", ticket, "--line", "1")
    assert first.returncode == 0, first.stderr
    assert [(r["amount"], r["state"]) for r in json.loads(first.stdout)["refunded"]] == [
        ("7.00", "approved")]
    before = _counts(journal)
    for args in (("--line", "1"), ("--line", "2", "--line", "1")):
        again = run("ticket", "refund", ticket, *args)
        assert again.returncode == 2 and _one_line(again.stderr), again.stdout + again.stderr
        assert "--line: line 1 of ticket 1 was already refunded: each line at most once" in again.stderr
    assert _counts(journal) == before
    cake = run("ticket", "refund", ticket, "--line", "2")
    assert cake.returncode == 0, cake.stderr
    assert [r["amount"] for r in json.loads(cake.stdout)["refunded"]] == ["4.00"]
    exported = json.loads(run("journal", "export", "--format", "json").stdout)
    refunds = [e["approved"] for e in exported["entries"] if e["kind"] == "refund"]
    assert sorted(refunds) == ["4.00", "7.00"]  # the card got 11.00 back once, not more


@pytest.mark.socket
@pytest.mark.parametrize("n", [2, 3])
def test_processes_refunding_one_line_at_once_only_one_wins(serve_sandbox: Any, tmp_path: Path,
                                                            n: int) -> None:
    from tests.support.cli_tills import go

    served = serve_sandbox("LG")
    till = CliTill(served, tmp_path, "t")
    ticket = str(_paid_ticket(till.run))
    procs = [till.ready("ticket", "refund", ticket, "--line", "1") for _ in range(n)]
    go(*procs)
    done = [(p.wait(120), *p.communicate()) for p in procs]
    won = [d for d in done if d[0] == 0]
    lost = [d for d in done if d[0] == 2]
    assert len(won) == 1 and len(lost) == n - 1, [(c, e[-300:]) for c, _o, e in done]
    assert all(_one_line(err) and not out and "line 1 of ticket 1 was already refunded" in err
               for _c, out, err in lost), lost
    held = _host_and_journal(till)
    assert sorted(v for v in held.values()) == [("refund", "7.00", "0.00"),
                                                ("sale", "11.00", "7.00")]


@pytest.mark.slow
@pytest.mark.socket
def test_a_line_whose_refund_answer_was_lost_stays_taken_until_recovery_says_not_charged(
        serve_sandbox: Any, tmp_path: Path) -> None:
    """The refund of line 1 never reached the host's books (the connection reset) and the
    process was killed while it asked what happened: line 1 is taken (refused, nothing sent)
    until ``recover`` tells the refund not charged; then it is refunded once."""
    from tests.support.profiles import write_profile

    served = serve_sandbox("LG")
    till = CliTill(served, tmp_path, "t")
    till.profile = write_profile(tmp_path / "short.toml", host_url=served.api, journal=till.journal,
                                 host_s=1.5, host_longest_s=0.2, connect_s=0.3)
    ticket = str(_paid_ticket(till.run))
    control = served.control()
    rules = [{"path": REFUND_PATH, "action": "reset", "count": 1},
             {"path": STATUS_PATH, "action": "delay", "delay_ms": SLOW_MS}]
    assert control.post("/_sandbox/faults", json={"rules": rules}).status_code == 200
    proc = till.start("ticket", "refund", ticket, "--line", "1")
    _until(lambda: any(e.kind == "refund" and e.state is State.UNKNOWN
                       for e in till.entries().values()), "the refund's answer lost")
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    control.delete("/_sandbox/faults")
    taken = till.run("ticket", "refund", ticket, "--line", "1")
    assert taken.returncode == 2 and _one_line(taken.stderr), taken.stdout + taken.stderr
    assert "line 1 of ticket 1 was already refunded" in taken.stderr
    recovered = till.run("recover", "--wait")  # waits out the host's window, then trusts it
    assert recovered.returncode == 0, recovered.stdout + recovered.stderr
    assert [r["state"] for r in json.loads(recovered.stdout)["resolved"]] == ["error"]
    again = till.run("ticket", "refund", ticket, "--line", "1")
    assert again.returncode == 0, again.stdout + again.stderr
    held = _host_and_journal(till)
    assert sorted(held.values()) == [("refund", "7.00", "0.00"), ("sale", "11.00", "7.00")]
    control.close()


# ---- 3. settling the last tender settles the ticket -------------------------------------------
SALE_PATH = "/api/rest/v1/transactions/sale"


class PrintingTill(CliTill):
    """A till on the served sandbox with a receipt printer (loopback TCP) and short host windows."""

    def __init__(self, served: Any, tmp: Path, printer_url: str) -> None:
        from tests.support.profiles import write_profile

        super().__init__(served, tmp, "p")
        self.profile = write_profile(
            tmp / "printing.toml", host_url=served.api, journal=self.journal, host_s=1.5,
            host_longest_s=0.2, connect_s=0.3,
            extra=("[till.printer]", f'url = "{printer_url}"', "width = 42", "timeout_s = 1.0"))

    def lose_the_card_answer(self, *args: str, committed: bool) -> None:
        """Run ``args``; the card sale reaches the host (``committed``) or is reset before it
        does, its answer is lost, and the process is killed while it asks the host what
        happened (every question about an invoice answered slowly, the invoice floor's too)."""
        with self.served.control() as control:
            rules = [{"path": SALE_PATH, "action": "drop_after_commit" if committed else "reset",
                      "count": 1},
                     {"path": STATUS_PATH, "action": "delay", "delay_ms": SLOW_MS}]
            assert control.post("/_sandbox/faults", json={"rules": rules}).status_code == 200
            proc = self.start(*args)
            _until(self._card_unknown, "the card's answer lost")
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            control.delete("/_sandbox/faults")

    def _card_unknown(self) -> bool:
        try:
            return any(e.kind == "sale" and e.state is State.UNKNOWN
                       for e in self.entries().values())
        except sqlite3.Error:  # the command is still creating the journal
            return False

    def ticket(self, number: int = 1) -> dict[str, Any]:
        shown = self.run("ticket", "show", str(number))
        return dict(json.loads(shown.stdout))

    def ticket_events(self) -> list[tuple[str, str]]:
        store = JournalRecorder(self.journal, reader=True)
        try:
            return [(e.type, e.actor) for e in store.events() if e.type.startswith("ticket_")
                    or e.type.startswith("drawer_")]
        finally:
            store.close()


@pytest.fixture
def printer() -> Any:
    from tests.support.loopback_printer import LoopbackPrinter

    made = LoopbackPrinter()
    yield made
    made.close()


@pytest.mark.socket
def test_recover_settling_the_last_tender_pays_the_ticket_with_its_receipt_and_drawer(
        serve_sandbox: Any, tmp_path: Path, printer: Any) -> None:
    """Cash 10.00 taken, then the card's answer for the other 20.00 lost (the host approved it):
    ``recover`` settles the card as approved, and the ticket is paid as if the answer had come
    on time: the same ``ticket_paid`` event, its one receipt and the drawer kick for the cash."""
    from tests.support.loopback_printer import KICK_BYTES

    served = serve_sandbox("LG")
    till = PrintingTill(served, tmp_path, printer.url)
    assert till.run("drawer", "open", "--float", "50.00").returncode == 0
    assert printer.wait_jobs(1) and printer.jobs.pop(0) == KICK_BYTES  # the float goes in
    till.lose_the_card_answer("ticket", "new", "--item", "Lamp=30.00", "--pay", "cash=10",
                              "--pay", "card", *CARD, committed=True)
    left = till.ticket()
    assert (left["state"], [t["outcome"] for t in left["tenders"]]) == ("open", ["approved", "unknown"])
    assert printer.jobs == []  # no receipt for a ticket not paid
    recovered = till.run("recover")
    assert recovered.returncode == 0, recovered.stdout + recovered.stderr
    report = json.loads(recovered.stdout)
    assert [r["state"] for r in report["resolved"]] == ["approved"]
    assert report["tickets_paid"] == [1]
    paid = till.ticket()
    assert (paid["state"], paid["paid"], paid["remaining"]) == ("paid", "30.00", "0.00")
    assert [t["outcome"] for t in paid["tenders"]] == ["approved", "approved"]
    assert printer.wait_jobs(1) and len(printer.jobs) == 1  # its one receipt, the drawer kicked
    assert b"Lamp" in printer.jobs[0] and KICK_BYTES[:3] in printer.jobs[0]
    # as on time (the clerk closes it there; here recovery), the kick journaled for its clerk
    assert till.ticket_events()[-2:] == [("ticket_paid", "recovery"), ("drawer_kick", "1")]
    assert till.run("ticket", "pay", "1", "--pay", "card", *CARD).returncode == 2  # nothing due
    assert _host_and_journal(till) == {paid["tenders"][1]["invoice"]: ("sale", "20.00", "0.00")}
    again = till.run("recover")  # a second recovery finds nothing more to settle
    assert again.returncode == 0 and "tickets_paid" not in json.loads(again.stdout)


@pytest.mark.slow
@pytest.mark.socket
def test_recover_settling_the_tender_as_not_charged_leaves_the_ticket_open_with_it_due(
        serve_sandbox: Any, tmp_path: Path, printer: Any) -> None:
    served = serve_sandbox("LG")
    till = PrintingTill(served, tmp_path, printer.url)
    till.lose_the_card_answer("ticket", "new", "--item", "Lamp=30.00", "--pay", "card", *CARD,
                              committed=False)
    recovered = till.run("recover", "--wait")  # waits out the host's window, then trusts it
    assert recovered.returncode == 0, recovered.stdout + recovered.stderr
    report = json.loads(recovered.stdout)
    assert [r["state"] for r in report["resolved"]] == ["error"] and "tickets_paid" not in report
    due = till.ticket()
    assert (due["state"], due["paid"], due["remaining"]) == ("open", "0.00", "30.00")
    assert printer.jobs == []
    finished = till.run("ticket", "pay", "1", "--pay", "card", *CARD)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert json.loads(finished.stdout)["state"] == "paid"
    assert printer.wait_jobs(1) and b"Lamp" in printer.jobs[0]
    with served.control() as control:
        ledger = control.get("/_sandbox/ledger").json()["invoices"]
    assert [(r["state"], r["approvedAmount"]) for r in ledger] == [("sale", "30.00")]
