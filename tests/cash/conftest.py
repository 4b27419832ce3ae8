"""A till profile and journal for the drawer and printer tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cashier.cashdesk import CashDesk, open_recorder
from cashier.config import TillProfile, load_profile
from cashier.journal.model import Entry, Kind, NewEntry, State
from cashier.journal.recorder import JournalRecorder
from cashier.journal.tickets import CASH_NOTE
from cashier.manager_pin import hash_pin
from tests.cash.loopback import LoopbackPrinter

#: Hashing is slow on purpose (scrypt): hash the test PINs once per session.
_HASHES: dict[str, str] = {}


def pin_hash(pin: str) -> str:
    if pin not in _HASHES:
        _HASHES[pin] = hash_pin(pin)
    return _HASHES[pin]


def write_till(tmp_path: Path, *, printer_url: str | None = None, clerks: bool = True,
               extra: str = "") -> Path:
    lines = ['till_id = "till-7"', "training = true", f'journal_path = "{tmp_path / "journal.sqlite"}"',
             f'log_dir = "{tmp_path / "logs"}"', 'company_name = "Corner Shop"']
    if clerks:
        lines += ["", "[[clerks]]", 'id = 101', 'name = "Alice"', f'pin_hash = "{pin_hash("1111")}"',
                  "", "[[clerks]]", 'id = 102', 'name = "Bob"', f'pin_hash = "{pin_hash("2222")}"',
                  'role = "manager"']
    lines += ["", "[manager_rules]", 'over_short_tolerance = "5.00"', "pay_outs = true",
              "close_drawer = false"]
    if printer_url:
        lines += ["", "[printer]", f'url = "{printer_url}"', "width = 42", "timeout_s = 1.0"]
    path = tmp_path / "till.toml"
    path.write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")
    return path


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
                                  op="refund" if refund else "sale",
                         ticket_id=ticket_id))
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


@pytest.fixture
def loopback() -> Iterator[LoopbackPrinter]:
    printer = LoopbackPrinter()
    yield printer
    printer.close()


@pytest.fixture
def make_desk(tmp_path: Path) -> Iterator[Callable[..., CashDesk]]:
    made: list[CashDesk] = []

    def make(**kw: Any) -> CashDesk:
        profile: TillProfile = load_profile(write_till(tmp_path, **kw))
        desk = CashDesk(profile, open_recorder(profile))
        made.append(desk)
        return desk

    yield make
    for desk in made:
        desk.close()
        desk.recorder.close()
