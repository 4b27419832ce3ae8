"""Issue 22, the drawer: the blind count cannot be redone after the expected amount was shown
without a manager; opening with a float opens the drawer (a kick on the printer)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest

from cashier.cashdesk import CashDesk
from cashier.errors import DrawerRefused, ManagerNeeded
from tests.support.loopback_printer import KICK_BYTES, LoopbackPrinter


def test_opening_with_a_float_kicks_the_drawer(make_desk: Callable[..., CashDesk],
                                               loopback: LoopbackPrinter) -> None:
    desk = make_desk(printer_url=loopback.url)
    desk.open(clerk="101", float_amount="100.00")
    assert loopback.wait_jobs(1) and loopback.jobs == [KICK_BYTES]


def test_a_recount_after_the_expected_was_shown_needs_a_manager(
        make_desk: Callable[..., CashDesk]) -> None:
    desk = make_desk()
    desk.open(clerk="101", float_amount="100.00")
    _session, balance, counted = desk.drawer.count("90.00", clerk="101")
    assert balance.expected == Decimal("100.00") and counted == Decimal("90.00")
    desk.drawer.count("90.00", clerk="101")  # the same count again is no recount
    with pytest.raises(ManagerNeeded, match="counting again"):
        desk.drawer.count("100.00", clerk="101")  # the expected figure typed back in
    with pytest.raises(ManagerNeeded):
        desk.close_drawer("100.00", clerk="101", reason=None)
    with pytest.raises(DrawerRefused):
        desk.drawer.count("x", clerk="101")
    manager = desk.roster.manager(None, "2222")
    desk.drawer.count("100.00", clerk="101", manager=manager)
    moves = [(m["type"], m["amount"], m["approved_by"]) for m in desk.drawer.moves(desk.drawer.require_open())
             if m["type"] == "count"]
    assert moves == [("count", "90.00", None), ("count", "100.00", "102")]
