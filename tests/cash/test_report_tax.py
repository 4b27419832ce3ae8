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


def test_each_refund_gives_back_its_own_tax_in_its_own_window(make_desk: Any) -> None:
    """A ticket's refunds in two drawer sessions: a line in the first (its own tax), the other
    line in the second. Each refund carries the tax it gave back (``Ticket.refund_tax``, its
    entry's tax: what the store adds up too), so the Z and the X after it give back the ticket's
    tax once between them (the second counted the first line's tax again, as it read every line
    refunded so far). A refund the host approves for less than asked gives back its share of what
    it gave back."""
    from cashier.journal.model import LineRefund

    desk = make_desk()
    desk.open(clerk="101", float_amount="50.00")
    store = desk.recorder
    tid = store.create_ticket(actor="101", tax_rate=Decimal("10"), tax_included=False,
                              tip_mode="none")
    store.add_ticket_line(tid, name="Goods", quantity=1, unit_price=Decimal("10.00"), actor="101")
    store.add_ticket_line(tid, name="More", quantity=1, unit_price=Decimal("30.00"), actor="101")
    ticket = Ticket.of(store.ticket(tid))
    paid = store.create(NewEntry(Kind.CASH, ticket.total, actor="101", clerk="101", op="sale",
                                 ticket_id=tid))
    store.transition(paid.id, State.APPROVED, actor="101", approved=ticket.total)
    store.close_ticket(tid, "paid", actor="101")
    lines = [line.id for line in ticket.lines]

    def give_back(line: int, amount: str, approved: str | None = None) -> Any:
        back = store.create(NewEntry(Kind.CASH, Decimal(amount), actor="102", clerk="102",
                                     op="refund", ticket_id=tid, line_refund=LineRefund((line,))))
        return store.transition(back.id, State.APPROVED, actor="102",
                                approved=Decimal(approved or amount))

    assert give_back(lines[0], "11.00").tax == Decimal("1.00")  # 10.00 + its 1.00 tax
    closed = desk.close_drawer(desk.drawer.balance(desk.drawer.require_open()).expected, clerk="102")
    assert closed.closed
    first = desk.z_report()
    desk.open(clerk="101", float_amount="50.00")
    assert give_back(lines[1], "33.00").tax == Decimal("3.00")
    second = desk.x_report(desk.roster.manager("102", "2222"))
    assert (first["tax_refunded"], second["tax_refunded"]) == ("1.00", "3.00")
    assert Decimal(first["tax"]) + Decimal(second["tax"]) == 0  # 4.00 charged, 4.00 given back
    # the host gives back 22.00 of the 44.00 asked (the whole ticket, nothing off it so far)
    tid = store.create_ticket(actor="101", tax_rate=Decimal("10"), tax_included=False,
                              tip_mode="none")
    store.add_ticket_line(tid, name="Goods", quantity=4, unit_price=Decimal("10.00"), actor="101")
    paid = store.create(NewEntry(Kind.CASH, Decimal("44.00"), actor="101", clerk="101", op="sale",
                                 ticket_id=tid))
    store.transition(paid.id, State.APPROVED, actor="101", approved=Decimal("44.00"))
    store.close_ticket(tid, "paid", actor="101")
    back = store.create(NewEntry(Kind.CASH, Decimal("44.00"), actor="102", clerk="102",
                                 op="refund", ticket_id=tid))
    assert back.tax == Decimal("4.00")
    assert store.transition(back.id, State.APPROVED, actor="102",
                            approved=Decimal("22.00")).tax == Decimal("2.00")
    assert desk.x_report(desk.roster.manager("102", "2222"))["tax_refunded"] == "5.00"


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


def test_the_reports_tax_is_what_each_paid_ticket_charged_in_one_read(make_desk: Any) -> None:
    """Issue #42's one read of the day's tickets (journal v15): tickets of every shape (one class
    at two rates, two classes at one rate, typed lines at the ticket's rate, lines removed, no line
    left, a discount, a promotion, a price typed over, cancelled or left open) and the report's tax
    by class is still the sum of what each paid ticket charged, to the cent, and its discounts
    what they took off: each shape once, then a seeded mix (the same every run)."""
    import random

    from cashier.discounts import Promotion
    from cashier.journal.model import LineSold
    from cashier.money import percent_text
    from cashier.reports import discount_figures

    desk = make_desk()
    desk.open(clerk="101", float_amount="50.00")
    store = desk.recorder
    promotion = Promotion("Spend 2, save 1", "spend_discount", amount=Decimal("1.00"),
                          threshold=Decimal("2.00"))
    # a typed line (None) is the default class at the ticket's rate: beside WINE in a ticket at
    # 8.25%, one class at two rates; beside JUICE in a ticket at 10%, two classes at one rate
    typed, bread, wine, juice, cake = (
        None, LineSold(sku="BREAD", catalog_version=1, tax_class="reduced", tax_rate=Decimal("4")),
        LineSold(sku="WINE", catalog_version=1, tax_class="standard", tax_rate=Decimal("10")),
        LineSold(sku="JUICE", catalog_version=1, tax_class="reduced", tax_rate=Decimal("10")),
        LineSold(sku="CAKE", catalog_version=1, tax_class="reduced", tax_rate=Decimal("4"),
                 list_price=Decimal("3.00"), override_reason="Old stock", override_by="102"))
    charged: dict[tuple[str, str | None], Decimal] = {}
    paid: list[Any] = []

    def sell(rate: str, lines: list[tuple[str, LineSold | None]], *, included: bool = False,
             promoted: bool = False, discount: bool = False, remove: bool = False,
             state: str | None = "paid") -> None:
        tid = store.create_ticket(actor="101", tax_rate=Decimal(rate), tax_included=included,
                                  tip_mode="none", promotions=(promotion,) if promoted else ())
        ids = [store.add_ticket_line(tid, name="Goods", quantity=1, unit_price=Decimal(price),
                                     actor="101", sold=sold).lines[-1].id for price, sold in lines]
        if remove and ids:
            store.remove_ticket_line(tid, ids[0], actor="101")
        if discount:
            total = Ticket.of(store.ticket(tid)).total
            store.add_ticket_discount(tid, line_id=None, kind="percent", value=Decimal(10),
                                      reason="Staff", actor="101", approved_by=None,
                                      before=total, after=total)
        if state is None:
            return  # left open: charged nothing yet
        record = store.close_ticket(tid, state, actor="101")
        if state == "paid":
            paid.append(record)
            for t in Ticket.of(record).taxes:
                key = (t.tax_class, percent_text(t.rate))
                charged[key] = charged.get(key, Decimal(0)) + t.tax

    sell("8.25", [("2.15", typed), ("1.05", wine)])  # one class, two rates
    sell("10", [("2.15", typed), ("1.05", juice)])  # two classes, one rate
    sell("8.25", [("2.15", bread), ("1.05", typed)], included=True)
    sell("8.25", [("1.05", cake)])  # a price typed over, nothing else
    sell("8.25", [("2.15", typed), ("1.05", typed)], promoted=True)
    sell("8.25", [("2.15", typed)], discount=True)
    sell("8.25", [("2.15", wine)], remove=True)  # no line left
    sell("8.25", [("2.15", wine)], state="cancelled")
    sell("8.25", [("2.15", wine)], state=None)
    rng = random.Random(4242)
    for n in range(50):
        sell(rng.choice(("8.25", "0", "10")),
             [(rng.choice(("1.05", "2.15", "0.35")), rng.choice((typed, bread, wine, juice, cake)))
              for _ in range(rng.choice((0, 1, 1, 2, 3)))],
             included=rng.random() < 0.3, promoted=rng.random() < 0.15,
             discount=rng.random() < 0.1, remove=rng.random() < 0.1,
             state="paid" if n % 9 else rng.choice(("cancelled", None)))
    report = desk.x_report(desk.roster.manager("102", "2222"))
    shown = {(c["tax_class"], c["rate"]): Decimal(c["tax"]) for c in report["tax_by_class"]}
    assert shown == {k: v for k, v in charged.items() if v or k in shown}
    assert Decimal(report["tax"]) == sum(charged.values())
    # what the discounts, promotions and price overrides took off: each paid ticket's own
    assert report["discounts"] == discount_figures(paid, "USD")[0]
    assert report["discounts"]["overrides_by_manager"]["102"]["count"] >= 1
    assert report["discounts"]["promotions"] and report["discounts"]["by_reason"]
