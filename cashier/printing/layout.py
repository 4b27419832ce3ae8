"""What goes on the paper: report text that fits the printer's width (receipts come from the one
layout, ``cashier.printing.receipt``), and the ESC/POS bytes of a job (built with python-escpos's
``Dummy`` printer, which records bytes).

No full card number ever reaches a job: the receipt uses the journal's masked card only, and
``PrintJob`` refuses any text with a Luhn-valid 13 to 19 digit run as a last guard.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from cashier.journal.card_guard import contains_pan
from cashier.journal.model import Entry
from cashier.journal.ticket_model import Ticket
from cashier.printing.receipt import ReceiptStyle, entry_receipt, ticket_receipt
from cashier.printing.receipt import fit as fit
from cashier.text import clean_text


class UnsafeReceipt(ValueError):
    """A job's text carried something that looks like a full card number."""


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


def receipt_lines(entry: Entry, *, company: str, width: int, copy: str = "customer",
                  signature: bool = False, tendered: Decimal | None = None,
                  change: Decimal | None = None, language: str = "en", reprint: bool = False,
                  tax_included: bool = False, ticket: Ticket | None = None) -> list[str]:
    """A payment's receipt, in the one layout (``cashier.printing.receipt``)."""
    style = ReceiptStyle(company=company, width=width, language=language, copy=copy,
                         signature=signature, reprint=reprint, tax_included=tax_included)
    return entry_receipt(entry, style, tendered=tendered, change=change, ticket=ticket)


def ticket_receipt_lines(ticket: Ticket, *, company: str, till_id: str, width: int,
                         copy: str = "customer", signature: bool = False, language: str = "en",
                         reprint: bool = False) -> list[str]:
    """A ticket's receipt, in the one layout (``cashier.printing.receipt``)."""
    style = ReceiptStyle(company=company, till_id=till_id, width=width, language=language, copy=copy,
                         signature=signature, reprint=reprint)
    return ticket_receipt(ticket, style)


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
