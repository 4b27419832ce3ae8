"""Sale, refund, and the restaurant tab (authorization, incremental, capture with tip).

Each flow validates before anything is journaled, commits the intent (invoice allocated in the
same transaction), then hands the request to ``send_journaled``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from cashier.cards import check_not_expired, check_token
from cashier.clerks import Action, Clerk, manager_needed
from cashier.errors import ValidationError
from cashier.flows.base import (
    APPROVED_CODES,
    FlowContext,
    FlowResult,
    Presented,
    finish,
    resolve,
    send_journaled,
    whose_request,
)
from cashier.flows.events import DevicePrompt
from cashier.flows.giftcards import GiftCard
from cashier.flows.offline import check_tender
from cashier.flows.recovery import REASON_MERCHANT_CANCEL, run_void_job
from cashier.host.errors import HostError, InvoiceNotFound
from cashier.host.models.common import Amount, Card, SecurityCode, TipOptions, Token
from cashier.journal.model import Entry, Kind, NewEntry, Op, State
from cashier.journal.tickets import LineRefund
from cashier.journal.tokens import decode_token
from cashier.money import TippedAmount, check_capture, check_tax, check_tip, check_tip_within
from cashier.money import capture_bound as money_capture_bound
from cashier.redact import luhn_ok, mask_pan, redact


@dataclass(frozen=True)
class KeyedCard:
    """A card typed by the cashier. Lives only in memory for one request; never journaled."""

    number: str
    expiration: str  # MMYY
    security_code: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        digits = re.sub(r"[ -]", "", self.number)
        if not digits.isdigit() or not 13 <= len(digits) <= 19:
            raise ValidationError("card", "must be 13 to 19 digits")
        if not luhn_ok(digits):
            raise ValidationError("card", "fails the check digit (Luhn): mistyped?")
        if not re.fullmatch(r"(0[1-9]|1[0-2])\d\d", self.expiration):
            raise ValidationError("exp", "must be MMYY, for example 1228")
        check_not_expired("exp", int(self.expiration[:2]), 2000 + int(self.expiration[2:]))
        if self.security_code is not None and not re.fullmatch(r"\d{3,4}", self.security_code):
            raise ValidationError("security_code", "must be 3 or 4 digits")
        object.__setattr__(self, "number", digits)

    def __repr__(self) -> str:
        return f"KeyedCard({mask_pan(self.number)})"

    @property
    def masked(self) -> str:
        return mask_pan(self.number)

    def wire(self) -> Card:
        code = SecurityCode(indicator="1", value=self.security_code) if self.security_code else None
        return Card(number=self.number, expiration_date=int(self.expiration), entry_mode="M",
                    present="N", security_code=code)


def _amount(ctx: FlowContext, value: Decimal, field_name: str, *, allow_zero: bool = False) -> Decimal:
    return ctx.bounds.parse(value, ctx.journal.currency, field_name, allow_zero=allow_zero)


def _card_part(card: KeyedCard | None, token: str | None) -> Card | None:
    if card is not None and token is not None:
        raise ValidationError("card", "give a card or a token, not both")
    if card is not None:
        return card.wire()
    if token is not None:
        check_token("token", token)
        if not re.fullmatch(r"[A-Za-z0-9]{1,16}", token):
            raise ValidationError("token", "must be 1 to 16 letters or digits")
        return Card(token=Token(value=token))
    return None


def _check_pad(ctx: FlowContext, card: Card | None) -> None:
    if card is None and ctx.client.option == "HD":
        raise ValidationError("card", "Host Direct has no PIN pad: key a card (--card, --exp) "
                                      "or give a token")


async def _continue(ctx: FlowContext, invoice: str, kind: Kind, total: Decimal,
                    presented: Presented) -> Entry | FlowResult:
    """A retry reuses the journal's invoice, and is only ever the same payment: same kind, same
    amount, same card (keyed, token or PIN pad, as it was started). Anything else, or a payment
    already settled, is refused before anything is sent: the host would amend the earlier
    payment (another customer's card charged the difference, docs/decisions/007-recovery-and-the-host.md,
    "Money and authority, round 4"). A payment the journal holds as not charged is sent again only once the
    host says it holds no one else's approval under the number (``whose_request``)."""
    entry = await ctx.journal.by_invoice(invoice)
    if entry is None:
        raise ValidationError("invoice", "is not in this till's journal: omit it to start a new "
                                         "payment (invoices are allocated by the journal)")
    if entry.kind is not kind:
        raise ValidationError("invoice", f"{invoice} belongs to a {entry.kind}: a retry is the same "
                                         "kind of payment; omit --invoice to start a new one")
    started = await _started_with(ctx, entry)
    if total != entry.requested:
        raise ValidationError("invoice", f"{invoice} is a payment of {entry.requested}, not "
                                         f"{total}: a retry is the same payment; omit --invoice to "
                                         "start a new one")
    if presented != started:
        raise ValidationError("invoice", f"{invoice} was started with {started.words()}, not "
                                         f"{presented.words()}: a retry is the same payment on the "
                                         "same card; omit --invoice to start a new one")
    if entry.state in (State.INTENT, State.SENT, State.UNKNOWN):
        entry = await resolve(ctx, entry)
        if entry.state is State.UNKNOWN:
            return finish(ctx, entry, "outcome still unknown: run recovery before retrying")
    if entry.state in (State.VOIDING, State.VOIDED, State.CAPTURED) or entry.batch_no \
            or entry.refunded > 0:
        settled = "in a closed batch" if entry.batch_no else entry.state
        raise ValidationError("invoice", f"{invoice} is {settled}: a settled payment is never sent "
                                         "again; start a new payment instead")
    if entry.state is State.APPROVED and entry.approved >= total:
        return finish(ctx, entry, "already approved for this amount: nothing sent")
    if entry.approved == 0:
        await _host_holds_no_other(ctx, entry, started)
    return entry


async def _started_with(ctx: FlowContext, entry: Entry) -> Presented:
    """The card the entry was started with, as its ``created`` event journaled it (its columns
    later hold the card the host named)."""
    created = next((e for e in await ctx.journal.events(entry.id) if e.type == "created"), None)
    if created is None:  # never without one; the columns are the next best
        return Presented(entry.card_last4, entry.token)
    return Presented(created.data.get("card_last4"), decode_token(created.data.get("token")))


async def _host_holds_no_other(ctx: FlowContext, entry: Entry, started: Presented) -> None:
    """Before a payment the journal holds as not charged is sent again: the host must hold no
    approval under its number that is not this payment's (another till with the same number, a
    replaced journal). Refused, nothing sent, when it does or cannot be asked."""
    invoice = str(entry.invoice)
    try:
        held = await ctx.client.invoice_status(invoice)
    except InvoiceNotFound:
        return
    except HostError as exc:
        raise ValidationError("invoice", f"{invoice}: the host could not be asked what it holds "
                                         f"under this number ({redact(exc.short_text)}); nothing "
                                         "was sent: try again") from None
    if held.response_code in APPROVED_CODES and whose_request(entry, held, started) != "ours":
        raise ValidationError("invoice", f"{invoice}: the host holds another payment under this "
                                         "number; nothing was sent: start a new payment (omit "
                                         "--invoice) and let a manager settle this one with the host")


async def sale(ctx: FlowContext, amount: Decimal, *, tip: Decimal | None = None,
               tax: Decimal = Decimal(0), card: KeyedCard | None = None, token: str | None = None,
               invoice: str | None = None, prompt_tip: bool = False,
               tip_presets: tuple[Decimal, ...] = (Decimal(15), Decimal(18), Decimal(20)),
               ticket_id: int | None = None, giftcard: GiftCard | None = None) -> FlowResult:
    """A sale: keyed card or token (any option), or the PIN pad (LG, DCP, DCC).

    ``tip`` is a tip known up front (added to the total); ``prompt_tip`` asks the customer on a
    DCP/DCC pad, whose chosen tip comes back in the answer and is journaled. ``giftcard`` (typed,
    a token, or read on the pad) makes it a gift card sale (``Kind.GIFTCARD_SALE``): the host
    spends the card's balance and approves partially when it is short.
    """
    on_pad = card is None and token is None and (giftcard is None or giftcard.on_pad)
    with ctx.pinpad.reserve(f"a sale of {amount}", on_pad, gift_card=giftcard is not None):
        return await _sale(ctx, TippedAmount(amount, tip), tax=tax, card=card, token=token, invoice=invoice,
                           prompt_tip=prompt_tip, tip_presets=tip_presets, ticket_id=ticket_id,
                           giftcard=giftcard)


async def sale_on_held_pad(ctx: FlowContext, charge: TippedAmount, *,
                           card: KeyedCard | None = None, token: str | None = None,
                           prompt_tip: bool = False,
                           tip_presets: tuple[Decimal, ...] = (Decimal(15), Decimal(18), Decimal(20)),
                           ticket_id: int | None = None,
                           giftcard: GiftCard | None = None, tax: Decimal = Decimal(0)) -> FlowResult:
    """A card (or gift card) sale for a caller that already holds the PIN pad (a ticket's card
    or gift card tender, which journals "tip asked" only once the pad is its own). ``charge``: the
    tender's amount with the tip it carries (``TippedAmount.within``); ``tax``: its share of the
    ticket's tax."""
    return await _sale(ctx, charge, tax=tax, card=card, token=token, invoice=None,
                       prompt_tip=prompt_tip, tip_presets=tip_presets, ticket_id=ticket_id,
                       giftcard=giftcard)


async def _sale(ctx: FlowContext, charge: TippedAmount, *,
                tax: Decimal, card: KeyedCard | None, token: str | None,
                invoice: str | None, prompt_tip: bool, tip_presets: tuple[Decimal, ...],
                ticket_id: int | None, giftcard: GiftCard | None) -> FlowResult:
    amount = _amount(ctx, charge.base, "amount")
    tip = _amount(ctx, charge.tip, "tip", allow_zero=True) if charge.tip is not None else None
    tax = check_tax(amount, _amount(ctx, tax, "tax", allow_zero=True))
    if tip is not None:
        check_tip_within(amount, tip, ctx.journal.currency, ctx.bounds)
    total = TippedAmount(amount, tip).total
    kind = Kind.SALE
    if giftcard is not None:
        if card is not None or token is not None:
            raise ValidationError("card", "give a card or a gift card, not both")
        kind, wire_card, masked, token = Kind.GIFTCARD_SALE, giftcard.wire(), giftcard.masked, None
    else:
        wire_card = _card_part(card, token)
        masked = card.masked if card is not None else None
    _check_pad(ctx, wire_card)
    await check_tender(ctx, total, what="giftcard" if kind is Kind.GIFTCARD_SALE else "sale",
                       keyed=card is not None)
    if invoice is not None:
        found = await _continue(ctx, invoice, kind, total, Presented.of(masked, token))
        if isinstance(found, FlowResult):
            return found
        entry = found
    else:
        entry = await ctx.journal.create(NewEntry(kind, total, actor=ctx.actor, tip=tip, tax=tax,
                                         card=masked, token=token, clerk=ctx.actor, op=Op.SALE,
                                         sent=True, ticket_id=ticket_id))
    if wire_card is None:
        what = "gift card" if kind is Kind.GIFTCARD_SALE else "card"
        ctx.bus.publish(DevicePrompt(entry.id, f"Present {what} for {total} on the PIN pad"))
    presets = (*tip_presets, None, None, None)[:3]
    tip_options = TipOptions(preset_type="percent", preset1=presets[0], preset2=presets[1],
                             preset3=presets[2]) if prompt_tip else None
    wire_amount = Amount(total=total, tax=tax, tip=tip)
    inv = str(entry.invoice)
    entry = await send_journaled(
        ctx, entry, Op.SALE,
        lambda: ctx.client.sale(invoice=inv, amount=wire_amount, card=wire_card, tip=tip_options,
                                clerk_id=ctx.clerk_id),
        pending=total, presented=Presented.of(masked, token))
    return await _within_tip_rules(ctx, entry, amount)


async def _within_tip_rules(ctx: FlowContext, entry: Entry, amount: Decimal) -> FlowResult:
    """The tip rules hold for a tip the customer chose on the PIN pad too (LG's gateway asks by
    its own settings; a DCP/DCC pad's "other" takes any amount, and no request field bounds it):
    an approval whose tip breaks them is voided at once, the void journaled first as every money
    movement, and the payment is still due. The cashier reads which rule in one line."""
    if entry.state is not State.APPROVED or entry.tip <= 0 or entry.invoice is None:
        return finish(ctx, entry)
    try:
        check_tip_within(amount, entry.tip, ctx.journal.currency, ctx.bounds)
    except ValidationError as broken:  # the rule's own words, without the keyed tip's hint
        rule = broken.rule.split(": ", 1)[0]
    else:
        return finish(ctx, entry)
    await ctx.journal.note(entry.id, "tip_refused", actor=ctx.actor, tip=str(entry.tip),
                           amount=str(amount), rule=rule)
    entry, job = await ctx.journal.request_void(entry.id, reason=REASON_MERCHANT_CANCEL,
                                                actor=ctx.actor)
    entry = await run_void_job(ctx, job)
    done = "voided" if entry.state is State.VOIDED else "being voided (retried until the host confirms)"
    return finish(ctx, entry, f"{done}: the tip of {entry.tip} chosen on the PIN pad breaks the tip "
                              f"rule (tip: {rule}); nothing is charged and the payment is still due")


async def authorize(ctx: FlowContext, amount: Decimal, *, card: KeyedCard | None = None,
                    token: str | None = None, invoice: str | None = None,
                    ticket_id: int | None = None) -> FlowResult:
    """Open a tab: approval without capture."""
    with ctx.pinpad.reserve(f"a tab of {amount}", card is None and token is None):
        return await _authorize(ctx, amount, card=card, token=token, invoice=invoice,
                                ticket_id=ticket_id)


async def authorize_on_held_pad(ctx: FlowContext, amount: Decimal, *, card: KeyedCard | None = None,
                                token: str | None = None, ticket_id: int | None = None) -> FlowResult:
    """Open a tab for a caller that already holds the PIN pad (a tab's ticket, whose terms and
    card share one reservation)."""
    return await _authorize(ctx, amount, card=card, token=token, invoice=None, ticket_id=ticket_id)


async def _authorize(ctx: FlowContext, amount: Decimal, *, card: KeyedCard | None,
                     token: str | None, invoice: str | None, ticket_id: int | None) -> FlowResult:
    amount = _amount(ctx, amount, "amount")
    wire_card = _card_part(card, token)
    _check_pad(ctx, wire_card)
    await check_tender(ctx, amount, what="tab", keyed=card is not None)
    if invoice is not None:
        found = await _continue(ctx, invoice, Kind.AUTHORIZATION, amount,
                                Presented.of(card.masked if card else None, token))
        if isinstance(found, FlowResult):
            return found
        entry = found
    else:
        entry = await ctx.journal.create(NewEntry(
            Kind.AUTHORIZATION, amount, actor=ctx.actor, card=card.masked if card else None,
            token=token, clerk=ctx.actor, op=Op.AUTHORIZATION, sent=True, ticket_id=ticket_id))
    if wire_card is None:
        ctx.bus.publish(DevicePrompt(entry.id, f"Present card to open a tab of {amount}"))
    inv = str(entry.invoice)
    entry = await send_journaled(
        ctx, entry, Op.AUTHORIZATION,
        lambda: ctx.client.authorization(invoice=inv, amount=Amount(total=amount, tax=Decimal(0)),
                                         card=wire_card, clerk_id=ctx.clerk_id),
        pending=amount, presented=Presented.of(card.masked if card else None, token))
    return await _within_tip_rules(ctx, entry, amount)


async def _open_tab(ctx: FlowContext, invoice: str) -> Entry:
    entry = await ctx.journal.by_invoice(invoice)
    if entry is None or entry.kind is not Kind.AUTHORIZATION:
        raise ValidationError("invoice", "is not an authorization in this till's journal")
    if entry.state is not State.APPROVED:
        raise ValidationError("invoice", f"is {entry.state}, not an open authorization")
    if not entry.token:
        raise ValidationError("invoice", "has no card token on file: capture needs one")
    return entry


async def incremental(ctx: FlowContext, invoice: str, increment: Decimal) -> FlowResult:
    """Raise an open authorization by ``increment`` (the host answers the new total)."""
    increment = _amount(ctx, increment, "increment")
    entry = await _open_tab(ctx, invoice)
    token = str(entry.token)
    new_total = entry.approved + increment  # the client sends the new total; the host seeks the rest
    entry = await send_journaled(
        ctx, entry, Op.INCREMENTAL,
        lambda: ctx.client.incremental_authorization(
            invoice=invoice, amount=Amount(total=new_total), token=token, clerk_id=ctx.clerk_id),
        pending=new_total)
    return finish(ctx, entry)


def capture_bound(ctx: FlowContext, tab: Entry) -> tuple[Decimal, Decimal]:
    """(most amount, most tip) the Open tabs screen shows and ``capture`` enforces for ``tab``."""
    return money_capture_bound(tab.approved, ctx.max_tip_percent, ctx.journal.currency)


def check_within_tab(ctx: FlowContext, tab: Entry, amount: Decimal, tip: Decimal) -> Decimal:
    """The capture rule (``money.check_capture``, then the tip rule); the tip as checked."""
    check_capture(tab.approved, amount, tip, ctx.max_tip_percent, ctx.journal.currency)
    return check_tip(amount, tip, ctx.journal.currency)


async def capture(ctx: FlowContext, invoice: str, amount: Decimal | None = None, *,
                  tip: Decimal = Decimal(0)) -> FlowResult:
    """Close a tab for ``amount`` (default: the authorized amount) plus ``tip``, within the
    authorization (``money.check_capture``)."""
    entry = await _open_tab(ctx, invoice)
    base = _amount(ctx, amount, "amount") if amount is not None else entry.approved
    tip = check_within_tab(ctx, entry, base, _amount(ctx, tip, "tip", allow_zero=True))
    total = TippedAmount(base, tip).total
    token = str(entry.token)
    wire = Amount(total=total, tip=tip if tip > 0 else None)
    entry = await send_journaled(
        ctx, entry, Op.CAPTURE,
        lambda: ctx.client.capture(invoice=invoice, amount=wire, token=token, clerk_id=ctx.clerk_id),
        pending=total)
    return finish(ctx, entry)


async def refund(ctx: FlowContext, amount: Decimal, *, original_invoice: str | None = None,
                 card: KeyedCard | None = None, token: str | None = None,
                 ticket_id: int | None = None, manager: Clerk | None = None,
                 line_refund: LineRefund | None = None) -> FlowResult:
    """Linked (``original_invoice``: the card on file, at most what is left) or unlinked. A refund
    above the profile's ``refund_above`` needs ``manager`` (``ManagerNeeded`` before anything).
    ``line_refund``: the ticket lines it gives back, taken with its intent (``refund_ticket``)."""
    amount = _amount(ctx, amount, "amount")
    wire_card = _card_part(card, token)
    if original_invoice is not None:
        original = await ctx.journal.by_invoice(original_invoice)
        if original is not None:
            if original.state not in (State.APPROVED, State.CAPTURED):
                raise ValidationError("original_invoice", f"is {original.state}: only an approved "
                                                          "payment can be refunded")
            if amount > original.refundable:
                raise ValidationError("amount", f"exceeds the {original.refundable} left to refund "
                                                f"on invoice {original_invoice}")
            if wire_card is None and original.token:
                token = original.token  # the card on file, so no PIN pad and no keyed card
                wire_card = _card_part(None, token)
    else:
        _check_pad(ctx, wire_card)
    approver = ctx.approval(Action.REFUND, amount, manager)
    with ctx.pinpad.reserve(f"a refund of {amount}", wire_card is None):
        entry = await ctx.journal.create(NewEntry(
            Kind.REFUND, amount, actor=ctx.actor, card=card.masked if card else None, token=token,
            original_invoice=original_invoice, clerk=ctx.actor, op=Op.REFUND, sent=True,
            ticket_id=ticket_id, line_refund=line_refund))
        await ctx.journal_approval(approver, Action.REFUND, amount, entry_id=entry.id)
        if wire_card is None and original_invoice is None:
            ctx.bus.publish(DevicePrompt(entry.id, f"Present card for a refund of {amount}"))
        inv = str(entry.invoice)
        entry = await send_journaled(
            ctx, entry, Op.REFUND,
            lambda: ctx.client.refund(invoice=inv, amount=Amount(total=amount, tax=Decimal(0)),
                                      card=wire_card, original_invoice=original_invoice,
                                      clerk_id=ctx.clerk_id),
            pending=amount)
        return finish(ctx, entry)


#: A voice authorization code: what the card issuer's voice centre reads out (at most 6).
_VOICE_CODE = re.compile(r"[A-Za-z0-9]{1,6}")


async def manual_sale(ctx: FlowContext, amount: Decimal, *, authorization_code: str,
                      card: KeyedCard | None = None, token: str | None = None,
                      manager: Clerk | None = None, ticket_id: int | None = None) -> FlowResult:
    """A sale on a voice authorization code (``/transactions/manualsale``), for a till whose
    host cannot be reached and that has no gateway to store in (HD, DCC; any option may use it):
    no processor approves it, so a manager approves it with their PIN, journaled
    (``manager_approved``) before anything is sent. The card is keyed or a token: the voice
    centre needs its number, the PIN pad is not asked."""
    amount = _amount(ctx, amount, "amount")
    code = (authorization_code or "").strip()
    if not _VOICE_CODE.fullmatch(code):
        raise ValidationError("authorization_code", "is the voice authorization code: 1 to 6 "
                                                    "letters or digits")
    wire_card = _card_part(card, token)
    if wire_card is None:
        raise ValidationError("card", "a manual sale keys the card (--card, --exp) or gives a token")
    approver = ctx.approval(Action.MANUAL_SALE, amount, manager)
    if approver is None:  # a till without clerks: the manager's PIN all the same
        if manager is None:
            raise manager_needed(Action.MANUAL_SALE, amount, ctx.journal.currency)
        approver = manager
    entry = await ctx.journal.create(NewEntry(
        Kind.MANUAL_SALE, amount, actor=ctx.actor, card=card.masked if card else None, token=token,
        clerk=ctx.actor, op=Op.MANUAL_SALE, sent=True, ticket_id=ticket_id))
    await ctx.journal_approval(approver, Action.MANUAL_SALE, amount, entry_id=entry.id,
                               authorization_code=code.upper())
    inv = str(entry.invoice)
    entry = await send_journaled(
        ctx, entry, Op.MANUAL_SALE,
        lambda: ctx.client.manual_sale(invoice=inv, amount=Amount(total=amount, tax=Decimal(0)),
                                       authorization_code=code.upper(), card=wire_card,
                                       clerk_id=ctx.clerk_id),
        pending=amount, presented=Presented.of(card.masked if card else None, token))
    return finish(ctx, entry)
