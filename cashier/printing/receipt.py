"""THE receipt layout: every receipt the till shows or prints comes from here.

A receipt is first a list of rows (what is said, in what order, with which figures); each
medium renders the same rows: the receipt printer and the screen to a width (``render``), the
PIN pad's line printer one label and value a line (``render_compact``). So a sale reads the
same on paper, on screen, on the pad, in a reprint and on a refund slip: the approved amount,
the tax as the profile says (added, or included in the prices), the tip.

The words come from ``WORDS`` in the till's language (English or Spanish: the profile's
``language``, or the window's language setting). A card, gift cards included, is shown one way
only: ``masked_card``. No full card number ever reaches a row (the journal holds none, and
``PrintJob`` refuses one as a last guard).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from cashier.journal.model import Entry, Kind, Op
from cashier.journal.ticket_model import Ticket
from cashier.money import percent_text

#: The receipt's words, by language. The keys are the English words.
WORDS: dict[str, dict[str, str]] = {
    "es": {
        "*** TRAINING - NOT A RECEIPT ***": "*** PRÁCTICA - NO ES UN RECIBO ***",
        "*** COPY ***": "*** COPIA ***",
        "Till": "Caja", "Ticket": "Ticket", "Clerk": "Cajero", "Subtotal": "Subtotal",
        "Tax": "Impuesto", "Tax included": "Impuesto incluido", "Tip": "Propina", "Total": "Total",
        "Cash given": "Efectivo entregado", "Change": "Cambio", "Cash given back": "Efectivo devuelto",
        "Card": "Tarjeta", "Invoice": "Factura", "Auth code": "Autorización", "Result": "Resultado",
        "MERCHANT COPY": "COPIA DEL COMERCIO", "Signature": "Firma", "Thank you": "Gracias",
        "remaining": "pendiente", "partial": "parcial", "Refund of ticket": "Devolución del ticket",
        "SALE": "VENTA", "CASH": "EFECTIVO", "REFUND": "DEVOLUCIÓN",
        "CASH REFUND": "DEVOLUCIÓN EN EFECTIVO", "GIFT CARD": "TARJETA DE REGALO",
        "QR PAYMENT": "PAGO QR", "CHARGE": "CARGO", "CARD": "TARJETA", "TAB": "CUENTA",
        "AUTHORIZATION": "AUTORIZACIÓN", "APPROVED": "APROBADO", "CAPTURED": "COBRADO",
        "DECLINED": "RECHAZADO", "VOIDED": "ANULADO", "UNKNOWN": "POR CONFIRMAR",
        "PAID": "PAGADO", "CANCELLED": "CANCELADO", "OPEN": "ABIERTO",
        "Discount": "Descuento", "You saved": "Usted ahorró", "Price changed from":
        "Precio cambiado de", "Rounding": "Redondeo",
    },
}
LANGUAGES = ("en", *WORDS)

_TITLES = {Kind.CASH: "CASH", Kind.SALE: "SALE", Kind.MANUAL_SALE: "SALE", Kind.REFUND: "REFUND",
           Kind.GIFTCARD_SALE: "GIFT CARD", Kind.QR: "QR PAYMENT", Kind.CHARGE: "CHARGE",
           Kind.AUTHORIZATION: "TAB", Kind.MANUAL_AUTHORIZATION: "TAB"}
_TENDER_TITLES = {"card": "CARD", "giftcard": "GIFT CARD", "qr": "QR PAYMENT", "cash": "CASH", "tab": "TAB"}


def word(text: str, language: str) -> str:
    """``text`` in the receipt's language (the English word when the table has none)."""
    return WORDS.get(language, {}).get(text, text)


def masked_card(last4: str | None) -> str:
    """A card on a receipt, gift cards included: its last four digits only."""
    return f"**** {last4 or '????'}"


def _amount(value: Decimal) -> str:
    return f"{value:.2f}"


@dataclass(frozen=True)
class ReceiptStyle:
    """Who prints, to what width, in which language, and which copy."""

    company: str = ""
    till_id: str = ""
    width: int = 32
    language: str = "en"
    copy: str = "customer"  # customer | merchant
    signature: bool = False
    #: a reprint from the journal: marked COPY
    reprint: bool = False
    #: an entry outside a ticket: the profile's prices include tax (the tax is shown as included)
    tax_included: bool = False

    def w(self, text: str) -> str:
        return word(text, self.language)


@dataclass(frozen=True)
class Row:
    """One receipt row. ``kind``: banner (centred, the training and copy marks, the company),
    head (who and when), title, pair (label and value), rule, foot (centred, the copy's end)."""

    kind: str
    left: str = ""
    right: str = ""


def _top(style: ReceiptStyle, training: bool, when: str, till_id: str) -> list[Row]:
    rows: list[Row] = []
    if training:
        rows.append(Row("banner", style.w("*** TRAINING - NOT A RECEIPT ***")))
    if style.reprint:
        rows.append(Row("banner", style.w("*** COPY ***")))
    if style.company:
        rows.append(Row("banner", style.company))
    rows.append(Row("head", f"{style.w('Till')} {till_id}" if till_id else "", when))
    return rows


def _bottom(style: ReceiptStyle) -> list[Row]:
    if style.copy == "merchant":
        rows = [Row("foot", style.w("MERCHANT COPY"))]
        if style.signature:
            rows += [Row("signature"), Row("foot", style.w("Signature"))]
        return rows
    return [Row("foot", style.w("Thank you"))]


def _ticket_lines(ticket: Ticket, style: ReceiptStyle) -> list[Row]:
    rows: list[Row] = []
    pricing = ticket.priced
    for n, line in enumerate(ticket.lines):
        name = f"{line.quantity}x {line.name}" if line.quantity > 1 else line.name
        rows.append(Row("pair", name, _amount(line.amount)))
        rows += [Row("text", f"  + {modifier}") for modifier in line.modifiers]
        if line.quantity > 1:
            rows.append(Row("text", f"  @ {_amount(line.unit_price)}"))
        if line.list_price is not None:
            rows.append(Row("text", f"  {style.w('Price changed from')} {_amount(line.list_price)}"))
        for saving in pricing.savings:  # what came off this line itself, by name
            if saving.line == n:
                label = saving.promotion or _discount_label(ticket, saving.discount, style)
                rows.append(Row("pair", f"  {label}", "-" + _amount(saving.amount)))
    return rows


def _discount_label(ticket: Ticket, index: int | None, style: ReceiptStyle) -> str:
    """A cashier's discount as the receipt names it: ``Discount 10% (staff)``."""
    shown = ticket.discount_dicts()
    if index is None or index >= len(shown):
        return style.w("Discount")
    d = shown[index]
    value = f"{d['value']}%" if d["kind"] == "percent" else d["value"]
    return f"{style.w('Discount')} {value} ({d['reason']})"


def _ticket_savings(ticket: Ticket, style: ReceiptStyle) -> list[Row]:
    """The ticket's own discounts (spread over its lines) by name, and what was saved in all."""
    rows: list[Row] = []
    for saving in ticket.priced.savings:
        if saving.line is None:
            label = saving.promotion or _discount_label(ticket, saving.discount, style)
            rows.append(Row("pair", label, "-" + _amount(saving.amount)))
    listed = sum(((line.list_price - line.unit_price) * line.quantity for line in ticket.lines
                  if line.list_price is not None and line.list_price > line.unit_price), Decimal(0))
    if ticket.discounts or listed:
        rows.append(Row("pair", style.w("You saved"), _amount(ticket.discounts + listed)))
    return rows


def entry_rows(entry: Entry, style: ReceiptStyle, *, tendered: Decimal | None = None,
               change: Decimal | None = None, ticket: Ticket | None = None) -> list[Row]:
    """A payment's own receipt: a payment outside a ticket, or a refund slip (``ticket``: the
    ticket it refunds, whose number and lines it carries)."""
    title = _TITLES.get(entry.kind, entry.kind.value.replace("_", " ").upper())
    if entry.op is Op.REFUND and entry.kind is Kind.CASH:
        title = "CASH REFUND"
    when = entry.created_at[:16].replace("T", " ")
    rows = _top(style, entry.training, when, style.till_id or entry.till_id)
    if ticket is not None:
        rows.append(Row("head", f"{style.w('Ticket')} {ticket.id}",
                        f"{style.w('Clerk')} {entry.clerk}" if entry.clerk else ""))
    rows.append(Row("rule"))
    if ticket is not None:
        rows += _ticket_lines(ticket, style)
        rows.append(Row("rule"))
    rows.append(Row("title", style.w(title)))
    tax_included = style.tax_included
    if entry.tax or entry.tip:
        base = entry.approved - entry.tip - (Decimal(0) if tax_included else entry.tax)
        rows.append(Row("pair", style.w("Subtotal"), _amount(base)))
    if entry.tax:
        rows.append(Row("pair", style.w("Tax included" if tax_included else "Tax"), _amount(entry.tax)))
    if entry.tip:
        rows.append(Row("pair", style.w("Tip"), _amount(entry.tip)))
    rows.append(Row("pair", style.w("Total"), f"{_amount(entry.approved)} {entry.currency}"))
    if tendered is not None:
        rows.append(Row("pair", style.w("Cash given"), _amount(tendered)))
    if change is not None:
        rows.append(Row("pair", style.w("Change"), _amount(change)))
    rows.append(Row("rule"))
    if entry.card_last4 or entry.card:
        rows.append(Row("pair", entry.card_type or style.w("Card"), masked_card(entry.card_last4)))
    if entry.invoice:
        rows.append(Row("pair", style.w("Invoice"), entry.invoice))
    if entry.auth_code and entry.kind is not Kind.CHARGE:
        rows.append(Row("pair", style.w("Auth code"), entry.auth_code))
    rows.append(Row("pair", style.w("Result"), style.w(entry.state.value.upper())))
    if entry.clerk and ticket is None:
        rows.append(Row("pair", style.w("Clerk"), entry.clerk))
    return rows + _bottom(style)


def _tax_rows(ticket: Ticket, style: ReceiptStyle) -> list[Row]:
    """The ticket's tax: one row per tax class with its rate (issue #37), e.g. ``Tax 8.25%``; a
    ticket of typed lines only (one class, the till's one rate) keeps its one ``Tax`` row."""
    label = style.w("Tax included" if ticket.record.tax_included else "Tax")
    rated = len(ticket.taxes) > 1 or any(line.sku for line in ticket.lines)
    if not rated:
        return [Row("pair", label, _amount(ticket.tax))] if ticket.tax else []
    return [Row("pair", f"{label} {percent_text(t.rate)}%", _amount(t.tax))
            for t in ticket.taxes if t.tax or t.rate]


def ticket_rows(ticket: Ticket, style: ReceiptStyle) -> list[Row]:
    """One receipt per ticket: its lines, tax, tip, each tender (masked card and approval code),
    the cash given and the change, refunds."""
    record = ticket.record
    when = (record.closed_at or record.created_at)[:16].replace("T", " ")
    rows = _top(style, record.training, when, style.till_id)
    rows.append(Row("head", f"{style.w('Ticket')} {ticket.id}",
                    f"{style.w('Clerk')} {record.clerk}" if record.clerk else ""))
    rows.append(Row("rule"))
    rows += _ticket_lines(ticket, style)
    rows.append(Row("rule"))
    rows.append(Row("pair", style.w("Subtotal"), _amount(ticket.subtotal)))
    rows += _ticket_savings(ticket, style)
    rows += _tax_rows(ticket, style)
    if ticket.tip:
        rows.append(Row("pair", style.w("Tip"), _amount(ticket.tip)))
    rows.append(Row("pair", style.w("Total"), f"{_amount(ticket.total)} {ticket.currency}"))
    rows.append(Row("rule"))
    entries = {e.id: e for e in record.entries}
    for tender in ticket.tenders:
        if tender.outcome not in ("approved", "partial", "returned"):
            continue
        entry = entries.get(tender.entry_id)
        title = style.w(_TENDER_TITLES.get(tender.kind, tender.kind.upper()))
        if tender.outcome == "partial":
            title += f" ({style.w('partial')})"
        rows.append(Row("pair", title, _amount(tender.amount)))
        if tender.kind == "cash":
            if tender.tendered is not None:
                rows.append(Row("pair", "  " + style.w("Cash given"), _amount(tender.tendered)))
                rows.append(Row("pair", "  " + style.w("Change"), _amount(tender.change or Decimal(0))))
            if tender.outcome == "returned":
                rows.append(Row("pair", "  " + style.w("Cash given back"), _amount(tender.amount)))
            continue
        if entry is not None and (entry.card_last4 or entry.card):
            rows.append(Row("pair", "  " + (entry.card_type or style.w("Card")),
                            masked_card(entry.card_last4)))
        if tender.auth_code:
            rows.append(Row("pair", "  " + style.w("Auth code"), tender.auth_code))
        if tender.invoice:
            rows.append(Row("pair", "  " + style.w("Invoice"), tender.invoice))
    for refund in ticket.refunds:
        if refund.approved > 0:
            what = "CASH REFUND" if refund.kind is Kind.CASH else "REFUND"
            rows.append(Row("pair", style.w(what), "-" + _amount(refund.approved)))
    rows.append(Row("rule"))
    status = style.w({"paid": "PAID", "cancelled": "CANCELLED"}.get(ticket.state, "OPEN"))
    if ticket.remaining and ticket.state == "open":
        status = f"{status}, {_amount(ticket.remaining)} {style.w('remaining')}"
    rows.append(Row("pair", style.w("Result"), status))
    return rows + _bottom(style)


def fit(left: str, right: str, width: int) -> str:
    """``left`` and ``right`` on one line of ``width``; ``left`` is cut short, never ``right``."""
    room = width - len(right) - 1
    if room < 1:
        return right[-width:]
    return f"{left[:room]:<{room}} {right}"


def render(rows: list[Row], width: int) -> list[str]:
    """Paper and screen: every line at most ``width``."""
    out: list[str] = []
    for row in rows:
        if row.kind in ("banner", "foot"):
            out.append(row.left.center(width)[:width])
        elif row.kind == "rule":
            out.append("-" * width)
        elif row.kind == "signature":
            out += ["", "", "x" + "_" * (width - 1)]
        elif row.kind in ("pair", "head"):
            out.append(fit(row.left, row.right, width).rstrip() if row.kind == "head"
                       else fit(row.left, row.right, width))
        else:  # title, text
            out.append(row.left)
    return [line[:width] for line in out]


def render_compact(rows: list[Row]) -> list[str]:
    """The PIN pad's line printer: the same rows from the title on, one label and value a line
    (no header, rules or centring: the pad prints short lines of its own width)."""
    out: list[str] = []
    for row in rows:
        if row.kind in ("title", "text"):
            out.append(row.left.strip())
        elif row.kind == "pair":
            out.append(f"{row.left.strip()} {row.right}".strip())
    return out


def entry_receipt(entry: Entry, style: ReceiptStyle, *, tendered: Decimal | None = None,
                  change: Decimal | None = None, ticket: Ticket | None = None) -> list[str]:
    return render(entry_rows(entry, style, tendered=tendered, change=change, ticket=ticket), style.width)


def ticket_receipt(ticket: Ticket, style: ReceiptStyle) -> list[str]:
    return render(ticket_rows(ticket, style), style.width)


def pad_receipt(entry: Entry, style: ReceiptStyle | None = None) -> list[str]:
    """A payment's receipt on the PIN pad's printer."""
    return render_compact(entry_rows(entry, style or ReceiptStyle()))
