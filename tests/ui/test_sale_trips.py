"""Trips from the Sale screen to its core model per key (issue #36 point 1): real key presses,
each call into ``SaleEntry`` counted. One digit makes at most one trip (the model takes the key,
edits the amount it is for and answers what the screen shows, in one call), and digits ended by
Return are read once: as a barcode (a product line, no tender) or as an amount (a tender, no
product), never both."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.sale_screen import SaleDriver
from tests.support.trips import count_trips

MILK = {"name": "Milk 1l", "price": "1.29", "barcode": "4006381333931"}


def typed_one_by_one(sale: SaleDriver, trips: list[str], digits: str) -> list[list[str]]:
    """Each digit typed as a real key press, with the trips it made."""
    per_key = []
    for digit in digits:
        trips.clear()
        sale.type(digit)
        per_key.append(list(trips))
    return per_key


def test_one_digit_key_makes_at_most_one_trip_to_the_core(ui: Any, make_gui: Any) -> None:
    gui = make_gui(products=[MILK])
    sale = SaleDriver(ui, gui)
    page = sale.page
    trips = count_trips(page.model)
    # no ticket yet (the quick path's amount)
    for made in typed_one_by_one(sale, trips, "1250"):
        assert len(made) <= 1, made
    assert page.amount.value == Decimal("12.50")
    trips.clear()
    sale.press(Qt.Key.Key_Backspace)  # an edit of the amount is one trip too
    assert len(trips) <= 1, trips
    assert page.amount.value == Decimal("1.25")
    sale.press(Qt.Key.Key_Escape)
    # a ticket with a line: what remains is pre-filled, the first digit replaces it
    sale.add_line("Tea", "400")
    assert page.prefilled and page.amount.value == Decimal("4.00")
    page.key_tip_field()  # F7: a keyed tip; the pre-filled amount follows it, in the same trip
    for digit in "50":
        trips.clear()
        QTest.keyClicks(page.tip, digit)
        assert len(trips) <= 1, trips
    assert page.tip.value == Decimal("0.50") and page.prefilled and page.amount.value == Decimal("4.50")
    assert page.remaining_value.text() == "$4.50"
    page.select_field(page.amount)
    for made in typed_one_by_one(sale, trips, "150"):
        assert len(made) <= 1, made
    assert not page.prefilled and page.amount.value == Decimal("1.50")
    assert page.remaining_value.text() == "$4.50"  # the screen still shows what the model says
    assert page.add_line_button.isEnabled()  # a typed amount may be a line


def test_digits_and_return_are_a_barcode_or_an_amount_never_both(ui: Any, make_gui: Any) -> None:
    gui = make_gui(products=[MILK])
    gui.pinpad.auto.setChecked(True)  # the training pad approves by itself
    sale = SaleDriver(ui, gui)
    page = sale.page
    trips = count_trips(page.model)
    for made in typed_one_by_one(sale, trips, MILK["barcode"]):
        assert len(made) <= 1, made
    trips.clear()
    sale.press(Qt.Key.Key_Return)  # a barcode: the product, and its digits are no amount
    ui.until(lambda: page.task is not None and page.task.done(), what="product line")
    assert "tender_request" not in trips and "line" not in trips, trips
    assert page.ticket is not None and [(x.name, x.unit_price) for x in page.ticket.lines] == [
        ("Milk 1l", Decimal("1.29"))]
    assert ui.run(gui.till.ctx.journal.search()) == []  # nothing charged
    sale.press(Qt.Key.Key_F12)  # the ticket (nothing paid) cancelled: the next one
    ui.until(lambda: page.task is not None and page.task.done(), what="ticket cancelled")
    typed_one_by_one(sale, trips, "1250")
    trips.clear()
    sale.press(Qt.Key.Key_Return)  # an amount: charged, and no product looked for in it after
    result = sale.wait_result()
    assert trips.count("tender_request") == 1, trips
    assert result.outcome == "approved" and result.entry.requested == Decimal("12.50")
    assert page.ticket is not None and [(x.name, x.unit_price) for x in page.ticket.lines] == [
        ("Amount", Decimal("12.50"))]
