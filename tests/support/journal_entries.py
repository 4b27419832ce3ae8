"""Tenders written straight into a journal, as the ticket writes them: the drawer's, the reports'
and the printer's tests start from them."""

from __future__ import annotations

from decimal import Decimal

from cashier.journal.model import Entry, Kind, NewEntry, State
from cashier.journal.recorder import JournalRecorder
from cashier.journal.tickets import CASH_NOTE


def _ticket(store: JournalRecorder, name: str, price: Decimal, clerk: str) -> int:
    ticket_id = store.create_ticket(actor=clerk, tax_rate=Decimal(0), tax_included=False, tip_mode="none")
    store.add_ticket_line(ticket_id, name=name, quantity=1, unit_price=price, actor=clerk)
    return ticket_id


def cash_entry(store: JournalRecorder, amount: str, *, clerk: str = "101", tendered: str | None = None,
               refund: bool = False, ticket: bool = False) -> Entry:
    """A cash tender as the ticket writes it (the contract between the branches); with
    ``ticket`` it is the one tender of a paid ticket (``entry.ticket_id``)."""
    value = Decimal(amount)
    ticket_id = _ticket(store, "Goods", value, clerk) if ticket else None
    entry = store.create(NewEntry(Kind.CASH, value, actor=clerk, clerk=clerk,
                                  op="refund" if refund else "sale", ticket_id=ticket_id))
    entry = store.transition(entry.id, State.APPROVED, actor=clerk, approved=value)
    if tendered is not None:
        store.note(entry.id, CASH_NOTE, actor=clerk, tendered=tendered,
                   change=str(Decimal(tendered) - value))
    if ticket_id is not None:
        store.close_ticket(ticket_id, "paid", actor=clerk)
    return entry


def card_entry(store: JournalRecorder, amount: str, *, clerk: str = "101", brand: str = "VISA",
               tip: str = "0.00", kind: Kind = Kind.SALE, ticket: bool = False) -> Entry:
    value = Decimal(amount)
    ticket_id = _ticket(store, "Goods", value - Decimal(tip), clerk) if ticket else None
    if ticket_id is not None and Decimal(tip):
        store.set_ticket_tip(ticket_id, Decimal(tip), how="keyed", actor=clerk)
    entry = store.create(NewEntry(kind, value, actor=clerk, clerk=clerk, tip=Decimal(tip),
                         card="4111111111111111", ticket_id=ticket_id))
    entry = store.transition(entry.id, State.APPROVED, actor=clerk, approved=value, card_type=brand,
                             auth_code="OK1234")
    if ticket_id is not None:
        store.close_ticket(ticket_id, "paid", actor=clerk)
    return entry
