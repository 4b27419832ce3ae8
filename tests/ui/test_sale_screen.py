"""The Sale screen is the ticket: driven with real key presses against the embedded sandbox, the
customer answering on the training PIN pad window."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.sale_screen import SaleDriver
from ui.i18n import format_money
from ui.pages.sale import TIP_KEYED, TIP_PAD


def test_quick_path_typed_then_return_charges_the_card(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("1250")
    assert page.amount.value == Decimal("12.50")
    sale.press(Qt.Key.Key_Return)  # the main Return key, not only F2 or the keypad's Enter
    assert page.stack.currentWidget() is page.waiting_page
    sale.press(Qt.Key.Key_Return)  # a second Return while the pad waits charges nothing more
    sale.prompt("card")  # tip mode "none": the LG gateway is told, and asks no tip
    gui.pinpad.tap_button.click()
    result = sale.wait_result()
    assert result.outcome == "approved" and result.entry.approved == Decimal("12.50")
    assert page.result_title.text() == "Approved"
    assert result.entry.auth_code in page.result_details.text()
    assert "1119" in page.result_details.text() and "4321000000001119" not in page.result_details.text()
    assert page.ticket is not None
    assert page.ticket.state == "paid" and result.entry.ticket_id == page.ticket.id
    page.show_receipt_button.click()
    receipt = page.receipt_view.toPlainText()
    assert "TRAINING" in receipt and "12.50" in receipt and result.entry.invoice in receipt
    entries = ui.run(gui.till.runtime.journal.search())
    assert len(entries) == 1  # charged once
    QTest.keyClick(page, Qt.Key.Key_Return)  # Return starts the next sale
    assert page.stack.currentWidget() is page.entry_page and page.amount.value == 0
    assert page.ticket is None


def test_esc_clears_and_the_entry_is_capped_at_what_the_host_accepts(ui: Any, make_gui: Any) -> None:
    gui = make_gui(max_amount="10000.00")  # training's own default lets the trigger amounts through
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("Tea450")
    assert page.description.text() == "Tea" and page.amount.value == Decimal("4.50")
    sale.press(Qt.Key.Key_Escape)
    assert page.amount.value == 0 and page.description.text() == ""
    sale.type("12345678901234567890")
    # the till's max_amount (10000.00 on a real till by default) stops the digit that would pass it
    assert page.amount.value == Decimal("1234.56")
    # said in the till's words, not the profile setting's name (issue 39)
    assert "limit for one payment" in page.error_label.text() and "max_amount" not in page.error_label.text()
    cap = format_money(gui.till.profile.bounds.ceiling(gui.till.currency), gui.till.currency)
    assert "at most" in page.error_label.text() and cap in page.error_label.text()
    sale.press(Qt.Key.Key_Escape)
    assert page.amount.value == 0


@pytest.mark.parametrize("option", ["LG", "DCP", "DCC"])
def test_split_lines_card_then_cash_with_change(ui: Any, make_gui: Any, option: str) -> None:
    gui = make_gui(tax_rate=Decimal("10"), processing_option=option)
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.add_line("Coffee", "350")
    sale.add_line("Bagel", "500")
    t = page.ticket
    assert t is not None
    assert [line.name for line in t.lines] == ["Coffee", "Bagel"] and t.total == Decimal("9.35")
    assert page.prefilled and page.amount.value == Decimal("9.35")  # what remains, pre-filled
    assert "$9.35" in page.remaining_value.text()
    sale.type("500")  # typing replaces it: a part, for a split
    sale.press(Qt.Key.Key_F2)
    sale.wait_idle()
    assert page.ticket is not None
    assert page.ticket.remaining == Decimal("4.35") and page.amount.value == Decimal("4.35")
    assert "Remaining $4.35" in page.notice.text()
    sale.type("2000")
    sale.press(Qt.Key.Key_F11)  # cash: the customer hands over 20.00
    sale.wait_result()
    assert page.ticket is not None
    assert page.ticket.state == "paid" and page.ticket.change == Decimal("15.65")
    assert page.change_due.isVisible() and "$15.65" in page.change_due.text()
    assert "Cash $20.00 given, $4.35 taken, change $15.65" in page.result_details.text()


@pytest.mark.parametrize("option", ["LG", "DCC"])
def test_partial_approval_is_unmistakable_then_another_tender(ui: Any, make_gui: Any,
                                                              option: str) -> None:
    gui = make_gui(processing_option=option)
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("21900")
    sale.press(Qt.Key.Key_Return)
    sale.wait_idle()  # not the green "Approved" screen: the ticket stays open
    assert page.result_page is not page.stack.currentWidget()
    assert page.notice.property("tone") == "partial"
    assert "PARTIALLY APPROVED" in page.notice.text() and "$109.50" in page.notice.text()
    assert "Remaining balance $109.50" in page.notice.text()
    assert page.amount.value == Decimal("109.50") and page.cash_button.isEnabled()
    sale.press(Qt.Key.Key_F11)
    sale.wait_result()
    assert page.ticket is not None
    assert page.ticket.state == "paid" and [t.outcome for t in page.ticket.tenders] == ["partial",
                                                                                      "approved"]


def test_decline_then_another_card_and_cancel_voids_at_the_host(ui: Any, make_gui: Any) -> None:
    gui = make_gui(max_amount=Decimal("1000000.00"))  # the decline trigger is past the default
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("99999800")  # the vendor's decline trigger
    sale.press(Qt.Key.Key_Return)
    sale.wait_idle()
    assert page.notice.property("tone") == "declined" and "Declined" in page.notice.text()
    assert page.ticket is not None
    assert page.ticket.state == "open"
    sale.press(Qt.Key.Key_Delete)  # the line goes; another amount, another card
    ui.until(lambda: page.task is not None and page.task.done() and page.ticket is not None
             and not page.ticket.lines, what="line removed")
    sale.add_line("Shirt", "3000")
    sale.type("1000")
    sale.press(Qt.Key.Key_F2)
    sale.wait_idle()
    assert [t.outcome for t in page.ticket.tenders] == ["declined", "approved"]
    assert page.ticket is not None
    ticket_id = page.ticket.id
    sale.press(Qt.Key.Key_F12)  # money was taken: the first press asks, naming the amount
    assert "Press F12 again" in page.notice.text() and "$10.00" in page.notice.text()
    assert page.ticket is not None and page.ticket.state == "open"
    sale.press(Qt.Key.Key_F12)
    ui.until(lambda: page.task is not None and page.task.done() and page.ticket is None,
             what="ticket cancelled")
    assert "cancelled" in page.notice.text()
    record = ui.run(gui.till.runtime.journal.ticket(ticket_id))
    assert record.state == "cancelled"
    ledger = gui.till.runtime.sandbox.state.ledger if hasattr(gui.till.runtime.sandbox.state, "ledger") \
        else None
    entries = ui.run(gui.till.runtime.journal.search())
    assert [str(e.state) for e in entries if e.approved > 0] == ["voided"]
    assert ledger is None or ledger


def test_cashier_cancels_while_the_pad_waits(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("500")
    page.card_button.click()
    sale.prompt("card")
    assert page.cancel_button.isEnabled()
    QTest.keyClick(page, Qt.Key.Key_Escape)
    sale.wait_idle()
    assert "Cancelled: not charged" in page.notice.text()
    assert page.ticket is not None
    assert page.ticket.state == "open" and page.ticket.tenders[0].outcome == "error"
    assert gui.till.hub.get(gui.till.terminal_id).state == "idle"


def test_f7_keys_the_tip_and_the_pad_never_asks_again(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="DCP", tip_mode="pad")
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("2000")
    sale.press(Qt.Key.Key_F7)  # from the keyboard alone: keyed tip, the tip line takes the digits
    assert page.tip_mode() == TIP_KEYED and page.active is page.tip
    QTest.keyClicks(page.tip, "300")
    assert page.tip.value == Decimal("3.00") and "$23.00" in page.total_value.text()
    sale.press(Qt.Key.Key_F2)
    result = sale.wait_result()
    assert result.entry.approved == Decimal("23.00") and result.entry.tip == Decimal("3.00")
    assert page.ticket is not None
    assert page.ticket.tip == Decimal("3.00") and "$3.00" in page.result_details.text()
    events = ui.run(gui.till.runtime.journal.events())
    assert not [e for e in events if e.type == "tip_prompt"]
    assert "Tip" in page.receipt()[-4] or any(line.startswith("Tip") for line in page.receipt())


def test_tip_on_the_pad_shows_the_same_amount_on_both_screens(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="DCP")
    sale = SaleDriver(ui, gui)
    page = sale.page
    page.amount.set_value(Decimal("40.00"))
    page.set_tip_mode(TIP_PAD)
    page.card_button.click()
    sale.prompt("tip")
    labels = [gui.pinpad.tip_buttons.itemAt(i).widget().text()
              for i in range(gui.pinpad.tip_buttons.count())]
    assert labels[:3] == ["$6.00", "$7.20", "$8.00"] and labels[-1] == "No tip"  # 15/18/20 %
    gui.pinpad.tip_other.setText("5.25")
    gui.pinpad.tip_other_button.click()
    sale.prompt("card")
    assert "45.25" in gui.pinpad.amount.text()
    assert page.wait_amount.text() == "$45.25"  # the cashier sees what the customer sees
    gui.pinpad.tap_button.click()
    result = sale.wait_result()
    assert page.ticket is not None
    assert result.entry.tip == Decimal("5.25") and page.ticket.tip == Decimal("5.25")
    assert page.ticket is not None
    assert page.ticket.total == Decimal("45.25") and page.ticket.state == "paid"


def test_f3_gift_card_with_the_pad_tip_shows_what_it_charged(ui: Any, make_gui: Any) -> None:
    """Issue 22: the gift card was charged 11.50 with a 1.50 tip chosen on the pad, while the
    result said $10.00 and "Tip: $0.00". Both screens and the receipt say what was charged."""
    from cashier.journal.model import Kind
    from cashier.sandbox.host_giftcards import TRAINING_GIFT_CARD

    gui = make_gui(tip_mode="pad")
    sale = SaleDriver(ui, gui)
    page = sale.page
    assert page.tip_mode() == TIP_PAD
    sale.type("1000")
    sale.press(Qt.Key.Key_F3)
    sale.prompt("tip")
    QTest.keyClicks(gui.pinpad.tip_other, "1.50")  # the customer types a tip on the pad
    QTest.mouseClick(gui.pinpad.tip_other_button, Qt.MouseButton.LeftButton)
    sale.prompt("card")
    assert page.wait_amount.text() == "$11.50"
    QTest.mouseClick(gui.pinpad.tap_button, Qt.MouseButton.LeftButton)  # the training gift card
    result = sale.wait_result()
    assert result.entry.kind is Kind.GIFTCARD_SALE and result.entry.card.endswith(TRAINING_GIFT_CARD[-4:])
    assert page.ticket is not None
    assert (result.entry.approved, page.ticket.tip, page.ticket.total) == (
        Decimal("11.50"), Decimal("1.50"), Decimal("11.50"))
    assert page.result_amount.text() == "$11.50"
    assert "Tip: $1.50" in page.result_details.text().splitlines()
    receipt = page.receipt()
    assert any(line.startswith("Tip") and line.endswith("1.50") for line in receipt)
    assert any(line.startswith("Total") and "11.50" in line for line in receipt)


def test_f3_with_a_visa_selected_on_the_pad_charges_a_gift_card(ui: Any, make_gui: Any) -> None:
    """Issue 22: with the test Visa selected in the training pad's list, a gift card request
    presented the Visa (...1119). A gift card request gets a gift card, unless a gift card row
    is the one selected."""
    from cashier.journal.model import Kind
    from cashier.sandbox.host_giftcards import TRAINING_GIFT_CARD

    gui = make_gui()
    pad = gui.pinpad
    visa = next(pad.cards.item(i) for i in range(pad.cards.count())
                if pad.cards.item(i).data(Qt.ItemDataRole.UserRole) == "4321000000001119")
    pad.cards.scrollToItem(visa)
    QTest.mouseClick(pad.cards.viewport(), Qt.MouseButton.LeftButton,
                     pos=pad.cards.visualItemRect(visa).center())  # the trainer selects the Visa
    assert pad.cards.currentItem() is visa
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("1000")
    sale.press(Qt.Key.Key_F3)
    sale.prompt("card")
    QTest.mouseClick(pad.tap_button, Qt.MouseButton.LeftButton)
    result = sale.wait_result()
    assert result.entry.kind is Kind.GIFTCARD_SALE and result.outcome == "approved"
    assert result.entry.card.endswith(TRAINING_GIFT_CARD[-4:]) and "1119" not in result.entry.card
    assert page.ticket is not None
    assert [t.kind for t in page.ticket.tenders] == ["giftcard"]
    assert ui.run(gui.till.ctx.journal.search(kinds=["sale"])) == []  # the Visa was not charged


def test_basket_on_the_lg_pin_pad(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    sale = SaleDriver(ui, gui)
    pad = gui.till.hub.get(gui.till.terminal_id)
    sale.add_line("Apples", "250")
    sale.add_line("Pears", "300")
    assert [x.split()[0] for x in pad.line_items] == ["Apples", "Pears"]
    # the training pad's window shows the customer the basket, as the pad has it
    ui.until(lambda: gui.pinpad.text.text().splitlines() == list(pad.line_items), what="the basket")
    sale.press(Qt.Key.Key_Return)
    sale.wait_result()
    assert pad.line_items == []


def test_a_scanned_line_is_drawn_before_the_pad_is_told(ui: Any, make_gui: Any) -> None:
    """docs/decisions/009-the-ticket.md, "A scanned line shows in one paint": in the running window the + key
    journals the line and puts its row on the ticket inside the key's own event, before the loop
    runs again (so the next paint shows it); the PIN pad is told after, and shows it too."""
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    pad = gui.till.hub.get(gui.till.terminal_id)
    sale.add_line("Apples", "250")  # the ticket's start waits for the writer's thread
    sale.lines_committed()  # not while the flusher commits Apples: the writer's thread is busy

    async def scan() -> tuple[int, list[str]]:
        sale.type("Pears300")
        sale.press(Qt.Key.Key_Plus)
        return page.lines_list.rowCount(), [x.split()[0] for x in pad.line_items]  # no yield yet

    rows, on_pad = ui.run(scan())
    second = page.lines_list.item(1, 0)
    assert rows == 2 and second is not None and second.text() == "Pears"
    assert on_pad == ["Apples"]  # the pad is told once the row could be drawn
    ui.until(lambda: page.task is not None and page.task.done(), what="line added")
    assert [x.split()[0] for x in pad.line_items] == ["Apples", "Pears"]
    assert page.ticket is not None
    assert [line.name for line in page.ticket.lines] == ["Apples", "Pears"]


def test_a_barcode_adds_the_profile_product(ui: Any, make_gui: Any) -> None:
    gui = make_gui(products=[{"name": "Milk 1l", "price": "1.29", "barcode": "4006381333931"}])
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.type("4006381333931")  # the scanner types the code, then Return
    sale.press(Qt.Key.Key_Return)
    ui.until(lambda: page.ticket is not None and page.ticket.lines, what="product line")
    assert page.ticket is not None
    assert page.ticket.lines[0].name == "Milk 1l" and page.ticket.total == Decimal("1.29")
    assert page.stack.currentWidget() is page.entry_page  # nothing charged
    assert ui.run(gui.till.runtime.journal.search()) == []

    async def scan_again() -> int:  # in the running window: drawn inside the scan's own Return
        sale.type("4006381333931")
        sale.press(Qt.Key.Key_Return)
        return page.lines_list.rowCount()

    ui.until(lambda: page.task is not None and page.task.done(), what="first line's end")
    sale.lines_committed()  # not while the flusher commits the first line
    assert ui.run(scan_again()) == 2
    ui.until(lambda: page.task is not None and page.task.done(), what="second line's end")
    assert page.ticket is not None
    assert [line.name for line in page.ticket.lines] == ["Milk 1l", "Milk 1l"]


def test_an_open_ticket_comes_back_after_a_crash(ui: Any, make_gui: Any, tmp_path: Any) -> None:
    from cashier.flows.ticket import Tender, TicketSession, TicketSettings

    journal = tmp_path / "crashed.sqlite"
    first = make_gui(journal_path=journal)
    first.pinpad.auto.setChecked(True)

    async def leave_open() -> int:
        s = await TicketSession.start(first.till.ctx, TicketSettings())
        await s.add_line("Lamp", Decimal("30.00"))
        await s.pay(Tender("cash", Decimal("10.00")))
        return s.id
    ticket_id = ui.run(leave_open())
    second = make_gui(journal_path=journal)
    sale = SaleDriver(ui, second, activate=False)
    page = sale.page
    ui.until(lambda: page.ticket is not None, what="ticket resumed")
    assert page.ticket is not None
    assert page.ticket.id == ticket_id and page.ticket.remaining == Decimal("20.00")
    assert "left open" in page.notice.text() and page.amount.value == Decimal("20.00")


def test_bad_amount_gets_a_clear_error_and_nothing_is_sent(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    sale.press(Qt.Key.Key_F2)
    assert "Amount" in page.error_label.text()
    sale.press(Qt.Key.Key_Plus)
    assert page.stack.currentWidget() is page.entry_page
    assert ui.run(gui.till.runtime.journal.search()) == []
    assert ui.run(gui.till.runtime.journal.ticket_ids()) == []


def test_the_amounts_column_fits_the_widest_amount_as_lines_come_and_go(ui: Any, make_gui: Any) -> None:
    """The amounts' column is kept as wide as its widest amount line by line (not measured again
    over every row for each line added): a long amount widens it, and it narrows once that line
    is removed; every amount is shown whole."""
    gui = make_gui()
    sale = SaleDriver(ui, gui)
    page = sale.page
    table = page.lines_list

    def fits_every_amount() -> bool:
        width = table.horizontalHeader().sectionSize(1)
        return all(table.sizeHintForIndex(table.model().index(row, 1)).width() <= width
                   for row in range(table.rowCount()))

    for name, digits in (("tea", "250"), ("cake", "475")):
        sale.add_line(name, digits)
    narrow = table.horizontalHeader().sectionSize(1)
    assert narrow > 0 and fits_every_amount()
    sale.add_line("safe", "98765432")
    assert table.horizontalHeader().sectionSize(1) > narrow and fits_every_amount()
    sale.press(Qt.Key.Key_Delete)  # the last line goes
    ui.until(lambda: table.rowCount() == 2, what="the line removed")
    assert table.horizontalHeader().sectionSize(1) == narrow and fits_every_amount()
