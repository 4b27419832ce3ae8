"""Issue 40's "Done when": a training till rehearses an outage from start to end through the
window: the training PIN pad's "Host down", offline by itself, a sale over the limit refused in
one line, a stored payment declined at the forward (the 19.19 trigger) shown on the Manager
screen, back online by itself, and the books balance with the host afterwards."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt

from cashier.flows.offline import mode as offline_mode
from cashier.journal.model import State
from tests.support.sale_screen import SaleDriver, approved_sale
from tests.support.screens import go_to, keys_to
from ui.pages.manager import ManagerPage


def _sale(ui: Any, gui: Any, digits: str) -> Any:
    keys_to(gui.window)
    sale = SaleDriver(ui, gui, activate=False)
    sale.page.new_sale()
    sale.type(digits)
    sale.press(Qt.Key.Key_F2)
    return sale


def test_a_training_till_rehearses_an_outage(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    approved_sale(ui, gui, "1500")
    window, till = gui.window, gui.till
    assert not window.offline_pill.isVisibleTo(window)
    # 1. the host goes away (the trainer ticks "Host down" on the PIN pad)
    gui.pinpad.host_down.setChecked(True)
    refused = _sale(ui, gui, "2000")
    refused.wait_idle()  # not charged: the ticket stays open, the cashier presents the card again
    assert "offline now" in refused.page.notice.text()
    ui.until(lambda: till.status.offline, what="offline by itself")
    assert till.status.offline_automatic
    ui.until(lambda: window.offline_pill.text() == "Offline: cards stored — 0 for $0.00",
             what="the status bar says so")
    # 2. cards are stored within the limits: the same ticket's card again, then 19.19 (the host
    # will decline it)
    refused.press(Qt.Key.Key_F2)
    assert refused.wait_result().outcome == "approved"
    assert _sale(ui, gui, "1919").wait_result().outcome == "approved"
    ui.until(lambda: window.offline_pill.text() == "Offline: cards stored — 2 for $39.19",
             what="two stored")
    # 3. a sale over max_sale (100 by default): one line naming the limit, nothing charged
    over = _sale(ui, gui, "15000")
    ui.until(lambda: "max_sale" in over.page.error_label.text(), what="the limit said")
    # 4. the host is back: the till comes back online by itself and settles the forward
    gui.pinpad.host_down.setChecked(False)
    ui.until(lambda: not till.status.offline, what="online by itself")
    ui.until(lambda: till.status.declined_on_forward == 1, what="the decline counted")
    assert not window.offline_pill.isVisibleTo(window)
    # 5. the manager sees the declined payment with what to do
    manager = go_to(gui, ManagerPage)
    manager.refresh()
    ui.until(lambda: "Declined when sent on" in manager.offline_view.text(), what="shown")
    assert "$19.19" in manager.offline_view.text() and "collect" in manager.offline_view.text()
    # 6. the books balance: every approval the journal counts is the host's, the decline apart
    entries = ui.run(till.ctx.journal.search(limit=100))
    ledger = {r["invoice"]: r for r in ui.run(_ledger(till))}
    approved = [e for e in entries if e.state is State.APPROVED]
    assert sorted(e.approved for e in approved) == [Decimal("15.00"), Decimal("20.00")]
    assert all(ledger[str(e.invoice)]["state"] == "sale" for e in approved)
    declined = [e for e in entries if e.state is State.DECLINED_ON_FORWARD]
    assert [ledger[str(e.invoice)]["state"] for e in declined] == ["declined"]
    totals = ui.run(till.ctx.journal.totals(0))
    assert totals.amount("sale") == Decimal("35.00")
    assert totals.amount("declined_on_forward") == Decimal("19.19")


async def _ledger(till: Any) -> list[dict[str, Any]]:
    import httpx

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=till.runtime.sandbox.asgi),
                                 base_url="http://sandbox") as control:
        invoices: list[dict[str, Any]] = (await control.get("/_sandbox/ledger")).json()["invoices"]
        return invoices


def test_offline_by_itself_the_window_probes_every_probe_s(ui: Any, make_gui: Any) -> None:
    """No status poll here (``poll_s=0``): the window probes on its own every ``probe_s`` while
    offline by itself, and is back online within about that once the host answers."""
    gui = make_gui(offline={"probe_s": 1})
    gui.pinpad.auto.setChecked(True)
    till = gui.till
    gui.pinpad.host_down.setChecked(True)
    _sale(ui, gui, "2000").wait_idle()
    ui.until(lambda: till.status.offline and till.status.offline_automatic, what="offline by itself")
    till.runtime.sandbox.set_upstream(True)  # the host is back; nobody ticks anything
    ui.until(lambda: not till.status.offline, timeout_s=5.0, what="online by its own probe")
    assert not ui.run(offline_mode(till.ctx)).offline


def test_the_manager_lists_each_stored_payment_and_each_declined_at_forward(
        ui: Any, make_gui: Any) -> None:
    """One row per stored payment (ticket, amount, card's last four, time, hours left before
    max_hours), then the ones declined at the forward with what to do; named for a screen reader,
    in Spanish, and the screen does not scroll sideways at 1024×768."""
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    till = gui.till
    for first, then in (("2000", "1919"), ("800", "2375")):  # two outages
        gui.pinpad.host_down.setChecked(True)
        refused = _sale(ui, gui, first)
        refused.wait_idle()  # not charged: the same ticket's card again is stored
        ui.until(lambda: till.status.offline, what="offline by itself")
        refused.press(Qt.Key.Key_F2)
        assert refused.wait_result().outcome == "approved"
        assert _sale(ui, gui, then).wait_result().outcome == "approved"
        if first == "2000":  # the host back: 19.19 is declined at the forward
            gui.pinpad.host_down.setChecked(False)
            ui.until(lambda: not till.status.offline and till.status.declined_on_forward == 1,
                     what="the forward settled")
    gui.window.resize(1024, 768)
    manager = go_to(gui, ManagerPage)
    manager.pin.setText("1234")  # the training till's manager PIN
    assert manager.unlock()
    manager.refresh()
    table = manager.offline_table
    ui.until(lambda: table.rowCount() == 3, what="two stored, one declined")
    rows = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(3)]
    assert [r[0] for r in rows] == ["Waiting", "Waiting", "Declined when sent on"]
    assert [r[2] for r in rows] == ["$8.00", "$23.75", "$19.19"]
    assert all(r[3].startswith("..") and r[3][2:].isdigit() and r[1] != "—" for r in rows)
    assert rows[0][5] in ("24.00 h left", "23.99 h left")
    assert rows[2][5] == "Reach the customer and collect it"
    assert table.accessibleName() == "Stored payments"
    assert "Amount: $19.19" in table.item(2, 0).data(Qt.ItemDataRole.AccessibleTextRole)
    ui.until(lambda: table.isVisibleTo(gui.window), what="the list shown")
    assert manager.scroll_area.horizontalScrollBar().maximum() == 0
    gui.set_language("es")
    ui.until(lambda: table.horizontalHeaderItem(5).text() == "Queda / qué hacer", what="Spanish")
    assert table.item(2, 5).text() == "Contacte al cliente y cóbrelo"
    assert manager.scroll_area.horizontalScrollBar().maximum() == 0
