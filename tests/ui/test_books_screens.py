"""The Manager screen after a day of every kind of tender agrees with the host; a close with an
open tab names it and carries it over on the second Alt+B; Open tabs shows each tab's tip bound;
the Gift card screen says a cashed-out card's real state. Real key presses throughout."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from cashier.flows import giftcards as gc
from cashier.flows import payments
from tests.support.books import CARD, a_day_of_every_kind
from tests.support.screens import go_to
from ui.pages.giftcard import GiftCardPage
from ui.pages.manager import ManagerPage
from ui.pages.tabs import TabsPage


def _unlocked_manager(ui: Any, gui: Any) -> Any:
    manager = go_to(gui, ManagerPage)
    manager.pin.setFocus()
    QTest.keyClicks(manager.pin, "1234")
    QTest.keyClick(manager.pin, Qt.Key.Key_Return)
    ui.until(lambda: manager.reconciliation is not None, what="unlocked and reconciled")
    return manager


def test_a_day_of_every_kind_shows_no_difference_and_an_open_tab_is_carried_over(
        ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="HD")
    till = SimpleNamespace(ctx=gui.till.ctx, sandbox=gui.till.runtime.sandbox)
    ui.run(a_day_of_every_kind(till), timeout_s=60)
    tab = ui.run(payments.authorize(gui.till.ctx, Decimal("40.00"), card=CARD)).entry
    tabs = go_to(gui, TabsPage)
    ui.until(lambda: tabs.entries, what="tab listed")
    tabs.table.setFocus()
    QTest.keyClick(tabs.table, Qt.Key.Key_Down)
    ui.until(lambda: tabs.selected() is not None, what="tab chosen")
    assert tabs.empty.text() == f"Tab {tab.invoice}: $40.00 authorized; the tip may be up to $20.00."
    manager = _unlocked_manager(ui, gui)
    QTest.keyClick(manager, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)
    ui.until(lambda: "they match" in manager.totals.text(), what="reconciled")
    text = manager.totals.text()
    # what was compared, in plain words (issue 39): the host's own figures named
    assert "Sales: 7  $143.74" in text and "Refunds: 1  $5.00" in text
    assert "the host has sales: 7 ($143.74), refunds: 1 ($5.00)" in text
    assert "they match" in text and "Open tabs (not in the batch): 1" in text
    QTest.keyClick(manager, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    ui.until(lambda: "Alt+B again" in manager.batch_message.text(), what="asked")
    assert f"{tab.invoice} $40.00" in manager.batch_message.text()
    assert "carry them over" in manager.batch_message.text()
    QTest.keyClick(manager, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    ui.until(lambda: "closed" in manager.batch_message.text(), what="batch closed")
    carried = ui.run(gui.till.ctx.journal.by_invoice(str(tab.invoice)))
    assert carried.batch_no == 0   # the tab waits in the open batch, where its capture will land
    QTest.keyClick(manager, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)
    ui.until(lambda: "Sales: 0" in manager.totals.text(), what="reconciled after the close")
    assert "they match" in manager.totals.text()


def test_the_gift_card_screen_says_a_cashed_out_card_is_deactivated(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="HD")
    number = "2664650000007777"
    ui.run(gc.activate(gui.till.ctx, gc.GiftCard(number=number), Decimal("8.00")))
    ui.run(gc.cashback(gui.till.ctx, gc.GiftCard(number=number)))
    gift = go_to(gui, GiftCardPage)
    gift.card_field.setFocus()
    QTest.keyClicks(gift.card_field, number)
    QTest.keyClick(gift.card_field, Qt.Key.Key_Return)
    QTest.keyClick(gift.amount, Qt.Key.Key_F2)   # balance
    ui.until(lambda: "deactivated" in gift.result_text.text(), what="balance shown")
    assert "active " not in gift.result_text.text() and "Cash out" in gift.result_text.text()
