"""Sales through the window's own actions against the embedded sandbox, answered on the
training PIN pad window."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from ui.pages.sale import TIP_KEYED, TIP_PAD, SalePage


def _sale(gui: Any) -> SalePage:
    page = gui.window.go(SalePage)
    assert isinstance(page, SalePage)
    return page


def _prompt(ui: Any, gui: Any, kind: str) -> Any:
    return ui.until(lambda: gui.pinpad.prompt if gui.pinpad.prompt is not None
                    and gui.pinpad.prompt.kind == kind else None, what=f"{kind} prompt")


def _result(ui: Any, page: SalePage) -> Any:
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="result screen")
    return page.result


def test_approved_sale_typed_and_tapped(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    page = _sale(gui)
    QTest.keyClicks(page.amount, "1250")
    assert page.amount.value == Decimal("12.50")
    QTest.keyClick(page.amount, Qt.Key.Key_Return)  # Enter charges the card
    assert page.stack.currentWidget() is page.waiting_page
    _prompt(ui, gui, "tip")  # LG's gateway asks for a tip by its own settings
    gui.pinpad.tip_buttons.itemAt(gui.pinpad.tip_buttons.count() - 1).widget().click()  # No tip
    _prompt(ui, gui, "card")
    assert "card" in page.prompt_text.text().lower()  # the cashier sees what the customer is asked
    gui.pinpad.tap_button.click()
    result = _result(ui, page)
    assert result.outcome == "approved"
    assert result.entry.approved == Decimal("12.50")
    assert result.entry.training
    assert page.result_title.text() == "Approved"
    assert result.entry.auth_code and result.entry.auth_code in page.result_details.text()
    assert "1119" in page.result_details.text() and "4321000000001119" not in page.result_details.text()
    page.show_receipt_button.click()
    receipt = page.receipt_view.toPlainText()
    assert "TRAINING" in receipt and "$12.50" in receipt and result.entry.invoice in receipt
    page.print_button.click()
    ui.until(lambda: "printed" in page.result_message.text(), what="printed")
    terminal = gui.till.hub.get(gui.till.terminal_id)
    assert any("12.50" in line for line in terminal.last_receipt["lines"])
    QTest.keyClick(page, Qt.Key.Key_Return)  # Enter starts the next sale
    assert page.stack.currentWidget() is page.entry_page and page.amount.value == 0


def test_declined_by_trigger_amount(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    page = _sale(gui)
    page.amount.set_value(Decimal("999998.00"))  # the vendor's decline trigger
    page.card_button.click()
    result = _result(ui, page)
    assert result.outcome == "declined"
    assert page.result_title.text() == "Declined"
    assert page.result_page.property("outcome") == "declined"
    assert not page.print_button.isEnabled()


def test_cashier_cancels_while_the_pad_waits(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    page = _sale(gui)
    QTest.keyClicks(page.amount, "500")
    page.card_button.click()
    _prompt(ui, gui, "tip")
    # the window still repaints and takes keys while the customer thinks
    assert page.cancel_button.isEnabled()
    QTest.keyClick(page, Qt.Key.Key_Escape)
    result = _result(ui, page)
    assert result.outcome == "error"
    assert page.result_title.text() == "Cancelled: not charged"
    assert result.entry.approved == 0
    assert gui.till.hub.get(gui.till.terminal_id).state == "idle"


def test_keyed_tip_and_tax_are_sent_and_shown(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    page = _sale(gui)
    QTest.keyClicks(page.amount, "2000")
    page.tax_field.click()
    QTest.keyClicks(page.tax, "150")
    page.set_tip_mode(TIP_KEYED)
    page.tip_field.click()
    QTest.keyClicks(page.tip, "300")
    assert "23.00" in page.total_value.text()
    page.card_button.click()
    result = _result(ui, page)
    assert result.outcome == "approved"
    assert result.entry.approved == Decimal("23.00")
    assert result.entry.tip == Decimal("3.00") and result.entry.tax == Decimal("1.50")
    assert "$3.00" in page.result_details.text()


def test_tip_chosen_by_the_customer_on_the_pad(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="DCP")  # the controllers show the till's tip presets
    page = _sale(gui)
    page.amount.set_value(Decimal("40.00"))
    page.set_tip_mode(TIP_PAD)
    page.card_button.click()
    prompt = _prompt(ui, gui, "tip")
    labels = [gui.pinpad.tip_buttons.itemAt(i).widget().text()
              for i in range(gui.pinpad.tip_buttons.count())]
    assert labels[:3] == ["$6.00", "$7.20", "$8.00"] and labels[-1] == "No tip"  # 15/18/20 %
    assert prompt.amount == Decimal("40.00")
    gui.pinpad.tip_other.setText("5.25")
    gui.pinpad.tip_other_button.click()
    _prompt(ui, gui, "card")
    assert "45.25" in gui.pinpad.amount.text()
    gui.pinpad.tap_button.click()
    result = _result(ui, page)
    assert result.outcome == "approved"
    assert result.entry.tip == Decimal("5.25")
    assert result.entry.approved == Decimal("45.25")


def test_bad_amount_gets_a_clear_error_and_nothing_is_sent(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    page = _sale(gui)
    page.charge_card()
    assert "Amount" in page.error_label.text()
    page.amount.set_value(Decimal("1.00"))
    page.tax.set_value(Decimal("2.00"))
    page.charge_card()
    assert "Tax" in page.error_label.text()
    assert page.stack.currentWidget() is page.entry_page
    entries = ui.run(gui.till.runtime.journal.search())
    assert entries == []
