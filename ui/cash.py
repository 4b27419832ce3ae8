"""The window's handle on the cash desk: the drawer, the receipt printer and the reports.

``open_cashdesk`` runs before the pages are built (they read ``gui.cashdesk``); ``install_cash``
adds what spans the window: the clerk sign-in, the printer's status in the status bar, and (in
training, once the PIN pad window is up) the virtual printer window beside it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QObject, QRect, QSize, QTimer
from PySide6.QtWidgets import QWidget

from ui import a11y
from ui.core_words import printer_words
from ui.i18n import tr

if TYPE_CHECKING:
    from cashier.config import TillProfile
    from ui.gui import Gui

log = logging.getLogger("ui.cash")
PRINTER_POLL_MS = 1000
#: how long a window manager takes to frame a window just shown (training's placement asks again)
FRAME_SETTLE_MS = 300


def open_cashdesk(profile: TillProfile) -> Any:
    """The till's CashDesk, or None when its journal cannot be opened (the start-up says why)."""
    from cashier.cashdesk import CashDesk, open_recorder

    try:
        return CashDesk(profile, open_recorder(profile))
    except Exception:
        log.exception("the cash desk could not open the journal")
        return None


def install_cash(gui: Gui) -> None:
    from ui.signin import install_sign_in
    from ui.window import Pill

    if gui.cashdesk is None:
        return
    install_sign_in(gui)  # e-mailed receipts start with the runtime (``install_mail``)

    def publish(change: Any) -> None:  # a drawer move, on the bus like every journal change
        if gui.till.runtime is not None:
            gui.till.runtime.bus.publish(change)

    gui.cashdesk.subscribe(publish)
    gui.till.bridge.payment_changed.connect(lambda entry: _payment_changed(gui, entry))
    gui.till.bridge.other_event.connect(lambda event: _ticket_changed(gui, event))
    pill = Pill()
    gui.window.status.addPermanentWidget(pill)
    gui.printer_pill = pill
    heard: list[str] = []  # the printer's state last said: a change is announced

    def refresh() -> None:
        if gui.cashdesk is None:  # closed with the window
            return
        state = gui.cashdesk.printer_state
        changed = bool(heard) and heard[-1] != state
        heard[:] = [state]
        if state == "none":
            pill.setVisible(False)
            return
        pill.setVisible(True)
        pill.setToolTip(printer_words(gui.cashdesk.printer_status))  # said again each poll
        if state == "ready":
            pill.set(tr("Printer: ready"), "ok")
        elif state == "paper_low":
            pill.set(tr("Printer: paper low — change the roll soon"), "warn")
        elif state == "out_of_paper":
            pill.set(tr("Printer: out of paper — load a roll, then reprint from the journal"), "bad")
        else:
            pill.set(tr("Printer: offline — reprint from the journal"), "bad")
        if changed:  # out of paper, offline, ready again: said to a screen reader at once
            a11y.announce(pill, pill.text(), urgent=True)

    timer = QTimer(cast("QObject", gui.window))  # goes with the window
    timer.setInterval(PRINTER_POLL_MS)
    timer.timeout.connect(refresh)
    timer.start()
    gui.printer_timer = timer
    gui.printer_refresh = refresh  # said again at once after a language switch
    refresh()


def install_mail(gui: Gui) -> None:
    """E-mailed receipts: the core's queue and its sender thread (a training till's sends to
    the Mail window, shown with the first message). Started with the runtime, after the first
    paint: the first screen shows no mail, and the e-mail modules (smtplib, the message
    builder) cost the start ~10 ms (decision 017, "The window's start, round 2")."""
    from cashier.mail.outbox import MailDesk

    if gui.cashdesk is None or gui.mail is not None:
        return
    try:
        gui.mail = MailDesk(gui.cashdesk)
        gui.mail.start()
    except Exception:  # e-mail must never keep the till from selling
        log.exception("e-mailed receipts are off")
        gui.mail = None
        return
    if gui.mail.mailbox is not None:  # training: the Mail window comes with the first message
        from PySide6.QtCore import Qt

        from ui.mail_window import MailRelay

        relay = MailRelay(gui.mail.mailbox, cast("QObject", gui.window))
        relay.message.connect(lambda raw: show_mail(gui, raw), Qt.ConnectionType.QueuedConnection)


def show_mail(gui: Gui, raw: bytes) -> None:
    """Training: a message in the Mail window, made with the first one over the virtual
    printer's place (it comes forward with each message, as the printer does with a receipt)."""
    from PySide6.QtCore import Qt

    from ui.mail_window import MailWindow

    if gui.mail is None:  # the till closed meanwhile
        return
    if gui.mail_window is None:
        window = MailWindow()
        window.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        gui.window.closed.connect(window.close)
        printer = gui.printer_window
        if printer is not None and printer.isVisible():
            window.setGeometry(printer.geometry())
        gui.mail_window = window
    gui.mail_window.show_message(raw)


def _ticket_changed(gui: Gui, event: Any) -> None:
    """A ticket paid: its one receipt through the cash desk (and the drawer kick for cash)."""
    from cashier.flows.ticket import TicketChanged

    if gui.cashdesk is None or not isinstance(event, TicketChanged) or not event.ticket.is_paid:
        return
    try:
        gui.cashdesk.ticket_done(event.ticket.id, clerk=event.ticket.record.clerk)
    except Exception:  # a receipt must never break the sale on screen
        log.exception("receipt for ticket %s not queued", event.ticket.id)


def _payment_changed(gui: Gui, entry: Any) -> None:
    """A payment outside a ticket changed (a Journal refund, a tab opened before tickets): the
    cash desk decides whether it prints a receipt of its own (a ticket's tenders print nothing
    here: the paid ticket prints one receipt)."""
    if gui.cashdesk is not None:
        try:
            gui.cashdesk.payment_done(entry)
        except Exception:  # a receipt must never break the sale on screen
            log.exception("receipt for entry %s not queued", getattr(entry, "id", "?"))


def show_virtual_printer(gui: Gui) -> None:
    """Training: the virtual printer window (``place_training_windows`` puts it under the pad)."""
    from ui.printer_window import VirtualPrinterWindow

    desk = gui.cashdesk
    if desk is None or desk.virtual is None:
        return
    window = VirtualPrinterWindow(desk.virtual, desk.width)
    gui.window.closed.connect(window.close)  # one program: the printer goes with the till
    from PySide6.QtCore import Qt

    window.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)  # the till keeps the keyboard
    gui.printer_window = window
    window.show()


def place_training_windows(gui: Gui, area: QRect | None = None) -> None:
    """Training: the till's window on the left, the PIN pad (narrow) over the virtual printer in
    a column on the right, side by side within the screen's free area when the till's screens
    still fit beside the column (none scrolls sideways at the text size now). On a smaller screen
    (1024 wide, or large text) the till takes the whole width and the column lies over its left
    edge, the navigation, which no one needs while the customer is asked or the receipt shows
    (over the right edge it covered the amount and "Present card ($219.00)" at 150 % text:
    issue #39); the pad and the printer come to the front only while they have something to
    show, and a payment's screen keeps its words right of them (``MainWindow.covered_left``)."""
    from ui.window import MainWindow

    pad, printer = gui.pinpad, gui.printer_window
    main = gui.window  # the Shell the pages see is this window
    assert isinstance(main, MainWindow)
    column = [w for w in (pad, printer) if w is not None]
    if not column:
        return
    free = area if area is not None else main.screen().availableGeometry()

    def frame(w: QWidget) -> QSize:
        """What a window manager adds around a window (title, border). A window shown a moment
        ago has no frame yet (the window manager adds it later): the till's, shown long before,
        stands for it, or the pad's title bar ended up under the printer's and the till's bottom
        off the screen (seen under openbox at 1280x800)."""
        own = w.frameGeometry().size() - w.geometry().size()
        known = main.frameGeometry().size() - main.geometry().size()
        return own if own.width() or own.height() else known

    main_frame = frame(main)
    if free.width() < main.minimumWidth() + main_frame.width() \
            or free.height() < main.minimumHeight() + main_frame.height():
        # a screen smaller than the till's window: nothing to fit it in; the pad wide, the
        # printer beside it, wherever the window manager put them
        main.fit_within(None)
        if pad is not None:
            pad.set_compact(False)
            if printer is not None:
                printer.move(pad.frameGeometry().right() + 12, pad.frameGeometry().top())
        return
    if pad is not None:
        pad.set_compact(True)
    width = max(w.minimumSizeHint().width() + frame(w).width() for w in column)
    beside = free.width() - width - main_frame.width()  # the till's width beside the column
    overlap = beside < main.width_needed()
    main.move(free.topLeft())
    main.resize(free.width() - main_frame.width() if overlap else beside,
                free.height() - main_frame.height())
    main.fit_within(free)  # a screen that grows once shown widens the till, never scrolls sideways
    # the pad gets two thirds (at least what it needs), the printer the rest
    pad_height = 0 if pad is None else free.height() if printer is None else max(
        pad.minimumSizeHint().height() + frame(pad).height(), free.height() * 2 // 3)
    printer_height = free.height() - pad_height
    top = free.top()
    x = free.left() if overlap else free.right() + 1 - width
    for w, height in ((pad, pad_height), (printer, printer_height)):
        if w is None:
            continue
        w.move(x, top)
        w.resize(width - frame(w).width(), height - frame(w).height())
        w.front.placed_at = (x, top)
        if (w.frameGeometry().size() - w.geometry().size()).isNull():
            # no frame yet: the window manager puts the one it adds above the spot asked for
            # (openbox: the pad's title bar off the top of the screen); asked again once it is
            # on, where the latest placement put it (a new text size may have placed it since)
            QTimer.singleShot(FRAME_SETTLE_MS, w, lambda w=w: w.move(*w.front.placed_at))  # goes with w
        w.front.placed = w.size()
        top += height
        w.front.covers = main  # over the till's window (when it is): in front only with news
    main.covered_left = width if overlap else 0


def close_cash(gui: Gui) -> None:
    if gui.printer_timer is not None:
        gui.printer_timer.stop()
    if gui.printer_window is not None:
        gui.printer_window.close()
    if gui.mail is not None:
        gui.mail.stop()
        gui.mail = None
    if gui.mail_window is not None:
        gui.mail_window.close()
    if gui.cashdesk is not None:
        gui.cashdesk.close()
        gui.cashdesk.recorder.close()
        gui.cashdesk = None
