"""Cash rounding on the Sale screen (issue #38), driven with real keys: on a till whose profile
rounds cash (``cash_rounding = 0.05``) the ticket panel shows the cash due, rounded, before any
cash is taken, and F11 (the rest in cash) takes exactly that; a till that does not round shows
no such line. The rule is the core's (``discounts.cash_rounded`` through ``SaleEntry.fields``);
the window only shows it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt

from tests.support.sale_screen import SaleDriver


def test_the_rounded_cash_due_shows_before_cash_is_taken(ui: Any, make_gui: Any) -> None:
    gui = make_gui(cash_rounding=Decimal("0.05"), tax_rate=Decimal(0))
    sale = SaleDriver(ui, gui)
    page = sale.page
    panel = page.ticket_panel
    assert not panel.cash_due_value.isVisible()  # nothing due yet
    sale.add_line("Tea", "1232")
    assert "$12.32" in page.remaining_value.text()
    assert panel.cash_due_value.isVisible() and panel.cash_due_label.text() == "Cash due"
    assert panel.cash_due_value.text() == "$12.30"
    assert panel.cash_due_value.accessibleName() == "Cash due: $12.30"
    sale.add_line("Cake", "001")  # 12.33 is 12.35 in cash
    assert "$12.33" in page.remaining_value.text() and panel.cash_due_value.text() == "$12.35"
    sale.press(Qt.Key.Key_F11)  # the rest in cash: what the screen said
    sale.wait_result()
    t = page.ticket
    assert t is not None and t.state == "paid" and t.paid == Decimal("12.35")
    assert t.as_dict()["rounding"] == "0.02"


def test_a_till_that_does_not_round_cash_shows_no_cash_due(ui: Any, make_gui: Any) -> None:
    gui = make_gui(tax_rate=Decimal(0))
    sale = SaleDriver(ui, gui)
    sale.add_line("Tea", "1232")
    assert not sale.page.ticket_panel.cash_due_value.isVisible()
    assert not sale.page.ticket_panel.cash_due_label.isVisible()
