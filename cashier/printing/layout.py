"""What goes on the paper: receipt and report text that fits the printer's width, and the
ESC/POS bytes of a job (built with python-escpos's ``Dummy`` printer, which records bytes).

No full card number ever reaches a job: the receipt uses the journal's masked card only, and
``PrintJob`` refuses any text with a Luhn-valid 13 to 19 digit run as a last guard.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from cashier.journal.card_guard import contains_pan
from cashier.journal.model import Entry, Kind, Op
from cashier.text import clean_text

if TYPE_CHECKING:
    from cashier.flows.ticket import Ticket


class UnsafeReceipt(ValueError):
    """A job's text carried something that looks like a full card number."""


def fit(left: str, right: str, width: int) -> str:
    """``left`` and ``right`` on one line of ``width``; ``left`` is cut short, never ``right``."""
    room = width - len(right) - 1
    if room < 1:
        return right[-width:]
    return f"{left[:room]:<{room}} {right}"


def wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width) or [""]


def rule(width: int, char: str = "-") -> str:
    return char * width


@dataclass(frozen=True)
class PrintJob:
    """One thing to print (a receipt, a report, a bare drawer kick), laid out already."""

    title: str
    lines: list[str] = field(default_factory=list)
    kick: bool = False
    cut: bool = True
    qr: str | None = None

    def __post_init__(self) -> None:
        # only the layout speaks ESC/POS: no text brings a control character to the paper
        object.__setattr__(self, "title", clean_text(self.title))
        object.__setattr__(self, "lines", [clean_text(line) for line in self.lines])
        object.__setattr__(self, "qr", None if self.qr is None else clean_text(self.qr))
        for text in (self.title, *self.lines, self.qr or ""):
            if contains_pan(text):
                raise UnsafeReceipt("receipt: refused to print a full card number")

    @property
    def text(self) -> str:
        """The job as the paper would show it (the training virtual printer)."""
        out = list(self.lines)
        if self.qr:
            out.append(f"[QR {self.qr}]")
        if self.cut and self.lines:
            out.append("- - - - - - - - cut - - - - - - - -")
        if self.kick:
            out.append("[drawer opens]")
        return "\n".join(out)

    def to_escpos(self) -> bytes:
        from escpos.printer import Dummy

        printer: Any = Dummy()
        for line in map(clean_text, self.lines):  # the last pass, where text becomes bytes
            if line.isascii():
                # plain ASCII is the same bytes in every code page: skip python-escpos's
                # character-by-character code page search (the print thread holds the GIL less)
                printer._raw(line.encode("ascii") + b"\n")
            else:
                printer.textln(line)
        if self.qr:
            printer.qr(clean_text(self.qr), size=6, native=True)
        if self.cut and self.lines:
            printer.cut()
        return bytes(printer.output) + self.kick_escpos()

    @property
    def needs_paper(self) -> bool:
        return bool(self.lines or self.qr)

    def kick_escpos(self) -> bytes:
        """The drawer pulse alone: what still goes out when the printer has no paper (the
        cashier must be able to give change)."""
        if not self.kick:
            return b""
        from escpos.printer import Dummy

        printer: Any = Dummy()
        # both pins: drawers are wired to pin 2 or pin 5 and the till cannot tell which
        printer.cashdraw(2)
        printer.cashdraw(5)
        return bytes(printer.output)


def _amount(value: Decimal) -> str:
    return f"{value:.2f}"


_TITLES = {Kind.CASH: "CASH", Kind.SALE: "CARD SALE", Kind.REFUND: "CARD REFUND",
           Kind.GIFTCARD_SALE: "GIFT CARD", Kind.QR: "QR PAYMENT", Kind.CHARGE: "CHARGE"}


def receipt_lines(entry: Entry, *, company: str, width: int, copy: str = "customer",
                  signature: bool = False, tendered: Decimal | None = None,
                  change: Decimal | None = None) -> list[str]:
    """A receipt from the journal entry: masked card only, every line at most ``width``."""
    title = _TITLES.get(entry.kind, entry.kind.value.replace("_", " ").upper())
    if entry.op is Op.REFUND and entry.kind is Kind.CASH:
        title = "CASH REFUND"
    when = entry.created_at[:16].replace("T", " ")
    lines = [company.center(width)[:width], fit(f"Till {entry.till_id}", when, width)]
    if entry.training:
        lines.insert(0, "*** TRAINING - NOT A RECEIPT ***".center(width)[:width])
    lines.append(rule(width))
    lines.append(fit(title, _amount(entry.approved - entry.tip - entry.tax), width))
    if entry.tax:
        lines.append(fit("  tax", _amount(entry.tax), width))
    if entry.tip:
        lines.append(fit("  tip", _amount(entry.tip), width))
    lines.append(fit("TOTAL", f"{_amount(entry.approved)} {entry.currency}", width))
    if tendered is not None:
        lines.append(fit("Cash tendered", _amount(tendered), width))
    if change is not None:
        lines.append(fit("Change", _amount(change), width))
    lines.append(rule(width))
    if entry.card_last4 or entry.card:
        brand = entry.card_type or "Card"
        lines.append(fit(brand, f"**** {entry.card_last4 or '????'}", width))
    if entry.invoice:
        lines.append(fit("Invoice", entry.invoice, width))
    if entry.auth_code and entry.kind is not Kind.CHARGE:
        lines.append(fit("Auth code", entry.auth_code, width))
    lines.append(fit("Result", entry.state.value.upper(), width))
    if entry.clerk:
        lines.append(fit("Clerk", entry.clerk, width))
    if copy == "merchant":
        lines.append("MERCHANT COPY".center(width))
        if signature:
            lines += ["", "", "x" + "_" * (width - 1), "Signature".center(width)]
    else:
        lines.append("Thank you".center(width))
    return [line[:width] for line in lines]


_TENDER_TITLES = {"card": "CARD", "gift": "GIFT CARD", "qr": "QR PAYMENT", "cash": "CASH", "tab": "TAB"}


def ticket_receipt_lines(ticket: Ticket, *, company: str, till_id: str, width: int,
                         copy: str = "customer", signature: bool = False) -> list[str]:
    """One receipt per ticket: its lines, tax, tip, each tender (masked card and approval code),
    cash tendered and change; masked card only, every line at most ``width``."""
    record = ticket.record
    cur = ticket.currency
    when = (record.closed_at or record.created_at)[:16].replace("T", " ")
    lines = [company.center(width)[:width]] if company else []
    lines += [fit(f"Till {till_id}" if till_id else "", when, width),
              fit(f"Ticket {ticket.id}", f"Clerk {record.clerk}" if record.clerk else "", width).rstrip()]
    if record.training:
        lines.insert(0, "*** TRAINING - NOT A RECEIPT ***".center(width)[:width])
    lines.append(rule(width))
    for line in ticket.lines:
        name = f"{line.quantity}x {line.name}" if line.quantity > 1 else line.name
        lines.append(fit(name, _amount(line.amount), width))
        if line.quantity > 1:
            lines.append(f"  @ {_amount(line.unit_price)}"[:width])
    lines.append(rule(width))
    lines.append(fit("Subtotal", _amount(ticket.subtotal), width))
    if ticket.tax:
        lines.append(fit("  tax included" if record.tax_included else "Tax", _amount(ticket.tax), width))
    if ticket.tip:
        lines.append(fit("Tip", _amount(ticket.tip), width))
    lines.append(fit("TOTAL", f"{_amount(ticket.total)} {cur}", width))
    lines.append(rule(width))
    entries = {e.id: e for e in record.entries}
    for tender in ticket.tenders:
        if tender.outcome not in ("approved", "partial", "returned"):
            continue
        entry = entries.get(tender.entry_id)
        title = _TENDER_TITLES.get(tender.kind, tender.kind.upper())
        if tender.outcome == "partial":
            title += " (partial)"
        lines.append(fit(title, _amount(tender.amount), width))
        if tender.kind == "cash":
            if tender.tendered is not None:
                lines.append(fit("  Cash tendered", _amount(tender.tendered), width))
                lines.append(fit("  Change", _amount(tender.change or Decimal(0)), width))
            if tender.outcome == "returned":
                lines.append(fit("  Cash given back", _amount(tender.amount), width))
            continue
        if entry is not None and (entry.card_last4 or entry.card):
            lines.append(fit(f"  {entry.card_type or 'Card'}", f"**** {entry.card_last4 or '????'}",
                             width))
        if tender.auth_code:
            lines.append(fit("  Auth code", tender.auth_code, width))
        if tender.invoice:
            lines.append(fit("  Invoice", tender.invoice, width))
    for refund in ticket.refunds:
        if refund.approved > 0:
            what = "CASH REFUND" if refund.kind is Kind.CASH else "REFUND"
            lines.append(fit(what, "-" + _amount(refund.approved), width))
    lines.append(rule(width))
    status = {"paid": "PAID", "cancelled": "CANCELLED"}.get(ticket.state, "OPEN")
    lines.append(fit("Result", status if not ticket.remaining or ticket.state != "open"
                     else f"OPEN, {_amount(ticket.remaining)} remaining", width))
    if copy == "merchant":
        lines.append("MERCHANT COPY".center(width))
        if signature:
            lines += ["", "", "x" + "_" * (width - 1), "Signature".center(width)]
    else:
        lines.append("Thank you".center(width))
    return [line[:width] for line in lines]


def report_lines(title: str, sections: Iterable[tuple[str, list[tuple[str, str]]]], width: int) -> list[str]:
    """A report (X or Z) as label/value rows under section headings."""
    lines = [title.center(width)[:width], rule(width, "=")]
    for heading, rows in sections:
        lines.append(heading.upper()[:width])
        lines += [fit("  " + label, value, width) for label, value in rows]
        lines.append(rule(width))
    return lines


def test_page_lines(*, company: str, till_id: str, printer: str, width: int) -> list[str]:
    """What the IT person prints once per till: the profile's width as a ruler (the last digit
    must be the line's last character, with nothing wrapped), accented letters through the code
    page, and where the till thinks the printer is."""
    ruler = "".join(str(i % 10) for i in range(1, width + 1))
    return [company.center(width)[:width], "PRINTER TEST".center(width), rule(width),
            fit("Till", till_id, width), *wrap(f"Printer {printer}", width),
            fit("Width", f"{width} characters", width), ruler, "Accents: á é í ó ú ñ ü ç",
            rule(width), "If the ruler above fits one line,".center(width)[:width],
            "the width is right.".center(width)[:width]]
