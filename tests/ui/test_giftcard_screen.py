"""Gift card reload and balance (with history) through the Gift card screen."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from ui.pages.giftcard import GiftCardPage

CARD = "2664654648774"  # the sandbox's test gift card


def test_scanned_card_reload_then_balance_with_history(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    page = gui.window.go(GiftCardPage)
    QTest.keyClicks(page.card_field, CARD)  # a scanner types like a keyboard...
    QTest.keyClick(page.card_field, Qt.Key.Key_Return)  # ...and ends with Enter
    assert page.card_field.text() == ""  # the full number is not left on screen
    assert not page.card_field.isUndoAvailable()  # and Ctrl+Z cannot bring it back
    assert CARD not in page.card_shown.text() and CARD[-4:] in page.card_shown.text()
    page.balance_button.click()  # a new card is not active yet: its state, in words
    ui.until(lambda: page.result_title.text() == "Balance: —", what="no balance")
    assert "not activated" in page.result_text.text()
    page.amount.set_value(Decimal("10.00"))
    page.activate_button.click()
    ui.until(lambda: "Approved" in page.result_title.text(), what="activated")
    page.balance_button.click()
    ui.until(lambda: page.result_title.text().startswith("Balance:"), what="balance")
    before = page.result_title.text()
    assert "$10.00" in before
    page.amount.set_value(Decimal("25.00"))
    page.reload_button.click()
    ui.until(lambda: page.result_title.text() == "Gift card reload: Approved", what="reload approved")
    entry = ui.run(gui.till.ctx.journal.search(kinds=["giftcard_reload"]))[0]
    assert entry.requested == Decimal("25.00") and entry.card and CARD not in entry.card
    page.balance_button.click()
    ui.until(lambda: page.result_title.text().startswith("Balance:")
             and page.result_title.text() != before, what="new balance")
    assert "$35.00" in page.result_title.text()
    shown = page.card_shown.text().split(" ", 1)[1]  # the card masked one way on the screen
    assert CARD not in page.result_text.text() and shown in page.result_text.text()
    assert page.history.count() >= 2
    assert any("25.00" in page.history.item(i).text() for i in range(page.history.count()))


def test_bad_card_number_named_and_not_sent(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    page = gui.window.go(GiftCardPage)
    page.card_field.setText("12ab")
    page.take_number()
    assert page.result_title.text() == "Not sent" and "card" in page.result_text.text()
    assert ui.run(gui.till.ctx.journal.search()) == []


def test_training_starts_with_an_active_gift_card_and_host_refusals_are_words(ui: Any,
                                                                             make_gui: Any) -> None:
    """The pad lists the training gift card (active, with a balance) first; its balance read on
    the pad is the balance. The inactive test card's refusal is said in words, not codes."""
    from cashier.sandbox.host_giftcards import TRAINING_GIFT_BALANCE, TRAINING_GIFT_CARD

    gui = make_gui()
    pad = gui.pinpad
    page = gui.window.go(GiftCardPage)
    gui.window.activateWindow()
    assert QTest.qWaitForWindowActive(gui.window, 2000)
    listed = [pad.cards.item(i).text() for i in range(pad.cards.count())]
    assert f"GIFT {TRAINING_GIFT_CARD[-4:]} — gift card, active, $50.00" in listed
    page.card_field.setFocus()
    QTest.keyClick(page.card_field, Qt.Key.Key_F2)  # balance, the card read on the pad
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    QTest.mouseClick(pad.tap_button, Qt.MouseButton.LeftButton)  # the default: the training card
    ui.until(lambda: page.result_title.text().startswith("Balance:"), what="balance")
    assert f"${TRAINING_GIFT_BALANCE}" in page.result_title.text()
    page.card_field.setFocus()
    QTest.keyClick(page.card_field, Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    pad.tap(CARD)  # the test gift card: not active yet
    ui.until(lambda: page.result_title.text() == "Balance: —", what="its state")
    assert page.result_text.text().endswith("not activated — This gift card is not active: activate it "
                                            "first (F3).")


def test_a_card_read_on_the_pad_is_waited_for_and_esc_cancels_the_read(ui: Any, make_gui: Any) -> None:
    """Issue #36: the Gift card screen on the payment screens' stages. A card read on the PIN pad
    puts the wait on screen (the customer is asked); Esc there resets the pad, and the screen is
    back on its entry with what came of it."""
    gui = make_gui()
    pad = gui.pinpad
    page = gui.window.go(GiftCardPage)
    gui.window.activateWindow()
    assert QTest.qWaitForWindowActive(gui.window, 2000)
    assert page.on_entry
    page.card_field.setFocus()
    QTest.keyClick(page.card_field, Qt.Key.Key_F2)  # balance, the card read on the pad
    assert page.on_waiting and page.wait_title.text() == "Balance"
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    QTest.keyClick(page.wait_cancel_button, Qt.Key.Key_Escape)
    ui.until(lambda: page.on_entry and page.result_title.text() != "Working…", what="read cancelled")
    assert page.result_title.text() == "Not done" and page.result_text.text(), page.result_text.text()
    assert page.on_result  # the result shows on the entry
    # a typed number asks no one: the screen does not wait
    QTest.keyClicks(page.card_field, CARD)
    QTest.keyClick(page.card_field, Qt.Key.Key_Return)
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    assert page.on_entry
    ui.until(lambda: page.result_title.text() == "Balance: —", what="its balance")
