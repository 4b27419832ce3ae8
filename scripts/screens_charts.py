"""The day as charts for ``scripts/screens.py`` (issue #42): the Reports screen over a training day
(dozens of tickets across hours, tenders, clerks and catalog products in their categories, with
promotions and cashiers' discounts, and the same weekday a week earlier), at 1024x768 in English
and Spanish, in high contrast and at large text, its tables, a bar clicked, and the categories
and discounts charts."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, cast

from cashier.manager_pin import hash_pin

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the training day lives with the tests' support
    sys.path.insert(0, str(ROOT))


#: the training day shown: yesterday, whole (the journal's time only goes forward, so the days
#: are journaled before the window opens and writes at today's time)
YESTERDAY = datetime.now().astimezone().date() - timedelta(days=1)


def training_day(recorder: Any, *, tickets: int = 48, seed: int = 2) -> None:
    """Yesterday's tickets (sold from the catalog, some discounted), after the same weekday a
    week before (half as many)."""
    from cashier.day_report import day_window
    from tests.support.training_day import write_day

    saved = recorder.clock
    start = datetime.fromisoformat(day_window(YESTERDAY)[0])
    recorder.clock = lambda: start - timedelta(days=7)
    write_day(recorder, YESTERDAY - timedelta(days=7), tickets=tickets // 2, seed=seed + 1)
    recorder.clock = lambda: start
    write_day(recorder, YESTERDAY, tickets=tickets, seed=seed, catalog=True)
    recorder.clock = saved


async def chart_states(shoot: Callable[[Any, str], Any], build: Callable[..., Any]) -> None:
    """``build(**overrides)``: a training till's window, shown and not started."""
    import tempfile

    from PySide6.QtCore import QDate

    from cashier.journal.recorder import JournalRecorder
    from ui.pages.reports import ReportsPage

    path = Path(tempfile.mkdtemp(prefix="cashier-screens-charts-")) / "journal.sqlite"
    recorder = JournalRecorder(path, training=True)
    training_day(recorder)
    recorder.close()
    clerks = [{"id": 101, "name": "Alice", "pin_hash": hash_pin("1111")},
              {"id": 102, "name": "Bob", "pin_hash": hash_pin("2222"), "role": "manager"},
              {"id": 103, "name": "Carmen", "pin_hash": hash_pin("3333")}]
    gui = build(clerks=clerks, journal_path=path)
    w = gui.window
    w.resize(1024, 768)
    w.show()
    await gui.start(poll_s=0)
    gui.sign_in.pin.setText("2222")
    gui.sign_in.sign_in()
    reports: ReportsPage = w.go(ReportsPage)
    reports.pin.setText("2222")
    reports.unlock()
    reports.date.setDate(QDate(YESTERDAY.year, YESTERDAY.month, YESTERDAY.day))
    reports.show_day()
    await shoot(w, "reports-day-charts-1024x768-en")
    cell = reports.charts.cells[0]
    bars = cast(Any, cell.view.chart().series()[0]).barSets()[0]
    bars.clicked.emit(cell.order.index(12))  # a click on the noon bar says its figures
    await shoot(w, "reports-day-bar-clicked-1024x768-en")
    gui.set_language("es")
    await shoot(w, "reports-day-charts-1024x768-es")
    categories = next(c for c in reports.charts.cells if c.chart.key == "categories")
    reports.charts_area.ensureWidgetVisible(categories, 0, 0)  # the categories and discounts row
    await shoot(w, "reports-day-categories-discounts-1024x768-es")
    reports.charts_area.verticalScrollBar().setValue(0)
    reports.toggle_tables()
    await shoot(w, "reports-day-tables-1024x768-es")
    reports.toggle_tables()
    gui.set_theme(high_contrast=True)
    await shoot(w, "reports-day-charts-1024x768-hc-es")
    gui.set_theme(high_contrast=False, font_scale=1.3)
    await shoot(w, "reports-day-charts-1024x768-large-es")
    gui.set_theme(font_scale=1.0)
    gui.set_language("en")
    await gui.stop()
