"""The till-style amount entry: digits build cents, keyboard and on-screen keypad agree."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from cashier.money import MAX_DIGITS, CentsBuffer
from ui.widgets.amount import AmountDisplay, Keypad


def test_digits_build_cents_like_a_till() -> None:
    buf = CentsBuffer()
    for d in "1250":
        assert buf.push(d)
    assert buf.value == Decimal("12.50")
    buf.backspace()
    assert buf.value == Decimal("1.25")
    buf.clear()
    assert buf.value == Decimal("0.00")


def test_buffer_refuses_non_digits_leading_zeros_and_overflow() -> None:
    buf = CentsBuffer()
    assert not buf.push("a")
    assert not buf.push("٣")  # a non-ASCII digit is not a till key
    assert buf.push("0") and buf.digits == ""
    for _ in range(MAX_DIGITS - 1):
        assert buf.push("9")
    assert not buf.push("9")  # 9999999999.99 is past the host's limit (the core's amount rule)
    assert buf.value == Decimal("999999999.99")


def test_zero_decimal_currency() -> None:
    buf = CentsBuffer(minor_units=0)
    for d in "125":
        buf.push(d)
    assert buf.value == Decimal("125")


@pytest.mark.parametrize("amount", ["0.01", "12.50", "9999999999.99"])
def test_set_round_trips(amount: str) -> None:
    buf = CentsBuffer()
    buf.set(Decimal(amount))
    assert buf.value == Decimal(amount)


def test_set_refuses_sub_cent() -> None:
    with pytest.raises(ValueError, match="amount"):
        CentsBuffer().set(Decimal("1.005"))


def test_keyboard_and_keypad(qtbot: Any) -> None:
    display = AmountDisplay("USD")
    pad = Keypad(display)
    qtbot.addWidget(display)
    qtbot.addWidget(pad)
    submitted: list[bool] = []
    display.submitted.connect(lambda: submitted.append(True))
    QTest.keyClicks(display, "1250")
    assert display.value == Decimal("12.50")
    assert "12.50" in display.text()
    QTest.keyClick(display, Qt.Key.Key_Backspace)
    assert display.value == Decimal("1.25")
    QTest.keyClick(display, Qt.Key.Key_Escape)
    assert display.value == 0
    pad.keys["4"].click()
    pad.keys["00"].click()
    assert display.value == Decimal("4.00")
    pad.keys["⌫"].click()
    assert display.value == Decimal("0.40")
    pad.clear_button.click()
    assert display.value == 0
    QTest.keyClick(display, Qt.Key.Key_Return)
    assert submitted == [True]


def test_keypad_targets_are_touch_sized(qtbot: Any) -> None:
    from PySide6.QtWidgets import QApplication

    from ui.theme import apply_theme

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app)
    display = AmountDisplay("USD")
    pad = Keypad(display)
    qtbot.addWidget(pad)
    pad.show()
    qtbot.waitExposed(pad)
    for button in pad.keys.values():
        assert button.height() >= 44 and button.width() >= 44


def test_the_money_screens_share_one_amount_panel_and_its_keys(ui: Any, make_gui: Any) -> None:
    """Sale, QR, Open tabs and Gift card type their amount in the one panel: real key presses and
    the on-screen keys build the same cents on each."""
    from PySide6.QtWidgets import QApplication

    from ui.pages.giftcard import GiftCardPage
    from ui.pages.qr import QrPage
    from ui.pages.sale import SalePage
    from ui.pages.tabs import TabsPage
    from ui.widgets.amount import AmountPanel

    gui = make_gui(start=False)
    sale = gui.window.go(SalePage)
    assert isinstance(sale.keypad_panel.entry, AmountPanel) and sale.keypad is sale.keypad_panel.entry.keypad
    for screen in (QrPage, TabsPage, GiftCardPage):
        page = gui.window.go(screen)
        panel = page.amount_panel
        assert isinstance(panel, AmountPanel) and page.amount is panel.display and page.keypad is panel.keypad
        page.amount.setFocus()
        QApplication.processEvents()
        QTest.keyClicks(page.amount, "1250")
        assert page.amount.value == Decimal("12.50"), screen.__name__
        QTest.keyClick(page.amount, Qt.Key.Key_Backspace)
        assert page.amount.value == Decimal("1.25"), screen.__name__
        QTest.keyClick(page.amount, Qt.Key.Key_Escape)
        assert page.amount.value == 0 and not page.amount.entered, screen.__name__
        page.keypad.keys["7"].click()
        page.keypad.keys["00"].click()
        assert page.amount.value == Decimal("7.00") and page.amount.entered, screen.__name__
        page.keypad.clear_button.click()
        assert page.amount.value == 0, screen.__name__
