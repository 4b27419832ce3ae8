"""Reports (manager): the X report now and the Z report of the last close, printed or exported
as CSV and PDF for the bookkeeper. Behind a manager's PIN, locked again after a minute unused."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QHBoxLayout,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from cashier.clerks import Clerk, SignInError
from cashier.errors import DrawerRefused
from ui import a11y
from ui.core_words import error_words
from ui.i18n import tr
from ui.idle_lock import IdleLock
from ui.pages.base import Page, PartStack, hint
from ui.receipt import receipt_language

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.till import Till

REPORT_WIDTH = 48


class ReportsPage(Page):
    nav_key = "Ctrl+0"

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.report: dict[str, Any] | None = None
        self.unlocked = False
        #: the manager whose PIN opened the screen (the core shows the X report to a manager)
        self.manager: Clerk | None = None
        self.stack = PartStack()
        self.layout_.addWidget(self.stack, 1)
        from ui.widgets.manager_lock import ManagerLock

        lock = ManagerLock(self._pin_refused, self._opened)
        self.lock_text, self.pin, self.pin_error = lock.text, lock.pin, lock.error
        self.lock_text.setWordWrap(True)
        self.stack.addWidget(lock)
        self.lock_page = lock
        panel = QWidget()
        col = QVBoxLayout(panel)
        col.setContentsMargins(0, 0, 0, 0)  # the page has its margins
        row = QHBoxLayout()
        self.x_button = self.button(lambda: tr("X report"), "Shift+F5", self.show_x, stacked=True)
        self.z_button = self.button(lambda: tr("Z report"), "Shift+F6", self.show_z, stacked=True)
        # the report on screen is the one whose key stays pressed (one at a time)
        self.shown_button: QAbstractButton | None = None
        self.shown_group = QButtonGroup(self)
        for b in (self.x_button, self.z_button):
            b.setCheckable(True)
            self.shown_group.addButton(b)
        self.print_button = self.button(lambda: tr("Print"), "Shift+F7", self.print_report, stacked=True)
        self.csv_button = self.button(lambda: tr("Export CSV"), "Shift+F8", lambda: self.export("csv"),
                                      stacked=True)
        self.pdf_button = self.button(lambda: tr("Export PDF"), "Shift+F9", lambda: self.export("pdf"),
                                      stacked=True)
        self.lock_button = self.button(lambda: tr("Lock"), "", self.lock)
        # which report, then what to do with it: five keys in one row ran off 1024 in Spanish
        outputs = QHBoxLayout()
        for line, keys in ((row, (self.x_button, self.z_button)),
                           (outputs, (self.print_button, self.csv_button, self.pdf_button))):
            for b in keys:
                line.addWidget(b)
            line.addStretch(1)
            col.addLayout(line)
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setPointSize(11)
        self.view.setFont(font)
        col.addWidget(self.view, 1)
        self.message = hint()
        a11y.live(self.message)
        col.addWidget(self.message)
        # on its own, as on the Manager screen: six keys in one row ran off 1024 in Spanish
        col.addWidget(self.lock_button, 0, Qt.AlignmentFlag.AlignRight)
        self.stack.addWidget(panel)
        self.panel = panel
        seconds = till.profile.manager_rules.lock_after_s
        self.idle = IdleLock(self, self.lock, seconds)
        self.retranslate()

    @classmethod
    def title(cls) -> str:
        return tr("Reports")

    def retranslate(self) -> None:
        super().retranslate()
        self.lock_text.setText(tr("Reports are for a manager: type a manager PIN and press Enter."))
        a11y.name(self.pin, tr("Manager PIN"), self.lock_text.text())
        a11y.name(self.view, tr("Report"), tr("The X or Z report as it prints, line by line."))
        if getattr(self, "report", None) is not None:  # the report on screen in the new language
            self._draw()

    @property
    def desk(self) -> Any:
        assert self.gui is not None and self.gui.cashdesk is not None
        return self.gui.cashdesk

    def unlock(self) -> bool:
        return self.lock_page.try_pin()

    def _pin_refused(self, pin: str) -> str | None:
        if self.gui is None or self.gui.cashdesk is None:
            return tr("Reports are not available: the journal could not be opened.")
        from cashier.approvals import manager_by_pin

        try:
            self.manager = manager_by_pin(self.desk.recorder.path, self.desk.roster, pin,
                                          "window reports")
        except SignInError as exc:
            return error_words(exc, self.till.currency)
        return None

    def _opened(self) -> None:
        self.unlocked = True
        self.stack.setCurrentWidget(self.panel)
        self.idle.start()
        self.show_x()

    def clerk_changed(self) -> None:
        if self.unlocked:
            self.lock()

    def left(self) -> None:
        """The expected cash is the manager's: the manager leaving the screen locks it."""
        if self.unlocked:
            self.lock()

    def lock(self) -> None:
        self.unlocked = False
        self.manager = None
        self.idle.stop()
        self.report = None
        self.shown_button = None
        self._mark_shown()
        self.view.clear()
        self.stack.setCurrentWidget(self.lock_page)
        self.pin.setFocus()

    def entered(self) -> None:
        if self.unlocked:
            self.x_button.setFocus()
        else:
            self.pin.setFocus()

    def _show(self, report: dict[str, Any]) -> None:
        self.report = report
        self._draw()
        self.message.clear()

    def _draw(self) -> None:
        from cashier.reports import report_text

        if self.report is not None:
            self.view.setPlainText("\n".join(report_text(self.report, REPORT_WIDTH,
                                                         receipt_language())))

    def show_x(self) -> None:
        self._show(self.desk.x_report(self.manager))
        self.shown_button = self.x_button
        self._mark_shown()
        self.x_button.setFocus()  # the focus ring on the report shown, never on the other one

    def show_z(self) -> None:
        try:
            self._show(self.desk.z_report())
        except DrawerRefused as exc:
            self.say_refusal(self.message, exc)
            self._mark_shown()  # no Z report: the key of the report still on screen stays down
            return
        self.shown_button = self.z_button
        self._mark_shown()
        self.z_button.setFocus()

    def _mark_shown(self) -> None:
        self.shown_group.setExclusive(False)  # an exclusive group never lets all go up
        for b in (self.x_button, self.z_button):
            b.setChecked(b is self.shown_button)
        self.shown_group.setExclusive(True)

    def print_report(self) -> None:
        if self.report is None:
            return
        self.desk.print_report(self.report)
        self.say_in(self.message, lambda: tr("Sent to the receipt printer."))

    def export_dir(self) -> Path:
        return self.till.profile.resolved_journal_path.parent / "reports"

    def export(self, fmt: str) -> Path | None:
        """Write the report on screen beside the journal (reports/), named by type and session."""
        from cashier.output import write_output
        from cashier.reports import report_csv, report_pdf

        if self.report is None:
            return None
        folder = self.export_dir()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        stamp = str(self.report["to"])[:19].replace(":", "").replace("-", "")
        name = f"{self.report['type']}-report-{self.report.get('session') or 'now'}-{stamp}.{fmt}"
        path = folder / name
        data = report_csv(self.report).encode("utf-8") if fmt == "csv" else report_pdf(self.report)
        write_output(str(path), data, force=True, field="report")  # owner-only, atomic
        self.say_in(self.message, lambda: tr("Saved:") + f" {path}")
        return path
