"""A day of tickets across hours, tenders, clerks and products, for the day's charts (issue #42):
``write_day`` through the journal's own writes (tests, ``make screens``), ``bulk_day`` straight
into its tables for the bench's 20,000 tickets. Seeded: the same day every time."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from cashier.discounts import Promotion
from cashier.journal.model import Kind, LineSold, NewEntry, State, TicketDiscount
from cashier.journal.recorder import JournalRecorder
from cashier.journal.ticket_model import Ticket

#: (name, unit price): what the training shop sells
PRODUCTS = (("Café americano", "2.50"), ("Latte", "3.80"), ("Croissant", "2.20"),
            ("Sandwich", "6.90"), ("Jugo de naranja", "3.10"), ("Agua", "1.20"),
            ("Pastel", "4.50"), ("Té", "2.00"), ("Galletas", "1.80"), ("Ensalada", "7.50"),
            ("Bagel", "2.90"), ("Chocolate", "3.30"))
#: the training shop's categories (``write_day(catalog=True)``): each product's, by its index
CATEGORIES = ("Bebidas", "Bebidas", "Panadería", "Comidas", "Bebidas", "Bebidas", "Panadería",
              "Bebidas", "Panadería", "Comidas", "Panadería", "Bebidas")
#: the training shop's promotions (issue #38): always on, so the day's reports price them alike
PROMOTIONS = (Promotion("Panadería -20%", "category_percent", category="Panadería",
                        percent=Decimal(20)),
              Promotion("Gasta 15, ahorra 1", "spend_discount", amount=Decimal("1.00"),
                        threshold=Decimal("15.00")))
#: the cashiers' discounts' reasons (percent off the ticket)
REASONS = (("Empleado", Decimal(10)), ("Cliente habitual", Decimal(5)), ("Producto dañado", Decimal(15)))
#: (tender kind as journaled, op, card brand): card twice as likely as the others
TENDERS = ((Kind.SALE, None, "VISA"), (Kind.SALE, None, "MASTERCARD"), (Kind.CASH, "sale", None),
           (Kind.GIFTCARD_SALE, None, None), (Kind.QR, None, None), (Kind.SALE, None, "AMEX"))
#: how busy each local hour is (opening at 7, lunch and the evening rush)
HOURS = {7: 2, 8: 5, 9: 4, 10: 3, 11: 4, 12: 7, 13: 6, 14: 3, 15: 2, 16: 3, 17: 5, 18: 6, 19: 3, 20: 1}


def _moments(day: date, tickets: int, rng: random.Random) -> list[datetime]:
    hours = [h for h, weight in HOURS.items() for _ in range(weight)]
    local = [datetime.combine(day, time(rng.choice(hours), rng.randrange(60), rng.randrange(60)))
             for _ in range(tickets)]
    return sorted(m.astimezone() for m in local)


def _at(moment: datetime) -> Callable[[], datetime]:
    """A clock stopped at ``moment``."""
    return lambda: moment


def write_day(recorder: JournalRecorder, day: date, *, tickets: int = 48, seed: int = 42,
              clerks: tuple[str, ...] = ("101", "102", "103"), catalog: bool = False) -> None:
    """Tickets of ``day`` written as the ticket writes them, the journal's clock at each one's
    time (write earlier days first: the journal's time never goes back); a few refunds and a
    void among them. ``catalog``: lines sold from the catalog (sku, category; one in seven typed),
    every third ticket under the shop's promotions and every fifth with a cashier's discount."""
    rng = random.Random(seed)
    saved = recorder.clock
    try:
        for i, moment in enumerate(_moments(day, tickets, rng)):
            recorder.clock = _at(moment.astimezone(UTC))
            clerk = clerks[rng.randrange(len(clerks))]
            promotions = PROMOTIONS if catalog and i % 3 == 0 else ()
            tid = recorder.create_ticket(actor=clerk, tax_rate=Decimal("8.25"), tax_included=False,
                                         tip_mode="none", promotions=promotions)
            for n in range(rng.choice((1, 1, 2, 3))):
                p = min(int(rng.expovariate(0.35)), len(PRODUCTS) - 1)
                name, price = PRODUCTS[p]
                sold = (LineSold(sku=f"SKU-{p + 1:02d}", catalog_version=1, category=CATEGORIES[p])
                        if catalog and (i + n) % 7 else None)
                recorder.add_ticket_line(tid, name=name, quantity=rng.choice((1, 1, 2)),
                                         unit_price=Decimal(price), actor=clerk, sold=sold)
            if catalog and i % 5 == 2:
                reason, percent = REASONS[i % len(REASONS)]
                record = recorder.ticket(tid)
                after = Ticket.of(dataclasses.replace(record, discounts=(
                    TicketDiscount(0, None, "percent", percent, reason),))).total
                recorder.add_ticket_discount(tid, line_id=None, kind="percent", value=percent,
                                             reason=reason, actor=clerk, approved_by=None,
                                             before=Ticket.of(record).total, after=after)
            total = Ticket.of(recorder.ticket(tid)).total
            kind, op, brand = TENDERS[rng.randrange(len(TENDERS))]
            entry = recorder.create(NewEntry(kind, total, actor=clerk, clerk=clerk, op=op,
                                             ticket_id=tid))
            recorder.transition(entry.id, State.APPROVED, actor=clerk, approved=total,
                                card_type=brand)
            recorder.close_ticket(tid, "paid", actor=clerk)
            if i % 17 == 5:  # a card refund now and then
                refund = recorder.create(NewEntry(Kind.REFUND, Decimal("2.50"), actor=clerk,
                                                  clerk=clerk))
                recorder.transition(refund.id, State.APPROVED, actor=clerk,
                                    approved=Decimal("2.50"), card_type="VISA")
            if i % 23 == 11:  # a sale voided
                sale = recorder.create(NewEntry(Kind.SALE, Decimal("9.99"), actor=clerk, clerk=clerk))
                recorder.transition(sale.id, State.APPROVED, actor=clerk, approved=Decimal("9.99"),
                                    card_type="VISA")
                recorder.transition(sale.id, State.VOIDING, actor=clerk)
                recorder.transition(sale.id, State.VOIDED, actor=clerk)
    finally:
        recorder.clock = saved


def bulk_day(recorder: JournalRecorder, day: date, tickets: int, *, seed: int = 7) -> None:
    """``tickets`` paid tickets of ``day`` (one catalog line, in its category, and one tender
    each) written straight into the journal's tables in one transaction: the bench's day, not a
    ticket's own path."""
    rng = random.Random(seed)
    kinds = (("sale", None, "VISA"), ("sale", None, "MASTERCARD"), ("cash", "sale", None),
             ("giftcard_sale", None, None), ("qr", None, None))
    ticket_rows, line_rows, entry_rows = [], [], []
    with recorder.transaction() as conn:
        first = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM tickets").fetchone()[0]) + 1
        for i, moment in enumerate(_moments(day, tickets, rng)):
            at = moment.astimezone(UTC).isoformat(timespec="milliseconds")
            tid = first + i
            name, price = PRODUCTS[i % len(PRODUCTS)]
            minor = int(Decimal(price) * 100)
            clerk = str(101 + i % 4)
            kind, op, brand = kinds[i % len(kinds)]
            ticket_rows.append((tid, recorder.till_id, "paid", "USD", "0", 0, "none", 0, 0, 0,
                                clerk, at, at, at))
            line_rows.append((tid, name, 1, minor, f"SKU-{i % len(PRODUCTS) + 1:02d}",
                              CATEGORIES[i % len(PRODUCTS)]))
            entry_rows.append((recorder.till_id, kind, op, "approved", f"{tid:010d}", "USD",
                               minor, minor, 0, 0, brand, clerk, at, at, day.isoformat(), tid))
        conn.executemany(
            "INSERT INTO tickets(id, till_id, state, currency, tax_rate, tax_included, tip_mode, "
            "tip_minor, tip_asked, training, clerk, created_at, updated_at, closed_at) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", ticket_rows)
        conn.executemany("INSERT INTO ticket_lines(ticket_id, name, quantity, unit_price_minor, "
                         "sku, category) VALUES (?,?,?,?,?,?)", line_rows)
        conn.executemany(
            "INSERT INTO entries(till_id, kind, op, state, invoice, currency, requested_minor, "
            "approved_minor, tip_minor, tax_minor, card_type, clerk, created_at, updated_at, "
            "business_date, ticket_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", entry_rows)


def week_earlier(day: date) -> date:
    return day - timedelta(days=7)
