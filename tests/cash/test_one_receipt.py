"""One receipt layout (``cashier.printing.receipt``): the same tickets and payments rendered
through every path (the receipt printer, the screen, the PIN pad's printer, a reprint, a refund
slip) read the same: the same rows, the same figures, the same words."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from cashier.cashdesk import CashDesk
from cashier.flows.cart import receipt_lines as pad_lines
from cashier.flows.ticket import receipt_lines as flow_ticket_lines
from cashier.journal.model import Entry, Kind, NewEntry, Op, State
from cashier.journal.recorder import JournalRecorder
from cashier.journal.ticket_model import Ticket
from ui.receipt import receipt_lines as screen_lines
from ui.receipt import ticket_receipt_lines as screen_ticket_lines

D = Decimal
FIGURES = ("Subtotal", "Tax", "Tip", "Total", "Subtotal", "Impuesto", "Propina")


def norm(lines: list[str]) -> list[str]:
    """A receipt's lines with the width taken out (spacing and rule lengths)."""
    return ["---" if set(line) == {"-"} else " ".join(line.split()) for line in lines if line.strip()]


def figures(lines: list[str]) -> list[str]:
    return [line for line in norm(lines) if line.split()[0] in FIGURES]


def paid_ticket(store: JournalRecorder) -> Ticket:
    """Two lines, 8.25 % tax added, a keyed tip, one card tender for the total."""
    ticket_id = store.create_ticket(actor="101", tax_rate=D("8.25"), tax_included=False, tip_mode="keyed")
    store.add_ticket_line(ticket_id, name="Coffee", quantity=2, unit_price=D("3.50"), actor="101")
    store.add_ticket_line(ticket_id, name="Cake", quantity=1, unit_price=D("4.00"), actor="101")
    store.set_ticket_tip(ticket_id, D("2.00"), how="keyed", actor="101")
    total = Ticket.of(store.ticket(ticket_id)).total
    entry = store.create(NewEntry(Kind.SALE, total, actor="101", clerk="101", tip=D("2.00"),
                         card="4111111111111111", ticket_id=ticket_id))
    store.transition(entry.id, State.APPROVED, actor="101", approved=total, card_type="VISA",
                     auth_code="OK1234")
    store.close_ticket(ticket_id, "paid", actor="101")
    return Ticket.of(store.ticket(ticket_id))


def loose_sale(store: JournalRecorder, kind: Kind = Kind.SALE) -> Entry:
    """A payment outside a ticket: 10.00, tax 0.83, tip 1.00 (approved 11.83)."""
    entry = store.create(NewEntry(kind, D("11.83"), actor="101", clerk="101", tip=D("1.00"), tax=D("0.83"),
                         card="6006491234567890123" if kind is Kind.GIFTCARD_SALE else "4111111111111111"))
    return store.transition(entry.id, State.APPROVED, actor="101", approved=D("11.83"),
                            card_type="GIFT" if kind is Kind.GIFTCARD_SALE else "VISA", auth_code="OK77")


def test_a_ticket_reads_the_same_on_paper_on_screen_on_the_pad_and_in_a_reprint(
        make_desk: Callable[..., CashDesk]) -> None:
    desk = make_desk()
    ticket = paid_ticket(desk.recorder)
    company, till = desk.profile.company_name, desk.recorder.till_id
    printer = desk.ticket_job(ticket).lines
    screen = screen_ticket_lines(ticket, company, till)
    pad = flow_ticket_lines(ticket, company, till)
    assert norm(screen) == norm(printer) == norm(pad)
    assert figures(printer) == ["Subtotal 11.00", "Tax 0.91", "Tip 2.00", "Total 13.91 USD"]
    assert "**** 1111" in "\n".join(printer) and "4111111111111111" not in "\n".join(printer)
    reprinted = desk.print_receipt(str(ticket.id))[1].lines
    marked = norm(reprinted)
    assert marked.count("*** COPY ***") == 1
    marked.remove("*** COPY ***")
    assert marked == norm(printer)  # a reprint is the same receipt, marked as a copy


def test_a_payment_reads_the_same_on_paper_on_screen_and_on_the_pad(
        make_desk: Callable[..., CashDesk]) -> None:
    desk = make_desk()
    entry = loose_sale(desk.recorder)
    printer = desk.receipt_job(entry).lines
    screen = screen_lines(entry, desk.profile.company_name, desk.recorder.till_id)
    pad = pad_lines(entry)
    assert norm(screen) == norm(printer)
    # the pad prints the same rows from the title on, one label and value a line
    assert pad == [line for line in norm(printer)[norm(printer).index("SALE"):]
                   if line not in ("---", "Thank you")]
    # approved minus tip minus tax, the tax, the tip and the approved total: everywhere the same
    assert figures(pad) == figures(printer) == figures(screen) == [
        "Subtotal 10.00", "Tax 0.83", "Tip 1.00", "Total 11.83 USD"]
    reprinted = norm(desk.reprint_entry(entry.id)[1].lines)
    assert reprinted.count("*** COPY ***") == 1 and figures(reprinted) == figures(printer)


def test_a_gift_card_is_masked_one_way_everywhere(make_desk: Callable[..., CashDesk]) -> None:
    desk = make_desk()
    entry = loose_sale(desk.recorder, Kind.GIFTCARD_SALE)
    texts = ["\n".join(desk.receipt_job(entry).lines),
             "\n".join(screen_lines(entry, "", desk.recorder.till_id)), "\n".join(pad_lines(entry))]
    for text in texts:
        assert "**** 0123" in text and "6006491234567890123" not in text and "649123" not in text


def test_a_refund_slip_names_its_ticket_and_its_lines(make_desk: Callable[..., CashDesk]) -> None:
    desk = make_desk()
    ticket = paid_ticket(desk.recorder)
    card = ticket.tenders[0]
    refund = desk.recorder.create(NewEntry(Kind.REFUND, D("7.00"), actor="101", clerk="101", op=Op.REFUND,
                               original_invoice=card.invoice, ticket_id=ticket.id))
    refund = desk.recorder.transition(refund.id, State.APPROVED, actor="101", approved=D("7.00"))
    slip = norm(desk.receipt_job(refund).lines)
    assert f"Ticket {ticket.id} Clerk 101" in slip and "2x Coffee 7.00" in slip and "Cake 4.00" in slip
    assert "REFUND" in slip and "Total 7.00 USD" in slip


def test_receipts_speak_the_tills_language(make_desk: Callable[..., CashDesk]) -> None:
    desk = make_desk()
    entry = loose_sale(desk.recorder)
    english = norm(desk.receipt_job(entry).lines)
    desk.language = "es"
    spanish = norm(desk.receipt_job(entry).lines)
    assert "VENTA" in spanish and "Propina 1.00" in spanish and "Impuesto 0.83" in spanish
    assert "Gracias" in spanish and "SALE" not in spanish
    assert [line.split()[-1] for line in figures(spanish)] == [line.split()[-1] for line in figures(english)]
    assert pad_lines(entry, "es")[0] == "VENTA"
