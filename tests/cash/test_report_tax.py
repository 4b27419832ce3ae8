"""Issue 22: the X and Z reports show the tax the day's tickets charged (screen text, CSV, PDF),
the same figure the tickets show, and a training till's reports say TRAINING."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from cashier.flows.ticket import Ticket
from cashier.journal.model import Kind, NewEntry, State
from cashier.reports import report_csv, report_pdf, report_text


def _ticket(store: Any, price: str, rate: str, *, close: str | None = "paid") -> Ticket:
    tid = store.create_ticket(actor="101", tax_rate=Decimal(rate), tax_included=False, tip_mode="none")
    store.add_ticket_line(tid, name="Goods", quantity=2, unit_price=Decimal(price), actor="101")
    ticket = Ticket.of(store.ticket(tid))
    entry = store.create(NewEntry(Kind.CASH, ticket.total, actor="101", clerk="101", op="sale",
                                  ticket_id=tid))
    store.transition(entry.id, State.APPROVED, actor="101", approved=ticket.total)
    if close:
        store.close_ticket(tid, close, actor="101")
    return ticket


def test_the_reports_carry_the_tickets_tax_and_say_training(make_desk: Any) -> None:
    desk = make_desk()
    desk.open(clerk="101", float_amount="50.00")
    paid = [_ticket(desk.recorder, "5.00", "8.25"), _ticket(desk.recorder, "12.50", "8.25"),
            _ticket(desk.recorder, "3.00", "0")]
    _ticket(desk.recorder, "7.00", "8.25", close="cancelled")
    _ticket(desk.recorder, "9.00", "8.25", close=None)  # still open: charged nothing yet
    tax = sum((t.tax for t in paid), Decimal(0))
    assert tax == Decimal("2.89")  # 0.83 + 2.06: rounded per ticket, as each ticket shows it
    report = desk.x_report(desk.roster.manager("102", "2222"))  # a manager's report
    assert report["tax"] == "2.89" and report["training"] is True
    text = "\n".join(report_text(report, 42))
    assert "TRAINING" in text.splitlines()[0] and "Tax" in text and "2.89" in text
    csv = report_csv(report).splitlines()
    assert "summary,tax,,2.89" in csv and "report,TRAINING,,no real money moved" in csv
    assert b"*** TRAINING ***" in report_pdf(report)
    closed = desk.close_drawer(desk.drawer.balance(desk.drawer.require_open()).expected, clerk="102")
    assert closed.closed
    z = desk.z_report()
    assert z["tax"] == "2.89" and b"*** TRAINING ***" in report_pdf(z)


def _refund_cash(store: Any, ticket: Ticket, amount: str) -> None:
    """Cash given back on a paid ticket (a refund of it, as ``refund_ticket`` journals cash)."""
    back = store.create(NewEntry(Kind.CASH, Decimal(amount), actor="102", clerk="102", op="refund",
                                 ticket_id=ticket.id))
    store.transition(back.id, State.APPROVED, actor="102", approved=Decimal(amount))


def test_the_reports_tax_is_net_of_what_refunds_gave_back_and_says_so(make_desk: Any) -> None:
    """Issue 39: net sales took a refund off, the tax still counted the refunded ticket's tax
    (58.86 net with 6.59 tax, 2.48 of it refunded). Net tax is net, and the report says so."""
    desk = make_desk()
    desk.open(clerk="101", float_amount="50.00")
    kept = _ticket(desk.recorder, "15.00", "8.25")  # 30.00 + 2.48 tax
    gone = _ticket(desk.recorder, "15.00", "8.25")
    half = _ticket(desk.recorder, "10.00", "10")  # 20.00 + 2.00 tax
    _refund_cash(desk.recorder, gone, str(gone.total))  # all of it back: all of its tax
    _refund_cash(desk.recorder, half, "11.00")  # one of its two lines, with its tax share
    assert (kept.tax, gone.tax, half.tax) == (Decimal("2.48"), Decimal("2.48"), Decimal("2.00"))
    report = desk.x_report(desk.roster.manager("102", "2222"))
    assert report["net"] == str(kept.total + gone.total + half.total - gone.total - Decimal("11.00"))
    assert report["tax"] == "3.48" and report["tax_refunded"] == "3.48"  # 6.96 charged, 3.48 back
    text = "\n".join(report_text(report, 42))
    assert "Tax (net of refunds)" in text and "Tax given back by refunds" in text, text
    assert "summary,tax_refunded,,3.48" in report_csv(report).splitlines()
    spanish = "\n".join(report_text(report, 42, "es"))
    assert "Impuesto (neto de devoluciones)" in spanish and "Ventas netas" in spanish


def test_the_report_reads_times_as_the_till_clock_never_iso(make_desk: Any) -> None:
    desk = make_desk()
    desk.open(clerk="101", float_amount="50.00")
    _ticket(desk.recorder, "5.00", "0")
    report = desk.x_report(desk.roster.manager("102", "2222"))
    assert "T" in report["from"]  # the report keeps the journal's time; its text does not
    text = report_text(report, 42)
    assert not any(re.search(r"\d{4}-\d{2}-\d{2}T\d", line) for line in text), text
    assert re.fullmatch(r"From \d{4}-\d{2}-\d{2} \d{2}:\d{2}", text[1]), text[:3]
    assert not any("charge api" in line for line in text)


def test_tickets_alike_are_taxed_once_and_counted_each(make_desk: Any) -> None:
    """Issue #42's speed-up: tickets alike (one class or several) are worked out once and
    counted as many times as they were sold; the report's tax by class is still the sum of what
    each ticket charged, to the cent."""
    from cashier.journal.model import LineSold

    desk = make_desk()
    desk.open(clerk="101", float_amount="50.00")
    store = desk.recorder
    food = LineSold(sku="BREAD", catalog_version=1, tax_class="reduced", tax_rate=Decimal("4"))
    shapes: list[list[tuple[str, LineSold | None]]] = [
        [("1.05", None)], [("1.05", None)], [("1.05", food)], [("1.05", None), ("2.15", food)],
        [("1.05", None), ("2.15", food)], [("2.15", food), ("1.05", None)], [("0.35", None)],
        [("0.35", food), ("0.35", food)]] * 3
    by_class: dict[str, Decimal] = {}
    for lines in shapes:
        tid = store.create_ticket(actor="101", tax_rate=Decimal("8.25"), tax_included=False,
                                  tip_mode="none")
        for price, sold in lines:
            store.add_ticket_line(tid, name="Goods", quantity=1, unit_price=Decimal(price),
                                  actor="101", sold=sold)
        ticket = Ticket.of(store.ticket(tid))
        for t in ticket.taxes:
            by_class[t.tax_class] = by_class.get(t.tax_class, Decimal(0)) + t.tax
        entry = store.create(NewEntry(Kind.CASH, ticket.total, actor="101", clerk="101", op="sale",
                                      ticket_id=tid))
        store.transition(entry.id, State.APPROVED, actor="101", approved=ticket.total)
        store.close_ticket(tid, "paid", actor="101")
    report = desk.x_report(desk.roster.manager("102", "2222"))
    shown = {c["tax_class"]: Decimal(c["tax"]) for c in report["tax_by_class"]}
    assert shown == by_class and len(shown) == 2
    assert Decimal(report["tax"]) == sum(by_class.values())
