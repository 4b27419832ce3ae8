"""Screens of the cash desk for ``scripts/screens.py``: sign-in, the drawer's blind close before and after
the count, the Z report, and the training virtual printer. A till with two clerks, on its own
throw-away journal, driven through the same page methods the keys call."""

from __future__ import annotations

import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from cashier.journal.model import NewEntry
from cashier.manager_pin import hash_pin


async def _as_a_key(action: Callable[[], None]) -> None:
    """``action`` run from Qt's event loop, as a key press runs it: the manager prompt it may open
    runs a nested loop, which inside an asyncio task's step would step other tasks within it."""
    import asyncio

    from PySide6.QtCore import QTimer

    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def run() -> None:
        try:
            action()
        finally:
            if not done.done():
                done.set_result(None)
    QTimer.singleShot(0, run)
    await done


def _manager_answers(pin: str | None) -> None:
    """The manager answers the one manager prompt once it is up: types ``pin`` (None: cancels)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit

    deadline = time.monotonic() + 10  # never left answering a later prompt

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            if time.monotonic() < deadline:
                QTimer.singleShot(20, answer)
            return
        if pin is None:
            dialog.reject()
            return
        field = dialog.findChild(QLineEdit)
        if field is not None:
            field.setText(pin)
        dialog.accept()
    QTimer.singleShot(20, answer)


async def cash_states(shoot: Callable[[Any, str], Any], build: Callable[..., Any]) -> None:
    """``build(**overrides)``: a training till's window, shown and not started
    (``screens.build_training``)."""
    from cashier.journal.model import Kind, State
    from cashier.journal.tickets import CASH_NOTE
    from ui.pages.drawer import DrawerPage
    from ui.pages.reports import ReportsPage

    clerks = [{"id": 101, "name": "Alice", "pin_hash": hash_pin("1111")},
              {"id": 102, "name": "Bob", "pin_hash": hash_pin("2222"), "role": "manager"}]
    gui = build(clerks=clerks)
    w = gui.window
    w.resize(1180, 780)
    w.show()
    await gui.start(poll_s=0)
    await shoot(w, "sign-in")
    gui.sign_in.pin.setText("1111")
    gui.sign_in.sign_in()
    desk = gui.cashdesk
    page: DrawerPage = w.go(DrawerPage)
    await shoot(w, "drawer-closed-no-session")
    page.float_amount.set_value(Decimal("100.00"))
    page.open_drawer()
    store = desk.recorder
    for amount, tendered in (("42.50", "50.00"), ("18.25", "20.00")):
        ticket_id = store.create_ticket(actor="101", tax_rate=Decimal(0), tax_included=False,
                                        tip_mode="none")
        store.add_ticket_line(ticket_id, name="Goods", quantity=1, unit_price=Decimal(amount),
                              actor="101")
        entry = store.create(NewEntry(Kind.CASH, Decimal(amount), actor="101", clerk="101", op="sale",
                             ticket_id=ticket_id))
        entry = store.transition(entry.id, State.APPROVED, actor="101", approved=Decimal(amount))
        store.note(entry.id, CASH_NOTE, actor="101", tendered=tendered,
                   change=str(Decimal(tendered) - Decimal(amount)))
        store.close_ticket(ticket_id, "paid", actor="101")
        desk.ticket_done(ticket_id, clerk="101")
    card = store.create(NewEntry(Kind.SALE, Decimal("64.00"), actor="101", clerk="101", tip=Decimal("6.00"),
                        card="4111111111111111"))
    store.transition(card.id, State.APPROVED, actor="101", approved=Decimal("64.00"), card_type="VISA")
    page.move_amount.set_value(Decimal("20.00"))
    page.reason.setText("change from the bank")
    page.cash_move("pay_in")
    page.move_amount.set_value(Decimal("6.50"))
    page.reason.setText("milk for the staff room")
    _manager_answers("2222")  # the one manager prompt (issue 39)
    await _as_a_key(lambda: page.cash_move("pay_out"))
    page.counted.set_value(Decimal("166.75"))
    await shoot(w, "drawer-blind-count")
    page.count()
    page.close_reason.setText("a ten given as a five")
    await shoot(w, "drawer-counted-over-short")
    _manager_answers(None)  # no manager at hand yet: the drawer waits for one
    await _as_a_key(page.close_drawer)
    await shoot(w, "drawer-close-waiting-for-manager")
    _manager_answers("2222")
    await _as_a_key(page.close_drawer)
    await shoot(w, "drawer-closed")
    reports: ReportsPage = w.go(ReportsPage)
    await shoot(w, "reports-locked")
    reports.pin.setText("2222")
    reports.unlock()
    reports.show_z()
    await shoot(w, "z-report")
    if gui.printer_window is not None:
        gui.printer_window.resize(gui.printer_window.width(), 700)
        await shoot(gui.printer_window, "virtual-printer")
    await _printer_out_of_paper(gui, shoot)
    await gui.stop()


async def _printer_out_of_paper(gui: Any, shoot: Callable[[Any, str], Any]) -> None:
    """The status bar when the receipt printer answers that its roll is out: a real print queue
    whose device says so (there is no printer on the machine that renders the screens)."""
    import asyncio

    from cashier.printing.device import OutOfPaper
    from cashier.printing.queue import PrintQueue
    from ui.pages.sale import SalePage

    def no_paper(job: Any) -> None:
        raise OutOfPaper("tcp://192.168.1.50:9100: the printer says its paper roll is out")

    desk = gui.cashdesk
    virtual, desk.printer = desk.printer, PrintQueue(no_paper, name="tcp://192.168.1.50:9100")
    try:
        desk.print_receipt("1")
        await asyncio.to_thread(desk.printer.wait_idle, 5)
        gui.printer_refresh()  # the status bar reads the printer now (else at its next poll)
        gui.window.go(SalePage)
        await shoot(gui.window, "printer-out-of-paper")
    finally:
        desk.printer.stop()
        desk.printer = virtual
