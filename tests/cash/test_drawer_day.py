"""A day at the till through the command line: float, cash tickets, pay-in, pay-out (with a
manager), no sale, a blind close short beyond the tolerance, and the Z report against the journal."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cashier.cashdesk import open_recorder
from cashier.cli import main
from cashier.config import load_profile
from cashier.journal.model import Kind, NewEntry, State
from tests.support.forked_cli import run_cashier
from tests.support.journal_entries import card_entry, cash_entry
from tests.support.loopback_printer import LoopbackPrinter
from tests.support.profiles import write_till


@pytest.fixture
def till(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loopback: LoopbackPrinter) -> Path:
    path = write_till(tmp_path, printer_url=loopback.url)
    monkeypatch.setenv("CASHIER_PROFILE", str(path))
    return path


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str,
        pin: str | None = None) -> tuple[int, dict[str, Any]]:
    monkeypatch.setattr("sys.stdin", io.StringIO((pin or "") + "\n"))
    code = main(list(args))
    out = capsys.readouterr().out.strip()
    return code, json.loads(out) if out else {}


@pytest.mark.slow
def test_a_day_with_cash_pay_in_pay_out_and_a_short_blind_close(
        till: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        loopback: LoopbackPrinter) -> None:
    def cli(*args: str, pin: str | None = None) -> tuple[int, dict[str, Any]]:
        return run(capsys, monkeypatch, *args, pin=pin)

    assert cli("drawer", "close", "--counted", "1.00")[0] == 2  # nothing open yet
    counts = '{"20.00": 4, "5.00": 3, "0.25": 20}'
    code, opened = cli("drawer", "open", "--counts", counts, "--clerk", "101")
    assert code == 0 and opened["float"] == "100.00" and opened["opened_by"] == "101"
    assert cli("drawer", "open", "--float", "50.00", "--clerk", "102")[0] == 2  # one session per till
    assert cli("drawer", "open", "--float", "x", "--clerk", "102")[0] == 2

    store = open_recorder(load_profile(till))
    cash_entry(store, "12.50", tendered="20.00")
    cash_entry(store, "30.00", clerk="102", tendered="30.00")
    cash_entry(store, "4.00", refund=True)
    card_entry(store, "40.00", tip="4.00")
    card_entry(store, "15.00", brand="MASTERCARD", clerk="102")
    voided = card_entry(store, "8.00")
    store.transition(voided.id, State.VOIDING, actor="102")
    store.transition(voided.id, State.VOIDED, actor="102")
    refund = store.create(NewEntry(Kind.REFUND, Decimal("5.00"), actor="101", clerk="101"))
    store.transition(refund.id, State.APPROVED, actor="101", approved=Decimal("5.00"))
    store.create(NewEntry(Kind.SALE, Decimal("9.00"), actor="101", clerk="101", sent=True))  # unresolved

    assert cli("drawer", "pay-in", "--amount", "20.00", "--reason", "change from bank",
               "--clerk", "101")[0] == 0
    code, waiting = cli("drawer", "pay-out", "--amount", "6.50", "--reason", "milk", "--clerk", "101")
    assert code == 1 and "manager" in waiting["waiting"]
    assert cli("drawer", "pay-out", "--amount", "6.50", "--reason", "milk", "--clerk", "101",
               "--manager", "102", pin="9999")[0] == 2  # wrong PIN
    code, paid = cli("drawer", "pay-out", "--amount", "6.50", "--reason", "milk", "--clerk", "101",
                     "--manager", "102", pin="2222")
    assert code == 0 and paid["approved_by"] == "102" and paid["amount"] == "6.50"
    assert cli("drawer", "pay-out", "--amount", "0", "--reason", "x", "--clerk", "102")[0] == 2
    assert cli("drawer", "no-sale", "--reason", "", "--clerk", "101")[0] == 2  # a reason is required
    assert cli("drawer", "no-sale", "--reason", "wrong change given", "--clerk", "101")[0] == 0

    code, status = cli("drawer", "status")
    assert code == 0 and status["cash_tickets"] == 2 and "expected" not in status  # blind

    # expected = 100 + 42.50 - 4.00 + 20.00 - 6.50 = 152.00; counted 145.00: short 7.00
    code, refused = cli("drawer", "close", "--counted", "145.00", "--clerk", "101")
    assert code == 2 and "reason" in refused["error"]
    code, waiting = cli("drawer", "close", "--counted", "145.00", "--reason", "a 5 missing",
                        "--clerk", "101")
    assert code == 1 and waiting["closed"] is False and waiting["over_short"] == "-7.00"
    assert cli("drawer", "pay-in", "--amount", "1.00", "--reason", "x", "--clerk", "101")[0] == 2  # counted
    code, closed = cli("drawer", "close", "--counted", "145.00", "--reason", "a 5 missing",
                       "--clerk", "101", "--manager", "102", pin="2222")
    assert code == 0 and closed["closed"] is True and closed["approved_by"] == "102"
    assert {k: closed[k] for k in ("float", "cash_sales", "cash_refunds", "pay_ins", "pay_outs", "expected",
                                   "counted", "over_short")} == {
        "float": "100.00", "cash_sales": "42.50", "cash_refunds": "4.00", "pay_ins": "20.00",
        "pay_outs": "6.50", "expected": "152.00", "counted": "145.00", "over_short": "-7.00"}

    report = closed["report"]
    totals = store.totals()
    tender = report["by_tender"]
    assert Decimal(tender["cash"]["amount"]) == totals.amount("cash") == Decimal("42.50")
    assert Decimal(tender["card"]["amount"]) == totals.amount("sale") == Decimal("55.00")
    assert tender["cash"]["count"] == totals.count("cash") and tender["card"]["count"] == totals.count("sale")
    assert Decimal(report["refunds"]["amount"]) == totals.amount("refund") + totals.amount("cash_refund")
    assert report["tickets"] == 4 and report["net"] == "88.50" and report["tips"] == "4.00"
    assert report["voids"] == {"count": 1, "amount": "8.00"} and report["unresolved"] == 1
    assert report["by_card_brand"] == {"MASTERCARD": {"count": 1, "amount": "15.00"},
                                       "VISA": {"count": 1, "amount": "40.00"}}
    assert report["by_clerk"]["101"] == {"count": 2, "amount": "52.50", "tips": "4.00", "name": "Alice"}
    assert report["by_clerk"]["102"] == {"count": 2, "amount": "45.00", "tips": "0.00", "name": "Bob"}
    assert [m["type"] for m in report["cash"]["moves"]] == ["pay_in", "pay_out", "no_sale"]

    # the Z report again, later, and its exports; the X report now covers a new (empty) period
    code, again = cli("report", "z")
    assert code == 0 and again == report
    assert cli("report", "z", "--session", "99")[0] == 2
    assert cli("report", "x")[0] == 1  # a manager's report: it waits for one
    assert cli("report", "x", "--manager", "102", pin="2222")[1]["tickets"] == 0
    # the Z report came out of the printer at the close, after the no-sale kick
    assert loopback.wait_jobs(4)
    assert b"Z REPORT till-7 session 1" in loopback.data and b"-7.00" in loopback.data
    store.close()


def test_report_exports(till: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    run(capsys, monkeypatch, "drawer", "open", "--float", "10.00", "--clerk", "102")
    store = open_recorder(load_profile(till))
    cash_entry(store, "3.00", tendered="5.00")
    store.close()
    assert run(capsys, monkeypatch, "drawer", "close", "--counted", "13.00", "--clerk", "102")[0] == 0
    csv_path, pdf_path = tmp_path / "z.csv", tmp_path / "z.pdf"
    assert run(capsys, monkeypatch, "report", "z", "--format", "csv", "--output", str(csv_path))[0] == 0
    rows = csv_path.read_text().splitlines()
    assert rows[0] == "section,name,count,amount" and "by_tender,cash,1,3.00" in rows
    assert "cash,over_short,,0.00" in rows
    assert run(capsys, monkeypatch, "report", "z", "--format", "pdf", "--output", str(pdf_path))[0] == 0
    pdf = pdf_path.read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    # every cross-reference offset points at its object: a reader can open it
    xref_at = int(pdf.rsplit(b"startxref", 1)[1].split()[0])
    entries = pdf[xref_at:].split(b"\n")[3:]
    offsets = [int(line.split()[0]) for line in entries if line.endswith(b" n ")]
    assert offsets and all(pdf[o:].startswith(f"{i} 0 obj".encode()) for i, o in enumerate(offsets, 1))
    assert b"(Z REPORT till-7 session 1)" in pdf and b"cash" in pdf
    assert run(capsys, monkeypatch, "report", "x", "--format", "pdf")[0] == 2  # no --output


def test_the_commands_in_their_own_processes(till: Path, tmp_path: Path) -> None:
    """As a script runs them: one JSON object on stdout, the exit code, one line on stderr."""
    import os
    import subprocess

    env = {**{k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")},
           "CASHIER_PROFILE": str(till), "XDG_DATA_HOME": str(tmp_path / "data")}

    def cashier(*args: str) -> subprocess.CompletedProcess[str]:
        return run_cashier(*args, env=env)

    opened = cashier("drawer", "open", "--float", "25.00", "--clerk", "101")
    assert opened.returncode == 0 and json.loads(opened.stdout)["float"] == "25.00"
    again = cashier("drawer", "open", "--float", "25.00", "--clerk", "101")
    assert again.returncode == 2 and "already open" in again.stderr and "Traceback" not in again.stderr
    bad = cashier("drawer", "pay-in", "--amount", "-3", "--reason", "x", "--clerk", "101")
    assert bad.returncode == 2 and "amount" in bad.stderr
    status = cashier("drawer", "status")
    assert status.returncode == 0 and json.loads(status.stdout)["open"] is True
