"""Issue #42: ONE report object computes every figure the day's charts and tables show, and its
totals are the Z report's to the cent; every chart adds up to those totals; the PDF carries the
charts as vector drawings beside their tables."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from cashier.cashdesk import CashDesk
from cashier.day_report import DayReport, Figure, day_window, product_key, store_report, top_products
from cashier.money import to_minor
from tests.support.training_day import write_day

FIGURES = ("tickets", "gross", "net", "tax", "tips", "refunds", "voids", "by_tender",
           "refunds_by_tender", "by_card_brand", "by_clerk", "open_authorizations", "unresolved",
           "corrections")


def _minor(text: str) -> int:
    return to_minor(Decimal(text), "USD")


def _a_day(make_desk: Callable[..., CashDesk], *,
           catalog: bool = False) -> tuple[CashDesk, date, dict[str, Any]]:
    """A week-earlier day, then today: the drawer opened before today's first ticket and closed
    after its last, so the Z report and the business date cover the same entries. ``catalog``:
    today's lines sold from the catalog, with promotions and discounts (issues #37, #38)."""
    desk = make_desk()
    today = datetime.now().astimezone().date()
    recorder = desk.recorder
    start = datetime.fromisoformat(day_window(today)[0])
    recorder.clock = lambda: start - timedelta(days=7)
    write_day(recorder, today - timedelta(days=7), tickets=20, seed=1)
    recorder.clock = lambda: start + timedelta(minutes=1)
    desk.open(clerk="101", float_amount="50.00")
    write_day(recorder, today, tickets=60, seed=2, catalog=catalog)
    end = datetime.fromisoformat(day_window(today)[1]) - timedelta(minutes=1)
    recorder.clock = lambda: end
    closed = desk.close_drawer(desk.drawer.balance(desk.drawer.require_open()).expected, clerk="102")
    assert closed.closed
    return desk, today, desk.z_report()


def test_the_day_reports_totals_are_the_z_reports_to_the_cent(make_desk: Callable[..., CashDesk]) -> None:
    desk, today, z = _a_day(make_desk)
    manager = desk.roster.manager("102", "2222")
    day = desk.day_report(today, manager)
    assert z["tickets"] == 60 and _minor(z["gross"]) > 0 and z["voids"]["count"] > 0
    assert z["refunds"]["count"] > 0
    for name in FIGURES:
        assert day.totals[name] == z[name], name
    # the charts of the Z report itself: the same window, the same figures
    again = desk.report_charts(z)
    for name in FIGURES:
        assert again.totals[name] == z[name], name
    _every_chart_adds_up(day, z)
    _every_chart_adds_up(again, z)
    assert day.chart("categories") is None and day.discounts is None  # typed lines, no discount


def _every_chart_adds_up(day: DayReport, z: dict[str, Any]) -> None:
    gross = Figure(sum(int(v["count"]) for v in z["by_tender"].values()), _minor(z["gross"]))
    hours = day.chart("by_hour")
    assert hours is not None and len(hours.labels) == 24
    assert hours.total(0) == gross  # every payment in its hour, to the cent
    tenders = day.chart("tenders")
    assert tenders is not None and tenders.total() == gross
    clerks = day.chart("clerks")
    assert clerks is not None and clerks.total() == gross
    refunds = day.chart("refunds_voids")
    assert refunds is not None
    assert refunds.total().minor == _minor(z["refunds"]["amount"]) + _minor(z["voids"]["amount"])
    products = day.chart("products")
    assert products is not None
    # what the paid tickets sold: their subtotals, before tax (the gross carries the tax) and
    # before the discounts (the gross is after them)
    assert products.total().minor == (_minor(z["gross"]) - _minor(z["tax"]) - _minor(z["tips"])
                                      + _minor(z["discounts"]["total"]))
    assert len(products.labels) <= 11
    categories = day.chart("categories")
    if categories is not None:  # the same lines by category: the product sales, to the cent
        assert categories.total() == products.total()
    discounts = day.discounts
    if discounts is not None:  # the report's own discount figures: its discount total
        assert discounts.total().minor == _minor(z["discounts"]["total"])


def test_the_catalogs_categories_and_the_discounts_as_charts(make_desk: Callable[..., CashDesk]) -> None:
    """Issue #42 after #37/#38: sales by the category each line was sold in (a typed line under
    "others") adding up to the top products, and what discounts and promotions took off adding up
    to the Z report's discount total, in the day's charts and in the Z report's own."""
    desk, today, z = _a_day(make_desk, catalog=True)
    assert _minor(z["discounts"]["total"]) > 0 and z["discounts"]["promotions"]
    day = desk.day_report(today, desk.roster.manager("102", "2222"))
    for name in (*FIGURES, "discounts"):
        assert day.totals[name] == z[name], name
    again = desk.report_charts(z)
    for report in (day, again):
        _every_chart_adds_up(report, z)
        categories = report.chart("categories")
        assert categories is not None
        assert set(categories.labels) == {"Bebidas", "Panadería", "Comidas", "(others)"}
        assert categories.labels[-1] == "(others)"  # the typed lines, last
        assert categories.total() == report.chart("products").total()  # type: ignore[union-attr]
        discounts = report.discounts
        assert discounts is not None and discounts.key == "discounts"
        assert {"reason Empleado", "promotion Panadería -20%"} <= set(discounts.labels)
        by_name = dict(zip(discounts.labels, discounts.series[0].figures, strict=True))
        for name, v in z["discounts"]["by_reason"].items():
            assert by_name[f"reason {name}"] == Figure(v["count"], _minor(v["amount"]))
        assert discounts.total().minor == _minor(z["discounts"]["total"])
    pdf = desk.report_pdf(z)
    assert b"Top categories" in pdf and b"Discounts" in pdf


def test_a_quiet_discount_day_draws_no_discounts_chart() -> None:
    from cashier.day_report import discount_chart

    nothing = {"total": "0.00", "by_reason": {}, "by_clerk": {}, "promotions": {},
               "overrides_by_manager": {"701": {"count": 1, "amount": "1.00"}},
               "cash_rounding": {"count": 2, "amount": "0.03"}}
    assert discount_chart(nothing, "USD") is None and discount_chart(None, "USD") is None


def test_the_same_weekday_a_week_earlier_sits_beside_today(make_desk: Callable[..., CashDesk]) -> None:
    desk, today, _z = _a_day(make_desk)
    day = desk.day_report(today, desk.roster.manager("102", "2222"))
    hours = day.chart("by_hour")
    assert hours is not None and [s.name for s in hours.series] == [
        today.isoformat(), (today - timedelta(days=7)).isoformat()]
    # the week earlier's hours add up to that day's own report, to the cent
    from cashier.reports import build_report

    then = today - timedelta(days=7)
    earlier = build_report(desk.recorder, desk.drawer, kind="day", session=None, start=day_window(then)[0],
                           end=day_window(then)[1])
    assert earlier["tickets"] == 20 and day.compared_with == then.isoformat()
    assert hours.total(1).minor == _minor(earlier["gross"]) > 0
    # a quiet day (nothing journaled) is a report of zeros, not an error
    empty = desk.day_report(today + timedelta(days=1), desk.roster.manager("102", "2222"))
    assert empty.totals["tickets"] == 0 and empty.chart("by_hour") is not None


def test_the_busy_hours_are_the_local_hours_of_the_tickets(make_desk: Callable[..., CashDesk]) -> None:
    desk, today, _z = _a_day(make_desk)
    day = desk.day_report(today, desk.roster.manager("102", "2222"))
    hours = day.chart("by_hour")
    assert hours is not None
    busy = {int(h) for h, f in zip(hours.labels, hours.series[0].figures, strict=True) if f.count}
    assert busy and busy <= set(range(7, 21))  # the training shop's opening hours, local time
    when = {datetime.fromisoformat(e.created_at).astimezone().hour
            for e in desk.recorder.search(limit=500) if e.business_date == today.isoformat()}
    assert busy <= when


def test_top_products_group_by_the_lines_product() -> None:
    lines = [{"name": "Latte", "quantity": 2, "minor": 760}, {"name": "Agua", "quantity": 1, "minor": 120},
             {"name": "Latte", "quantity": 1, "minor": 380}]
    chart = top_products(lines, limit=1)
    assert chart.labels == ("Latte", "(others)")
    assert chart.series[0].figures == (Figure(3, 1140), Figure(1, 120))
    assert product_key(lines[0]) == "Latte"


def test_the_pdf_draws_the_charts_beside_their_tables(make_desk: Callable[..., CashDesk]) -> None:
    desk, _today, z = _a_day(make_desk)
    pdf = desk.report_pdf(z)
    assert pdf.startswith(b"%PDF-1.4") and b"Z REPORT" in pdf
    assert pdf.count(b"/Type /Page ") >= 2  # the text, then the charts
    for title in (b"Sales by hour", b"Tenders", b"Top products", b"Refunds and voids",
                  b"Sales by clerk"):
        assert title in pdf, title
    bars = re.findall(rb"rg \d+ [\d.]+ ([\d.]+) \d+ re f", pdf)
    assert len(bars) > 20 and max(float(w) for w in bars) > 150  # vector bars, the peak widest
    gross = z["by_tender"]["cash"]
    assert f"{gross['count']} / {gross['amount']}".encode() in pdf  # the table beside the bars


def test_the_store_report_has_one_bar_per_till() -> None:
    answer = {"business_date": None, "store": {
        "currency": "USD", "by_tender": {"sale": {"count": 3, "amount": "30.00"},
                                         "cash": {"count": 1, "amount": "5.00"},
                                         "refund": {"count": 1, "amount": "2.00"}}},
        "tills": {"till-2": {"by_tender": {"sale": {"count": 2, "amount": "20.00"},
                                           "cash": {"count": 1, "amount": "5.00"}},
                             "refunds": {"count": 1, "amount": "2.00"}},
                  "till-1": {"by_tender": {"sale": {"count": 1, "amount": "10.00"}},
                             "refunds": {"count": 0, "amount": "0.00"}}}}
    report = store_report(answer)
    assert report is not None
    tills = report.chart("tills")
    assert tills is not None and tills.labels == ("till-1", "till-2")
    assert tills.series[0].figures == (Figure(1, 1000), Figure(3, 2500))
    tenders = report.chart("tenders")
    assert tenders is not None and tenders.total() == Figure(4, 3500)
    refunds = report.chart("refunds")
    assert refunds is not None and refunds.labels == ("refund card",) and refunds.total() == Figure(1, 200)
    assert store_report({"store": None, "tills": {}}) is None  # a till's own answer: no store
    assert report.chart("discounts") is None  # a store's answer without discounts: no chart
    answer["store"]["discounts"] = {  # type: ignore[index]
        "total": "3.50", "by_reason": {"Empleado": {"count": 2, "amount": "2.00"}},
        "by_clerk": {"101": {"count": 2, "amount": "2.00"}},
        "promotions": {"Happy hour": {"count": 1, "amount": "1.50"}}, "overrides_by_manager": {},
        "cash_rounding": {"count": 0, "amount": "0.00"}}
    with_discounts = store_report(answer)
    assert with_discounts is not None
    chart = with_discounts.chart("discounts")
    assert chart is not None and chart.labels == ("reason Empleado", "promotion Happy hour")
    assert chart.total() == Figure(3, 350)


def test_a_day_report_is_a_managers(make_desk: Callable[..., CashDesk]) -> None:
    import pytest

    from cashier.errors import ManagerNeeded

    desk = make_desk()
    with pytest.raises(ManagerNeeded):
        desk.day_report(datetime.now(UTC).date())
