"""Reports (manager): the X report now and the Z report of the last close, printed or exported
as CSV and PDF for the bookkeeper. Behind a manager's PIN, locked again after a minute unused.

The day as charts (issue #42): the report shown (or a business date chosen, beside the same
weekday a week earlier) as the core's ``cashier.day_report.DayReport`` draws it; the report's
text and every chart's table are one key away (F3, F4)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QDate, QLocale
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QDateEdit,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QStackedWidget,
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
    from cashier.day_report import DayReport
    from ui.gui import Gui
    from ui.till import Till
    from ui.widgets.charts import ChartPanel

REPORT_WIDTH = 48


class ReportsPage(Page):

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.report: dict[str, Any] | None = None
        #: the charts of the report shown (the same window, the core's figures)
        self.day: DayReport | None = None
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
        self.date = QDateEdit(QDate.currentDate())
        self.date.setCalendarPopup(True)
        self.date.setMaximumDate(QDate.currentDate())
        self.day_button = self.button(lambda: tr("Day"), "Shift+F4", self.show_day, stacked=True)
        # the report on screen is the one whose key stays pressed (one at a time)
        self.shown_button: QAbstractButton | None = None
        self.shown_group = QButtonGroup(self)
        for b in (self.x_button, self.z_button, self.day_button):
            b.setCheckable(True)
            self.shown_group.addButton(b)
        self.print_button = self.button(lambda: tr("Print"), "F8", self.print_report, stacked=True)
        self.csv_button = self.button(lambda: tr("Export CSV"), "Shift+F8", lambda: self.export("csv"),
                                      stacked=True)
        self.pdf_button = self.button(lambda: tr("Export PDF"), "Shift+F9", lambda: self.export("pdf"),
                                      stacked=True)
        self.lock_button = self.button(lambda: tr("Lock"), "", self.lock)
        # which report, then what to do with it: five keys in one row ran off 1024 in Spanish
        outputs = QHBoxLayout()
        for line, keys in ((row, (self.x_button, self.z_button, self.date, self.day_button)),
                           (outputs, (self.print_button, self.csv_button, self.pdf_button))):
            for key in keys:
                line.addWidget(key)
            line.addStretch(1)
            col.addLayout(line)
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setPointSize(11)
        self.view.setFont(font)
        self.charts = self._chart_panel()
        self.charts_area = QScrollArea()
        self.charts_area.setWidgetResizable(True)
        self.charts_area.setWidget(self.charts)
        self.views = QStackedWidget()  # the charts first: people look before they read
        self.views.addWidget(self.charts_area)
        self.views.addWidget(self.view)
        col.addWidget(self.views, 1)
        self.message = hint()
        a11y.live(self.message)
        col.addWidget(self.message)
        self.text_button = self.button(lambda: tr("Text / charts"), "F3", self.toggle_text)
        self.tables_button = self.button(lambda: tr("Tables"), "F4", self.toggle_tables)
        self.tables_button.setCheckable(True)
        # on its own, as on the Manager screen: six keys in one row ran off 1024 in Spanish
        bottom = QHBoxLayout()
        for b in (self.text_button, self.tables_button):
            bottom.addWidget(b)
        bottom.addStretch(1)
        bottom.addWidget(self.lock_button)
        col.addLayout(bottom)
        self.stack.addWidget(panel)
        self.panel = panel
        seconds = till.profile.manager_rules.lock_after_s
        self.idle = IdleLock(self, self.lock, seconds)
        self.retranslate()

    def retranslate(self) -> None:
        super().retranslate()
        self.lock_text.setText(tr("Reports are for a manager: type a manager PIN and press Enter."))
        a11y.name(self.pin, tr("Manager PIN"), self.lock_text.text())
        a11y.name(self.view, tr("Report"), tr("The X or Z report as it prints, line by line."))
        self.date.setLocale(QLocale())  # the date as the language writes it
        self.date.setDisplayFormat(QLocale().dateFormat(QLocale.FormatType.ShortFormat))
        for field in (self.date, self.date.findChild(QLineEdit)):  # the box and the text typed in it
            if field is not None:
                a11y.name(field, tr("Business date"), tr("The day the Day key shows, beside the same "
                                                         "weekday a week earlier."))
        a11y.name(self.charts_area, tr("Charts"), tr("The report's figures as charts; F4 shows each "
                                                     "chart's table, F3 the report as it prints."))
        self.charts.redraw()
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
        self.day = None
        self.shown_button = None
        self._mark_shown()
        self.view.clear()
        self.charts.show_charts(())
        self.stack.setCurrentWidget(self.lock_page)
        self.pin.setFocus()

    def entered(self) -> None:
        if self.unlocked:
            self.x_button.setFocus()
        else:
            self.pin.setFocus()

    def _show(self, report: dict[str, Any], day: DayReport | None = None) -> None:
        self.report = report
        self.day = day if day is not None else self.desk.report_charts(report)
        self._draw()
        self.charts.show_charts(self.day.charts)
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

    def show_day(self) -> None:
        """The business date chosen: its figures and charts, its hours beside the same weekday
        a week earlier's."""
        picked = self.date.date()
        day = self.desk.day_report(date(picked.year(), picked.month(), picked.day()), self.manager)
        self._show(day.totals, day)
        self.shown_button = self.day_button
        self._mark_shown()
        self.day_button.setFocus()

    def toggle_text(self) -> None:
        """The report's text (as it prints), or its charts."""
        self.views.setCurrentWidget(self.view if self.views.currentWidget() is self.charts_area
                                    else self.charts_area)

    def toggle_tables(self) -> None:
        """Every chart as its table (the same figures), or back to the charts."""
        tables = not self.charts.tables
        self.charts.show_tables(tables)
        self.tables_button.setChecked(tables)
        self.views.setCurrentWidget(self.charts_area)

    def _mark_shown(self) -> None:
        self.shown_group.setExclusive(False)  # an exclusive group never lets all go up
        for b in (self.x_button, self.z_button, self.day_button):
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
        """Write the report on screen where the manager says (issue #39): a save dialog opens on
        the folder beside the journal (reports/), named by type and session; Esc saves nothing.
        The PDF is headed by the store's name, the till and the clerk signed in."""
        from cashier.output import write_output
        from cashier.reports import report_csv

        if self.report is None:
            return None
        folder = self.export_dir()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        stamp = str(self.report["to"])[:19].replace(":", "").replace("-", "")
        name = f"{self.report['type']}-report-{self.report.get('session') or 'now'}-{stamp}.{fmt}"
        chosen = self.ask_where(folder / name, fmt)
        if chosen is None:
            self.say_in(self.message, lambda: tr("Not saved."))
            return None
        path = chosen if chosen.suffix.lower() == f".{fmt}" else chosen.with_name(f"{chosen.name}.{fmt}")
        clerk = getattr(self.till, "clerk", None) or self.manager
        who = f"{clerk.id} {clerk.name}".strip() if clerk is not None else ""
        data = (report_csv(self.report).encode("utf-8") if fmt == "csv"
                else self.desk.report_pdf(self.report, self.day, clerk=who))  # with its charts
        done = self.attempt_write(lambda: write_output(str(path), data, force=True, field="report"))
        if not done:
            return None
        self.say_in(self.message, lambda: tr("Saved:") + f" {path}")
        return path

    def ask_where(self, suggested: Path, fmt: str) -> Path | None:
        """The save dialog (Qt's own, the same on every desktop): the file chosen, None on Esc."""
        from PySide6.QtWidgets import QFileDialog

        dialog = QFileDialog(self, tr("Save the report as"), str(suggested))
        dialog.setObjectName("ReportSaveDialog")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setNameFilter(f"{fmt.upper()} (*.{fmt})")
        dialog.setDefaultSuffix(fmt)
        dialog.selectFile(suggested.name)
        if dialog.exec() != QFileDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        return Path(dialog.selectedFiles()[0])

    def attempt_write(self, write: Any) -> bool:
        """A file the manager chose may not be writable: one line says why, nothing crashes."""
        from cashier.errors import CashierError

        try:
            write()
        except (CashierError, OSError) as exc:
            why = error_words(exc, self.till.currency) if isinstance(exc, CashierError) else str(exc.strerror)
            self.say_in(self.message, lambda: tr("Not saved:") + f" {why}")
            return False
        return True

    # ---- the charts' words -------------------------------------------------------------------
    def _chart_panel(self) -> ChartPanel:
        from ui.widgets.charts import ChartPanel, chart_words, look_of

        return ChartPanel(chart_words(lambda: self.day.currency if self.day else self.till.currency),
                          lambda words: self.say_in(self.message, words),
                          lambda: look_of(self.gui))

