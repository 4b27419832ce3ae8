"""The ticket and the cash desk together, through the command line (each command its own process,
the training sandbox in process): cash needs an open drawer, a paid ticket prints ONE receipt on a
loopback TCP printer and kicks the drawer once, and the drawer expects the applied cash only."""

from __future__ import annotations

import json
import os
import time
from decimal import Decimal
from pathlib import Path

from cashier.cashdesk import open_recorder
from cashier.config import load_profile
from cashier.drawer import Drawer
from tests.support.loopback_printer import KICK_BYTES, LoopbackPrinter
from tests.support.profiles import write_till
from tests.support.tills import cashier

CUT = b"\x1dV"
KICK_PIN2 = b"\x1bp\x00"
KICK_PIN5 = b"\x1bp\x01"


def _drawer(profile: Path) -> tuple[Decimal, list[str]]:
    """The open session's expected cash and its moves, read from the journal."""
    till = load_profile(profile)
    store = open_recorder(till)
    try:
        drawer = Drawer(store, till.roster)
        session = drawer.require_open()
        return drawer.balance(session).expected, [m["type"] for m in drawer.moves(session)]
    finally:
        store.close()


def test_cli_split_card_and_cash_prints_one_receipt_and_kicks_once(
        tmp_path: Path, loopback: LoopbackPrinter) -> None:
    profile = write_till(tmp_path, printer_url=loopback.url, clerks=False)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env |= {"CASHIER_PROFILE": str(profile), "XDG_DATA_HOME": str(tmp_path / "data")}

    refused = cashier("ticket", "new", "--item", "Tea=4.00", "--pay", "cash=5", env=env)
    assert refused.returncode == 2 and "open the drawer first" in refused.stderr
    assert json.loads(cashier("ticket", "list", env=env).stdout) == {"tickets": []}  # nothing journaled

    assert cashier("drawer", "open", "--float", "50.00", env=env).returncode == 0
    assert loopback.wait_jobs(1) and loopback.jobs.pop(0) == KICK_BYTES  # the float goes in
    done = cashier("ticket", "new", "--item", "Coffee=3.50x2", "--item", "Cake=4.00",
                   "--pay", "card=5.00", "--pay", "cash=20", env=env)
    assert done.returncode == 0, done.stderr
    t = json.loads(done.stdout)
    card, cash = t["tenders"]
    assert (t["state"], t["change"], cash["amount"], cash["tendered"]) == ("paid", "14.00", "6.00",
                                                                          "20.00")
    assert loopback.wait_jobs(1)
    time.sleep(0.3)  # the command waited for its printer: nothing more is on its way
    assert len(loopback.jobs) == 1  # one receipt for the ticket, not one per tender
    data = loopback.jobs[0]
    text = data.decode("cp437", "replace")
    assert f"Ticket {t['ticket']}" in text and "Coffee" in text and "Cake" in text
    assert "Cash given" in text and "20.00" in text and "14.00" in text
    assert card["invoice"] in text and card["card"][-4:] in text and "Auth code" in text
    assert "4321000000001119" not in text
    assert data.count(KICK_PIN2) == 1 and data.count(KICK_PIN5) == 1  # the drawer kicked once
    assert data.index(KICK_PIN2) > data.index(CUT)

    expected, moves = _drawer(profile)
    assert expected == Decimal("56.00")  # the float and the applied cash, not the 20.00 handed over
    assert moves == ["float", "kick"]
    x = json.loads(cashier("report", "x", env=env).stdout)  # one ticket, paid in two tenders
    assert x["tickets"] == 1 and x["gross"] == "11.00"
    assert x["by_tender"]["card"]["count"] == 1 and x["by_tender"]["cash"]["count"] == 1

    reprint = cashier("receipt", "print", str(t["ticket"]), env=env)
    assert reprint.returncode == 0, reprint.stderr
    assert loopback.wait_jobs(2) and KICK_PIN2 not in loopback.jobs[1]  # a reprint opens no drawer
    assert f"Ticket {t['ticket']}".encode() in loopback.jobs[1]

    # a ticket left open with cash in it prints nothing; cancelled, the cash goes back out
    part = cashier("ticket", "new", "--amount", "10.00", "--pay", "card=4.00", "--pay", "cash=5",
                   env=env)
    assert part.returncode == 1, part.stderr
    opened = json.loads(part.stdout)
    assert opened["remaining"] == "1.00" and _drawer(profile)[0] == Decimal("61.00")
    time.sleep(0.3)
    assert len(loopback.jobs) == 2  # no receipt for an open ticket
    gone = cashier("ticket", "cancel", str(opened["ticket"]), env=env)
    assert gone.returncode == 0, gone.stderr
    assert loopback.wait_jobs(3)
    slip = loopback.jobs[2]
    assert b"CASH REFUND" in slip and b"5.00" in slip and KICK_PIN2 in slip
    expected, moves = _drawer(profile)
    assert expected == Decimal("56.00") and moves == ["float", "kick", "kick"]
