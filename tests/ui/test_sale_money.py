"""Issue 22, money on the Sale screen, driven with real keys: the pre-filled amount includes the
keyed tip and F2 charges all that remains; the keyed tip is journaled on the tender that paid it;
Esc then F2 charges what remains; a refused cash amount is not added to; quick cash keys."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.sale_screen import SaleDriver
from tests.support.screens import go_to
from ui.i18n import TRANSLATIONS_DIR
from ui.i18n_tool import read_ts

ES = read_ts(TRANSLATIONS_DIR / "cashier_es.ts")


def test_keyed_tip_is_in_the_prefill_and_a_cash_rest_carries_it(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="DCP", tip_mode="keyed")
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.add_line("Lunch", "1735")
    assert page.prefilled and page.amount.value == Decimal("17.35")
    sale.press(Qt.Key.Key_F7)
    QTest.keyClicks(page.tip, "100")
    # Remaining and the pre-filled amount agree: both carry the tip
    assert page.amount.value == Decimal("18.35") and "$18.35" in page.remaining_value.text()
    QTest.keyClick(page.tip, Qt.Key.Key_F5)
    sale.type("812")  # a part by card
    sale.press(Qt.Key.Key_F2)
    sale.wait_idle()
    assert page.ticket is not None
    assert page.ticket.tip == Decimal("1.00") and page.ticket.remaining == Decimal("10.23")
    assert page.prefilled and page.amount.value == Decimal("10.23")
    assert "$10.23" in page.remaining_value.text()  # the tip is counted once, not again
    sale.press(Qt.Key.Key_F11)  # the rest in cash, exactly
    sale.wait_result()
    t = page.ticket
    assert t is not None
    assert (t.state, t.paid, t.tip) == ("paid", Decimal("18.35"), Decimal("1.00"))
    entries = {e.kind.value: e for e in ui.run(gui.till.runtime.journal.search())}
    assert entries["cash"].tip == Decimal("1.00") and entries["cash"].approved == Decimal("10.23")
    assert entries["sale"].tip == Decimal("0") and entries["sale"].approved == Decimal("8.12")


def test_f2_on_the_prefill_with_a_keyed_tip_charges_all_that_remains(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="DCP", tip_mode="keyed")
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.add_line("Dinner", "2000")
    sale.press(Qt.Key.Key_F7)
    QTest.keyClicks(page.tip, "250")
    assert page.amount.value == Decimal("22.50")
    QTest.keyClick(page.tip, Qt.Key.Key_F2)
    result = sale.wait_result()
    assert (result.entry.approved, result.entry.tip) == (Decimal("22.50"), Decimal("2.50"))
    assert page.ticket is not None
    assert page.ticket.state == "paid"


def test_esc_clears_the_prefill_then_f2_charges_what_remains(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="DCP")
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.add_line("Tea", "450")
    sale.press(Qt.Key.Key_Escape)
    assert page.amount.value == 0 and not page.prefilled
    sale.press(Qt.Key.Key_F2)
    result = sale.wait_result()
    assert page.ticket is not None
    assert result.entry.approved == Decimal("4.50") and page.ticket.state == "paid"


def test_a_refused_cash_amount_is_cleared(ui: Any, make_gui: Any) -> None:
    gui = make_gui(drawer_float=None)  # no drawer open: cash is refused before anything is journaled
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("2000")
    sale.press(Qt.Key.Key_F11)
    ui.until(lambda: page.task is not None and page.task.done(), what="refused")
    assert "drawer" in page.error_label.text()
    assert page.amount.value == Decimal("20.00")  # still in sight, but not added to:
    sale.type("5")
    assert page.amount.value == Decimal("0.05")
    assert ui.run(gui.till.runtime.journal.ticket_ids()) == []


def test_quick_cash_keys_exact_and_the_next_notes_up(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    pay = page.payment_panel
    assert not pay.exact_button.isEnabled()  # nothing to pay yet
    sale.type("1835")
    assert [b.text().split("\n")[0] for b in pay.note_buttons] == ["$20.00", "$50.00", "$100.00"]
    sale.press(Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)  # Alt+1: a 20
    sale.wait_result()
    assert page.ticket is not None
    assert page.ticket.state == "paid" and page.ticket.change == Decimal("1.65")
    assert "$1.65" in page.change_due.text()
    QTest.keyClick(page, Qt.Key.Key_Return)  # next sale
    sale.type("700")
    sale.press(Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)  # Alt+E: exact
    sale.wait_result()
    assert page.ticket is not None
    assert (page.ticket.paid, page.ticket.change) == (Decimal("7.00"), Decimal("0"))


def test_a_refused_amount_is_marked_and_the_keypad_starts_a_new_one(ui: Any, make_gui: Any) -> None:
    """The refusal shows on the amount itself, and the on-screen keypad (touch) starts a new amount
    too rather than adding to the refused one."""
    gui = make_gui(drawer_float=None)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("1250")
    sale.press(Qt.Key.Key_F11)
    ui.until(lambda: page.task is not None and page.task.done(), what="refused")
    assert "drawer" in page.error_label.text()
    assert page.amount.value == Decimal("12.50") and page.amount.property("refused") == "true"
    QTest.mouseClick(page.keypad.keys["7"], Qt.MouseButton.LeftButton)
    assert page.amount.value == Decimal("0.07") and page.amount.property("refused") == "false"
    QTest.mouseClick(page.keypad.keys["5"], Qt.MouseButton.LeftButton)
    assert page.amount.value == Decimal("0.75")  # the new amount is added to as usual


def test_a_cash_sale_is_paid_not_approved_and_said_once(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("1250")
    sale.press(Qt.Key.Key_F11)
    sale.wait_result()
    assert page.result_title.text() == "Paid"
    details = page.result_details.text()
    assert "Cash $12.50 given, $12.50 taken, change $0.00" in details and "approved" not in details
    assert "given" not in page.result_message.text()  # the core's note is not said again


def test_cash_given_taken_and_change_are_one_sentence_wherever_they_are_said(
        ui: Any, make_gui: Any) -> None:
    """Cash given for a $6.71 ticket: the result and the Journal's details say "Cash $10.00
    given, $6.71 taken, change $3.29" (before: "Cash  $6.71  taken  tendered $10.00, change
    $3.29"), in Spanish too; the receipt's rows say it in the same words (Cash given, Change)."""
    from ui.pages.journal import JournalPage

    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.add_line("Soup", "671")
    sale.type("1000")
    sale.press(Qt.Key.Key_F11)
    sale.wait_result()
    said = "Cash $10.00 given, $6.71 taken, change $3.29"
    assert said in page.result_details.text().splitlines()
    page.show_receipt_button.click()
    receipt = page.receipt_view.toPlainText().splitlines()
    assert [" ".join(r.split()) for r in receipt if "Cash given" in r or "Change" in r] == [
        "Cash given 10.00", "Change 3.29"]
    gui.set_language("es")
    spanish = ES["Cash {given} given, {taken} taken, change {change}"]
    assert spanish == "Efectivo {given} entregado, {taken} cobrado, cambio {change}"
    dicho = spanish.format(given="$10.00", taken="$6.71", change="$3.29")
    assert dicho in page.result_details.text().splitlines()
    page.show_receipt_button.click()
    recibo = page.receipt_view.toPlainText().splitlines()
    assert [" ".join(r.split()) for r in recibo if "Efectivo entregado" in r or "Cambio" in r] == [
        "Efectivo entregado 10.00", "Cambio 3.29"]
    gui.set_language("en")
    journal = go_to(gui, JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    journal.table.selectRow(0)
    QTest.keyClick(journal.table, Qt.Key.Key_F9)  # details: the cash said as on the Sale screen
    ui.until(lambda: journal.details.isVisible() and journal.details.toPlainText(), what="details")
    assert said in journal.details.toPlainText().splitlines()
    assert "tendered" not in journal.details.toPlainText().split("\n\n")[0]
