"""Tabs, journal actions, the manager screen and the language switch, against the sandbox."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import QLocale

from cashier.journal.model import NewEntry
from ui.pages.journal import JournalPage
from ui.pages.manager import ManagerPage
from ui.pages.sale import SalePage
from ui.pages.settings import SettingsPage
from ui.pages.tabs import TabsPage


def _approved_sale(ui: Any, gui: Any, amount: str) -> Any:
    page = gui.window.go(SalePage)
    page.new_sale()
    page.amount.set_value(Decimal(amount))
    page.card_button.click()
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="result")
    assert page.result.outcome == "approved", page.result
    return page.result.entry


def test_tab_opened_then_captured_with_tip(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    tabs = gui.window.go(TabsPage)
    tabs.amount.set_value(Decimal("60.00"))
    tabs.open_button.click()
    ui.until(lambda: tabs.entries, what="open tab listed")
    assert tabs.table.item(0, 3).text() == "$60.00"
    tabs.table.selectRow(0)
    assert tabs.capture_button.isEnabled()
    tabs.amount.set_value(Decimal("9.00"))  # the tip written on the slip
    tabs.capture_button.click()
    ui.until(lambda: "Captured" in tabs.message.text(), what="captured")
    ui.until(lambda: not tabs.entries, what="tab gone from the open list")
    entry = ui.run(gui.till.ctx.journal.search(kinds=["authorization"]))[0]
    assert str(entry.state) == "captured"
    assert entry.captured == Decimal("69.00") and entry.tip == Decimal("9.00")


def test_partial_refund_then_void_from_the_journal(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    sale = _approved_sale(ui, gui, "30.00")
    journal = gui.window.go(JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    assert journal.select_invoice(sale.invoice)
    assert journal.refund_amount.value == Decimal("30.00")  # full by default
    journal.refund_amount.set_value(Decimal("10.00"))  # partial
    journal.refund_button.click()  # asks, naming the amount
    journal.refund_button.click()  # confirmed
    # the refund row appears at its intent and turns approved a moment later: wait for the end
    refund = ui.until(lambda: next((e for e in journal.entries if str(e.kind) == "refund"
                                    and str(e.state) == "approved"), None), what="approved refund")
    assert refund.original_invoice == sale.invoice

    def left_to_refund() -> bool:
        journal.select_invoice(sale.invoice)
        return bool(journal.refund_amount.value == Decimal("20.00"))  # what is left

    ui.until(left_to_refund, what="the sale's refundable amount updated")
    # refunded in part, the sale is never voided (the customer would get the 10.00 twice): the
    # Void key stays off (issue #46); the refund itself can be voided
    assert not journal.void_button.isEnabled()
    assert journal.select_invoice(refund.invoice) and journal.void_button.isEnabled()
    # void needs a second press
    journal.void_button.click()
    assert "again" in journal.message.text()
    journal.void_button.click()
    ui.until(lambda: any(e.invoice == refund.invoice and str(e.state) == "voided"
                         for e in journal.entries), what="refund voided")

    def voidable_again() -> bool:  # nothing refunded any more: the whole sale may be voided
        journal.select_invoice(sale.invoice)
        return bool(journal.void_button.isEnabled())

    ui.until(voidable_again, what="the sale voidable again")
    journal.void_button.click()
    assert "again" in journal.message.text()
    journal.void_button.click()
    ui.until(lambda: any(e.invoice == sale.invoice and str(e.state) == "voided"
                         for e in journal.entries), what="voided")
    row = next(r for r, e in enumerate(journal.entries) if e.invoice == sale.invoice)
    assert journal.table.item(row, 5).text() == "Voided"


def test_journal_search_by_last_four_amount_and_bad_input(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    _approved_sale(ui, gui, "11.00")
    _approved_sale(ui, gui, "22.00")
    journal = gui.window.go(JournalPage)
    ui.until(lambda: len(journal.entries) == 2, what="rows")
    journal.search_by.setCurrentIndex(journal.search_by.findData("amount"))
    journal.search_text.setText("22.00")
    journal.refresh()
    ui.until(lambda: len(journal.entries) == 1, what="amount filter")
    assert journal.entries[0].requested == Decimal("22.00")
    journal.search_by.setCurrentIndex(journal.search_by.findData("last4"))
    journal.search_text.setText("12x4")
    journal.refresh()
    assert "last four" in journal.search_error.text() and "4 digits" in journal.search_error.text()
    journal.search_text.setText("1119")
    journal.refresh()
    ui.until(lambda: len(journal.entries) == 2, what="last four filter")


def test_manager_pin_refused_then_accepted(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    manager = gui.window.go(ManagerPage)
    assert manager.stack.currentWidget() is manager.lock_page
    manager.pin.setText("9999")
    assert not manager.unlock()
    assert "not accepted" in manager.pin_error.text()
    assert manager.stack.currentWidget() is manager.lock_page
    manager.pin.setText("1234")  # the training PIN (only its hash is in the code)
    assert manager.unlock()
    assert manager.stack.currentWidget() is manager.panel
    manager.lock_button.click()
    assert manager.stack.currentWidget() is manager.lock_page


def test_live_till_with_its_own_pin_hash(ui: Any, make_gui: Any) -> None:
    from cashier.manager_pin import hash_pin

    gui = make_gui(manager_pin_hash=hash_pin("7788"))
    manager = gui.window.go(ManagerPage)
    manager.pin.setText("1234")
    assert not manager.unlock()  # the training PIN does not open a till with its own
    manager.pin.setText("7788")
    assert manager.unlock()


def test_batch_close_blocked_by_unresolved_then_closed(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    _approved_sale(ui, gui, "12.00")
    # a sale whose answer is lost and whose status cannot be asked: unresolved
    from cashier.sandbox.faults import parse_rule

    gui.till.runtime.sandbox.faults.add([
        parse_rule({"path": "/api/rest/v1/transactions/sale", "action": "drop_after_commit", "count": 1}),
        parse_rule({"path": "/api/rest/v1/transactions/invoice", "action": "timeout_504", "count": 3})])
    page = gui.window.go(SalePage)
    page.new_sale()
    page.amount.set_value(Decimal("5.00"))
    page.card_button.click()
    ui.until(lambda: page.result is not None and page.result.outcome == "unknown", what="unknown")
    manager = gui.window.go(ManagerPage)
    manager.pin.setText("1234")
    manager.unlock()
    ui.until(lambda: manager.unresolved, what="unresolved listed")
    assert manager.unresolved_table.item(0, 3).text() == "Checking with the host"
    manager.close_button.click()  # asks, naming the totals
    ui.until(lambda: "Alt+B again" in manager.batch_message.text(), what="asked")
    manager.close_button.click()
    ui.until(lambda: "unresolved" in manager.batch_message.text(), what="blocked")
    assert manager.override_button.isVisible()
    # the manager resolves it first; then the close goes through
    manager.recover_button.click()
    ui.until(lambda: "resolved 1" in manager.unresolved_message.text(), what="recovered")
    manager.close_button.click()
    ui.until(lambda: "Alt+B again" in manager.batch_message.text(), what="asked")
    manager.close_button.click()
    ui.until(lambda: "closed" in manager.batch_message.text(), what="closed")
    assert not manager.override_button.isVisible()
    assert "Sales: 2 $17.00" in manager.batch_message.text()


def test_language_switch_at_run_time(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = gui.window.go(SalePage)
    sale.amount.set_value(Decimal("1234.50"))
    assert sale.card_button.text().startswith("Card")
    settings = gui.window.go(SettingsPage)
    settings.language.setCurrentIndex(settings.language.findData("es"))
    assert gui.language.code == "es"
    assert sale.card_button.text().startswith("Tarjeta")
    assert gui.window.nav_buttons[0].text().startswith("Venta")
    assert "ENTRENAMIENTO" in gui.window.training_banner.text()
    assert QLocale().language() == QLocale.Language.Spanish
    assert sale.amount.text() == "$1,234.50"  # es-MX groups like en-US
    settings.language.setCurrentIndex(settings.language.findData("en"))
    assert sale.card_button.text().startswith("Card")


def test_manager_screen_shows_a_correction_the_host_made(ui: Any, make_gui: Any) -> None:
    """Issue 27: a payment the journal held as error that the host holds approved is corrected
    by the Manager screen's recovery, which says so and lists it."""
    from cashier.host.models.common import Amount, Card
    from cashier.journal.model import Kind, Op, State

    gui = make_gui()
    ctx = gui.till.ctx
    entry = ui.run(ctx.journal.create(NewEntry(Kind.SALE, Decimal("9.00"), actor="1", op=Op.SALE, sent=True)))
    ui.run(ctx.journal.transition(entry.id, State.ERROR, actor="1", message="not charged"))
    ui.run(ctx.client.sale(invoice=str(entry.invoice), amount=Amount(total=Decimal("9.00")),
                            card=Card(number="4321000000001119", expiration_date="1230")))
    manager = gui.window.go(ManagerPage)
    manager.pin.setText("1234")
    manager.unlock()
    manager.recover_button.click()
    ui.until(lambda: "Corrected 1" in manager.unresolved_message.text(), what="corrected")
    ui.until(lambda: str(entry.invoice) in manager.corrections_hint.text(), what="listed")
    assert ui.run(ctx.journal.get(entry.id)).state is State.APPROVED
    manager.reconcile_button.click()  # the batch totals count it too
    ui.until(lambda: "Corrections (the host held them otherwise): 1  $9.00" in manager.totals.text(),
             what="the correction in the batch totals")
