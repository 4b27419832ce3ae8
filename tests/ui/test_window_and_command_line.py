"""Issue 27: the window and a command line on one journal at the same time, with real processes.

The window (in this process, real keys) pays a ticket by card on a socket sandbox whose host takes
5 s (the 111.05 trigger); meanwhile ``cashier`` processes pay, cancel and recover the same ticket
on the same journal. The command lines are refused with one line (or leave the payment to its
owner), nothing is charged twice, and afterwards the journal says what the host holds."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cashier.journal.model import State
from tests.support.cli_tills import CARD, CliTill, go, one_line
from tests.support.sale_screen import SaleDriver
from tests.support.sandbox_server import ServedSandbox

pytestmark = pytest.mark.socket


def test_the_window_pays_while_command_lines_pay_cancel_and_recover_the_same_ticket(
        ui: Any, make_gui: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    served = ServedSandbox("LG", tmp_path)
    try:
        till = CliTill(served, tmp_path, "shared")  # the command lines' profile on the journal
        monkeypatch.setenv("CASHIER_ACCESS_TOKEN", till.env["CASHIER_ACCESS_TOKEN"])
        gui = make_gui(training=False, till_id="chaos", till_number=1, processing_option="LG",
                       terminal_id="1742", host_url=served.api, journal_path=till.journal,
                       pinpad=False, drawer_float=None)
        sale = SaleDriver(ui, gui)
        page = sale.page
        sale.add_line("Hamper", "11105")  # 111.05: the host approves after 5 s
        assert page.ticket is not None
        ticket = str(page.ticket.id)
        # started and imported now: the race is between the commands, not process start-ups
        procs = {"pay": till.ready("ticket", "pay", ticket, "--pay", "card", *CARD),
                 "cancel": till.ready("ticket", "cancel", ticket),
                 "recover": till.ready("recover", "--grace", "0")}
        sale.press(Qt.Key.Key_F2)  # the window charges the card
        ui.until(lambda: any(e.state is State.SENT for e in till.entries().values()),
                 what="the window's payment on the wire")
        go(*procs.values())
        ui.until(lambda: all(p.poll() is not None for p in procs.values()), timeout_s=60,
                 what="the command lines")
        done = {name: (p.returncode, *p.communicate()) for name, p in procs.items()}
        for name in ("pay", "cancel"):  # refused at once with one line, nothing sent
            code, out, err = done[name]
            assert code == 2 and not out and one_line(err), (name, code, out, err)
        code, out, err = done["recover"]
        report = json.loads(out)
        if code == 3:  # in flight in the window: left to its owner
            assert [e["state"] for e in report["in_flight"]] == ["sent"], report
        else:  # a loaded machine: the window had its answer first; recover settled nothing
            assert code == 0 and not report["resolved"] and not report["still_open"], (code, out, err)
        result = sale.wait_result()
        assert page.ticket is not None
        assert result.outcome == "approved" and page.ticket.state == "paid"
        ledger = till.assert_journal_is_host()
        charged = [r for r in ledger.values() if r["state"] == "sale"]
        assert [Decimal(r["approvedAmount"]) for r in charged] == [Decimal("111.05")]
    finally:
        served.stop()


def test_a_command_lines_payment_in_flight_refuses_the_windows(
        ui: Any, make_gui: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other way round: ``cashier ticket pay`` has the window's ticket at the host (3 s); the
    window's F2 is refused with one line and sends nothing; the card is charged once."""
    served = ServedSandbox("LG", tmp_path)
    try:
        till = CliTill(served, tmp_path, "shared")
        monkeypatch.setenv("CASHIER_ACCESS_TOKEN", till.env["CASHIER_ACCESS_TOKEN"])
        gui = make_gui(training=False, till_id="chaos", till_number=1, processing_option="LG",
                       terminal_id="1742", host_url=served.api, journal_path=till.journal,
                       pinpad=False, drawer_float=None)
        sale = SaleDriver(ui, gui)
        page = sale.page
        sale.add_line("Hamper", "11103")  # 111.03: the host approves after 3 s
        assert page.ticket is not None
        payer = till.start("ticket", "pay", str(page.ticket.id), "--pay", "card", *CARD)
        ui.until(lambda: any(e.state is State.SENT for e in till.entries().values()),
                 what="the command line's payment on the wire")
        sale.press(Qt.Key.Key_F2)
        ui.until(lambda: page.task is not None and page.task.done(), what="the window's refusal")
        refusal = page.error_label.text()
        assert "in flight" in refusal and "\n" not in refusal, refusal
        assert len(till.entries()) == 1  # the window journaled and sent nothing
        ui.until(lambda: payer.poll() is not None, timeout_s=60, what="the command line")
        out, err = payer.communicate()
        assert payer.returncode == 0 and json.loads(out)["state"] == "paid", err
        ledger = till.assert_journal_is_host()
        assert [Decimal(r["approvedAmount"]) for r in ledger.values() if r["state"] == "sale"] == [
            Decimal("111.03")]
    finally:
        served.stop()
