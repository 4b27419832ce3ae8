"""The ticket: lines, tax, one tip, and as many tenders as it takes (card, gift card, QR, cash).

Every rule about a ticket's money lives here: the subtotal, the tax (one rate, prices with or
without it), the tip (asked once), what each tender applied, what remains, the change. A ticket
is journaled before anything is sent (``cashier.journal.tickets``); each tender is an ordinary
payment entry carrying the ticket's id, so recovery, voids and totals treat it as any payment.

``TicketSession`` is the counter's handle on one open ticket: it keeps the PIN pad's basket in
step (LG line items, through ``flows.cart.Cart``) and runs the tenders in turn.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from cashier.catalog import Modifier, Product
from cashier.clerks import Action, Clerk
from cashier.discounts import Discount, cash_rounded, check_reason, in_force
from cashier.entry_rules import is_checking, void_refusal
from cashier.errors import ValidationError
from cashier.flows.base import FlowContext, FlowResult, resolve
from cashier.flows.cart import Cart, CartLine, accept_terms, capture_signature
from cashier.flows.figures import Figures as Figures
from cashier.flows.figures import cash_offers as cash_offers
from cashier.flows.giftcards import GiftCard
from cashier.flows.payments import KeyedCard, sale_on_held_pad
from cashier.journal.leases import EntryOwned
from cashier.journal.model import Entry, Kind, NewEntry, Op, State, TicketDiscount, outcome_of

# the read model lives one floor down (``journal.ticket_model``); named here too for callers
from cashier.journal.ticket_model import OLD_TENDER_NAMES, paid_in_full
from cashier.journal.ticket_model import TENDER_KINDS as TENDER_KINDS
from cashier.journal.ticket_model import TenderKind as TenderKind
from cashier.journal.ticket_model import TenderView as TenderView
from cashier.journal.ticket_model import Ticket as Ticket
from cashier.journal.ticket_model import TicketChanged as TicketChanged
from cashier.journal.ticket_model import TicketSettings as TicketSettings
from cashier.journal.tickets import (
    REMAINING,
    LineRefund,
    LineRefunded,
    LineSold,
    TenderInFlight,
    TicketRecord,
)
from cashier.money import TippedAmount, check_tip, parse_amount, quantum, tax_share
from cashier.text import free_text

MAX_LINES = 500


def _remaining(record: TicketRecord) -> Decimal:
    return Ticket.of(record).remaining


REMAINING[:] = [_remaining]  # the journal runs the ticket's rule inside a new tender's write


@dataclass(frozen=True)
class PriceOverride:
    """A price typed over a catalog line's (issue #38): the price, the reason (one of the store's
    list) and the manager who approves it (None: the clerk signed in, if a manager)."""

    price: Decimal | str
    reason: str
    manager: Clerk | None = None


# ---- tenders -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tender:
    """One way to pay part of a ticket. ``amount`` None takes what remains; for cash it is the
    amount the customer hands over."""

    kind: TenderKind
    amount: Decimal | None = None  # None: exactly what remains (cash too: the "Exact" key)
    card: KeyedCard | None = None
    token: str | None = None
    giftcard: GiftCard | None = None

    def __post_init__(self) -> None:
        if self.kind not in TENDER_KINDS:
            raise ValidationError("tender", f"must be one of {', '.join(TENDER_KINDS)}")
        if (self.card is not None or self.token is not None) and self.kind != "card":
            raise ValidationError("card", "a keyed card or token goes with a card tender")
        if self.giftcard is not None and self.kind != "giftcard":
            raise ValidationError("gift_card", "a gift card number goes with a giftcard tender")


def parse_tender(text: str, currency: str = "USD") -> Tender:
    """``card``, ``card=12.50``, ``giftcard`` (or its old spelling ``gift``), ``qr=5``, ``cash=20``:
    the command line's tender."""
    kind, _, amount = text.strip().partition("=")
    kind = kind.strip().lower()
    kind = OLD_TENDER_NAMES.get(kind, kind)
    if kind not in TENDER_KINDS:
        raise ValidationError("--pay", f"{kind!r} is not a tender: use card, giftcard, qr or cash[=AMOUNT]")
    if kind == "cash" and not amount:
        raise ValidationError("cash", "give the amount the customer hands over: cash=20.00")
    value = parse_amount(amount, currency, field=f"--pay {kind}") if amount else None
    return Tender(kind, value)


_ITEM = re.compile(r"^(?P<name>[^=]+)=(?P<price>[^x]+)(?:x(?P<qty>\d{1,3}))?$")


def parse_item(text: str, currency: str = "USD") -> tuple[str, Decimal, int]:
    """``"Coffee=3.50x2"``: the command line's line item (name, unit price, quantity)."""
    match = _ITEM.match(text.strip())
    if match is None:
        raise ValidationError("--item", "must be NAME=PRICE or NAME=PRICExQTY, e.g. Coffee=3.50x2")
    price = parse_amount(match["price"], currency, field="--item price", allow_zero=True)
    try:  # the line's own rules (text, card number, length), before any ticket is opened
        line = CartLine(free_text("--item", match["name"]), price, int(match["qty"] or 1))
    except ValidationError as exc:
        raise ValidationError("--item", exc.rule) from None
    return line.description, price, line.quantity


async def check_tenders(ctx: FlowContext, tenders: Sequence[Tender],
                        total: Decimal | None = None) -> None:
    """Before a ticket is started or paid: a cash tender needs an open drawer session, and every
    tender stays within the till's bounds (``total``: the new ticket's, for a cash tender's
    largest note), so the command line and the Sale screen refuse it before anything is
    journaled (``pay`` checks again for each tender). Nothing to pay (a ``total`` of 0.00, a
    comp): a tender of no amount closes it, an amount is a slip (``apply`` refuses it too)."""
    for tender in tenders:
        if tender.amount is None:
            continue
        if total is not None and total <= 0:
            raise ValidationError(tender.kind, "nothing remains to pay: give no amount")
        if tender.kind == "cash" and total is not None:
            ctx.bounds.check_cash(tender.amount, total, ctx.journal.currency)
        else:
            ctx.bounds.check(tender.amount, ctx.journal.currency, tender.kind)
    if any(t.kind == "cash" for t in tenders):
        await ctx.journal.require_cash_drawer()


@dataclass(frozen=True)
class TicketResult:
    """What paying a ticket came to, the one object the window shows: the ticket as it now reads,
    the tender applied last (None: nothing was charged) and the result its flow built (a card's,
    gift card's or QR payment's; cash's from the entry its commit wrote)."""

    ticket: Ticket
    tender: TenderView | None = None
    result: FlowResult | None = None

    @classmethod
    def of(cls, ticket: Ticket, result: FlowResult | None) -> TicketResult:
        """``result``'s tender as ``ticket`` reads it."""
        tender = None if result is None else next(
            (t for t in ticket.tenders if t.entry_id == result.entry.id), None)
        return cls(ticket, tender, result if tender is not None else None)

    @property
    def entry(self) -> Entry | None:
        return None if self.result is None else self.result.entry

    @property
    def ends(self) -> bool:
        """The sale is over for now (the result screen): the ticket is paid (with no tender when
        nothing remained: a comp, issue #38), or the tender is being checked with the host."""
        return self.ticket.is_paid or (self.result is not None and is_checking(self.result.outcome))

    @property
    def tone(self) -> str:
        """How the Sale screen's notice is coloured when the ticket stays open."""
        t = self.tender
        return ("declined" if t is None else "partial" if t.is_partial
                else "paid-part" if t.is_approved else "declined")


# ---- the session ---------------------------------------------------------------------------------
class TicketSession:
    """One open ticket at the counter. Build with ``start`` (new) or ``resume`` (after a crash)."""

    def __init__(self, ctx: FlowContext, ticket_id: int, settings: TicketSettings) -> None:
        self.ctx = ctx
        self.id = ticket_id
        self.settings = settings
        self.basket = Cart(ctx)
        self.ticket: Ticket | None = None

    @classmethod
    async def start(cls, ctx: FlowContext, settings: TicketSettings,
                    tenders: Sequence[Tender] = (), *, at: datetime | None = None) -> TicketSession:
        """A new ticket; the ``tenders`` about to pay it are checked first (cash needs an open
        drawer), so a refused one leaves nothing journaled. It prices itself with the catalog's
        promotions in force at ``at`` (now, the till's local time), kept with it to its end."""
        await check_tenders(ctx, tenders)
        catalog = ctx.catalog.current()
        included = catalog.prices_include_tax  # the store's say, else the profile's
        record = await ctx.journal.create_ticket(
            actor=ctx.actor, tax_rate=settings.tax_rate,
            tax_included=settings.prices_include_tax if included is None else included,
            tip_mode=settings.tip_mode,
            promotions=in_force(catalog.promotions, at or datetime.now()))
        session = cls(ctx, record.id, settings)
        await session.refresh(record)
        return session

    @classmethod
    async def resume(cls, ctx: FlowContext, ticket_id: int, settings: TicketSettings) -> TicketSession:
        """An open ticket found in the journal: its tenders resolved with the host first. It stays
        open, ready to finish (``pay`` closes it when nothing remains) or to ``cancel``."""
        session = cls(ctx, ticket_id, settings)
        ticket = await session.refresh()
        for tender in ticket.tenders:
            entry = await ctx.journal.get(tender.entry_id)
            if entry.state in (State.INTENT, State.SENT):
                await resolve(ctx, entry, actor="recovery")
        ticket = await session.refresh()
        if ticket.state == "open":
            session.basket.lines = [CartLine(line.name[:40], line.unit_price, line.quantity)
                                    for line in ticket.lines]
            session.basket.in_sync = False  # the pad is redrawn in full at the next change
        return session

    async def refresh(self, record: TicketRecord | None = None) -> Ticket:
        """The ticket re-read (or as a write just returned it). The screens hear of each change
        from the journal (``TicketChanged``, published with every write that moved the ticket)."""
        self.ticket = Ticket.of(record if record is not None else await self.ctx.journal.ticket(self.id))
        return self.ticket

    def _open(self) -> Ticket:
        if self.ticket is None or self.ticket.state != "open":
            state = self.ticket.state if self.ticket else "unknown"
            raise ValidationError("ticket", "ticket {ticket} is {state}, not open", ticket=self.id,
                                  state=state)
        return self.ticket

    # ---- lines ---------------------------------------------------------------------------------
    async def add_line(self, name: str, unit_price: Decimal, quantity: int = 1) -> Ticket:
        """A typed line (a name and a price, no sku): the till's default tax class, at the rate
        the ticket started with (the profile's ``tax_rate``)."""
        return await self._add(name or "Item", unit_price, quantity, None)

    async def add_product(self, product: Product, *, quantity: int = 1,
                          modifiers: Sequence[Modifier] = (), price: Decimal | None = None,
                          override: PriceOverride | None = None) -> Ticket:
        """A line of the catalog the till sells from now (``ctx.catalog.current()``): the
        product's sku, that catalog's version, the product's tax class and its rate are journaled
        with the line, and the unit price is the product's price with the ``modifiers``' price
        changes (their names on the line). ``price``: a price-embedded barcode's label price,
        instead of the catalog's. Priced from the current version: a product shown from an older
        one sells as it stands now; one no longer sold is refused."""
        catalog = self.ctx.catalog.current()
        current = catalog.product(product.sku)
        if current is None or not current.active:
            raise ValidationError("sku", "{sku} is not sold at this till (not in catalog version "
                                         "{version}, or inactive)", sku=product.sku,
                                  version=catalog.version)
        chosen: list[Modifier] = []
        for modifier in modifiers:
            known = next((m for m in current.modifiers if m.name == modifier.name), None)
            if known is None:
                raise ValidationError("modifier", "{name} is not a modifier of {sku}",
                                      name=modifier.name, sku=current.sku)
            chosen.append(known)
        base = current.price if price is None else price
        unit_price = base + sum((m.price_change for m in chosen), Decimal(0))
        listed = unit_price
        approver: Clerk | None = None
        if override is not None:  # a price typed over the catalog's: a reason, and a manager
            self._open()
            reason = check_reason(override.reason, catalog.reasons, "reason")
            unit_price = parse_amount(override.price, self.ctx.journal.currency, "--price",
                                      allow_zero=True)
            approver = self.ctx.approval(Action.PRICE_OVERRIDE, unit_price, override.manager)
        sold = LineSold(sku=current.sku, catalog_version=catalog.version,
                        tax_class=current.tax_class, tax_rate=catalog.tax_rate(current.tax_class),
                        modifiers=tuple(m.name for m in chosen), category=current.category,
                        list_price=listed if override is not None else None,
                        override_reason=reason if override is not None else None,
                        override_by=None if approver is None else str(approver.id))
        ticket = await self._add(current.name, unit_price, quantity, sold)
        await self.ctx.journal_approval(approver, Action.PRICE_OVERRIDE, unit_price, ticket=self.id,
                                        sku=current.sku, before=str(listed), reason=sold.override_reason)
        return ticket

    # ---- discounts (issue #38) -----------------------------------------------------------------
    def discount_percent(self, discount: Discount) -> Decimal:
        """What the manager rule measures (``Action.DISCOUNT``): ``discount`` as a percent of what
        its line (or the ticket) still costs. Refuses a line the ticket has not, or a discount
        that would take nothing more off."""
        ticket = self._open()
        if discount.line is not None and not 0 <= discount.line < len(ticket.lines):
            raise ValidationError("line", "the ticket has no line {line}", line=discount.line + 1)
        pricing = ticket.priced
        base = pricing.net if discount.line is None else pricing.lines[discount.line].net
        if discount.off(base, ticket.currency) <= 0:
            raise ValidationError("discount", "there is nothing left to take off")
        return discount.percent_of(base).quantize(Decimal("0.01"))

    async def add_discount(self, discount: Discount, manager: Clerk | None = None) -> Ticket:
        """A cashier's discount on a line (``discount.line``, 0-based) or the whole ticket, with a
        reason of the store's list. Above the profile's ``discount_percent_max`` of what it is on,
        a manager approves (``ManagerNeeded`` before anything is journaled); journaled with who,
        who approved, the reason, and what it cost before and after."""
        ticket = self._open()
        if ticket.lines_locked:
            raise ValidationError("discount", "a tender has been applied: cancel the ticket to "
                                              "change its discounts")
        if not ticket.lines:
            raise ValidationError("discount", "the ticket has no lines yet")
        reason = check_reason(discount.reason, self.ctx.catalog.current().reasons, "reason")
        approver = self.ctx.approval(Action.DISCOUNT, self.discount_percent(discount), manager)
        before = ticket.total
        line_id = None if discount.line is None else ticket.lines[discount.line].id
        after = Ticket.of(dataclasses.replace(
            ticket.record, discounts=(*ticket.record.discounts, TicketDiscount(
                0, line_id, discount.kind, discount.value, reason)))).total
        record = await self.ctx.journal.add_ticket_discount(
            self.id, line_id=line_id, kind=discount.kind, value=discount.value, reason=reason,
            actor=self.ctx.actor, approved_by=None if approver is None else str(approver.id),
            before=before, after=after)
        await self.ctx.journal_approval(approver, Action.DISCOUNT, discount.value, ticket=self.id,
                                        reason=reason, kind=discount.kind)
        return await self.refresh(record)

    async def _add(self, name: str, unit_price: Decimal, quantity: int,
                   sold: LineSold | None) -> Ticket:
        ticket = self._open()
        if ticket.lines_locked:
            raise ValidationError("line", "a tender has been applied: cancel the ticket to change its lines")
        line = CartLine(name, unit_price, quantity)  # checks name, price, quantity
        if len(ticket.lines) >= MAX_LINES:
            raise ValidationError("line", "a ticket has at most {most} lines", most=MAX_LINES)
        limit = self.ctx.bounds.ceiling(ticket.currency)
        if ticket.total + line.amount > limit:
            raise ValidationError("line", "the ticket's total must be at most {limit}", limit=limit)
        record = await self.ctx.journal.add_ticket_line(self.id, name=line.description,
                                                        quantity=quantity, unit_price=unit_price,
                                                        actor=self.ctx.actor, sold=sold)
        ticket = await self.refresh(record)
        if self.basket.pad:
            # the journal published the line (the till draws it); one pass of the loop lets that
            # show before the PIN pad is told, which takes a round trip or two to the pad
            await asyncio.sleep(0)
        await self.basket.add(line)
        return ticket

    async def remove_line(self, index: int) -> Ticket:
        ticket = self._open()
        if ticket.lines_locked:
            raise ValidationError("line", "a tender has been applied: cancel the ticket to change its lines")
        if not 0 <= index < len(ticket.lines):
            raise ValidationError("line", "there is no such line on the ticket")
        record = await self.ctx.journal.remove_ticket_line(self.id, ticket.lines[index].id,
                                                           actor=self.ctx.actor)
        if index < len(self.basket.lines):
            await self.basket.remove(index)
        return await self.refresh(record)

    # ---- tip -----------------------------------------------------------------------------------
    async def key_tip(self, tip: Decimal) -> Ticket:
        """A tip the cashier keys: it stays a tip (receipt, totals) and the pad never asks again."""
        ticket = self._open()
        if ticket.tip_asked:
            raise ValidationError("tip", "the tip was already taken for this ticket")
        if ticket.lines_locked:
            raise ValidationError("tip", "key the tip before the first tender")
        tip = parse_amount(tip, ticket.currency, field="tip", allow_zero=True)
        before_tip = TippedAmount.within(ticket.total, ticket.tip).base
        check_tip(before_tip, tip, ticket.currency)  # the one tip rule
        limit = self.ctx.bounds.ceiling(ticket.currency)
        if ticket.total + tip > limit:
            raise ValidationError("tip", "the ticket's total must be at most {limit}", limit=limit)
        return await self.refresh(await self.ctx.journal.set_ticket_tip(self.id, tip, how="keyed",
                                                                        actor=self.ctx.actor))

    def _asks_tip_on_pad(self, ticket: Ticket) -> bool:
        return (self.settings.tip_mode == "pad" and not ticket.tip_asked
                and self.ctx.client.option != "HD")

    # ---- paying --------------------------------------------------------------------------------
    async def quick_pay(self, tenders: Sequence[Tender], *,
                        lines: Sequence[tuple[str, Decimal, int]] = (), tip: Decimal | None = None,
                        refused: Callable[[ValidationError], None] | None = None,
                        first_refusal_raises: bool = False) -> TicketResult:
        """The quick path, the same for the window and the command line: the tenders checked
        (cash needs an open drawer) before anything is journaled, then the lines, the keyed tip
        (unless the tip was already taken), then the tenders in turn until the ticket is paid or
        a tender's outcome is being checked. A first tender refused because a tender of this
        ticket is in flight elsewhere is raised (nothing of this call was sent), and so is any
        refused first tender with ``first_refusal_raises`` (the command line: exit 2, nothing
        sent); any other refused tender stops there: raised, or told to ``refused`` with the
        ticket left open. Returns the ticket with the last tender applied and its flow's result.
        A ticket with nothing to pay (``Ticket.only_closing_left``: a comp) is closed by the first
        tender, which takes nothing: cash then needs no open drawer (nothing goes in it)."""
        ticket = self.ticket
        closing = (not lines and not tip and ticket is not None and ticket.only_closing_left)
        await check_tenders(self.ctx, () if closing else tenders)
        for name, price, quantity in lines:
            await self.add_line(name, price, quantity)
        ticket = self._open()
        if tip is not None and not ticket.tip_asked:
            ticket = await self.key_tip(tip)
        done = TicketResult(ticket)
        for number, tender in enumerate(tenders):
            if number == 0 and ticket.checking:
                raise ValidationError("ticket", "ticket {ticket}: a tender is still being checked "
                                                "with the host: wait for its outcome", ticket=ticket.id)
            if not ticket.is_open or ticket.checking:
                break
            try:
                done = await self.apply(tender)
                ticket = done.ticket
            except ValidationError as exc:
                first = number == 0 and (first_refusal_raises
                                         or isinstance(exc, TenderInFlight | EntryOwned))
                if refused is None or first:
                    raise
                refused(exc)
                done = TicketResult(await self.refresh())
                break
        return done

    async def pay(self, tender: Tender) -> Ticket:
        """Apply one tender (``apply``): the ticket as it now reads."""
        return (await self.apply(tender)).ticket

    async def apply(self, tender: Tender) -> TicketResult:
        """Apply one tender. A decline or a partial approval leaves the ticket open with what
        remains; the ticket closes as paid when nothing remains. The result is the one its flow
        built (cash's, from the entry its commit wrote). With nothing remaining (a comp: its lines
        discounted to 0.00) any tender closes the ticket as paid and journals no tender: no host,
        no PIN pad, no drawer (the result is None)."""
        ticket = self.ticket if self.ticket is not None else await self.refresh()
        self._open()
        if not ticket.lines:
            raise ValidationError("ticket", "has no lines: add an item or an amount first")
        if ticket.checking:
            raise ValidationError("ticket", "a tender is still being checked with the host: "
                                            "wait for its outcome before another tender")
        remaining = ticket.remaining
        if remaining <= 0:  # a comp (issue #38), or tenders recovery settled: only the closing
            if tender.amount:  # an amount typed for a ticket that asks none: a slip, never taken
                raise ValidationError(tender.kind, "nothing remains to pay on ticket {ticket}: "
                                                   "press the key with no amount typed",
                                      ticket=ticket.id)
            return TicketResult(await self._close_if_paid(ticket))
        amount = tender.amount if tender.amount is not None else remaining
        if amount <= 0:
            raise ValidationError(tender.kind, "the amount must be greater than zero")
        if tender.kind == "cash":
            # cash rounding (issue #38): the cash that pays the rest pays it rounded to the step
            asked = cash_rounded(remaining, self.settings.cash_rounding, ticket.currency)
            if tender.amount is None and asked > 0:
                amount = asked
            rounding = asked - remaining if amount >= asked and asked > 0 else Decimal(0)
            self.ctx.bounds.check_cash(amount, remaining + rounding, ticket.currency)
            entry, ticket = await self._cash(amount, remaining + rounding,
                                             ticket.tip_for(min(amount, remaining)), rounding)
            result = FlowResult(entry, outcome_of(entry), entry.message or "")
            if ticket.state == "paid":  # the cash paid the rest: closed in the same commit
                await self.basket.clear()
                return TicketResult.of(ticket, result)
            return TicketResult.of(await self._close_if_paid(ticket), result)
        if amount > remaining:
            raise ValidationError(tender.kind, f"at most the {remaining} that remains")
        elif tender.kind in ("card", "giftcard"):
            result = await self._card(ticket, amount, tender)
        else:
            from cashier.flows.qr import pay as qr_pay

            result = (await qr_pay(self.ctx, amount, tax=self._tax_of_tender(ticket, amount, amount),
                                   ticket_id=self.id)).result
        ticket = await self.refresh()
        return TicketResult.of(await self._close_if_paid(ticket), result)

    @staticmethod
    def _tax_of_tender(ticket: Ticket, charged: Decimal, applied: Decimal) -> Decimal:
        """The ticket's tax a tender of ``applied`` (``charged`` of it without a tip) carries as
        ``amount.tax`` (``money.tax_share``): the tender paying what remains carries what the
        earlier tenders did not; a tender whose answer is not known yet counts as carried."""
        taken = {t.entry_id for t in ticket.tenders if t.outcome in ("approved", "partial", "unknown")}
        already = sum((e.tax for e in ticket.record.entries if e.id in taken), Decimal(0))
        tips = sum((t.tip for t in ticket.tenders if t.outcome in ("approved", "partial")), Decimal(0))
        return tax_share(ticket.tax, ticket.total - ticket.tip, charged, already,
                         pays_rest=applied >= ticket.remaining, paid=ticket.paid - tips,
                         currency=ticket.currency)

    async def _card(self, ticket: Ticket, amount: Decimal, tender: Tender) -> FlowResult:
        """A card or gift card tender holds the PIN pad before anything of it is journaled (issue
        13 item 7): refused while another payment waits on the pad, with the tip still to be
        asked. A gift card read on the pad takes the tip as a card does (the pad asks it once,
        or the tip already taken rides on it), so the ticket's total and tip say what it charged."""
        gift = (tender.giftcard or GiftCard()) if tender.kind == "giftcard" else None
        on_pad = tender.card is None and tender.token is None and (gift is None or gift.on_pad)
        with self.ctx.pinpad.reserve(f"a sale of {amount}", on_pad, gift_card=gift is not None):
            return await self._card_on_held_pad(ticket, amount, tender, gift)

    async def _card_on_held_pad(self, ticket: Ticket, amount: Decimal, tender: Tender,
                                gift: GiftCard | None) -> FlowResult:
        ask_tip = self._asks_tip_on_pad(ticket) and (gift is None or gift.on_pad)
        if ask_tip:  # asked once: recorded before the pad asks, so a crash never asks twice
            await self.ctx.journal.set_ticket_tip(self.id, Decimal(0), how="pad asked",
                                                  actor=self.ctx.actor)
        # the tip already taken rides inside the tender that can carry it (the host sees it as a
        # tip); the others say "no tip" (0), so no gateway asks again; asked on the pad: none yet
        charge = TippedAmount(amount) if ask_tip else TippedAmount.within(amount, ticket.tip_for(amount))
        result = await sale_on_held_pad(self.ctx, charge, card=tender.card,
                                        tax=self._tax_of_tender(ticket, charge.base, amount),
                                        token=tender.token, prompt_tip=ask_tip,
                                        tip_presets=self.settings.tip_presets, ticket_id=self.id,
                                        giftcard=gift)
        entry = result.entry
        if ask_tip and entry.tip > 0 and entry.state is State.APPROVED:  # a tip voided is no tip
            await self.ctx.journal.set_ticket_tip(self.id, entry.tip, how="pad", actor=self.ctx.actor)
        if (gift is None and result.outcome == "approved"  # a gift card tender is not signed
                and self.settings.wants_signature(entry.approved)
                and self.ctx.client.option != "HD" and entry.invoice):
            await capture_signature(self.ctx, entry.invoice)
        return result

    async def _cash(self, tendered: Decimal, remaining: Decimal, tip: Decimal,
                    rounding: Decimal = Decimal(0)) -> tuple[Entry, Ticket]:
        """Cash taken in one commit (the drawer checked there too), the ticket closed with it
        when that pays the rest; ``rounding``: what rounding the rest to the profile's step
        added (journaled on the ticket in the same commit; ``remaining`` is already rounded)."""
        applied = min(tendered, remaining)
        change = tendered - applied
        ticket = self.ticket if self.ticket is not None else await self.refresh()
        entry, record = await self.ctx.journal.cash_tender(
            self.id, applied, tendered=tendered, change=change, tip=tip or None,
            tax=self._tax_of_tender(ticket, applied - tip - rounding, applied - rounding),
            actor=self.ctx.actor, message=f"cash {tendered} given, {applied} taken, change {change}",
            close_if=paid_in_full, rounding=rounding)
        return entry, await self.refresh(record)

    async def settle(self) -> Ticket:
        """After recovery told a tender's outcome: the ticket re-read, and closed if now paid
        (recovery closes it itself when that tender was the last: the pad's basket goes then)."""
        ticket = await self.refresh()
        if ticket.is_paid and self.basket.lines:
            await self.basket.clear()
            return ticket
        return await self._close_if_paid(ticket)

    async def _close_if_paid(self, ticket: Ticket) -> Ticket:
        if paid_in_full(ticket.record):
            record = await self.ctx.journal.close_ticket(self.id, "paid", actor=self.ctx.actor)
            await self.basket.clear()
            return await self.refresh(record)
        return ticket

    # ---- cancel --------------------------------------------------------------------------------
    async def cancel(self, manager: Clerk | None = None) -> Ticket:
        """Every approved card, gift card and QR tender voided (durable void jobs), cash given
        back (a cash refund entry), then the ticket closed as cancelled. With approved tenders
        the profile may want a ``manager`` (``ManagerNeeded`` before anything is undone); that
        approval covers the ticket's voids."""
        from cashier.flows.qr import cancel as qr_cancel
        from cashier.flows.recovery import void_part

        ticket = await self.refresh()
        self._open()
        for tender in ticket.tenders:  # a tender another live process sends is its own to settle
            owner = await self.ctx.journal.owned_elsewhere(tender.entry_id)
            if owner is not None:
                raise EntryOwned(f"ticket {self.id}", owner)
        for tender in ticket.tenders:  # a tender refunded meanwhile is refunded, never voided
            if tender.invoice is None or tender.kind in ("cash", "qr"):
                continue
            entry = await self.ctx.journal.get(tender.entry_id)
            if entry.state not in (State.APPROVED, State.CAPTURED):
                continue
            why = void_refusal(entry, await self.ctx.journal.refunds_in_flight(tender.invoice))
            if why is not None:
                raise ValidationError("ticket", f"ticket {self.id}: its tender invoice "
                                                f"{tender.invoice} {why}")
        taken = sum((t.amount for t in ticket.tenders
                     if t.outcome in ("approved", "partial", "unknown")), Decimal(0))
        approver = self.ctx.approval(Action.CANCEL_TICKET, taken, manager) if taken > 0 else None
        await self.ctx.journal_approval(approver, Action.CANCEL_TICKET, taken, ticket=self.id)
        for tender in ticket.tenders:
            entry = await self.ctx.journal.get(tender.entry_id)
            if entry.state in (State.INTENT, State.SENT):
                entry = await resolve(self.ctx, entry)
            if entry.kind is Kind.CASH:
                if entry.state is State.APPROVED and entry.approved > 0:
                    back = await self.ctx.journal.create(NewEntry(
                        Kind.CASH, entry.approved, actor=self.ctx.actor, op=Op.REFUND,
                        clerk=self.ctx.actor, ticket_id=self.id,
                        message=f"cash given back: ticket {self.id} cancelled"))
                    await self.ctx.move(back, State.APPROVED, approved=entry.approved)
                continue
            if entry.state not in (State.APPROVED, State.CAPTURED, State.UNKNOWN) or not entry.invoice:
                continue
            if entry.kind is Kind.QR:
                await qr_cancel(self.ctx, entry.invoice)
            else:
                await void_part(self.ctx, entry.invoice, reason=None, manager=manager,
                                covered_by=f"ticket {self.id} cancelled")
        await self.ctx.journal.close_ticket(self.id, "cancelled", actor=self.ctx.actor)
        await self.basket.clear()
        return await self.refresh()

    # ---- park and recall -----------------------------------------------------------------------
    async def park(self) -> Ticket:
        """The ticket set aside, still open, so the counter serves the next customer (issue #39):
        journaled (``ticket_parked``), so it survives a restart and is recalled by any session.
        Only a ticket with lines and no money taken is parked: once a tender applied money the
        ticket is finished or cancelled where it is."""
        ticket = await self.refresh()
        self._open()
        if not ticket.lines:
            raise ValidationError("ticket", "has no lines: there is nothing to park")
        if ticket.lines_locked or ticket.checking:
            raise ValidationError("ticket", "a tender has been applied: finish or cancel the ticket "
                                            "instead of parking it")
        await self.ctx.journal.park_ticket(self.id, parked=True, actor=self.ctx.actor)
        await self.basket.clear()  # the PIN pad shows the next customer's lines
        return ticket

    # ---- terms ---------------------------------------------------------------------------------
    async def terms_accepted(self) -> bool:
        """The profile's terms on the PIN pad (before a tab); True when none are set."""
        if not self.settings.terms_text or self.ctx.client.option == "HD":
            return True
        return await accept_terms(self.ctx, self.settings.terms_text)


def refund_plan(ticket: Ticket, *, amount: Decimal | str | None = None,
                lines: list[int] | None = None) -> list[tuple[TenderView, Decimal]]:
    """What a refund of ``ticket`` gives back to which tender, the latest tender first: the whole
    of what is not yet refunded, an amount, or some of its lines (their share of the tax with
    them). The window shows it before asking; ``refund_ticket`` carries it out. Raises
    ``ValidationError`` naming the field and the rule."""
    if ticket.state != "paid":
        raise ValidationError("ticket", f"ticket {ticket.id} is {ticket.state}: only a paid ticket "
                                        "is refunded (an open one is cancelled)")
    back: dict[str | None, Decimal] = {}
    for e in ticket.refunds:  # every refund of a tender, one answer not known yet counted too
        if e.kind is Kind.REFUND:
            gave = e.approved if e.state is State.APPROVED else e.requested if e.unresolved \
                else Decimal(0)
            back[e.original_invoice] = back.get(e.original_invoice, Decimal(0)) + gave
    cash_back = sum((e.approved for e in ticket.refunds if e.kind is Kind.CASH), Decimal(0))
    left = {t.entry_id: t.amount - (back.get(t.invoice, Decimal(0)) if t.invoice else Decimal(0))
            for t in ticket.tenders if t.outcome in ("approved", "partial")}
    cash_ids = [t.entry_id for t in ticket.tenders if t.kind == "cash"]
    for entry_id in cash_ids:  # cash given back so far comes off the cash tenders in order
        taken = min(left.get(entry_id, Decimal(0)), cash_back)
        left[entry_id] = left.get(entry_id, Decimal(0)) - taken
        cash_back -= taken
    refundable = sum(left.values(), Decimal(0))
    if lines is not None:
        if amount is not None:
            raise ValidationError("lines", "give lines or an amount, not both")
        count = len(ticket.lines)
        if not lines or any(not 0 <= i < count for i in lines) or len(set(lines)) != len(lines):
            raise ValidationError("line", "each line at most once; lines count from 1 to {count}",
                                  count=count)
        for i in lines:  # given back before (or being given back): never twice
            if ticket.line_refunded(i):
                raise LineRefunded(ticket.id, i + 1)
        want = _lines_back(ticket, lines)
    else:
        want = refundable if amount is None else parse_amount(amount, ticket.currency, field="amount")
    if want <= 0:  # issue #38: a comp's lines were paid nothing; a refund journals nothing for it
        raise ValidationError("refund", "nothing to give back on ticket {ticket}: nothing was paid "
                                        "for it, or it was all refunded", ticket=ticket.id)
    if want > refundable:
        raise ValidationError("amount", f"at most the {refundable} not yet refunded on ticket {ticket.id}")
    if any(t.kind == "qr" and left.get(t.entry_id, 0) > 0 for t in ticket.tenders):
        raise ValidationError("ticket", "was paid in part by QR code: refund that part from the QR screen")
    plan: list[tuple[TenderView, Decimal]] = []
    for tender in reversed(ticket.tenders):
        part = min(left.get(tender.entry_id, Decimal(0)), want)
        if part <= 0:
            continue
        plan.append((tender, part))
        want -= part
        if want <= 0:
            break
    return plan


def _lines_back(ticket: Ticket, lines: list[int]) -> Decimal:
    """What refunding ``lines`` gives back: exactly what was paid for each (issue #38): its amount
    after its discounts and its share of the ticket's, and, when the tax was added to the prices,
    its share of its own class's tax (``discounts.price_ticket``: the shares add up to the
    ticket's total, so refunding every line gives back what was paid, to the cent). The cash
    rounding is the ticket's, not a line's: it goes back with the last lines refunded that were
    paid for (a line discounted to 0.00 gives nothing back, so it is never refunded alone)."""
    priced = ticket.priced.lines
    back = sum((priced[i].paid for i in lines), Decimal(0))
    refunded = {i for i in range(len(ticket.lines)) if ticket.line_refunded(i)}
    paid_for = {i for i in range(len(ticket.lines)) if priced[i].paid > 0}
    if paid_for <= refunded | set(lines) and not paid_for <= refunded:  # the last paid: rounding too
        back += ticket.record.rounding
    return back.quantize(quantum(ticket.currency))


def plan_total(plan: list[tuple[TenderView, Decimal]]) -> Decimal:
    """What a ``refund_plan`` gives back in all (what the manager approves)."""
    return sum((part for _tender, part in plan), Decimal(0))


async def refund_ticket(ctx: FlowContext, ticket_id: int, *, amount: Decimal | None = None,
                        lines: list[int] | None = None, manager: Clerk | None = None) -> Ticket:
    """Money back from a paid ticket as ``refund_plan`` says: a card or gift card by a refund
    linked to its invoice (the gift card gets its balance back), cash out of the drawer (a cash
    refund entry). QR payments are refunded from the QR screen."""
    from cashier.flows.payments import refund

    ticket = await load(ctx, ticket_id)
    plan = refund_plan(ticket, amount=amount, lines=lines)
    total = plan_total(plan)
    approver = ctx.approval(Action.REFUND, total, manager)  # the rule sees the whole refund
    if any(tender.kind == "cash" for tender, _part in plan):
        await ctx.journal.require_cash_drawer()  # cash comes out of an open drawer
    await ctx.journal_approval(approver, Action.REFUND, total, ticket=ticket_id)
    # the lines are taken with the first refund's intent (another command's refund of one of
    # them, even in another process, is refused there) and carried by the refunds after it
    claim = LineRefund(tuple(ticket.lines[i].id for i in lines)) if lines is not None else None
    for tender, part in plan:
        if tender.kind == "cash":
            entry = await ctx.journal.create(NewEntry(Kind.CASH, part, actor=ctx.actor, op=Op.REFUND,
                                             clerk=ctx.actor, ticket_id=ticket_id,
                                             message=f"cash refund from ticket {ticket_id}",
                                             line_refund=claim))
            await ctx.move(entry, State.APPROVED, approved=part)
            went_back = True
        else:
            result = await refund(ctx, part, original_invoice=tender.invoice, ticket_id=ticket_id,
                                  manager=approver, line_refund=claim)
            entry, went_back = result.entry, result.outcome == "approved"
        if claim is not None and claim.group is None:
            claim = LineRefund(claim.lines, group=entry.id)
        if not went_back:
            break  # the rest waits: the ticket shows what went back
    return await load(ctx, ticket_id)


# ---- open tabs are tickets too: an authorization as the tender, closed with its tip ------------
async def open_tab(ctx: FlowContext, settings: TicketSettings, amount: Decimal, *,
                   card: KeyedCard | None = None, token: str | None = None) -> Any:
    """A ticket with the tab's amount as its line, the profile's terms on the pad (a no stops
    here, nothing held), then the authorization carrying the ticket.

    The PIN pad is held from before the ticket is journaled to the authorization's end (terms and
    card both use it), so a tab opened while another payment waits on the pad is refused with
    nothing journaled (issue 13 item 7)."""
    from cashier.flows.payments import authorize_on_held_pad

    with ctx.pinpad.reserve(f"a tab of {amount}", card is None and token is None):
        session = await TicketSession.start(ctx, settings)
        await session.add_line("Tab", amount)
        if not await session.terms_accepted():
            await session.cancel()
            raise ValidationError("terms", "the customer declined the terms: no tab was opened")
        result: FlowResult = await authorize_on_held_pad(ctx, amount, card=card, token=token,
                                                         ticket_id=session.id)
        if result.outcome != "approved":
            await session.cancel()
        return result


async def add_to_tab(ctx: FlowContext, invoice: str, increment: Decimal) -> Any:
    """Raise the tab's authorization; its ticket gets a line for what was added."""
    from cashier.flows.payments import incremental

    result = await incremental(ctx, invoice, increment)
    entry = result.entry
    if result.outcome == "approved" and entry.ticket_id is not None:
        await ctx.journal.add_ticket_line(entry.ticket_id, name="Added to tab", quantity=1,
                                          unit_price=increment, actor=ctx.actor)
    return result


async def close_tab(ctx: FlowContext, invoice: str, tip: Decimal = Decimal(0)) -> Any:
    """Capture the tab for its ticket's total plus the tip; the tip is the ticket's (journaled
    first), and the ticket closes as paid."""
    from cashier.flows.payments import capture, check_within_tab

    entry = await ctx.journal.by_invoice(invoice)
    if entry is None or entry.ticket_id is None:
        return await capture(ctx, invoice, tip=tip)  # a tab opened before tickets
    ticket = await load(ctx, entry.ticket_id)
    if ticket.state != "open":
        raise ValidationError("invoice", f"its ticket {ticket.id} is {ticket.state}")
    tip = parse_amount(tip, ticket.currency, field="tip", allow_zero=True)
    base = TippedAmount.within(ticket.total, ticket.tip).base  # the tab's total before any tip
    check_within_tab(ctx, entry, base, tip)   # before the ticket's tip is journaled
    await ctx.journal.set_ticket_tip(ticket.id, tip, how="tab", actor=ctx.actor)
    result = await capture(ctx, invoice, base, tip=tip)
    await TicketSession(ctx, ticket.id, TicketSettings()).settle()
    return result


async def open_tickets(ctx: FlowContext, settings: TicketSettings) -> list[TicketSession]:
    """The tickets a crash left open (not the parked ones), each with its tenders' true outcomes
    (run after recovery).
    A ticket with neither a line nor a tender is nothing to finish: it is not offered (the
    counter does not greet the next cashier with "left open: remaining 0.00")."""
    parked = set(await ctx.journal.parked_ticket_ids())  # they wait in the parked list
    sessions = [await TicketSession.resume(ctx, tid, settings)
                for tid in reversed(await ctx.journal.ticket_ids(open_only=True)) if tid not in parked]
    return [s for s in sessions if s.ticket is not None and (s.ticket.lines or s.ticket.tenders)]


async def parked_tickets(ctx: FlowContext) -> list[Ticket]:
    """The parked tickets, oldest first (what the Sale screen's list offers to recall)."""
    return [await load(ctx, tid) for tid in await ctx.journal.parked_ticket_ids()]


async def recall(ctx: FlowContext, ticket_id: int, settings: TicketSettings) -> TicketSession:
    """A parked ticket taken back (``ticket_recalled``, refused in the same write when it is not
    parked: two tills never take one ticket), resumed as the open ticket on the counter."""
    await ctx.journal.park_ticket(ticket_id, parked=False, actor=ctx.actor)
    return await TicketSession.resume(ctx, ticket_id, settings)


async def load(ctx: FlowContext, ticket_id: int) -> Ticket:
    return Ticket.of(await ctx.journal.ticket(ticket_id))


def receipt_lines(ticket: Ticket, company: str = "", till: str = "", width: int = 32,
                  language: str = "en") -> list[str]:
    """One receipt per ticket (the PIN pad's printer and the screen): the one layout,
    ``cashier.printing.receipt``, as the receipt printer's."""
    from cashier.printing.receipt import ReceiptStyle, ticket_receipt

    return ticket_receipt(ticket, ReceiptStyle(company=company, till_id=till, width=width,
                                               language=language))
