"""Issue 22: the X and Z reports show the tax the day's tickets charged (screen text, CSV, PDF),
the same figure the tickets show, and a training till's reports say TRAINING."""

from __future__ import annotations

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
