"""A ticket line is taken by the refund that gives it back, in the transaction that journals the
refund's intent (issue #46 item 2): two connections refunding one line, the second is refused
there, whatever its plan read before; a refund that ended not charged frees its lines."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal as D
from pathlib import Path

import pytest

from cashier.journal import JournalRecorder, Kind, State
from cashier.journal.model import NewEntry, Op
from cashier.journal.ticket_model import Ticket
from cashier.journal.tickets import LineRefund, LineRefunded


@pytest.fixture
def paths(tmp_path: Path) -> Iterator[tuple[JournalRecorder, JournalRecorder]]:
    one = JournalRecorder(tmp_path / "j.sqlite", till_id="till-3", till_number=3)
    two = JournalRecorder(tmp_path / "j.sqlite", till_id="till-3", till_number=3)
    yield one, two
    one.close()
    two.close()


def _paid_ticket(store: JournalRecorder) -> tuple[int, list[int], str]:
    ticket = store.create_ticket(actor="7", tax_rate=D(0), tax_included=False, tip_mode="none")
    store.add_ticket_line(ticket, name="Coffee", quantity=2, unit_price=D("3.50"), actor="7")
    store.add_ticket_line(ticket, name="Cake", quantity=1, unit_price=D("4.00"), actor="7")
    sale = store.create(NewEntry(Kind.SALE, D("11.00"), actor="7", sent=True, ticket_id=ticket, op=Op.SALE))
    store.transition(sale.id, State.APPROVED, actor="7", approved=D("11.00"))
    store.close_ticket(ticket, "paid", actor="7")
    lines = [line.id for line in store.ticket(ticket).lines]
    return ticket, lines, str(sale.invoice)


def _refund(store: JournalRecorder, ticket: int, invoice: str, amount: str,
            claim: LineRefund) -> int:
    return store.create(NewEntry(Kind.REFUND, D(amount), actor="7", sent=True, ticket_id=ticket,
                        original_invoice=invoice, op=Op.REFUND, line_refund=claim)).id


def test_one_line_two_connections_the_second_is_refused_in_its_transaction(
        paths: tuple[JournalRecorder, JournalRecorder]) -> None:
    one, two = paths
    ticket, (coffee, cake), invoice = _paid_ticket(one)
    stale = Ticket.of(two.ticket(ticket))  # the second's plan: the line looked free
    assert not stale.line_refunded(0)
    first = _refund(one, ticket, invoice, "7.00", LineRefund((coffee,)))
    with pytest.raises(LineRefunded, match="line 1 of ticket 1 was already refunded"):
        _refund(two, ticket, invoice, "7.00", LineRefund((coffee,)))
    with pytest.raises(LineRefunded):  # one line of two taken: the whole refund is refused
        _refund(two, ticket, invoice, "11.00", LineRefund((cake, coffee)))
    assert len(two.all_rows()) == 2  # the sale and the first refund: nothing else journaled
    # the first command's next tender carries the same lines (its group)
    _refund(one, ticket, invoice, "1.00", LineRefund((coffee,), group=first))
    assert Ticket.of(two.ticket(ticket)).refunded_lines == frozenset({coffee})
    assert Ticket.of(two.ticket(ticket)).line_refunded(0)


@pytest.mark.parametrize("ended", [State.DECLINED, State.ERROR])
def test_a_refund_that_ended_not_charged_frees_its_lines(
        paths: tuple[JournalRecorder, JournalRecorder], ended: State) -> None:
    one, two = paths
    ticket, (coffee, _cake), invoice = _paid_ticket(one)
    first = _refund(one, ticket, invoice, "7.00", LineRefund((coffee,)))
    one.transition(first, State.UNKNOWN, actor="7")  # its answer lost: still taken
    assert Ticket.of(two.ticket(ticket)).line_refunded(0)
    with pytest.raises(LineRefunded):
        _refund(two, ticket, invoice, "7.00", LineRefund((coffee,)))
    one.transition(first, ended, actor="recovery")  # recovery: not charged
    assert not Ticket.of(two.ticket(ticket)).line_refunded(0)
    _refund(two, ticket, invoice, "7.00", LineRefund((coffee,)))
    assert Ticket.of(one.ticket(ticket)).line_refunded(0)
