"""The ticket as everyone reads it: its lines, tax, tip, tenders and what remains.

The read model sits beside the journal, below the flows, so the flows, the receipt layout, the
reports and the journal's export all read one ``Ticket`` from one floor down. The figures are
derived here once (subtotal, tax as the ticket's rule says, total, paid, remaining, change);
``cashier.flows.ticket`` holds what a ticket *does* (lines, tenders, cancel, refund).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from cashier.discounts import PricedTicket
from cashier.journal.model import Entry, Kind, Op, Outcome, State
from cashier.journal.tickets import (
    TicketRecord,
    holds_lines,
    lines_grown,
    priced,
    tax_class_of,
    tax_rate_of,
    ticket_taxes,
)
from cashier.money import ClassTax, percent_text, quantum, round_money, tax_by_class_added

__all__ = ["KIND_OF_ENTRY", "OLD_TENDER_NAMES", "TENDER_KINDS", "TenderKind", "TenderView", "Ticket",
           "TicketChanged", "TicketSettings", "given_back", "line_dict", "paid_in_full", "tax_class_of",
           "tax_rate_of"]

#: One word per tender kind, the same on the ticket, the receipt, the reports and the command line
#: (docs/decisions/018-names.md, "One name per tender kind"); a keyed card is a card tender.
TenderKind = Literal["card", "giftcard", "qr", "cash"]
TENDER_KINDS: tuple[TenderKind, ...] = ("card", "giftcard", "qr", "cash")
#: Earlier spellings still taken where a person types a tender (``cashier ticket --pay gift``) or
#: an old journal holds one (a Z report stored before the names were one).
OLD_TENDER_NAMES: dict[str, TenderKind] = {"gift": "giftcard", "gift_card": "giftcard"}
KIND_OF_ENTRY: dict[Kind, str] = {Kind.SALE: "card", Kind.GIFTCARD_SALE: "giftcard", Kind.QR: "qr",
                                   Kind.CASH: "cash", Kind.AUTHORIZATION: "tab"}


# ---- settings ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TicketSettings:
    """What the till's profile says about tickets (a ticket keeps its tax rule from its start)."""

    tax_rate: Decimal = Decimal(0)
    prices_include_tax: bool = False
    tip_mode: str = "none"
    tip_presets: tuple[Decimal, ...] = (Decimal(15), Decimal(18), Decimal(20))
    signature_floor: Decimal | None = None
    terms_text: str | None = None
    #: the profile's ``cash_rounding`` step (issue #38; None: cash to the cent)
    cash_rounding: Decimal | None = None

    def wants_signature(self, amount: Decimal) -> bool:
        """A card tender above the profile's signature floor is signed (on the pad, and on the
        merchant copy of the receipt)."""
        return self.signature_floor is not None and amount > self.signature_floor

    @classmethod
    def of(cls, profile: Any) -> TicketSettings:
        return cls(tax_rate=profile.tax_rate, prices_include_tax=profile.prices_include_tax,
                   tip_mode=profile.tip_mode, tip_presets=tuple(profile.tip_presets),
                   signature_floor=profile.signature_floor, terms_text=profile.terms_text,
                   cash_rounding=getattr(profile, "cash_rounding", None))


def given_back(refund: Entry) -> Decimal:
    """What a refund gives back, as its tax counts it: what the host approved once it moved the
    money, what it asks until then."""
    return refund.approved if refund.state in (State.APPROVED, State.CAPTURED) else refund.requested


# ---- the ticket as the counter sees it -----------------------------------------------------------
@dataclass(frozen=True)
class TenderView:
    kind: str
    amount: Decimal           # applied to the ticket
    requested: Decimal
    outcome: str              # approved|partial|declined|error|unknown|voided|returned
    invoice: str | None
    card: str | None
    auth_code: str | None
    entry_id: int
    tendered: Decimal | None = None
    change: Decimal | None = None
    tip: Decimal = Decimal(0)
    #: what a voided tender had taken (its void gave it back); 0 for any other
    undone: Decimal = Decimal(0)

    @property
    def is_approved(self) -> bool:
        """Approved in full (cash taken counts: it is journaled approved)."""
        return self.outcome == "approved"

    @property
    def is_partial(self) -> bool:
        """Approved for less than asked: the rest remains on the ticket."""
        return self.outcome == "partial"

    @property
    def is_declined(self) -> bool:
        return self.outcome == "declined"

    @property
    def is_cash(self) -> bool:
        """Cash is taken, not approved: the counter words it so."""
        return self.kind == "cash"

    @property
    def shown(self) -> Decimal:
        """The amount a tender line shows: what it took (or gave back), else what was tried
        (a decline, a payment not charged or still being checked: never $0.00)."""
        if self.outcome == "voided":
            return self.undone or self.requested
        return self.amount if self.amount > 0 else self.requested

    @property
    def back(self) -> Decimal:
        """What this tender gave back at a cancel: a void its approval, cash what it took."""
        return self.undone if self.outcome == "voided" else self.amount if self.outcome == "returned" \
            else Decimal(0)

    @property
    def flow_outcome(self) -> Outcome:
        """The tender as the one outcome word a flow reports (a partial approval is approved)."""
        return "approved" if self.is_partial else self.outcome  # type: ignore[return-value]

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": str(self.amount),
                "tendered": None if self.tendered is None else str(self.tendered),
                "outcome": self.outcome, "invoice": self.invoice, "card": self.card}


def _outcome(entry: Entry, cancelled: bool) -> str:
    state = entry.state
    if entry.kind is Kind.CASH:
        return "returned" if cancelled else "approved"
    if state in (State.INTENT, State.SENT, State.UNKNOWN, State.VOIDING):
        return "unknown"
    if state in (State.APPROVED, State.CAPTURED):
        return "partial" if entry.partial else "approved"
    return str(state)


def _applied(entry: Entry) -> Decimal:
    if entry.state is State.CAPTURED:
        return entry.captured
    if entry.kind is Kind.AUTHORIZATION:
        return Decimal(0)  # an open tab holds money; it pays the ticket when captured
    if entry.state is State.APPROVED:
        return entry.approved
    return Decimal(0)


@dataclass(frozen=True)
class Ticket:
    """A ticket and every figure the counter, the receipt and the command line show."""

    id: int
    state: str
    currency: str
    lines: tuple[Any, ...]
    subtotal: Decimal
    tax: Decimal
    tip: Decimal
    tip_asked: bool
    total: Decimal
    paid: Decimal
    remaining: Decimal
    change: Decimal
    tenders: tuple[TenderView, ...]
    refunds: tuple[Entry, ...]
    record: TicketRecord = field(repr=False)
    #: the tax by class (issue #37): ``tax`` is their sum; one class on a till without a store
    taxes: tuple[ClassTax, ...] = ()
    #: what the discounts and promotions took off (issue #38): ``subtotal - discounts`` is what
    #: the lines cost, the tax is on that
    discounts: Decimal = Decimal(0)
    #: the ticket priced by the one discounts rule (each line's net, tax share and what was paid)
    pricing: PricedTicket | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, record: TicketRecord) -> Ticket:
        """The ticket of ``record``, made once per record (a record never changes)."""
        if record.view:
            made: Ticket = record.view[0]
            return made
        ticket = cls._made_of(record)
        record.view.append(ticket)
        return ticket

    @classmethod
    def _made_of(cls, record: TicketRecord) -> Ticket:
        cur = record.currency
        pricing: PricedTicket | None = None
        # the ticket this record was changed from, if made: what the change left is not worked
        # out again (a line added to a long ticket costs a line; docs/decisions/017, stop 50)
        came_from = record.take_came_from()
        made: Ticket | None = came_from.view[0] if came_from is not None and came_from.view \
            else None
        if record.discounts or record.promotions:  # priced by the one rule (issue #38)
            pricing = priced(record, None if made is None or made.pricing is None
                             else (made.record, made.pricing))
            subtotal, taxes, tax, discounts = (pricing.subtotal, pricing.taxes, pricing.tax,
                                               pricing.discounts)
            before_tip = pricing.total
        else:  # nothing off: the lines' sum and its tax by class (each line added: kept light)
            grown = None if made is None or made.record.discounts or made.record.promotions \
                else lines_grown(made.record, record)
            if made is not None and grown == 0:
                subtotal, taxes = made.subtotal, made.taxes
            elif made is not None and grown == 1:  # a journaled line's amount is in whole minor
                line = record.lines[-1]              # units: the sums are exact
                subtotal = made.subtotal + line.amount
                taxes = tax_by_class_added(made.taxes, tax_class_of(line), tax_rate_of(line, record),
                                           line.amount, record.tax_included, cur)
            else:
                subtotal = sum((line.amount for line in record.lines), Decimal(0))
                taxes = ticket_taxes(record)
            tax = sum((t.tax for t in taxes), Decimal(0))
            discounts = Decimal(0)
            before_tip = subtotal if record.tax_included else subtotal + tax
        total = before_tip + record.tip + record.rounding
        cancelled = record.state == "cancelled"
        tenders: list[TenderView] = []
        refunds: list[Entry] = []
        for entry in record.entries:
            if entry.op is Op.REFUND or entry.kind is Kind.REFUND:
                refunds.append(entry)
                continue
            tendered, change = record.cash.get(entry.id, (None, None))
            if entry.kind is Kind.CASH and tendered is None:
                tendered, change = entry.approved, Decimal(0)
            tenders.append(TenderView(
                kind=KIND_OF_ENTRY.get(entry.kind, str(entry.kind)), amount=_applied(entry),
                requested=entry.requested, outcome=_outcome(entry, cancelled), invoice=entry.invoice,
                card=entry.card, auth_code=entry.auth_code, entry_id=entry.id, tendered=tendered,
                change=change, tip=entry.tip,
                undone=entry.approved if entry.state is State.VOIDED else Decimal(0)))
        paid = sum((t.amount for t in tenders if t.outcome != "returned"), Decimal(0))
        change_due = sum((t.change or Decimal(0) for t in tenders), Decimal(0))
        unit = quantum(cur)
        return cls(id=record.id, state=record.state, currency=cur, lines=record.lines,
                   subtotal=subtotal.quantize(unit), tax=tax.quantize(unit), tip=record.tip,
                   tip_asked=record.tip_asked, total=total.quantize(unit), paid=paid.quantize(unit),
                   remaining=max(total - paid, Decimal(0)).quantize(unit),
                   change=change_due.quantize(unit),
                   tenders=tuple(tenders), refunds=tuple(refunds), record=record,
                   taxes=tuple(t for t in taxes if t.base or t.tax),
                   discounts=discounts.quantize(unit), pricing=pricing)

    @property
    def refunded_lines(self) -> frozenset[int]:
        """The ids of the lines a refund gave back, or is giving back (its answer not known yet):
        each line is refunded at most once (``journal.tickets.holds_lines``)."""
        held = {e.id for e in self.refunds if holds_lines(e)}
        return frozenset(line for entry_id, lines in self.record.line_refunds.items()
                         if entry_id in held for line in lines)

    def tax_back(self, amount: Decimal, lines: Collection[int] = ()) -> Decimal:
        """The tax in ``amount`` given back with the lines ``lines`` (their ids): each line its own
        tax (as it was priced, by class, after discounts: ``PricedLine.tax``); what goes back
        beyond the lines (an amount off the ticket) its share of the tax left, as a share of what
        the rest cost before the tip (a tip given back carries no tax)."""
        cur = self.currency
        back = [p for line, p in zip(self.lines, self.priced.lines, strict=False) if line.id in lines]
        lines_tax = sum((p.tax for p in back), Decimal(0))
        lines_paid = sum((p.paid for p in back), Decimal(0))
        rest_cost = self.total - self.tip - lines_paid
        rest_back = min(max(amount - lines_paid, Decimal(0)), max(rest_cost, Decimal(0)))
        rest_tax = self.tax - lines_tax
        share = round_money(rest_tax * rest_back / rest_cost, cur) \
            if rest_cost > 0 and rest_tax else Decimal(0)
        return (lines_tax + share).quantize(quantum(cur))

    def refund_tax(self, amount: Decimal, lines: Collection[int] = (), *,
                   excluding: int | None = None, before: int | None = None) -> Decimal:
        """THE tax a refund of ``amount`` (giving back ``lines``, their ids) gives back: what the
        ticket's refunds give back of its tax with it, less what they gave back without it. The
        journal keeps it as the refund's own tax (``tax_minor``: when it is made, again when the
        host approves another amount), so the X/Z report and the store count each refund's tax
        in the window, day and batch of the refund, and a ticket's refunds, made on any days,
        add up to the tax of all they gave back. The refunds before it are those that gave or are
        giving money back (``holds_lines``), but ``excluding`` (the refund itself); ``before``
        (an entry id): only those made before it (journal v16 works out so, in the order they
        were made, the tax of the refunds journaled before this rule)."""
        gave, held = Decimal(0), set[int]()
        for e in self.refunds:
            if e.id == excluding or not holds_lines(e) or (before is not None and e.id >= before):
                continue
            gave += given_back(e)
            held.update(self.record.line_refunds.get(e.id, ()))
        without = self.tax_back(gave, held)
        return max(self.tax_back(gave + amount, held | set(lines)) - without, Decimal(0))

    def line_refunded(self, index: int) -> bool:
        """Line ``index`` (0-based, as ``lines``) was refunded: the window shows it so, and a
        refund of it is refused."""
        return self.lines[index].id in self.refunded_lines

    @property
    def checking(self) -> bool:
        """A tender whose outcome the host has not told yet: nothing more may be sent."""
        return any(t.outcome == "unknown" for t in self.tenders)

    @property
    def lines_locked(self) -> bool:
        """Once a tender applied money, the lines (and the tip) stay as they are: cancel instead."""
        return any(t.amount > 0 for t in self.tenders)

    @property
    def last_tender(self) -> TenderView | None:
        return self.tenders[-1] if self.tenders else None

    @property
    def is_open(self) -> bool:
        return self.state == "open"

    @property
    def is_paid(self) -> bool:
        return self.state == "paid"

    @property
    def only_closing_left(self) -> bool:
        """Open with its lines and nothing left to pay (``paid_in_full``): a comp, its lines
        discounted to 0.00, or tenders recovery settled. Any tender key closes it as paid,
        charging nothing (issue #38): no host, no PIN pad, no drawer."""
        return paid_in_full(self.record)

    @property
    def money_taken(self) -> bool:
        """A tender applied money: cancelling gives it back (asked first, a manager approves)."""
        return self.paid > 0

    @property
    def gives_change(self) -> bool:
        """Cash over what remained: the counter says "give the change"."""
        return self.change > 0

    @property
    def paid_in_cash_only(self) -> bool:
        """Every tender that took money was cash: the counter says "Paid", not "Approved"."""
        taking = [t for t in self.tenders if t.is_approved or t.is_partial]
        return bool(taking) and all(t.is_cash for t in taking)

    @property
    def cash_taken(self) -> Decimal:
        """Cash the ticket's tenders took (what a cancel gives back in cash)."""
        return sum((t.amount for t in self.tenders if t.kind == "cash"), Decimal(0))

    @property
    def went_back(self) -> tuple[TenderView, ...]:
        """What went back to the customer as the ticket was cancelled: each tender voided (its
        ``undone``) and the cash given back (its ``amount``); empty when nothing had been paid."""
        return tuple(t for t in self.tenders
                     if (t.outcome == "voided" and t.undone > 0) or t.outcome == "returned")

    def given_back(self, excluding: Collection[int] = ()) -> Decimal:
        """What the ticket's refunds gave back, leaving out the refund entries in ``excluding``
        (those already there before a refund, to say what that refund gave back)."""
        return sum((e.approved for e in self.refunds if e.id not in excluding), Decimal(0))

    def gave_back_all(self, asked: Decimal, excluding: Collection[int] = ()) -> bool:
        """A refund of ``asked`` went back whole (else part of it was refused); ``excluding`` as
        for ``given_back``."""
        return self.given_back(excluding) == asked

    def tip_for(self, amount: Decimal) -> Decimal:
        """The tip journaled on a tender of ``amount``: the tender that pays what remains carries
        the ticket's tip (whatever its kind: cash when the rest is paid in cash), once."""
        placed = any(t.tip > 0 for t in self.tenders if t.outcome in ("approved", "partial"))
        if not self.tip or placed or amount < self.remaining or self.tip >= amount:
            return Decimal(0)
        return self.tip

    def as_dict(self) -> dict[str, Any]:
        return {"ticket": self.id, "state": self.state, "subtotal": str(self.subtotal),
                "tax": str(self.tax), "tip": str(self.tip), "total": str(self.total),
                "paid": str(self.paid), "remaining": str(self.remaining), "change": str(self.change),
                "lines": [line_dict(line, self.record) for line in self.lines],
                "taxes": [{"tax_class": t.tax_class, "rate": percent_text(t.rate),
                           "base": str(t.base.quantize(quantum(self.currency))), "tax": str(t.tax)}
                          for t in self.taxes],
                "tenders": [t.as_dict() for t in self.tenders],
                "discounts": self.discount_dicts(), "discount_total": str(self.discounts),
                "promotions": [{"name": name, "amount": str(amount)}
                               for name, amount in self.promotions.items()],
                "rounding": str(self.record.rounding.quantize(quantum(self.currency)))}

    @property
    def priced(self) -> PricedTicket:
        """The ticket priced line by line (what was paid for each line: a refund's, the
        receipt's savings); worked out when asked on a ticket nothing was taken off."""
        if self.pricing is None:
            object.__setattr__(self, "pricing", priced(self.record))
        assert self.pricing is not None
        return self.pricing

    @property
    def promotions(self) -> dict[str, Decimal]:
        """What each promotion took off, by name (the receipt and the reports)."""
        return self.priced.promotions

    def discount_dicts(self) -> list[dict[str, Any]]:
        """The cashier's discounts as ``ticket show`` prints them (issue #38): ``line`` (1-based,
        None for the ticket), ``kind``, ``value``, ``amount`` (what it took off), ``reason``,
        ``approved_by``, ``clerk``."""
        index = {line.id: n for n, line in enumerate(self.lines, start=1)}
        live = [d for d in self.record.discounts if d.line_id is None or d.line_id in index]
        amounts = self.priced.discount_amounts
        return [{"line": None if d.line_id is None else index[d.line_id], "kind": d.kind,
                 "value": percent_text(d.value) if d.kind == "percent" else str(d.value),
                 "amount": str(amounts[n]) if n < len(amounts) else "0.00", "reason": d.reason,
                 "approved_by": d.approved_by, "clerk": d.clerk} for n, d in enumerate(live)]


def line_dict(line: Any, record: TicketRecord) -> dict[str, Any]:
    """A line as ``ticket show`` and the journal export print it: what it was sold as (sku and
    catalog version, None for a typed line), at which unit price, in which tax class and rate."""
    out: dict[str, Any] = {"name": line.name, "quantity": line.quantity,
                           "unit_price": str(line.unit_price), "amount": str(line.amount),
                           "sku": line.sku, "catalog_version": line.catalog_version,
                           "tax_class": tax_class_of(line),
                           "tax_rate": percent_text(tax_rate_of(line, record))}
    if line.modifiers:
        out["modifiers"] = list(line.modifiers)
    if line.list_price is not None:
        out["price_override"] = {"before": str(line.list_price), "after": str(line.unit_price),
                                 "reason": line.override_reason, "approved_by": line.override_by}
    return out


def paid_in_full(record: TicketRecord) -> bool:
    """The ticket closes as paid: open, with lines, nothing remaining, no tender in doubt. Asked
    after each tender, and when recovery settles a tender whose answer was lost (the last one
    settled as approved pays the ticket as if its answer had come on time)."""
    ticket = Ticket.of(record)
    return ticket.state == "open" and bool(ticket.lines) and ticket.remaining == 0 \
        and not ticket.checking


@dataclass(frozen=True)
class TicketChanged:
    """Published on the bus after every change of a ticket (the Sale screen redraws)."""

    ticket: Ticket
