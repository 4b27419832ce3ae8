"""Ticket rows: the ticket, its lines, and the payment entries that carry its id.

A ticket is not money: its changes are events of their own (``ticket_*``, entry id NULL, the
ticket's id in the data), written in the same transaction as the ticket's row, so an export or
a replay shows who added what. The money is in the entries (``entries.ticket_id``).
"""

from __future__ import annotations

import json
import operator
import sqlite3
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from cashier.discounts import (
    Discount,
    PricedTicket,
    PriceLine,
    Promotion,
    price_added,
    price_ticket,
    promotion_data,
    promotion_of,
)
from cashier.errors import ValidationError
from cashier.journal.datastore import Datastore, business_day, check_actor, minor_units
from cashier.journal.model import (
    UNRESOLVED_SQL,
    Entry,
    JournalError,
    Kind,
    LineRefund,
    LineSold,
    Op,
    State,
    TicketDiscount,
    TicketLine,
    TicketRecord,
    TicketWritten,
    money,
)
from cashier.journal.rows import entry_of_row
from cashier.money import DEFAULT_TAX_CLASS, ClassTax, from_minor, percent_text, tax_by_class, to_minor
from cashier.text import free_text

#: The ticket's values live in ``model`` (the datastore holds tickets too); named here as well.
__all__ = [
    "CASH_NOTE",
    "DISCOUNT_SUMS",
    "LINES_NOTE",
    "PARKED",
    "RECALLED",
    "REMAINING",
    "TICKET_STATES",
    "TIP_MODES",
    "DiscountFigures",
    "LineRefund",
    "LineRefunded",
    "LineSold",
    "TenderInFlight",
    "TicketLine",
    "TicketRecord",
    "TicketRecorder",
    "TicketWritten",
    "discounts_data",
    "holds_lines",
    "lines_grown",
    "priced",
    "tax_class_of",
    "tax_rate_of",
    "taxes_data",
    "ticket_taxes",
]

TICKET_STATES = ("open", "paid", "cancelled")
TIP_MODES = ("none", "pad", "keyed")
#: The journal note a cash tender carries: what the customer handed over and the change given.
CASH_NOTE = "cash_tendered"
#: The events that set an open ticket aside and take it back (the last one says which).
PARKED, RECALLED = "ticket_parked", "ticket_recalled"
#: The journal note a refund of ticket lines carries: the lines it gives back (each at most once).
LINES_NOTE = "ticket_lines_refunded"
#: What remains to pay on a ticket: the ticket's own rule (``cashier.flows.ticket.Ticket``),
#: registered there on import and run here inside the transaction that records a new tender.
REMAINING: list[Callable[[TicketRecord], Decimal]] = []


class TenderInFlight(ValidationError):
    """A ticket's tender is still waiting for its outcome: a second one is refused, never sent."""

    def __init__(self, ticket_id: int, invoice: str | None, state: str) -> None:
        self.ticket_id = ticket_id
        what = f"invoice {invoice}" if invoice else "a cash tender"
        super().__init__("ticket", f"ticket {ticket_id} has a payment in flight ({what}, {state}): "
                                   "wait for its outcome; a second payment is not sent")


def holds_lines(refund: Entry) -> bool:
    """A refund holds the lines it gives back unless it ended not charged (declined, in error,
    voided): approved, or its answer not known yet (it may have given the money back)."""
    return refund.state not in (State.DECLINED, State.ERROR, State.VOIDED)


class LineRefunded(ValidationError):
    """A ticket line already given back (or being given back) by a refund: refused, never sent."""

    def __init__(self, ticket_id: int, number: int) -> None:
        self.ticket_id = ticket_id
        super().__init__("line", "line {number} of ticket {ticket} was already refunded: each line "
                                 "at most once", number=number, ticket=ticket_id)


def tax_class_of(line: TicketLine) -> str:
    """A line's tax class (a line journaled before issue #37: the default class)."""
    return line.tax_class or DEFAULT_TAX_CLASS


def tax_rate_of(line: TicketLine, record: TicketRecord) -> Decimal:
    """A line's tax rate in percent (a line journaled before issue #37: the ticket's one rate)."""
    return record.tax_rate if line.tax_rate is None else line.tax_rate


def ticket_taxes(record: TicketRecord, pricing: PricedTicket | None = None) -> tuple[ClassTax, ...]:
    """The ticket's tax by class (``money.tax_by_class``, the one rule, on the lines' amounts
    after discounts): the read model's, and what its ``ticket_paid`` event carries for the
    store's totals. ``pricing``: the record's, when already worked out."""
    if not record.discounts and not record.promotions:
        return tax_by_class(((tax_class_of(line), tax_rate_of(line, record), line.amount)
                             for line in record.lines), record.tax_included, record.currency)
    return (pricing or priced(record)).taxes


def priced(record: TicketRecord,
           before: tuple[TicketRecord, PricedTicket] | None = None) -> PricedTicket:
    """The ticket priced by THE discounts rule (``discounts.price_ticket``): its lines as sold,
    its promotions and the cashier's discounts (a discount of a line no longer on the ticket
    went with it). ``before``: a record this one was changed from and its pricing; the same
    lines are not priced again, and one line added after them is priced alone when it can change
    nothing taken off (``discounts.price_added``): a line added to a long ticket costs a line."""
    discounts = _discounts(record)
    if before is not None:
        was, pricing = before
        grown = lines_grown(was, record)
        if grown == 0 and tuple(discounts) == pricing.asked \
                and record.promotions == pricing.in_force and pricing.at is None \
                and pricing.included == record.tax_included and pricing.currency == record.currency:
            return pricing
        if grown == 1:
            added = price_added(pricing, _price_line(record.lines[-1], record), discounts,
                                record.promotions, included=record.tax_included,
                                currency=record.currency)
            if added is not None:
                return added
    return price_ticket([_price_line(line, record) for line in record.lines], discounts,
                        record.promotions, included=record.tax_included, currency=record.currency)


def _price_line(line: TicketLine, record: TicketRecord) -> PriceLine:
    return PriceLine(line.unit_price, line.quantity, tax_class_of(line), tax_rate_of(line, record),
                     line.sku, line.category)


def _discounts(record: TicketRecord) -> list[Discount]:
    """The cashier's discounts as the pricing takes them: by line index (0-based), those of a
    line no longer on the ticket left out."""
    if not record.discounts:
        return []
    index = {line.id: i for i, line in enumerate(record.lines)}
    return [Discount(d.kind, d.value, None if d.line_id is None else index[d.line_id], d.reason)  # type: ignore[arg-type]
            for d in record.discounts if d.line_id is None or d.line_id in index]


def lines_grown(was: TicketRecord, record: TicketRecord) -> int | None:
    """How ``record``'s lines grew from ``was``'s when it holds ``was``'s lines themselves (the
    same objects, as ``TicketRecord.changed`` keeps them) and prices them alike (tax rule, rate,
    currency): 0 the same lines, 1 one line added after them; None otherwise (priced anew)."""
    if (was.tax_included != record.tax_included or was.tax_rate != record.tax_rate
            or was.currency != record.currency):
        return None
    if record.lines is was.lines:
        return 0
    if len(record.lines) == len(was.lines) + 1 and all(map(operator.is_, record.lines, was.lines)):
        return 1
    return None


def discounts_data(record: TicketRecord,
                   pricing: PricedTicket | None = None) -> dict[str, Any] | None:
    """What discounts, promotions, price overrides and cash rounding did on a ticket (issue
    #38), as its ``ticket_paid`` event carries it to the store and the X/Z report adds it up:
    ``by_reason``, ``by_clerk``, ``promotions``, ``overrides_by_manager`` (name -> amount taken
    off, as text) and ``rounding``. None when none of them touched it. ``pricing``: the
    record's, when already worked out."""
    pricing = pricing or priced(record)
    index = {line.id for line in record.lines}
    live = [d for d in record.discounts if d.line_id is None or d.line_id in index]
    parts: dict[str, dict[str, Decimal]] = {"by_reason": {}, "by_clerk": {}, "promotions": {},
                                            "overrides_by_manager": {}}

    def add(part: str, name: str, amount: Decimal) -> None:
        parts[part][name] = parts[part].get(name, Decimal(0)) + amount

    for d, amount in zip(live, pricing.discount_amounts, strict=False):
        add("by_reason", d.reason, amount)
        add("by_clerk", d.clerk or "(none)", amount)
    for name, amount in pricing.promotions.items():
        add("promotions", name, amount)
    for line in record.lines:
        if line.list_price is not None:
            add("overrides_by_manager", line.override_by or "(none)",
                (line.list_price - line.unit_price) * line.quantity)
    if not any(parts.values()) and not record.rounding:
        return None
    return {**{part: {name: str(amount) for name, amount in sorted(sums.items())}
               for part, sums in parts.items()},
            "total": str(pricing.discounts), "rounding": str(record.rounding)}


#: The discounts' parts (issue #38), as ``discounts_data`` names them.
DISCOUNT_SUMS = ("by_reason", "by_clerk", "promotions", "overrides_by_manager")


class DiscountFigures:
    """Paid tickets' ``discounts_data`` added up (issue #38): each part's names with a count and
    an amount, the total the discounts took off and the cash rounding. The X/Z report's and the
    store's totals' one adding-up."""

    def __init__(self) -> None:
        self.parts: dict[str, dict[str, list[int]]] = {p: {} for p in DISCOUNT_SUMS}
        self.total = 0
        self.rounding = [0, 0]

    def add(self, data: Mapping[str, Any] | None, currency: str) -> None:
        if not data:
            return
        for part in DISCOUNT_SUMS:
            for name, amount in (data.get(part) or {}).items():
                pair = self.parts[part].setdefault(str(name), [0, 0])
                pair[0] += 1
                pair[1] += to_minor(Decimal(amount), currency)
        self.total += to_minor(Decimal(data.get("total") or 0), currency)
        rounding = to_minor(Decimal(data.get("rounding") or 0), currency)
        self.rounding[0] += 1 if rounding else 0
        self.rounding[1] += rounding

    def out(self, currency: str) -> dict[str, Any]:
        def pair(p: list[int]) -> dict[str, Any]:
            return {"count": p[0], "amount": str(from_minor(p[1], currency))}
        return {"total": str(from_minor(self.total, currency)),
                **{part: {name: pair(p) for name, p in sorted(sums.items())}
                   for part, sums in self.parts.items()},
                "cash_rounding": pair(self.rounding)}


def taxes_data(taxes: tuple[ClassTax, ...], currency: str) -> list[dict[str, str]]:
    """The tax by class as the journal's events and the store keep it (text, as every amount)."""
    return [{"tax_class": t.tax_class, "rate": percent_text(t.rate), "tax": str(t.tax)}
            for t in taxes if t.tax]


def _line_of_row(r: Any, currency: str) -> TicketLine:
    """A line as stored; a line from before issue #37 has no sku, class or rate (NULL), one from
    before issue #38 no category or override."""
    return TicketLine(int(r["id"]), r["name"], int(r["quantity"]), money(r["unit_price_minor"], currency),
                      r["sku"], None if r["catalog_version"] is None else int(r["catalog_version"]),
                      r["tax_class"], None if r["tax_rate"] is None else Decimal(r["tax_rate"]),
                      tuple(json.loads(r["modifiers"])) if r["modifiers"] else (), r["category"],
                      None if r["list_price_minor"] is None else money(r["list_price_minor"], currency),
                      r["override_reason"], r["override_by"])


def _discount_of_row(r: Any) -> TicketDiscount:
    return TicketDiscount(int(r["id"]), None if r["line_id"] is None else int(r["line_id"]),
                          r["kind"], Decimal(r["value"]), r["reason"], r["clerk"], r["approved_by"])


def line_notes(conn: sqlite3.Connection, ticket_id: int) -> dict[int, tuple[tuple[int, ...], int | None]]:
    """Refund entry id -> (the lines it gives back, its command's group) for a ticket."""
    notes: dict[int, tuple[tuple[int, ...], int | None]] = {}
    for ev in conn.execute(
            "SELECT v.entry_id, v.data FROM entries e INDEXED BY entries_ticket "
            "JOIN events v ON v.entry_id = e.id AND v.type = ? WHERE e.ticket_id = ?",
            (LINES_NOTE, ticket_id)):
        note = json.loads(ev["data"]).get("_note", {})
        group = note.get("group")
        notes[int(ev["entry_id"])] = (tuple(int(x) for x in note.get("lines", ())),
                                      None if group is None else int(group))
    return notes


def read_ticket(conn: sqlite3.Connection, ticket_id: int) -> TicketRecord:
    """Ticket ``ticket_id`` as the journal on ``conn`` holds it (its lines, entries, cash notes,
    line refunds, discounts and promotions): THE reader, for the recorder and the migrations."""
    row = conn.execute("SELECT * FROM tickets WHERE id = ?", (ticket_id,)).fetchone()
    if row is None:
        raise ValidationError("ticket", f"there is no ticket {ticket_id} in this journal")
    cur = row["currency"]
    lines = tuple(_line_of_row(r, cur)
                  for r in conn.execute("SELECT * FROM ticket_lines WHERE ticket_id = ? "
                                        "AND removed = 0 ORDER BY id", (ticket_id,)))
    entries = tuple(entry_of_row(r) for r in conn.execute(
        "SELECT * FROM entries INDEXED BY entries_ticket WHERE ticket_id = ? ORDER BY id",
        (ticket_id,)))
    cash: dict[int, tuple[Decimal, Decimal]] = {}
    cash_ids = [e.id for e in entries if e.kind == "cash"]
    if cash_ids:
        marks = ", ".join("?" * len(cash_ids))
        for ev in conn.execute(f"SELECT entry_id, data FROM events WHERE entry_id IN ({marks}) "
                               "AND type = ?", (*cash_ids, CASH_NOTE)):
            note = json.loads(ev["data"]).get("_note", {})
            cash[int(ev["entry_id"])] = (Decimal(note["tendered"]), Decimal(note["change"]))
    discounts = tuple(_discount_of_row(r) for r in conn.execute(
        "SELECT * FROM ticket_discounts WHERE ticket_id = ? ORDER BY id", (ticket_id,)))
    promotions = tuple(promotion_of(p) for p in json.loads(row["promotions"] or "[]"))
    line_refunds: dict[int, tuple[int, ...]] = {}
    if any(e.kind is Kind.REFUND or e.op is Op.REFUND for e in entries):
        line_refunds = {i: lines for i, (lines, _g) in line_notes(conn, ticket_id).items()}
    return TicketRecord(
        id=int(row["id"]), state=row["state"], currency=cur, tax_rate=Decimal(row["tax_rate"]),
        tax_included=bool(row["tax_included"]), tip_mode=row["tip_mode"],
        tip=money(row["tip_minor"], cur), tip_asked=bool(row["tip_asked"]),
        training=bool(row["training"]), clerk=row["clerk"], created_at=row["created_at"],
        closed_at=row["closed_at"], lines=lines, entries=entries, cash=cash,
        line_refunds=line_refunds, discounts=discounts, promotions=promotions,
        rounding=money(row["rounding_minor"], cur))


class TicketRecorder:
    """The tickets' recorder: their rows, lines and tips, on the journal's datastore (its
    transactions, time, events and held tickets)."""

    def __init__(self, store: Datastore) -> None:
        self.store = store
        self.conn = store.conn
        self.till_id = store.till_id
        self.currency = store.currency
        self.training = store.training

    def create_ticket(self, *, actor: str, tax_rate: Decimal, tax_included: bool,
                      tip_mode: str, promotions: tuple[Promotion, ...] = ()) -> int:
        check_actor(actor)
        if tip_mode not in TIP_MODES:
            raise ValidationError("tip_mode", f"must be one of {', '.join(TIP_MODES)}")
        now = self.store.now()
        with self.store.lines_transaction() as conn:
            cur = conn.execute(
                "INSERT INTO tickets(till_id, state, currency, tax_rate, tax_included, tip_mode, "
                "training, clerk, created_at, updated_at, promotions) "
                "VALUES (?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (self.till_id, self.currency, str(tax_rate), int(tax_included), tip_mode,
                 int(self.training), actor, now, now,
                 json.dumps([promotion_data(p) for p in promotions]) if promotions else None))
            ticket_id = int(cur.lastrowid or 0)
            self.store.event(None, actor, "ticket_created",
                             {"ticket": ticket_id, "tax_rate": str(tax_rate),
                              "tax_included": tax_included, "tip_mode": tip_mode,
                              **({"promotions": [p.name for p in promotions]} if promotions
                                 else {})}, now)
            self.store.ticket_written(ticket_id)
            return ticket_id

    def _open_ticket_row(self, ticket_id: int) -> Any:
        row = self.conn.execute("SELECT * FROM tickets WHERE id = ?", (ticket_id,)).fetchone()
        if row is None:
            raise ValidationError("ticket", f"there is no ticket {ticket_id} in this journal")
        if row["state"] != "open":
            raise ValidationError("ticket", f"ticket {ticket_id} is {row['state']}, not open")
        return row

    def add_ticket_line(self, ticket_id: int, *, name: str, quantity: int,
                        unit_price: Decimal, actor: str, sold: LineSold | None = None) -> TicketRecord:
        """Add a line; returns the ticket as written (read on the same connection: no second hop).
        ``sold``: the catalog's sku, version, tax class and rate it was sold at; without it (a
        typed line) the line takes the till's default tax class at the ticket's rate."""
        check_actor(actor)
        name = free_text("name", name)
        sold = sold or LineSold()
        modifiers = tuple(free_text("modifier", m) for m in sold.modifiers)
        with self.store.lines_transaction() as conn:
            held = self.store.held(ticket_id)  # inside the lines' transaction: current
            if held is None:
                row = self._open_ticket_row(ticket_id)
                currency, ticket_rate = row["currency"], Decimal(row["tax_rate"])
            elif held.state != "open":  # the held ticket is the row as it stands
                raise ValidationError("ticket", f"ticket {ticket_id} is {held.state}, not open")
            else:
                currency, ticket_rate = held.currency, held.tax_rate
            tax_class = free_text("tax_class", sold.tax_class or DEFAULT_TAX_CLASS)
            rate = ticket_rate if sold.tax_rate is None else sold.tax_rate
            minor = minor_units("unit_price", unit_price, currency)
            list_minor = None if sold.list_price is None else minor_units("list_price",
                                                                          sold.list_price, currency)
            cur = conn.execute(
                "INSERT INTO ticket_lines(ticket_id, name, quantity, unit_price_minor, sku, "
                "catalog_version, tax_class, tax_rate, modifiers, category, list_price_minor, "
                "override_reason, override_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (ticket_id, name, quantity, minor, sold.sku, sold.catalog_version, tax_class,
                 str(rate), json.dumps(list(modifiers)) if modifiers else None, sold.category,
                 list_minor, sold.override_reason, sold.override_by))
            line_id = int(cur.lastrowid or 0)
            now = self.store.now()
            conn.execute("UPDATE tickets SET updated_at = ? WHERE id = ?", (now, ticket_id))
            data: dict[str, Any] = {"ticket": ticket_id, "line": line_id, "name": name,
                                    "quantity": quantity, "unit_price": str(unit_price),
                                    "sku": sold.sku, "catalog_version": sold.catalog_version,
                                    "tax_class": tax_class, "tax_rate": str(rate)}
            if modifiers:
                data["modifiers"] = list(modifiers)
            self.store.event(None, actor, "ticket_line_added", data, now)
            if sold.list_price is not None:  # who typed which price over the catalog's, and why
                self.store.event(None, actor, "ticket_price_override", {
                    "ticket": ticket_id, "line": line_id, "sku": sold.sku, "clerk": actor,
                    "approved_by": sold.override_by, "reason": sold.override_reason,
                    "before": str(sold.list_price), "after": str(unit_price)}, now)
            self.store.ticket_written(ticket_id)
        if held is None:  # the lines' transaction holds the lock: as read now, it stays so
            return self.store.hold(self.ticket(ticket_id))
        # the line as ``ticket`` reads it back: the text as stored, the price from minor units
        line = TicketLine(line_id, name, quantity, money(minor, currency), sold.sku,
                          sold.catalog_version, tax_class, Decimal(str(rate)), modifiers,
                          sold.category, None if list_minor is None else money(list_minor, currency),
                          sold.override_reason, sold.override_by)
        return self.store.hold(held.changed(lines=(*held.lines, line)))

    def held_ticket(self, ticket_id: int) -> TicketRecord | None:
        """The ticket as this connection last wrote it, or None when it does not hold it (then
        only ``ticket`` reads it): never a read of the ticket's rows."""
        return self.store.held_now(ticket_id)

    def remove_ticket_line(self, ticket_id: int, line_id: int, *, actor: str) -> TicketRecord:
        check_actor(actor)
        with self.store.lines_transaction() as conn:
            self._open_ticket_row(ticket_id)
            cur = conn.execute("UPDATE ticket_lines SET removed = 1 WHERE id = ? AND ticket_id = ? "
                               "AND removed = 0", (line_id, ticket_id))
            if cur.rowcount != 1:
                raise ValidationError("line", f"ticket {ticket_id} has no line {line_id}")
            now = self.store.now()
            conn.execute("UPDATE tickets SET updated_at = ? WHERE id = ?", (now, ticket_id))
            self.store.event(None, actor, "ticket_line_removed", {"ticket": ticket_id, "line": line_id}, now)
            self.store.ticket_written(ticket_id)
        record = self.ticket(ticket_id)
        return self.store.hold(record) if self.store.lines_held else record

    def add_ticket_discount(self, ticket_id: int, *, line_id: int | None, kind: str,
                            value: Decimal, reason: str, actor: str, approved_by: str | None,
                            before: Decimal, after: Decimal) -> TicketRecord:
        """A cashier's discount (issue #38), journaled with who gave it, who approved it, the
        reason and what the line (or the ticket) cost before and after it."""
        check_actor(actor)
        with self.store.transaction() as conn:
            row = self._open_ticket_row(ticket_id)
            if line_id is not None and conn.execute(
                    "SELECT 1 FROM ticket_lines WHERE id = ? AND ticket_id = ? AND removed = 0",
                    (line_id, ticket_id)).fetchone() is None:
                raise ValidationError("line", f"ticket {ticket_id} has no line {line_id}")
            now = self.store.now()
            cur = conn.execute(
                "INSERT INTO ticket_discounts(ticket_id, line_id, kind, value, reason, clerk, "
                "approved_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (ticket_id, line_id, kind, str(value), reason, actor, approved_by, now))
            discount = TicketDiscount(int(cur.lastrowid or 0), line_id, kind, value, reason, actor,
                                      approved_by)
            conn.execute("UPDATE tickets SET updated_at = ? WHERE id = ?", (now, ticket_id))
            self.store.event(None, actor, "ticket_discount", {
                "ticket": ticket_id, "discount": discount.id, "line": line_id, "kind": kind,
                "value": str(value), "reason": reason, "clerk": actor, "approved_by": approved_by,
                "before": str(before), "after": str(after)}, now)
            self.store.ticket_written(ticket_id)
            before_held = self.store.held_before(ticket_id)
            if before_held is not None:
                self.store.hold_changed(ticket_id, discounts=(*before_held.discounts, discount))
            del row
        return self.ticket(ticket_id)

    def set_ticket_tip(self, ticket_id: int, tip: Decimal, *, how: str,
                       actor: str) -> TicketRecord:
        """The tip, once: keyed, or what the customer chose on the pad (``how``)."""
        check_actor(actor)
        with self.store.transaction() as conn:
            row = self._open_ticket_row(ticket_id)
            minor = minor_units("tip", tip, row["currency"])
            now = self.store.now()
            conn.execute("UPDATE tickets SET tip_minor = ?, tip_asked = 1, updated_at = ? WHERE id = ?",
                         (minor, now, ticket_id))
            self.store.event(None, actor, "ticket_tip", {"ticket": ticket_id, "tip": str(tip), "how": how},
                             now)
            self.store.ticket_written(ticket_id)
            self.store.hold_changed(ticket_id, tip=money(minor, row["currency"]), tip_asked=True)
        return self.ticket(ticket_id)

    def close_ticket(self, ticket_id: int, state: str, *, actor: str) -> TicketRecord:
        if state not in ("paid", "cancelled"):
            raise JournalError(f"state: a ticket closes as paid or cancelled, not {state}")
        check_actor(actor)
        with self.store.transaction() as conn:
            self._open_ticket_row(ticket_id)
            now = self.store.now()
            conn.execute("UPDATE tickets SET state = ?, updated_at = ?, closed_at = ? WHERE id = ?",
                         (state, now, now, ticket_id))
            data: dict[str, Any] = {"ticket": ticket_id}
            if state == "paid":  # the tax it charged, by class: the store's totals add these up
                record = self.ticket(ticket_id)
                pricing = priced(record) if record.discounts or record.promotions else None
                data["taxes"] = taxes_data(ticket_taxes(record, pricing), record.currency)
                # the store counts a paid ticket's tax and discounts in the day it closed (a comp
                # has no entry to carry one), as the X/Z report counts it by when it closed
                data["business_date"] = business_day(now)
                discounts = discounts_data(record, pricing)  # priced once for both
                if discounts is not None:  # issue #38: the store's totals add these up
                    data["discounts"] = discounts
            self.store.event(None, actor, f"ticket_{state}", data, now)
            self.store.ticket_written(ticket_id)
            self.store.hold_changed(ticket_id, state=state, closed_at=now)
        return self.ticket(ticket_id)

    def park_ticket(self, ticket_id: int, *, parked: bool, actor: str) -> None:
        """An open ticket set aside (``parked``) or taken back: one event on the ticket
        (``ticket_parked``, ``ticket_recalled``), no column; the last of them says which."""
        check_actor(actor)
        with self.store.transaction():
            self._open_ticket_row(ticket_id)
            if (ticket_id in self.parked_ticket_ids()) == parked:
                raise ValidationError("ticket", "ticket {ticket} is already parked" if parked
                                      else "ticket {ticket} is not parked", ticket=ticket_id)
            now = self.store.now()
            self.store.event(None, actor, PARKED if parked else RECALLED, {"ticket": ticket_id}, now)

    def parked_ticket_ids(self) -> list[int]:
        """The open tickets whose last park or recall event parked them, oldest first."""
        sql = ("SELECT t.id FROM tickets t INDEXED BY tickets_open WHERE t.state = 'open' AND ("
               "SELECT v.type FROM events v INDEXED BY events_entry WHERE v.entry_id IS NULL "
               "AND v.type IN (?, ?) AND json_extract(v.data, '$.ticket') = t.id "
               "ORDER BY v.id DESC LIMIT 1) = ? ORDER BY t.id")
        return [int(r[0]) for r in self.conn.execute(sql, (PARKED, RECALLED, PARKED))]

    def close_ticket_if(self, ticket_id: int, state: str, *, actor: str,
                        when: Callable[[TicketRecord], bool]) -> TicketRecord | None:
        """``close_ticket`` when ``when`` (the ticket's rule) holds for the ticket as it stands in
        this write, else None with nothing written: decided and closed under one lock, so another
        process's tender or cancel never slips between (recovery settling a ticket)."""
        with self.store.transaction():
            if not when(self.ticket(ticket_id)):
                return None
            return self.close_ticket(ticket_id, state, actor=actor)

    def set_cash_rounding(self, ticket_id: int, rounding: Decimal, *, due: Decimal,
                          actor: str) -> None:
        """Inside the write of the cash tender that pays the rest (issue #38): what rounding its
        due to the profile's step added (negative: took off), its own event, the ticket's total
        changed with it before the tender is checked against what remains."""
        row = self._open_ticket_row(ticket_id)
        minor = minor_units("rounding", abs(rounding), row["currency"])
        now = self.store.now()
        self.conn.execute("UPDATE tickets SET rounding_minor = rounding_minor + ?, updated_at = ? "
                          "WHERE id = ?", (minor if rounding >= 0 else -minor, now, ticket_id))
        self.store.event(None, actor, "ticket_cash_rounding", {
            "ticket": ticket_id, "due": str(due), "rounding": str(rounding),
            "asked": str(due + rounding)}, now)
        # no longer held as it was: the tender's own write (a part of this one) reads it anew
        self.store.ticket_written(ticket_id)

    def check_new_tender(self, ticket_id: int, amount: Decimal) -> None:
        """Inside the write that records a ticket's new tender: the ticket is open, none of its
        tenders is in flight, and ``amount`` (with its tip) is at most what remains now."""
        self._open_ticket_row(ticket_id)
        busy = self.conn.execute(
            f"SELECT invoice, state FROM entries WHERE ticket_id = ? AND state IN {UNRESOLVED_SQL} "
            "ORDER BY id LIMIT 1", (ticket_id,)).fetchone()
        if busy is not None:
            raise TenderInFlight(ticket_id, busy["invoice"], busy["state"])
        if REMAINING:  # the ticket as this write found it (held), else read
            remaining = REMAINING[0](self.store.held_before(ticket_id) or self.ticket(ticket_id))
            if amount > remaining:
                raise ValidationError("ticket", f"ticket {ticket_id}: at most the {remaining} that "
                                                "remains (another payment was taken meanwhile)")

    def check_line_refund(self, ticket_id: int, claim: LineRefund) -> None:
        """Inside the write that records a refund of ticket lines: each line is a line of the
        ticket, and none is held by a refund of another command (``holds_lines``). Two processes
        refunding one line: the second sees the first's refund here and is refused."""
        live = {int(r[0]): n for n, r in enumerate(self.conn.execute(
            "SELECT id FROM ticket_lines WHERE ticket_id = ? AND removed = 0 ORDER BY id",
            (ticket_id,)), start=1)}
        if not claim.lines or len(set(claim.lines)) != len(claim.lines) \
                or any(line not in live for line in claim.lines):  # the flow checked them
            raise JournalError(f"line: ticket {ticket_id} has not these lines once each: "
                               f"{list(claim.lines)}")
        for entry_id, (lines, group) in line_notes(self.conn, ticket_id).items():
            if group == claim.group and claim.group is not None:
                continue  # this command's own first refund
            taken = set(lines) & set(claim.lines)
            if taken and holds_lines(entry_of_row(self.conn.execute(
                    "SELECT * FROM entries WHERE id = ?", (entry_id,)).fetchone())):
                raise LineRefunded(ticket_id, min(live[line] for line in taken))

    # ---- reads ---------------------------------------------------------------------------------
    def ticket(self, ticket_id: int) -> TicketRecord:
        held = self.store.held_now(ticket_id)
        if held is not None:
            return held
        record = read_ticket(self.conn, ticket_id)
        # a read inside a write may precede a change of that write: only a read between writes
        # (or between held lines, whose transaction keeps the lock) is held as it is
        return record if self.store.writing else self.store.hold(record)

    def ticket_till(self, ticket_id: int) -> str | None:
        """The till a ticket was started at (None: no such ticket in this journal)."""
        row = self.conn.execute("SELECT till_id FROM tickets WHERE id = ?", (ticket_id,)).fetchone()
        return None if row is None else str(row[0])

    def ticket_ids(self, *, open_only: bool = False, limit: int = 200) -> list[int]:
        sql = ("SELECT id FROM tickets INDEXED BY tickets_open WHERE state = 'open' ORDER BY id DESC "
               "LIMIT ?" if open_only else "SELECT id FROM tickets ORDER BY id DESC LIMIT ?")
        return [int(r[0]) for r in self.conn.execute(sql, (limit,))]

    def all_ticket_rows(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.conn.execute("SELECT * FROM tickets ORDER BY id")]
