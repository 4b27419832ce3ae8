"""Issue 14 in the window: on a till with clerks the Journal's void (F12) asks for a manager's PIN
(the shared prompt), with real key presses; cancelled, nothing is voided."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from cashier.flows.payments import KeyedCard, sale
from tests.support.profiles import CLERKS
from tests.support.screens import answer_prompt


def test_journal_void_asks_for_a_manager_pin(make_gui: Callable[..., Any], ui: Any) -> None:
    from ui.pages.journal import JournalPage

    gui = make_gui(clerks=CLERKS, drawer_float=None)
    w = gui.window
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    QTest.keyClicks(gui.sign_in.pin, "1111")
    QTest.keyClick(gui.sign_in.pin, Qt.Key.Key_Return)
    assert gui.till.ctx.clerk_id == 101
    paid = ui.run(sale(gui.till.ctx, Decimal("20.00"), card=KeyedCard("4321000000001119", "1228"))).entry
    journal = w.go(JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    assert journal.select_invoice(paid.invoice)

    seen: list[str] = []
    QTest.keyClick(journal.table, Qt.Key.Key_F12)  # the first press asks to confirm
    assert "again" in journal.message.text() and seen == []
    answer_prompt(seen, None)  # the manager walks away: nothing is voided
    QTest.keyClick(journal.table, Qt.Key.Key_F12)
    assert seen and "void" in seen[0] and "manager" in journal.message.text()
    assert str(ui.run(gui.till.ctx.journal.get(paid.id)).state) == "approved"

    w.activateWindow()  # the window is active again once the prompt has closed
    assert QTest.qWaitForWindowActive(w, 2000)
    QTest.keyClick(journal.table, Qt.Key.Key_F12)
    assert "again" in journal.message.text()
    answer_prompt(seen, "2222")
    QTest.keyClick(journal.table, Qt.Key.Key_F12)
    assert len(seen) == 2
    ui.until(lambda: any(e.invoice == paid.invoice and str(e.state) == "voided"
                         for e in journal.entries), what="voided")
    approved = [e for e in ui.run(gui.till.ctx.journal.events(paid.id)) if e.type == "manager_approved"]
    assert [e.actor for e in approved] == ["102"]
