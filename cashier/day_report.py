"""The day as charts (issue #42): ONE object computes every figure a chart or its table shows.

``DayReport`` is built from the journal for a window (a business date, or an X/Z report's own
window): the report's totals (``cashier.reports.build_report``, the very figures of the X and Z
reports, over the same rows), and the charts' figures summed from those rows by the same rule
(``cashier.reports.money_parts``): sales by hour, tenders, top products, refunds and voids, sales
by clerk, and the hours of the same weekday a week earlier beside today's. ``StoreReport`` does
the same for the store's answer (``GET /v1/totals``): one bar per till. The window and the PDF
only draw what these hold; ``tests/cash/test_day_report.py`` checks the totals against the Z
report to the cent and every chart's figures against the totals.

The catalog's lines (issue #37): ``product_key`` is the one place a ticket line becomes a
product (the journal groups the lines by sku); ``top_categories`` sums the same lines by the
category each was sold in (journal v14; a typed line has none and counts under "others"): the
chart appears once a line carries a category, and adds up to the top products. Discounts (issue
#38): ``discount_chart`` draws the report's own discount figures (by reason, and promotions by
name), summing to the report's discount total; no chart when nothing was taken off.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, Literal

from cashier.drawer import Drawer
from cashier.journal.recorder import JournalRecorder
from cashier.journal.totals import TAKEN_BUCKETS
from cashier.money import from_minor, to_minor
from cashier.pdf import PdfChart
from cashier.reports import TENDERS, build_report, money_parts

#: How many products the top-products chart shows (the rest are summed in one "others" row).
TOP_PRODUCTS = 10
OTHERS = "(others)"

ChartKey = Literal["by_hour", "tenders", "products", "categories", "discounts", "refunds_voids",
                   "refunds", "clerks", "tills"]


@dataclass(frozen=True)
class Figure:
    """One bar or slice: how many and how much (minor units of the report's currency)."""

    count: int
    minor: int

    @property
    def empty(self) -> bool:
        """Nothing happened there (a quiet hour): a screen reader skips it."""
        return not self.count and not self.minor


@dataclass(frozen=True)
class Series:
    """One set of bars: ``name`` is a word the window translates (``sales``) or a business date
    (the by-hour chart's two days)."""

    name: str
    figures: tuple[Figure, ...]


@dataclass(frozen=True)
class Chart:
    """A chart and its table: one row per label, one figure per series in each row."""

    key: ChartKey
    title: str
    labels: tuple[str, ...]
    series: tuple[Series, ...]
    #: the count's meaning in the table: payments, items sold, refunds or voids
    counts: str = "payments"
    shape: Literal["bars", "slices"] = "bars"

    @property
    def empty(self) -> bool:
        """Nothing to draw (a quiet day): every figure of every series empty."""
        return all(f.empty for s in self.series for f in s.figures)

    def shown_rows(self) -> tuple[int, ...]:
        """The rows worth drawing: the hours from the first with a figure (in any series) to
        the last (the hours before opening and after closing are empty); every row otherwise."""
        rows = tuple(range(len(self.labels)))
        if self.key != "by_hour":
            return rows
        busy = [r for r in rows if not all(s.figures[r].empty for s in self.series)]
        return tuple(range(busy[0], busy[-1] + 1)) if busy else rows

    def total(self, series: int = 0) -> Figure:
        figures = self.series[series].figures
        return Figure(sum(f.count for f in figures), sum(f.minor for f in figures))


@dataclass(frozen=True)
class DayReport:
    """Every figure of a day's (or a report window's) charts and tables."""

    till: str
    currency: str
    business_date: str | None
    start: str
    end: str
    #: the X/Z report's figures for the window (``cashier.reports.build_report``, type ``day``)
    totals: dict[str, Any]
    charts: tuple[Chart, ...]
    #: the same weekday a week earlier: its date (None for an X/Z report's window); its hours
    #: are the by-hour chart's second series (read alone: its other totals are not needed)
    compared_with: str | None = None

    def chart(self, key: ChartKey) -> Chart | None:
        return next((c for c in self.charts if c.key == key), None)

    @property
    def discounts(self) -> Chart | None:
        """The discounts chart: None on a day nothing was taken off."""
        return self.chart("discounts")

    def money(self, minor: int) -> Decimal:
        return from_minor(minor, self.currency)


def plot_amount(figure: Figure, currency: str) -> float:
    """A figure's amount as a drawing's number (a bar's length): never summed or compared, the
    tables and the click show the amount itself."""
    return float(from_minor(figure.minor, currency))


def day_window(day: date) -> tuple[str, str]:
    """[start, end) of a business date: the till's local midnight to the next, as the journal's
    UTC timestamps (the journal's ``business_date`` is the local day of ``created_at``)."""
    start = datetime.combine(day, time(0)).astimezone()
    end = datetime.combine(day + timedelta(days=1), time(0)).astimezone()
    return _iso(start), _iso(end)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _local_hour(utc_hour: str) -> int:
    """The till's local hour of a ``YYYY-MM-DDTHH`` UTC hour."""
    return datetime.fromisoformat(f"{utc_hour}:00:00+00:00").astimezone().hour


def product_key(line: Any) -> str:
    """THE product a ticket line counts for in the top products: its name as last sold. The
    journal groups the lines by sku (issue #37; a typed line by its name), so a product renamed
    in the catalog is one bar under its newest name; two skus sold under one name share a bar."""
    return str(line["name"])


def category_key(line: Any) -> str | None:
    """THE category a ticket line counts for: the one it was sold in (journal v14); None for a
    typed line (or one journaled before categories): it counts under "others"."""
    category = line["category"]
    return str(category) if category else None


def _ranked(lines: Iterable[Any], key: Callable[[Any], str | None],
            limit: int) -> list[tuple[str, list[int]]]:
    """The lines summed by ``key`` (items, minor units), by amount, the first ``limit`` and the
    rest (with the lines of no key) as one last row: every line counted once."""
    sold: dict[str | None, list[int]] = defaultdict(lambda: [0, 0])
    for line in lines:
        acc = sold[key(line)]
        acc[0] += int(line["quantity"])
        acc[1] += int(line["minor"])
    ranked = sorted(((k, v) for k, v in sold.items() if k is not None),
                    key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))
    shown: list[tuple[str, list[int]]] = list(ranked[:limit])
    rest = [v for _k, v in ranked[limit:]] + ([sold[None]] if None in sold else [])
    if rest:
        shown.append((OTHERS, [sum(v[0] for v in rest), sum(v[1] for v in rest)]))
    return shown


def top_products(lines: Iterable[Any], limit: int = TOP_PRODUCTS) -> Chart:
    """The products sold, by amount, the first ``limit`` and the rest as one row."""
    shown = _ranked(lines, product_key, limit)
    return Chart("products", "Top products", tuple(k for k, _v in shown),
                 (Series("sales", tuple(Figure(v[0], v[1]) for _k, v in shown)),), counts="items")


def top_categories(lines: Sequence[Any], limit: int = TOP_PRODUCTS) -> Chart | None:
    """The same lines as the top products, by the category each was sold in (a typed line under
    "others"): the same total. None when no line carries a category (a till of typed lines)."""
    if not any(category_key(line) for line in lines):
        return None
    shown = _ranked(lines, category_key, limit)
    return Chart("categories", "Top categories", tuple(k for k, _v in shown),
                 (Series("sales", tuple(Figure(v[0], v[1]) for _k, v in shown)),), counts="items")


#: The discounts chart's parts: the report's ``discounts`` (``cashier.reports.discount_figures``)
#: whose amounts make its total (price overrides and cash rounding are not discounts taken off:
#: they stay in the report's table); each row's label as the report's text names it.
DISCOUNT_CHART_PARTS = (("by_reason", "reason"), ("promotions", "promotion"))


def discount_chart(discounts: Mapping[str, Any] | None, currency: str) -> Chart | None:
    """What discounts took off, by reason, and what promotions took off, by name: the report's
    own figures (an X/Z report's or the store's totals), summing to its discount total. None
    when nothing was taken off."""
    if not discounts:
        return None
    rows = [(f"{label} {name}", Figure(int(v["count"]), to_minor(Decimal(v["amount"]), currency)))
            for part, label in DISCOUNT_CHART_PARTS
            for name, v in (discounts.get(part) or {}).items()]
    rows = [(k, f) for k, f in rows if not f.empty]
    if not rows:
        return None
    return Chart("discounts", "Discounts", tuple(k for k, _f in rows),
                 (Series("amount", tuple(f for _k, f in rows)),), counts="count")


def _hours(rows: Iterable[Any]) -> list[Figure]:
    """Sales (money taken) by the till's local hour: 24 figures summing to the report's gross."""
    acc = [[0, 0] for _ in range(24)]
    local: dict[str, int] = {}  # a day's few hours, each worked out once (not once per group)
    for what, _tender, n, minor, row in money_parts(rows):
        if what == "sale":
            utc_hour = str(row["hour"])
            h = local.get(utc_hour)
            if h is None:
                h = local[utc_hour] = _local_hour(utc_hour)
            acc[h][0] += n
            acc[h][1] += minor
    return [Figure(c, m) for c, m in acc]


def _pairs(mapping: Mapping[str, Mapping[str, Any]], currency: str) -> list[tuple[str, Figure]]:
    return [(k, Figure(int(v["count"]), to_minor(Decimal(v["amount"]), currency)))
            for k, v in mapping.items()]


def build_day_report(recorder: JournalRecorder, drawer: Drawer, start: str, end: str, *,
                     business_date: str | None = None,
                     compare: tuple[str, str, str] | None = None) -> DayReport:
    """The charts of this till's entries created in [start, end) (tickets closed in it for the
    products); ``compare``: (date, start, end) of the day shown beside it, hour by hour."""
    cur = recorder.currency
    rows = recorder.report_groups_by_hour(start, end)
    totals = build_report(recorder, drawer, kind="day", session=None, start=start, end=end,
                          groups=rows)
    hours = _hours(rows)
    labels = tuple(f"{h:02d}" for h in range(24))
    series = [Series(business_date or "sales", tuple(hours))]
    if compare is not None:
        then, c_start, c_end = compare
        series.append(Series(then, tuple(_hours(recorder.report_groups_by_hour(c_start, c_end)))))
    charts = [Chart("by_hour", "Sales by hour", labels, tuple(series))]
    tenders = _pairs({t: totals["by_tender"][t] for t in TENDERS}, cur)
    used = [(t, f) for t, f in tenders if f.count or t != "charge_api"]  # the Charge API if used
    charts.append(Chart("tenders", "Tenders", tuple(t for t, _f in used),
                        (Series("sales", tuple(f for _t, f in used)),), shape="slices"))
    lines = recorder.report_lines(start, end)
    charts.append(top_products(lines))
    categories = top_categories(lines)
    if categories is not None:
        charts.append(categories)
    discounts = discount_chart(totals.get("discounts"), cur)
    if discounts is not None:
        charts.append(discounts)
    refunds = [(f"refund {t}", f) for t, f in _pairs(totals["refunds_by_tender"], cur)]
    voids = totals["voids"]
    refunds.append(("voids", Figure(int(voids["count"]), to_minor(Decimal(voids["amount"]), cur))))
    charts.append(Chart("refunds_voids", "Refunds and voids", tuple(k for k, _f in refunds),
                        (Series("amount", tuple(f for _k, f in refunds)),), counts="count"))
    clerks = [(f"{c} {v.get('name') or ''}".strip(),
               Figure(int(v["count"]), to_minor(Decimal(v["amount"]), cur)))
              for c, v in totals["by_clerk"].items()]
    charts.append(Chart("clerks", "Sales by clerk", tuple(c for c, _f in clerks),
                        (Series("sales", tuple(f for _c, f in clerks)),)))
    return DayReport(till=recorder.till_id, currency=cur, business_date=business_date, start=start,
                     end=end, totals=totals, charts=tuple(charts),
                     compared_with=compare[0] if compare else None)


def day_report(recorder: JournalRecorder, drawer: Drawer, day: date) -> DayReport:
    """A business date's charts, with the same weekday a week earlier beside its hours."""
    start, end = day_window(day)
    earlier = day - timedelta(days=7)
    return build_day_report(recorder, drawer, start, end, business_date=day.isoformat(),
                            compare=(earlier.isoformat(), *day_window(earlier)))


def report_window(report: Mapping[str, Any]) -> tuple[str, str]:
    """[start, end) an X or Z report was built over (an X report's end is inclusive of now)."""
    end = str(report["to"])
    return str(report["from"]), end + "~" if report["type"] == "x" else end


def charts_of_report(recorder: JournalRecorder, drawer: Drawer,
                     report: Mapping[str, Any]) -> DayReport:
    """The charts of an X or Z report: the same window, so the same figures."""
    start, end = report_window(report)
    return build_day_report(recorder, drawer, start, end)


# ---- the store ---------------------------------------------------------------------------------
#: The store's buckets (``cashier.journal.totals``) as the tender words of the reports.
_STORE_TENDER = {"sale": "card", "manual_sale": "card", "capture": "card",
                 "giftcard_sale": "giftcard", "qr": "qr", "cash": "cash",
                 "charge_sale": "charge_api", "charge_capture": "charge_api"}
_STORE_REFUND = {"refund": "card", "cash_refund": "cash", "charge_refund": "charge_api"}


@dataclass(frozen=True)
class StoreReport:
    """The store's charts from its totals answer (a store manager's: every till)."""

    currency: str
    business_date: str | None
    charts: tuple[Chart, ...]

    def chart(self, key: ChartKey) -> Chart | None:
        return next((c for c in self.charts if c.key == key), None)


def store_report(answer: Mapping[str, Any]) -> StoreReport | None:
    """One bar per till (its sales, refunds and net), the store's tenders and refunds; None
    when the answer is one till's own (no store manager signed in)."""
    store = answer.get("store")
    if not store:
        return None
    cur = str(store.get("currency") or "USD")

    def fig(pair: Mapping[str, Any]) -> Figure:
        return Figure(int(pair["count"]), to_minor(Decimal(pair["amount"]), cur))

    tills = sorted(answer["tills"].items())
    by_till = Chart("tills", "Sales by till", tuple(t for t, _v in tills),
                    (Series("sales", tuple(_till_sales(v, cur) for _t, v in tills)),
                     Series("refunds", tuple(fig(v["refunds"]) for _t, v in tills))))
    tender: dict[str, list[int]] = {t: [0, 0] for t in TENDERS}
    refunds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for bucket, pair in store["by_tender"].items():
        f = fig(pair)
        target = (tender[_STORE_TENDER[bucket]] if bucket in _STORE_TENDER
                  else refunds[_STORE_REFUND[bucket]] if bucket in _STORE_REFUND else None)
        if target is not None:
            target[0] += f.count
            target[1] += f.minor
    used = [(t, v) for t, v in tender.items() if v[0] or t != "charge_api"]
    charts = [by_till]
    if store.get("by_hour") is not None:  # a store that answers its hours (issue #42 on)
        hours = [[0, 0] for _ in range(24)]
        for utc_hour, pair in store["by_hour"].items():
            f = fig(pair)
            acc = hours[_local_hour(utc_hour)]
            acc[0] += f.count
            acc[1] += f.minor
        charts.append(Chart("by_hour", "Sales by hour", tuple(f"{h:02d}" for h in range(24)),
                            (Series("sales", tuple(Figure(*v) for v in hours)),)))
    charts.append(Chart("tenders", "Tenders", tuple(t for t, _v in used),
                        (Series("sales", tuple(Figure(*v) for _t, v in used)),), shape="slices"))
    if refunds:
        charts.append(Chart("refunds", "Refunds", tuple(f"refund {t}" for t in sorted(refunds)),
                            (Series("amount", tuple(Figure(*refunds[t]) for t in sorted(refunds))),),
                            counts="count"))
    discounts = discount_chart(store.get("discounts"), cur)  # a store that carries them (#38)
    if discounts is not None:
        charts.append(discounts)
    if store.get("by_clerk"):
        clerks = sorted(store["by_clerk"].items())
        charts.append(Chart("clerks", "Sales by clerk", tuple(c or "(none)" for c, _v in clerks),
                            (Series("sales", tuple(fig(v) for _c, v in clerks)),)))
    return StoreReport(cur, answer.get("business_date"), tuple(charts))


def _till_sales(till: Mapping[str, Any], currency: str) -> Figure:
    """A till's money taken, every tender (cash and the Charge API too): its tenders' sum."""
    count = minor = 0
    for bucket, pair in till["by_tender"].items():
        if bucket in TAKEN_BUCKETS:
            count += int(pair["count"])
            minor += to_minor(Decimal(pair["amount"]), currency)
    return Figure(count, minor)


# ---- the PDF's drawings ------------------------------------------------------------------------
_PDF_TITLES = {"by_hour": "Sales by hour", "tenders": "Tenders", "products": "Top products",
               "categories": "Top categories", "discounts": "Discounts",
               "refunds_voids": "Refunds and voids", "refunds": "Refunds", "clerks": "Sales by clerk",
               "tills": "Sales by till"}


def pdf_charts(charts: Sequence[Chart], currency: str) -> list[PdfChart]:
    """The charts as the PDF draws them (English, as the PDF's text): each row's bars and its
    figures (count / amount per series) beside them."""
    out = []
    for chart in charts:
        rows = []
        for i, label in enumerate(chart.labels):
            figures = [s.figures[i] for s in chart.series]
            if chart.key == "by_hour" and not any(f.count for f in figures):
                continue  # a quiet hour: no row (the table stays the figures that exist)
            text = "  ".join(f"{f.count} / {from_minor(f.minor, currency)}" for f in figures)
            rows.append((label.replace("_", " "), tuple(f.minor for f in figures), text))
        if rows:
            names = [s.name for s in chart.series]
            if chart.key == "by_hour" and len(names) > 1:
                names[1] += " (a week earlier)"
            head = "  ".join(f"{chart.counts} / amount" for _s in chart.series)
            out.append(PdfChart(_PDF_TITLES.get(chart.key, chart.title), tuple(names), tuple(rows),
                                head))
    return out
