"""The drawer through the window with real key presses: sign in, open with a float, a cash
ticket on the virtual printer, pay-in, pay-out with a manager, no sale, a blind close short
beyond the tolerance, the Z report, sign out; and the manager screen locking itself."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.journal_entries import cash_entry
from tests.support.profiles import CLERKS
from tests.support.screens import answer_prompt, answer_save, keys, keys_to


def test_a_day_at_the_drawer_through_the_window(make_gui: Callable[..., Any], ui: Any) -> None:
    from ui.pages.drawer import DrawerPage
    from ui.pages.reports import ReportsPage
    from ui.pages.sale import SalePage

    gui = make_gui(clerks=CLERKS, drawer_float=None)
    w, desk = gui.window, gui.cashdesk
    w.activateWindow()  # shortcuts go to the active window; the training PIN pad opened last
    assert QTest.qWaitForWindowActive(w, 2000)
    panel = gui.sign_in
    assert w.stack.currentWidget() is panel and not any(b.isEnabled() for b in w.nav_buttons)
    keys(panel.pin, "9999", enter=True)
    assert "not accepted" in panel.error.text() and gui.till.clerk is None
    keys(panel.pin, "1111", enter=True)
    till = gui.till  # read afresh: mypy would keep ``gui.till.clerk`` narrowed to None past the sign-in
    assert till.clerk.name == "Alice" and till.ctx.clerk_id == 101
    assert isinstance(w.pages[w.stack.currentIndex()], SalePage)

    QTest.keyClick(w.page(SalePage).amount, Qt.Key.Key_9, Qt.KeyboardModifier.ControlModifier)
    page: DrawerPage = w.page(DrawerPage)
    assert w.stack.currentWidget() is page and page.open_box.isEnabled() and not page.move_box.isEnabled()
    keys(page.float_amount, "10000")
    QTest.keyClick(page.float_amount, Qt.Key.Key_F5)
    session = desk.drawer.current()
    assert session is not None and session.float == Decimal("100.00") and session.opened_by == "101"

    # a cash ticket (as the ticket writes it): receipt and drawer kick on the virtual printer
    entry = cash_entry(desk.recorder, "42.50", clerk="101", tendered="50.00", ticket=True)
    desk.ticket_done(entry.ticket_id, clerk="101")
    printer = gui.printer_window
    ui.until(lambda: len(printer.jobs) >= 2, what="the receipt after the float's kick")
    paper = printer.paper.toPlainText()
    assert "CASH" in paper and "42.50" in paper and "Change" in paper and "[drawer opens]" in paper

    keys(page.move_amount, "2000")
    keys(page.reason, "change from the bank")
    QTest.keyClick(page.reason, Qt.Key.Key_F6)
    assert page.message.text().startswith("Paid in")
    keys(page.move_amount, "650")
    keys(page.reason, "milk")
    asked: list[str] = []
    answer_prompt(asked, "2222")  # the one manager prompt (issue 39), no field of the Drawer's own
    QTest.keyClick(page.reason, Qt.Key.Key_F7)
    assert asked and "needs a manager" in asked[0]
    assert page.message.text().startswith("Paid out")
    w.activateWindow()  # the window has the keys again once the prompt has closed
    assert QTest.qWaitForWindowActive(w, 2000)
    keys(page.reason, "customer wanted coins")
    QTest.keyClick(page.reason, Qt.Key.Key_F4)
    assert "no sale" in page.message.text()
    moves = [(m["type"], m["clerk"], m["approved_by"]) for m in desk.drawer.moves(session)]
    assert moves == [("float", "101", None), ("kick", "101", None), ("pay_in", "101", None),
                     ("pay_out", "101", "102"), ("no_sale", "101", None)]

    # blind close: nothing about the expected amount shows before the count
    everything = " ".join(label.text() for label in page.findChildren(type(page.result)))
    assert "Expected" not in everything and "155.50" not in everything
    keys(page.counted, "14850")  # expected 100 + 42.50 + 20 - 6.50 = 156.00: short 7.50
    QTest.keyClick(page.counted, Qt.Key.Key_F9)
    assert "156.00" in page.result.text() and "short" in page.result.text()
    assert page.close_reason.hasFocus()
    QTest.keyClick(page.close_reason, Qt.Key.Key_F10)
    assert "reason" in page.message.text().lower() and desk.drawer.current() is not None
    keys(page.close_reason, "a ten given as a five")
    answer_prompt(asked, None)  # the manager is not there: the drawer waits for one
    QTest.keyClick(page.close_reason, Qt.Key.Key_F10)
    assert "manager" in asked[-1] and desk.drawer.current().state == "counted"
    assert "manager" in page.message.text()
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    answer_prompt(asked, "2222")
    QTest.keyClick(page.close_reason, Qt.Key.Key_F10)
    assert page.message.text().startswith("Drawer closed") and desk.drawer.current() is None
    closed = desk.drawer.last_closed()
    assert closed.over_short == Decimal("-7.50") and closed.approved_by == "102"

    # the Z report, behind a manager PIN
    w.activateWindow()  # the keys are the window's again once the manager's prompt has closed
    assert QTest.qWaitForWindowActive(w, 2000)
    QTest.keyClick(page.counted, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    reports: ReportsPage = w.page(ReportsPage)
    keys(reports.pin, "1111", enter=True)  # a cashier may not
    assert not reports.unlocked and reports.pin_error.text() == "No manager of this till has that PIN."
    keys(reports.pin, "2222", enter=True)
    assert reports.unlocked and reports.report is not None and reports.report["type"] == "x"
    assert reports.x_button.isChecked() and not reports.z_button.isChecked()
    QTest.keyClick(reports.view, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    # the key of the report on screen is the one pressed: Z now, X no longer highlighted, and
    # the focus ring went with it (it stayed on X)
    assert reports.z_button.isChecked() and not reports.x_button.isChecked()
    assert reports.focusWidget() is reports.z_button
    text = reports.view.toPlainText()
    assert "Z REPORT" in text and "-7.50" in text and "42.50" in text
    assert reports.report is not None and reports.report["by_tender"]["cash"]["amount"] == "42.50"
    # each export asks where to save (issue #39): the name it offers, beside the journal, kept
    offered: list[str] = []
    answer_save(offered)
    QTest.keyClick(reports.view, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)
    keys_to(w)  # the dialog gone, the keys go back to the window
    answer_save(offered)
    QTest.keyClick(reports.view, Qt.Key.Key_F9, Qt.KeyboardModifier.ShiftModifier)
    keys_to(w)
    assert [name.rsplit(".", 1)[-1] for name in offered] == ["csv", "pdf"]
    saved = sorted(p.suffix for p in reports.export_dir().iterdir())
    assert saved == [".csv", ".pdf"]
    ui.until(lambda: any(j.title.startswith("Z report") for j in printer.jobs), what="Z at the close")

    # sign out: the sign-in panel covers the window again
    QTest.keyClick(reports.view, Qt.Key.Key_L,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert gui.till.clerk is None and w.stack.currentWidget() is panel
    assert not any(b.isEnabled() for b in w.nav_buttons)


def test_manager_screen_locks_itself_when_unused(make_gui: Callable[..., Any], ui: Any) -> None:
    from ui.pages.manager import ManagerPage

    gui = make_gui()
    page: ManagerPage = gui.window.go(ManagerPage)
    assert page.idle.timer.interval() == 60_000  # the profile's default: a minute
    page.idle.timer.setInterval(150)
    keys(page.pin, "1234", enter=True)
    assert page.unlocked
    ui.until(lambda: not page.unlocked, timeout_s=5, what="the manager screen to lock")
    assert page.stack.currentWidget() is page.lock_page


def test_a_till_without_clerks_opens_as_before(make_gui: Callable[..., Any]) -> None:
    from ui.pages.sale import SalePage

    gui = make_gui()
    assert gui.sign_in is None and gui.till.clerk is None
    assert isinstance(gui.window.pages[gui.window.stack.currentIndex()], SalePage)
    assert all(b.isEnabled() for b in gui.window.nav_buttons)


def test_a_card_sale_prints_its_receipt_on_the_virtual_printer(make_gui: Callable[..., Any], ui: Any) -> None:
    from ui.pages.sale import SalePage

    gui = make_gui()
    sale: SalePage = gui.window.go(SalePage)
    keys(sale.amount, "1250", enter=True)  # Enter charges the card (tip mode none: no tip prompt)
    pad = gui.pinpad
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    pad.tap_button.click()
    ui.until(lambda: sale.stack.currentWidget() is sale.result_page, what="the sale's result")
    printer = gui.printer_window
    ui.until(lambda: printer.jobs, what="the receipt on the virtual printer")
    paper = printer.paper.toPlainText()
    entry = gui.cashdesk.recorder.search(limit=1)[0]
    assert entry.state == "approved" and str(entry.invoice) in paper and "12.50" in paper
    assert f"Ticket {entry.ticket_id}" in paper and "PAID" in paper  # the ticket's one receipt
    assert f"**** {entry.card_last4}" in paper and "[drawer opens]" not in paper
    ui.spin(0.3)
    assert len(printer.jobs) == 1  # once, however often the entry and the ticket change afterwards


def test_keys_on_the_manager_screen_keep_it_unlocked(make_gui: Callable[..., Any], ui: Any) -> None:
    from ui.pages.manager import ManagerPage

    gui = make_gui()
    page: ManagerPage = gui.window.go(ManagerPage)
    page.idle.timer.setInterval(1000)
    keys(page.pin, "1234", enter=True)
    assert page.unlocked
    for _ in range(5):  # 5 x 0.3 s of activity: longer than the lock time, never idle that long
        ui.spin(0.3)
        QTest.keyClick(page.panel, Qt.Key.Key_Shift)
    assert page.unlocked
    ui.until(lambda: not page.unlocked, timeout_s=5, what="the lock once the keys stop")


def test_cash_at_the_sale_screen_needs_an_open_drawer_then_one_receipt_and_a_kick(
        make_gui: Callable[..., Any], ui: Any) -> None:
    from ui.pages.sale import SalePage

    gui = make_gui(drawer_float=None)
    w, desk = gui.window, gui.cashdesk
    sale: SalePage = w.go(SalePage)
    w.activateWindow()  # F11 is a shortcut: it goes to the active window
    assert QTest.qWaitForWindowActive(w, 2000)
    keys(sale.amount, "850")
    QTest.keyClick(sale.amount, Qt.Key.Key_F11)
    ui.until(lambda: sale.task is not None and sale.task.done(), what="the cash tender refused")
    assert "open it first on the Drawer screen (Ctrl+9)" in sale.error_label.text()
    assert ui.run(gui.till.runtime.journal.search()) == []  # nothing journaled: no entry, no ticket
    assert ui.run(gui.till.runtime.journal.ticket_ids()) == []

    assert sale.amount.value == Decimal("8.50")  # what the cashier typed is still there

    desk.open(clerk="1", float_amount="20.00")
    ui.until(lambda: gui.printer_window.jobs, what="the float's kick")
    gui.printer_window.jobs.clear()  # what follows is the ticket's
    QTest.keyClick(sale.amount, Qt.Key.Key_F11)  # the quick path: the typed amount, paid in cash
    ui.until(lambda: sale.stack.currentWidget() is sale.result_page, what="the ticket paid")
    printer = gui.printer_window
    ui.until(lambda: printer.jobs, what="the receipt on the virtual printer")
    ui.spin(0.3)
    assert len(printer.jobs) == 1
    paper = printer.paper.toPlainText()
    assert sale.ticket is not None
    assert f"Ticket {sale.ticket.id}" in paper and "Cash given" in paper and "8.50" in paper
    assert "[drawer opens]" in paper
    balance = desk.drawer.balance(desk.drawer.require_open())
    assert balance.expected == Decimal("28.50")  # the float and the cash
    assert [m["type"] for m in desk.drawer.moves(desk.drawer.require_open())] == ["float", "kick"]

    # the Journal's reprint (F8) of the cash tender, which has no invoice: its ticket's receipt
    from ui.pages.journal import JournalPage

    journal: JournalPage = w.go(JournalPage)
    [row] = ui.until(lambda: [r for r, e in enumerate(journal.entries) if str(e.kind) == "cash"],
                     what="the cash row")
    journal.table.selectRow(row)
    assert journal.reprint_button.isEnabled()
    QTest.keyClick(journal.table, Qt.Key.Key_F8)
    ui.until(lambda: len(printer.jobs) == 2, what="the reprint on the virtual printer")
    reprinted = printer.jobs[-1].text
    assert sale.ticket is not None
    assert f"Ticket {sale.ticket.id}" in reprinted and "Cash given" in reprinted
    assert "[drawer opens]" not in reprinted  # a reprint opens no drawer
    ui.until(lambda: "Receipt printed" in journal.message.text(), what="the reprint said")


def test_the_status_bar_says_out_of_paper_and_clears_with_a_new_roll(
        make_gui: Callable[..., Any], ui: Any, monkeypatch: Any) -> None:
    import cashier.printing.queue as print_queue
    from tests.support.loopback_printer import KICK_BYTES, LoopbackPrinter

    monkeypatch.setattr(print_queue, "RECHECK_NOT_READY_S", 0.1)
    printer = LoopbackPrinter(paper="out")
    try:
        gui = make_gui(printer={"url": printer.url, "timeout_s": 1.0})
        desk, pill = gui.cashdesk, gui.printer_pill
        ui.until(lambda: pill.text() == "Printer: ready", what="the printer pill")
        assert printer.wait_jobs(1) and printer.jobs.pop(0) == KICK_BYTES  # the float's kick
        entry = cash_entry(desk.recorder, "4.20", clerk="101", tendered="5.00", ticket=True)
        desk.ticket_done(entry.ticket_id, clerk="101")
        ui.until(lambda: "out of paper" in pill.text(), what="out of paper in the status bar")
        assert pill.text() == "Printer: out of paper — load a roll, then reprint from the journal"
        assert pill.property("level") == "bad"
        assert pill.toolTip() == "The printer is out of paper: load a roll."
        assert printer.jobs == [KICK_BYTES]  # the drawer still opened for the change
        assert desk.recorder.get(entry.id).state == "approved"
        printer.paper = "low"  # a roll put in, nearly done already
        ui.until(lambda: "paper low" in pill.text(), what="paper low in the status bar")
        assert pill.property("level") == "warn"
        printer.paper = "plenty"
        ui.until(lambda: pill.text() == "Printer: ready", what="ready again")
    finally:
        printer.close()
