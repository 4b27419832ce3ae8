"""QR payments through the window's own keys and buttons against the embedded sandbox: paid by
the training customer's phone, cancelled before payment, paid then reversed, expired, refused on an
option without QR payments; the code drawn large, black on white in every theme."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from cashier.flows.qr import QrPolling
from tests.support.screens import keys_to
from ui.pages.qr import QrPage
from ui.pages.sale import SalePage
from ui.widgets.qrcode import ScanCode

FAST = QrPolling(first_s=0.03, factor=1.5, max_s=0.08, wait_s=20.0)


def _qr(gui: Any, polling: QrPolling = FAST) -> QrPage:
    page: QrPage = gui.window.page(QrPage)
    page.polling = polling
    return page


def _code_shown(ui: Any, page: QrPage) -> str:
    ui.until(lambda: page.scan.text_value and page.wait_title.text() == "Waiting for the customer",
             what="code on screen, waiting")
    return page.scan.text_value


def _result(ui: Any, page: QrPage) -> Any:
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="QR result")
    return page.outcome


def _host_code(gui: Any, code: str) -> dict[str, Any]:
    record: dict[str, Any] = gui.till.runtime.sandbox.state.family("qrpayments")["codes"][code]
    return record


def test_sale_f4_paid_by_the_training_customer(ui: Any, make_gui: Any) -> None:
    gui = make_gui()  # LG: the code also goes to the PIN pad's stored form
    sale = gui.window.go(SalePage)
    qr = _qr(gui)
    QTest.keyClicks(sale.amount, "1250")
    keys_to(gui.window)
    QTest.keyClick(sale.amount, Qt.Key.Key_F4)  # the QR tender
    assert gui.window.stack.currentWidget() is qr
    code = _code_shown(ui, qr)
    assert qr.wait_amount.text() == "$12.50"
    assert qr.scan.module_px >= 4 and qr.scan.width() >= 300  # large enough for a phone
    assert qr.customer_pays_button.isVisible() and "training" in qr.customer_pays_button.text()
    assert _host_code(gui, code)["status"] == "pending"
    prompt = ui.until(lambda: gui.pinpad.prompt if gui.pinpad.prompt is not None
                      and gui.pinpad.prompt.kind == "form" else None, what="code on the PIN pad")
    assert prompt.form["items"] == [{"key": "QR", "value": code}]
    pad_codes = [w for w in gui.pinpad.form_page.findChildren(ScanCode) if w.text_value == code]
    assert pad_codes and pad_codes[0].isVisible()  # the training pad shows it too
    qr.customer_pays_button.click()
    outcome = _result(ui, qr)
    assert outcome.outcome == "approved" and outcome.code == code
    assert qr.result_title.text() == "Approved: paid by QR code"
    assert qr.result_page.property("outcome") == "approved"
    assert qr.result_amount.text() == "$12.50"
    entry = outcome.entry
    assert entry.auth_code and entry.auth_code in qr.result_details.text()
    assert entry.card and entry.card.endswith("1119") and entry.card in qr.result_details.text()
    assert qr.scan.text_value == ""  # a finished code is not left on screen
    journaled = ui.run(gui.till.ctx.journal.search(kinds=["qr"]))
    assert [(e.invoice, str(e.state), e.approved) for e in journaled] == [
        (entry.invoice, "approved", Decimal("12.50"))]
    assert _host_code(gui, code)["status"] == "paid"
    ui.until(lambda: gui.till.hub.get(gui.till.terminal_id).prompt is None, what="pad cleared")
    QTest.keyClick(qr, Qt.Key.Key_Return)  # next sale
    assert gui.window.stack.currentWidget() is sale
    assert sale.stack.currentWidget() is sale.entry_page and sale.amount.value == 0


def test_cancelled_before_payment_with_esc(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="HD")
    qr = gui.window.go(QrPage)
    qr.polling = FAST
    QTest.keyClicks(qr.amount, "999")
    qr.start_button.click()
    code = _code_shown(ui, qr)
    ui.spin(0.1)  # polling goes on; the window still takes keys
    QTest.keyClick(qr, Qt.Key.Key_Escape)
    outcome = _result(ui, qr)
    assert outcome.outcome == "voided" and outcome.entry.response_code == "C"
    assert outcome.entry.approved == 0
    assert qr.result_title.text() == "Cancelled: not charged"
    assert not qr.reverse_button.isVisible() and not qr.print_button.isEnabled()
    assert _host_code(gui, code)["status"] == "cancelled"
    QTest.keyClick(qr, Qt.Key.Key_Return)  # opened on its own: back to its amount entry
    assert qr.stack.currentWidget() is qr.entry_page and qr.amount.value == 0


def test_paid_then_reversed_from_the_result(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="HD")
    sale = gui.window.go(SalePage)
    qr = _qr(gui)
    sale.amount.set_value(Decimal("20.00"))
    sale.qr_button.click()
    _code_shown(ui, qr)
    qr.customer_pays_button.click()
    paid = _result(ui, qr)
    assert paid.outcome == "approved"
    qr.reverse_button.click()  # first press only asks
    assert "again" in qr.result_message.text()
    assert str(ui.run(gui.till.ctx.journal.get(paid.entry.id)).state) == "approved"
    qr.reverse_button.click()
    ui.until(lambda: qr.outcome is not None and qr.outcome.outcome == "voided", what="reversed")
    assert qr.result_title.text() == "Reversed: the payment was given back"
    entry = ui.run(gui.till.ctx.journal.get(paid.entry.id))
    assert (str(entry.state), entry.response_code, entry.approved) == ("voided", "T", Decimal("20.00"))
    assert _host_code(gui, str(paid.code))["status"] == "reversed"
    assert not qr.reverse_button.isVisible()


def test_not_paid_in_time_is_expired(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="HD")
    qr = gui.window.go(QrPage)
    qr.polling = QrPolling(first_s=0.03, max_s=0.05, wait_s=0.3)
    qr.amount.set_value(Decimal("3.00"))
    keys_to(gui.window)
    QTest.keyClick(qr.amount, Qt.Key.Key_F2)
    assert qr.stack.currentWidget() is qr.waiting_page
    outcome = _result(ui, qr)
    assert outcome.outcome == "voided" and outcome.entry.approved == 0
    assert qr.result_title.text() == "Expired: not paid in time, not charged"


def test_option_without_qr_payments_is_refused_before_anything_is_sent(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="DCP")
    qr = gui.window.go(QrPage)
    qr.amount.set_value(Decimal("5.00"))
    qr.start_button.click()
    _result(ui, qr)
    assert qr.result_title.text() == "Not sent"
    assert "processing_option" in qr.result_message.text()
    assert ui.run(gui.till.ctx.journal.search()) == []


def test_code_is_black_on_white_in_high_contrast(ui: Any, make_gui: Any) -> None:
    gui = make_gui(processing_option="HD")
    gui.set_theme(high_contrast=True)
    qr = gui.window.go(QrPage)
    qr.polling = FAST
    qr.amount.set_value(Decimal("1.00"))
    qr.start_button.click()
    _code_shown(ui, qr)
    ui.spin(0.05)
    image = qr.scan.grab().toImage()
    assert image.pixelColor(2, 2) == QColor("white")  # around and in the quiet zone
    px = qr.scan.module_px
    side = px * qr.scan.modules
    left, top = (qr.scan.width() - side) // 2, (qr.scan.height() - side) // 2
    # the top-left finder pattern starts right after the 4-module quiet zone: black
    assert image.pixelColor(left + 4 * px + px // 2, top + 4 * px + px // 2) == QColor("black")
    assert image.pixelColor(left + 3 * px + px // 2, top + 4 * px + px // 2) == QColor("white")
    QTest.keyClick(qr, Qt.Key.Key_Escape)
    _result(ui, qr)
