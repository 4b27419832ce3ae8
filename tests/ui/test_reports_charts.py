"""Issue #42 in the window, with real key presses: the Reports screen shows the day as charts (the
business date chosen, beside the same weekday a week earlier), every chart's table is one key
away with the core's figures, a click on a bar says its figures, the words follow the language
and the look follows the theme; the PDF saved carries the charts."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate, Qt
from PySide6.QtTest import QTest

from cashier.day_report import day_window
from cashier.journal.recorder import JournalRecorder
from tests.support.profiles import CLERKS
from tests.support.screens import answer_save, keys
from tests.support.training_day import write_day

SHIFT = Qt.KeyboardModifier.ShiftModifier


YESTERDAY = datetime.now().astimezone().date() - timedelta(days=1)


def _training_day(path: Path, *, catalog: bool = False) -> None:
    """Yesterday's training day and the same weekday a week before, journaled before the window
    opens (the journal's time never goes back: the window writes at today's time)."""
    recorder = JournalRecorder(path, training=True)
    start = datetime.fromisoformat(day_window(YESTERDAY)[0])
    recorder.clock = lambda: start - timedelta(days=7)
    write_day(recorder, YESTERDAY - timedelta(days=7), tickets=10, seed=5)
    recorder.clock = lambda: start
    write_day(recorder, YESTERDAY, tickets=30, seed=6, catalog=catalog)
    recorder.close()


def _opened(make_gui: Callable[..., Any], tmp_path: Path, *, catalog: bool = False) -> tuple[Any, Any]:
    from ui.pages.reports import ReportsPage

    _training_day(tmp_path / "day.sqlite", catalog=catalog)
    gui = make_gui(clerks=CLERKS, drawer_float="100.00", journal_path=tmp_path / "day.sqlite")
    w = gui.window
    w.activateWindow()
    assert QTest.qWaitForWindowActive(w, 2000)
    keys(gui.sign_in.pin, "2222", enter=True)  # Bob, a manager
    QTest.keyClick(w.page(ReportsPage).pin, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    reports: ReportsPage = w.page(ReportsPage)
    keys(reports.pin, "2222", enter=True)
    assert reports.unlocked
    reports.date.setDate(QDate(YESTERDAY.year, YESTERDAY.month, YESTERDAY.day))
    return gui, reports


def test_the_day_as_charts_and_its_tables_one_key_away(make_gui: Callable[..., Any], tmp_path: Path) -> None:
    _gui, reports = _opened(make_gui, tmp_path)
    assert reports.views.currentWidget() is reports.charts_area  # charts first
    QTest.keyClick(reports, Qt.Key.Key_F4, SHIFT)  # the day chosen (yesterday)
    day = reports.day
    assert day is not None and day.business_date == YESTERDAY.isoformat()
    assert reports.report is day.totals and day.totals["tickets"] == 30
    keys_shown = [cell.chart.key for cell in reports.charts.cells]
    assert keys_shown == ["by_hour", "tenders", "products", "refunds_voids", "clerks"]
    hours = reports.charts.cells[0]
    assert [s.name for s in hours.chart.series] == [day.business_date, day.compared_with]
    bar_sets = hours.view.chart().series()[0].barSets()
    # the training shop's open hours (7 to 20), as the core chose them: quiet hours left out
    assert len(bar_sets) == 2 and bar_sets[0].count() == len(hours.rows) <= 14
    # F4: every chart's table, the core's figures as the words say them
    QTest.keyClick(reports, Qt.Key.Key_F4)
    assert all(cell.currentWidget() is cell.table for cell in reports.charts.cells)
    for cell in reports.charts.cells:
        assert cell.table is not None
        assert cell.table.rowCount() == len(cell.chart.shown_rows())
        for r, row in enumerate(cell.chart.shown_rows()):
            assert cell.table.item(r, 0).text() == cell.words.label(cell.chart, cell.chart.labels[row])
            for c, series in enumerate(cell.chart.series, start=1):
                assert cell.table.item(r, c).text() == cell.words.figure(cell.chart, series.figures[row])
    QTest.keyClick(reports, Qt.Key.Key_F4)
    assert all(cell.currentWidget() is cell.view for cell in reports.charts.cells)
    # a bar clicked says its figures
    busiest = max(hours.rows, key=lambda h: hours.chart.series[0].figures[h].minor)
    bar_sets[0].clicked.emit(hours.rows.index(busiest))
    said = reports.message.text()
    assert said.startswith(f"Sales by hour: {busiest:02d}:00") and "Payments: " in said
    _gui.set_language("es")  # what was said, said again in the new language
    assert reports.message.text().startswith(f"Ventas por hora: {busiest:02d}:00")
    assert "Pagos: " in reports.message.text()
    _gui.set_language("en")
    # F3: the report as it prints
    QTest.keyClick(reports, Qt.Key.Key_F3)
    assert reports.views.currentWidget() is reports.view
    assert "DAY REPORT" in reports.view.toPlainText()
    QTest.keyClick(reports, Qt.Key.Key_F3)
    assert reports.views.currentWidget() is reports.charts_area


def test_the_charts_speak_spanish_and_honour_high_contrast(make_gui: Callable[..., Any], tmp_path: Path,
                                                           ui: Any) -> None:
    gui, reports = _opened(make_gui, tmp_path)
    reports.show_day()
    gui.set_language("es")
    titles = [cell.view.chart().title() for cell in reports.charts.cells]
    assert titles == ["Ventas por hora", "Formas de pago", "Productos más vendidos",
                      "Devoluciones y anulaciones", "Ventas por cajero"]
    tenders = reports.charts.cells[1].view.chart().series()[0]
    assert {s.label() for s in tenders.slices()} >= {"Tarjeta", "Efectivo"}
    assert reports.charts.cells[0].view.chart().backgroundBrush().color().name() == "#ffffff"
    gui.set_theme(high_contrast=True, font_scale=1.3)
    ui.until(lambda: reports.charts.drawn is not None and reports.charts.drawn.high_contrast)
    chart = reports.charts.cells[0].view.chart()
    assert chart.backgroundBrush().color().name() == "#000000"
    assert chart.titleBrush().color().name() == "#ffffff"
    assert chart.titleFont().pointSizeF() > 11 * 1.2  # the large text
    gui.set_theme(high_contrast=False, font_scale=1.0)
    gui.set_language("en")


def test_the_pdf_saved_carries_the_charts(make_gui: Callable[..., Any], tmp_path: Path) -> None:
    _gui, reports = _opened(make_gui, tmp_path)
    reports.show_day()
    offered: list[str] = []
    answer_save(offered)  # the save dialog: its own name kept, Return
    path = reports.export("pdf")
    assert path is not None and offered and offered[0].startswith("day-report-")
    data = path.read_bytes()
    assert b"DAY REPORT" in data and b"Sales by hour" in data and b"Top products" in data
    assert b" re f" in data  # the bars, drawn


def test_the_categories_and_the_discounts_charts_and_their_tables(make_gui: Callable[..., Any],
                                                                  tmp_path: Path) -> None:
    """A day sold from the catalog, with promotions and discounts (issues #37, #38): the Reports
    screen adds the categories and the discounts charts, each with its table one key away, in
    Spanish: the shop's own names, a typed line under "Otros"."""
    gui, reports = _opened(make_gui, tmp_path, catalog=True)
    QTest.keyClick(reports, Qt.Key.Key_F4, SHIFT)
    day = reports.day
    assert day is not None
    cells = {cell.chart.key: cell for cell in reports.charts.cells}
    assert list(cells) == ["by_hour", "tenders", "products", "categories", "discounts",
                           "refunds_voids", "clerks"]
    gui.set_language("es")  # drawn again, in Spanish
    cells = {cell.chart.key: cell for cell in reports.charts.cells}
    categories, discounts = cells["categories"], cells["discounts"]
    assert categories.view.chart().title() == "Categorías más vendidas"
    assert discounts.view.chart().title() == "Descuentos"
    QTest.keyClick(reports, Qt.Key.Key_F4)
    for cell, head in ((categories, "Categoría"), (discounts, "Concepto")):
        assert cell.currentWidget() is cell.table and cell.table is not None
        assert cell.table.horizontalHeaderItem(0).text() == head
        assert cell.table.rowCount() == len(cell.chart.labels)
    shown = [categories.table.item(r, 0).text() for r in range(categories.table.rowCount())]
    assert set(shown) == {"Bebidas", "Panadería", "Comidas", "Otros"} and shown[-1] == "Otros"
    reasons = {discounts.table.item(r, 0).text() for r in range(discounts.table.rowCount())}
    assert {"Empleado", "Panadería -20%"} <= reasons
    total = day.totals["discounts"]["total"]
    assert discounts.chart.total().minor == round(float(total) * 100) > 0
    QTest.keyClick(reports, Qt.Key.Key_F4)
    gui.set_language("en")
