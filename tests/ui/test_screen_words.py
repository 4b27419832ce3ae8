"""The words the counter reads (issue 22), with real keys: each said once, with its currency, in
the window's language; the Sign out key and the manager's prompt in Spanish too."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from cashier.flows import payments
from cashier.flows.payments import KeyedCard
from tests.support.profiles import CLERKS
from tests.support.sale_screen import SaleDriver
from tests.support.screens import answer_prompt
from ui.i18n import TRANSLATIONS_DIR
from ui.i18n_tool import read_ts

ES = read_ts(TRANSLATIONS_DIR / "cashier_es.ts")


def test_the_sale_says_each_thing_once(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    pad = gui.pinpad
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("1250")
    sale.press(Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    ui.until(lambda: "Customer sees" in page.prompt_text.text(), what="what the customer sees")
    assert page.prompt_text.text() == "Customer sees: Present card ($12.50)"
    pad.customer_cancels()
    sale.wait_idle()
    sale.type("1000")
    sale.press(Qt.Key.Key_F11)  # cash, part of it
    sale.wait_idle()
    assert page.notice.text() == "Cash taken: $10.00. Remaining $2.50."
    pad.auto.setChecked(True)
    sale.press(Qt.Key.Key_F12)  # money was taken: asks first
    sale.press(Qt.Key.Key_F12)
    ui.until(lambda: page.task is not None and page.task.done() and page.ticket is None,
             what="ticket cancelled")
    sale.type("99999800")  # the vendor's decline trigger
    sale.press(Qt.Key.Key_F2)
    sale.wait_idle()
    said = page.notice.text()
    assert said.count("Declined") == 1 and "Try another card" not in said, said
    assert said.endswith("The ticket stays open: remaining $999,998.00.")


def test_spanish_sign_out_pad_words_and_manager_refusals(ui: Any, make_gui: Any) -> None:
    from ui.pages.journal import JournalPage

    gui = make_gui(clerks=CLERKS, drawer_float=None)
    w = gui.window
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    gui.set_language("es")
    assert gui.sign_in.heading.text() == ES["Sign in"]
    QTest.keyClicks(gui.sign_in.pin, "1111")
    QTest.keyClick(gui.sign_in.pin, Qt.Key.Key_Return)
    assert gui.sign_out_button.text().startswith(ES["Sign out"] + "\n(Alice)")
    gui.set_language("en")
    assert gui.sign_out_button.text().startswith("Sign out\n(Alice)")
    gui.set_language("es")

    sale = SaleDriver(ui, gui)

    page = sale.page
    sale.type("1250")
    sale.press(Qt.Key.Key_F2)
    pad = gui.pinpad
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    ui.until(lambda: ES["Present card"] in page.prompt_text.text(), what="the pad's words")
    assert pad.header.text() == ES["Present card"]
    pad.customer_cancels()
    sale.wait_idle()
    sale.press(Qt.Key.Key_F12)
    ui.until(lambda: page.task is None or page.task.done(), what="ticket cancelled")

    paid = ui.run(payments.sale(gui.till.ctx, Decimal("20.00"),
                                card=KeyedCard("4321000000001119", "1228"))).entry
    journal = w.go(JournalPage)
    ui.until(lambda: journal.entries, what="rows")
    assert journal.select_invoice(paid.invoice)
    seen: list[str] = []
    QTest.keyClick(journal.table, Qt.Key.Key_F12)  # the first press asks to confirm
    answer_prompt(seen, "2223")  # not a manager's PIN
    QTest.keyClick(journal.table, Qt.Key.Key_F12)
    ui.until(lambda: seen, what="the manager's prompt")
    asked = ES["%s of %s needs a manager's approval."] % (ES["A void"], "$20.00")
    assert seen[0].startswith(asked), seen
    ui.until(lambda: journal.message.text() == ES["No manager of this till has that PIN."],
             what="the refusal in Spanish")


def test_no_z_report_yet_leaves_the_x_report_key_down(ui: Any, make_gui: Any) -> None:
    from ui.pages.reports import ReportsPage

    gui = make_gui(start=False)
    w = gui.window
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    QTest.keyClick(w, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    reports = w.page(ReportsPage)
    QTest.keyClicks(reports.pin, "1234")
    QTest.keyClick(reports.pin, Qt.Key.Key_Return)
    assert reports.unlocked and reports.x_button.isChecked()
    QTest.keyClick(reports.view, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert reports.message.text()  # no drawer closed yet: said, and the X report stays
    assert reports.x_button.isChecked() and not reports.z_button.isChecked()
    assert reports.report is not None and reports.report["type"] == "x"


def test_the_core_refusals_at_the_counter_are_said_in_spanish(ui: Any, make_gui: Any) -> None:
    """A core refusal with figures in it (``ValidationError.template``) reaches the Spanish window
    translated, its amounts as money; the command line keeps the core's English line."""
    from cashier.errors import DrawerRefused, ValidationError
    from cashier.money import AmountBounds
    from ui.core_words import error_words

    gui = make_gui(drawer_float=None)
    gui.set_language("es")
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("400")
    sale.press(Qt.Key.Key_F11)  # cash with no drawer open
    expected = (ES["Cash"] + ": "
                + ES["the drawer is closed: open it first on the Drawer screen (Ctrl+9)"])
    ui.until(lambda: page.error_label.text() == expected, what="the refusal in Spanish")

    with pytest.raises(ValidationError) as over:
        AmountBounds(max_amount=Decimal("10000.00"), largest_note=Decimal("100.00")).check_cash(
            Decimal("200.00"), Decimal("25.45"), "USD")
    assert str(over.value) == ("cash: 200.00 is more than the 25.45 that remains by 174.55: at most "
                               "100.00 (this till's largest_note) over")
    said = error_words(over.value, "USD")
    assert said.startswith(ES["Cash"] + ": $200.00 supera en $174.55 los $25.45"), said
    with pytest.raises(DrawerRefused) as closed:  # the drawer's own refusal, as the core says it
        gui.cashdesk.drawer.require_open()
    assert error_words(closed.value) == ES["No drawer is open: open it with a float on the Drawer "
                                           "screen (Ctrl+9)."]
    gui.set_language("en")
    assert error_words(closed.value) == ("No drawer is open: open it with a float on the Drawer "
                                         "screen (Ctrl+9).")
    # the window names the rule, never the profile's setting (issue 39)
    assert error_words(over.value, "USD") == ("Cash: $200.00 is more than the $25.45 that remains "
                                              "by $174.55: at most $100.00 over (the largest note "
                                              "this till takes)")
