"""Start the window on the qasync loop (Qt is imported here, never in cashier/).

Start-up order matters for the first paint: Qt, the profile, the window; ``show()``; and only
then, on the loop, the runtime (journal, client, embedded sandbox; its modules imported on a
thread of their own, so the first key is taken meanwhile), start-up recovery and the training
PIN pad. Nothing heavy is imported before the window is on screen.
"""

from __future__ import annotations

import asyncio
import importlib
import linecache
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cashier.till_lock import Door, JournalInUse, JournalLock, knock
from ui.gui import Gui

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from cashier.config import TillProfile
    from ui.window import MainWindow

SMOKE_AMOUNT_KEYS = "1250"
log = logging.getLogger("ui.app")


@dataclass
class TillGui(Gui):
    """The window's parts as ``build_gui`` makes them, with the start-up and the shutdown (the
    pages see the plain ``ui.gui.Gui``)."""

    window: MainWindow

    def set_language(self, code: str) -> bool:
        ok = super().set_language(code)
        from ui.signin import retranslate_sign_in

        retranslate_sign_in(self)  # the sign-in panel and Sign out key live outside the pages
        self._place_again()  # longer words may need a wider window
        return ok

    def set_theme(self, high_contrast: bool | None = None, font_scale: float | None = None) -> None:
        super().set_theme(high_contrast, font_scale)
        self._place_again()  # larger text needs a wider window

    def _place_again(self) -> None:
        """Training's three windows placed again for the till's new look (beside each other
        while the screens still fit, the pad and printer over the till's edge when not)."""
        if self.pinpad is not None or self.printer_window is not None:
            from ui.cash import place_training_windows

            place_training_windows(self)

    async def start(self, *, transport: Any = None, sandbox: Any = None, pinpad: bool = True,
                    poll_s: float = 15.0) -> None:
        """The slow half of start-up, run right after the first paint (e-mailed receipts last,
        whether the runtime started or not: ``_start_mail``)."""
        try:
            await self._start_runtime(transport=transport, sandbox=sandbox, pinpad=pinpad, poll_s=poll_s)
        finally:
            await self._start_mail()

    async def _start_mail(self) -> None:
        """E-mailed receipts, their modules loaded off the window's thread (the first key typed
        meanwhile is not held up; decision 017, "The window's start, round 2")."""
        from ui.cash import install_mail

        if self.cashdesk is not None and self.mail is None:
            await asyncio.to_thread(importlib.import_module, "cashier.mail.outbox")
            install_mail(self)
            drop_imported_sources()

    async def _start_runtime(self, *, transport: Any, sandbox: Any, pinpad: bool, poll_s: float) -> None:
        from ui.first_start import ensure_credentials

        if transport is None and not await ensure_credentials(self.profile, self.window):
            self.till.start_failed.emit(self.window.tr(
                "This till has no access token: restart it to enter the client GUID and auth "
                "token, or set CASHIER_ACCESS_TOKEN."))
            return
        await self.till.start(transport=transport, sandbox=sandbox, poll_s=poll_s)
        drop_imported_sources()  # the runtime's modules (journal, client, sandbox) just loaded
        if pinpad and self.till.ready and self.till.runtime is not None \
                and self.till.runtime.sandbox is not None:
            from ui.pinpad import PinPadWindow

            self.pinpad = PinPadWindow(self.till)
            self.pinpad.keys_home = self.window  # the keyboard goes back there after a click on the pad
            self.pinpad.attach()
            self.window.closed.connect(self.pinpad.close)  # one program: the pad goes with it
            from PySide6.QtCore import Qt

            self.pinpad.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)  # no focus taken
            self.pinpad.show()
            from ui.cash import place_training_windows, show_virtual_printer

            show_virtual_printer(self)
            place_training_windows(self)
        # the training windows never keep the keyboard: the till's first key reaches its screen
        self.window.take_keyboard()

    def windows(self) -> list[Any]:
        """Every top-level window this till opened (main, training PIN pad, virtual printer, Mail)."""
        return [w for w in (self.window, self.pinpad, self.printer_window, self.mail_window)
                if w is not None]

    async def stop(self) -> None:
        await self.till.tasks.cancel_all()
        await self.till.stop()
        if self.pinpad is not None:
            self.pinpad.close()
        from ui.cash import close_cash

        close_cash(self)
        self.window.close()


def drop_imported_sources() -> None:
    """PySide6's import hook reads the whole source of every module imported after it (looking
    for "PySide6" in the text) through ``linecache``, which then keeps all of it: ~10 MB of
    resident memory in the window for lines nobody shows. Dropped once the imports are done; a
    traceback reads the lines it needs again from disk."""
    linecache.clearcache()


def build_gui(profile: TillProfile, app: QApplication | None = None, *,
              show_dialogs: bool = True) -> TillGui:
    """Application, theme, language, window and every page (nothing started yet)."""
    from PySide6.QtWidgets import QApplication

    from ui.errors import CrashReporter
    from ui.i18n import LANGUAGES, Language
    from ui.pages import all_pages
    from ui.theme import apply_theme
    from ui.till import Till
    from ui.window import MainWindow

    application = app or QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(application, QApplication)
    application.setApplicationName("Cashier")
    from cashier.display_settings import load_display

    shown = load_display(profile.resolved_journal_path)  # as the till was last left
    apply_theme(application, shown.high_contrast, shown.text_size)
    language = Language()
    chosen = shown.language or profile.language
    language.switch(chosen if chosen in LANGUAGES else "en")
    till = Till(profile)
    window = MainWindow(till)
    gui = TillGui(application, profile, till, window, language,
                  prefs={"language": language.code, "high_contrast": shown.high_contrast,
                         "font_scale": shown.text_size})
    from ui.cash import install_cash, open_cashdesk

    gui.cashdesk = open_cashdesk(profile)
    window.add_pages(all_pages(), lambda cls: cls(till, gui))  # Sale now, the others when needed
    from ui.pages.sale import SalePage

    # the Sale screen's quick QR tender opens the QR screen (built then, the first time)
    window.page(SalePage).qr_requested.connect(lambda amount, tax: _qr_from_sale(window, amount, tax))
    install_cash(gui)
    reporter = CrashReporter(window, show_dialog=show_dialogs)
    till.tasks.on_error = reporter.report
    gui.reporter = reporter
    window.retranslate()
    drop_imported_sources()
    return gui


def _qr_from_sale(window: MainWindow, amount: Any, tax: Any) -> None:
    from ui.pages.qr import QrPage  # with the QR screen, not before the first paint

    window.page(QrPage).start_from_sale(amount, tax)


def open_door(gui: TillGui, journal: Path) -> Door:
    """Where a second start on ``journal`` knocks: the knock arrives on the door's thread and is
    queued to the window's, which comes to the front."""
    from PySide6.QtCore import Qt

    gui.window.knocked.connect(gui.window.bring_to_front, Qt.ConnectionType.QueuedConnection)
    return Door(journal, gui.window.knocked.emit)


def _first_key_probe(gui: Gui, started: float) -> None:
    """The bench's probe (``bench_ui``): a "1" typed on the Sale screen every 10 ms until the
    amount shows it, then ``first-key`` and the time printed, and the amount cleared again."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    from ui.pages.sale import SalePage

    sale: SalePage = gui.window.page(SalePage)
    timer = QTimer(sale)

    def tick() -> None:
        if not sale.isVisible():
            return
        if sale.amount.entered:
            timer.stop()
            print(f"first-key {time.time():.6f} {time.perf_counter() - started:.4f}", flush=True)
            sale.amount.clear()
            return
        for kind in (QKeyEvent.Type.KeyPress, QKeyEvent.Type.KeyRelease):
            QApplication.sendEvent(sale, QKeyEvent(kind, Qt.Key.Key_1, Qt.KeyboardModifier.NoModifier, "1"))

    timer.timeout.connect(tick)
    timer.start(10)


def run_gui(profile_path: str | None = None, smoke: bool = False) -> int:
    started = time.perf_counter()
    if smoke:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication, QMessageBox

    from cashier.config import load_profile
    from ui.loop import make_loop

    profile = load_profile(profile_path, training=True) if smoke else load_profile(profile_path)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    journal = profile.resolved_journal_path
    try:
        lock = JournalLock(journal).acquire()  # held until the process ends
    except JournalInUse as exc:
        if knock(journal):  # the cashier started it again: the running window comes forward
            holder = f"process {exc.pid}" if exc.pid else "another process"
            print(f"cashier: already running on this till ({holder}); its window was brought to "
                  "the front", file=sys.stderr)
            return 0
        print(f"cashier: {exc}", file=sys.stderr)
        if not smoke:
            QMessageBox.warning(None, "Cashier", str(exc))
        return 1
    loop = make_loop(app)
    asyncio.set_event_loop(loop)
    gui = build_gui(profile, app, show_dialogs=not smoke)
    door = open_door(gui, journal)
    gui.reporter.install(loop)
    if os.environ.get("CASHIER_STARTUP_PROBE"):
        gui.window.first_paint.connect(
            lambda: print(f"first-paint {time.time():.6f} {time.perf_counter() - started:.4f}",
                          flush=True))
        gui.window.first_paint.connect(lambda: _first_key_probe(gui, started))
    if profile.kiosk and not smoke:  # a till that is only a till: the whole screen
        gui.window.showFullScreen()
    else:
        gui.window.show()
    with loop:
        if smoke:
            return int(loop.run_until_complete(_smoke(gui)))
        closed = asyncio.Event()
        app.lastWindowClosed.connect(closed.set)
        gui.window.closed.connect(closed.set)  # the main window ends the program, pad or not
        gui.window.first_paint.connect(lambda: gui.till.tasks.spawn(_start_up(gui), "start-up"))
        loop.run_until_complete(closed.wait())
        loop.run_until_complete(gui.stop())
    door.close()
    lock.release()
    return 0


async def _start_up(gui: TillGui) -> None:
    """The runtime started after the first paint; then the update watcher (the first screen
    shows none of it, and its modules cost the start ~10 ms: decision 017, "The window's start,
    round 2") and the screens not built yet, one at a time while the loop is idle (the first
    visit of each is then instant)."""
    try:
        await gui.start()
    finally:
        from ui.updates import watch_updates

        gui.updates = watch_updates(gui)
        drop_imported_sources()
    gui.window.build_rest_later()


async def _smoke(gui: TillGui, timeout_s: float = 60.0) -> int:
    """One sale through the window's own actions: keys, the Card button, the virtual customer."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from ui.pages.sale import SalePage

    await gui.start(poll_s=0)
    if not gui.till.ready:
        print(f"smoke: the till did not start: {gui.window.start_error}")
        return 1
    if gui.pinpad is not None:
        gui.pinpad.auto.setChecked(True)  # the default virtual customer taps
    sale = gui.window.go(SalePage)
    QTest.keyClicks(sale.amount, SMOKE_AMOUNT_KEYS)
    print(f"smoke: typed {SMOKE_AMOUNT_KEYS} -> {sale.amount.text()}")
    finished: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def on_result(result: Any) -> None:
        if not finished.done():
            finished.set_result(result)

    sale.result_shown.connect(on_result)
    QTest.mouseClick(sale.card_button, Qt.MouseButton.LeftButton)
    try:
        result = await asyncio.wait_for(finished, timeout_s)
    except TimeoutError:
        print("smoke: no result within the time limit")
        return 1
    entry = result.entry
    print(f"smoke: {result.outcome} invoice {entry.invoice} amount {entry.approved} "
          f"card {entry.card} auth {entry.auth_code} ({sale.result_title.text()})")
    await gui.stop()
    from cashier.entry_rules import is_approved

    return 0 if is_approved(result.outcome) else 1
