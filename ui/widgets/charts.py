"""The day's charts, drawn with Qt's own charts module (QtCharts; docs/decisions/023-charts.md says
why not pyqtgraph): the core's ``cashier.day_report.Chart`` as bars or slices, each with its table
of the same figures one key away, and a click on a bar or slice saying its figures.

Nothing is summed here: every figure is the core's (a chart's table shows the figures as given).
The colours are Okabe and Ito's colour-blind-safe palette (``cashier.pdf.PALETTE``, the PDF's
too); the high-contrast theme draws on black with white text and outlines; the text follows the
till's text size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCharts import (
    QBarCategoryAxis,
    QBarSeries,
    QBarSet,
    QChart,
    QChartView,
    QHorizontalBarSeries,
    QPieSeries,
    QPieSlice,
    QValueAxis,
)
from PySide6.QtCore import QDate, QEvent, QLocale, QMargins, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHeaderView,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from cashier.day_report import OTHERS, Chart, Figure, plot_amount
from cashier.money import currency_symbol, from_minor
from cashier.pdf import PALETTE
from ui import a11y
from ui.i18n import format_money, tr

#: The palette as Qt colours, in the PDF's order.
COLOURS = tuple(QColor.fromRgbF(r, g, b) for r, g, b in PALETTE)


@dataclass(frozen=True)
class ChartWords:
    """How the window words a chart (its language): the title, a row's label, a series' name,
    a figure (count and amount) and the column heads of the table."""

    title: Callable[[Chart], str]
    label: Callable[[Chart, str], str]
    #: a row's label on the chart's axis (shorter where the table's would not fit: an hour)
    tick: Callable[[Chart, str], str]
    #: the amount axis' label format (printf: the currency's symbol and whole units)
    axis: Callable[[], str]
    series: Callable[[Chart, str], str]
    figure: Callable[[Chart, Figure], str]
    amount: Callable[[Figure], float]
    heads: Callable[[Chart], tuple[str, str]]


@dataclass(frozen=True)
class Look:
    high_contrast: bool = False
    font_scale: float = 1.0


class ChartCell(QStackedWidget):
    """One chart and its table, one shown at a time."""

    def __init__(self, chart: Chart, words: ChartWords, say: Callable[[Callable[[], str]], None],
                 look: Look) -> None:
        super().__init__()
        self.chart = chart
        self.words = words
        self.say = say
        #: the rows drawn (the core's choice: a day's open hours), in the bars' order
        self.rows = chart.shown_rows()
        self.order: list[int] = list(self.rows)  # bar index -> row
        self.view = QChartView(self._draw(look))
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing)
        # a named row needs its label's height: the chart grows with its rows
        bars = len(self.rows) * len(chart.series) if chart.key != "by_hour" and chart.shape == "bars" else 0
        least = 250 if chart.shape == "slices" else 200  # a pie and its names under it
        self.view.setMinimumHeight(int(max(least, 17 * bars + 90) * look.font_scale))
        #: its table, made the first time it is asked for (F4): half the widgets to draw and
        #: style otherwise
        self.table: QTableWidget | None = None
        self.addWidget(self.view)
        a11y.name(self.view, words.title(chart), "; ".join(self._phrases()))

    def show_table(self, table: bool) -> None:
        if table and self.table is None:
            self.table = self._table()
            self.addWidget(self.table)
        self.setCurrentWidget(self.table if table and self.table is not None else self.view)

    # ---- the chart -------------------------------------------------------------------------
    def _draw(self, look: Look) -> QChart:
        chart, words = self.chart, self.words
        q = QChart()
        q.setTitle(words.title(chart))
        q.setAnimationOptions(QChart.AnimationOption.NoAnimation)  # drawn at once, every time
        q.setMargins(QMargins(2, 2, 2, 2))
        q.setBackgroundRoundness(0)
        font = QFont()
        font.setPointSizeF(9.5 * look.font_scale)
        title_font = QFont(font)
        title_font.setBold(True)
        title_font.setPointSizeF(11 * look.font_scale)
        q.setTitleFont(title_font)
        ink = QColor("#ffffff") if look.high_contrast else QColor("#1a1a1a")
        q.setBackgroundBrush(QColor("#000000") if look.high_contrast else QColor("#ffffff"))
        q.setTitleBrush(ink)
        q.legend().setFont(font)
        q.legend().setLabelColor(ink)
        outline = QPen(QColor("#ffffff"), 1)  # slices apart on either background
        if chart.shape == "slices":
            self._slices(q, outline, font, ink)
        else:
            self._bars(q, outline, font, ink, look)
        q.legend().setVisible(len(chart.series) > 1 or chart.shape == "slices")
        q.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)  # the names' whole width
        return q

    def _bars(self, q: QChart, outline: QPen, font: QFont, ink: QColor, look: Look) -> None:
        chart, words = self.chart, self.words
        horizontal = chart.key != "by_hour"  # named rows read best across; hours go up
        series = QHorizontalBarSeries() if horizontal else QBarSeries()
        labels = [words.tick(chart, label) for label in chart.labels]
        # named rows: the first at the top, as in the table (Qt draws the first category lowest)
        self.order = list(self.rows)[::-1] if horizontal else list(self.rows)
        for i, s in enumerate(chart.series):
            bars = QBarSet(words.series(chart, s.name))
            bars.append([words.amount(s.figures[r]) for r in self.order])
            bars.setColor(COLOURS[i % len(COLOURS)])
            bars.setBorderColor(outline.color() if look.high_contrast else COLOURS[i % len(COLOURS)])
            bars.clicked.connect(lambda index, s=s: self._clicked(index, s.name))
            series.append(bars)
        q.addSeries(series)
        categories = QBarCategoryAxis()
        categories.append([labels[r] for r in self.order])
        categories.setTruncateLabels(False)  # a product's whole name (the axis takes its width)
        values = QValueAxis()
        values.setLabelFormat(words.axis())
        values.setMin(0)
        for axis in (categories, values):
            axis.setLabelsFont(font)
            axis.setLabelsColor(ink)
            axis.setGridLineColor(QColor("#5a5a5a") if look.high_contrast else QColor("#d0d0d0"))
            axis.setLinePenColor(ink)
        if not horizontal:
            categories.setLabelsAngle(0)
        q.addAxis(categories, Qt.AlignmentFlag.AlignLeft if horizontal else Qt.AlignmentFlag.AlignBottom)
        q.addAxis(values, Qt.AlignmentFlag.AlignBottom if horizontal else Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(categories)
        series.attachAxis(values)
        if chart.empty:  # nothing to scale: an axis from 0 to 1, not a range of nothing
            values.setRange(0, 1)
        else:
            values.applyNiceNumbers()

    def _slices(self, q: QChart, outline: QPen, font: QFont, ink: QColor) -> None:
        chart, words = self.chart, self.words
        pie = QPieSeries()
        for i, (label, figure) in enumerate(zip(chart.labels, chart.series[0].figures, strict=True)):
            part = QPieSlice(words.label(chart, label), max(words.amount(figure), 0.0))
            part.setColor(COLOURS[i % len(COLOURS)])
            part.setBorderColor(outline.color())
            part.setBorderWidth(2)
            part.setLabelFont(font)
            part.setLabelColor(ink)
            part.clicked.connect(lambda i=i: self._clicked(i, chart.series[0].name))
            pie.append(part)
        pie.setPieSize(0.7)
        q.addSeries(pie)

    def _clicked(self, index: int, series: str) -> None:
        """A bar or slice clicked: its figures said (and shown) in the screen's words."""
        chart = self.chart
        if not 0 <= index < len(chart.labels):
            return
        row = self.order[index] if chart.shape == "bars" else index
        s = next(x for x in chart.series if x.name == series)
        words = self.words

        def said() -> str:  # worded again in the new language after a switch
            label = words.label(chart, chart.labels[row])
            name = f" ({words.series(chart, s.name)})" if len(chart.series) > 1 else ""
            return f"{words.title(chart)}: {label}{name}: {words.figure(chart, s.figures[row])}"
        self.say(said)

    # ---- its table ---------------------------------------------------------------------------
    def _table(self) -> QTableWidget:
        chart, words = self.chart, self.words
        heads = [words.heads(chart)[0]] + [
            f"{words.series(chart, s.name)}" if len(chart.series) > 1 else words.heads(chart)[1]
            for s in chart.series]
        table = QTableWidget(len(self.rows), len(heads))
        table.setHorizontalHeaderLabels(heads)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.verticalHeader().setVisible(False)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        for r, row in enumerate(self.rows):
            table.setItem(r, 0, QTableWidgetItem(words.label(chart, chart.labels[row])))
            for c, s in enumerate(chart.series, start=1):
                item = QTableWidgetItem(words.figure(chart, s.figures[row]))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                table.setItem(r, c, item)
        a11y.name_view(table, words.title(chart), words.heads(chart)[1])
        a11y.table_rows(table)
        return table

    def _phrases(self) -> list[str]:
        chart, words = self.chart, self.words
        return [f"{words.label(chart, chart.labels[r])} "
                + ", ".join(words.figure(chart, s.figures[r]) for s in chart.series)
                for r in self.rows if not all(s.figures[r].empty for s in chart.series)]


class ChartPanel(QWidget):
    """The charts of a report in a grid; ``show_tables`` turns every chart into its table."""

    def __init__(self, words: ChartWords, say: Callable[[Callable[[], str]], None],
                 look: Callable[[], Look],
                 columns: int = 2) -> None:
        super().__init__()
        self.words = words
        self.say = say
        self.look = look
        self.columns = columns
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(6)
        self.cells: list[ChartCell] = []
        self.charts: tuple[Chart, ...] = ()
        self.tables = False
        #: the look the charts were drawn in
        self.drawn: Look | None = None

    def show_charts(self, charts: Sequence[Chart]) -> None:
        self.charts = tuple(charts)
        self._build()

    def redraw(self) -> None:
        """The same charts in the window's current language and look."""
        if self.charts:
            self._build()

    def _build(self) -> None:
        for cell in self.cells:
            self.grid.removeWidget(cell)
            cell.deleteLater()
        self.cells = []
        look = self.drawn = self.look()
        wide = {"by_hour", "tills"}  # the hours (and the tills) take a whole row
        row = col = 0
        for chart in self.charts:
            cell = ChartCell(chart, self.words, self.say, look)
            span = self.columns if chart.key in wide else 1
            if col and col + span > self.columns:
                row, col = row + 1, 0
            self.grid.addWidget(cell, row, col, 1, span)
            col += span
            if col >= self.columns:
                row, col = row + 1, 0
            self.cells.append(cell)
        self.show_tables(self.tables)

    def changeEvent(self, event: QEvent) -> None:
        """A new theme or text size (the application's style sheet): drawn again in it, once,
        after the style sheet has reached every widget (a redraw inside it would be polished
        again, and again)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.StyleChange and self.charts and self.look() != self.drawn:
            QTimer.singleShot(0, self._restyled)

    def _restyled(self) -> None:
        if self.look() != self.drawn:
            self.redraw()

    def show_tables(self, tables: bool) -> None:
        self.tables = tables
        for cell in self.cells:
            cell.show_table(tables)


def chart_words(currency: Callable[[], str]) -> ChartWords:
    """The window's words for the core's charts (``cashier.day_report``): the screen's language."""
    titles = {"by_hour": lambda: tr("Sales by hour"), "tenders": lambda: tr("Tenders"),
              "products": lambda: tr("Top products"), "categories": lambda: tr("Top categories"),
              "discounts": lambda: tr("Discounts"), "refunds_voids": lambda: tr("Refunds and voids"),
              "refunds": lambda: tr("Refunds"),
              "clerks": lambda: tr("Sales by clerk"), "tills": lambda: tr("Sales by till")}
    tenders = {"card": lambda: tr("Card"), "giftcard": lambda: tr("Gift card"), "qr": lambda: tr("QR"),
               "cash": lambda: tr("Cash"), "charge_api": lambda: tr("Phone/link")}
    heads = {"by_hour": lambda: tr("Hour"), "tenders": lambda: tr("Tender"),
             "products": lambda: tr("Product"), "categories": lambda: tr("Category"),
             "discounts": lambda: tr("What"), "refunds_voids": lambda: tr("What"),
             "refunds": lambda: tr("Tender"),
             "clerks": lambda: tr("Clerk"), "tills": lambda: tr("Till")}

    def title(chart: Chart) -> str:
        return titles[chart.key]() if chart.key in titles else chart.title

    def label(chart: Chart, text: str) -> str:
        if chart.key == "by_hour":
            return f"{text}:00"
        if chart.key == "tenders":
            return tenders[text]() if text in tenders else text
        if chart.key in ("refunds_voids", "refunds"):
            if text == "voids":
                return tr("Voids")
            tender = text.removeprefix("refund ")  # a refund's row: its tender (the title says)
            return tenders[tender]() if tender in tenders else tender
        if chart.key == "discounts":  # a reason or a promotion: its own name (the shop's words)
            return text.split(" ", 1)[1]
        return tr("Others") if text == OTHERS else text

    def series(chart: Chart, name: str) -> str:
        if chart.key == "by_hour" and len(chart.series) > 1:
            when = QDate.fromString(name, "yyyy-MM-dd")
            shown = QLocale().toString(when, "ddd d MMM") if when.isValid() else name
            return (tr("Week earlier (%s)") % shown) if name == chart.series[1].name else shown
        return {"sales": tr("Sales"), "refunds": tr("Refunds"), "amount": tr("Amount")}.get(name, name)

    def figure(chart: Chart, f: Figure) -> str:
        cur = currency()
        count = {"items": tr("%s sold"), "count": tr("%s times")}.get(chart.counts, tr("Payments: %s"))
        return f"{format_money(from_minor(f.minor, cur), cur)} · {count % f.count}"

    def amount(f: Figure) -> float:
        return plot_amount(f, currency())

    def tick(chart: Chart, text: str) -> str:
        return str(int(text)) if chart.key == "by_hour" else label(chart, text)

    def axis() -> str:
        return (currency_symbol(currency()) or "").replace("%", "%%") + "%.0f"

    def heads_of(chart: Chart) -> tuple[str, str]:
        return heads[chart.key]() if chart.key in heads else "", tr("Sales")

    return ChartWords(title, label, tick, axis, series, figure, amount, heads_of)


def look_of(gui: Any) -> Look:
    """The window's look as the charts draw in it (its display settings)."""
    prefs = gui.prefs if gui is not None else {}
    return Look(bool(prefs.get("high_contrast", False)), float(prefs.get("font_scale", 1.0)))
