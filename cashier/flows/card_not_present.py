"""Card-not-present work at the till on the Charge API: phone orders, pay by link, customers with
saved cards, and refunds of Charge API payments. Built on ``cashier.chargeapi.journaled`` (every money
movement journaled by its idempotency key before it is sent); emits plain events, knows no Qt.

Card data typed for a phone order goes to ``POST /tokens`` only (with the public key when the till
has one) and is never journaled, logged or kept: the journal holds the token, the charge id and
the masked card the API answers with.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from cashier.cards import check_not_expired
from cashier.chargeapi import models as api
from cashier.chargeapi.client import Record
from cashier.chargeapi.errors import (
    CardError,
    ChargeApiError,
    ChargeApiNoDecision,
    NotFoundError,
)
from cashier.chargeapi.journaled import JournaledChargeApi, MovementResult
from cashier.clerks import Action, Clerk
from cashier.entry_rules import CHARGE_ORIGIN_OPS, refundable_amount
from cashier.errors import ValidationError
from cashier.flows import qr
from cashier.flows.base import FlowContext
from cashier.flows.events import LinkChargeSeen as LinkChargeSeen  # re-exported: published here
from cashier.flows.events import LinkCreated as LinkCreated
from cashier.flows.events import LinkStatus as LinkStatus
from cashier.journal.model import Entry, Kind, NewEntry, Op, Outcome, State
from cashier.money import CHARGE_API_MAX_MINOR, from_minor, parse_amount, to_minor
from cashier.redact import luhn_ok

log = logging.getLogger(__name__)

#: Ops of a Charge API entry that took (or hold) the customer's money: what a refund undoes.
ORIGIN_OPS = CHARGE_ORIGIN_OPS


# ---- results -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardNotPresentResult:
    """What the window shows after a money movement (or an attempt that never became one)."""

    outcome: Outcome  # approved, declined, error or unknown
    message: str = ""
    entry: Entry | None = None
    charge_id: str | None = None
    card: str | None = None
    code: str | None = None


@dataclass(frozen=True)
class PaymentLink:
    id: str
    url: str
    amount: Decimal
    currency: str
    active: bool
    successful_charges: int = 0
    deactivation_reason: str | None = None


@dataclass(frozen=True)
class LinkWatch:
    """How a link's charges are watched: first wait, growth, ceiling, and the overall wait."""

    first_s: float = 1.0
    factor: float = 1.5
    max_s: float = 5.0
    timeout_s: float = 15 * 60.0


@dataclass
class LinkResult:
    link: PaymentLink
    reason: str  # paid, cancelled, deactivated, timeout
    paid: list[Entry] = field(default_factory=list)
    attempts: list[LinkChargeSeen] = field(default_factory=list)

    @property
    def paid_by_link(self) -> bool:
        """The customer paid the link (its charge is the last of ``paid``)."""
        return self.reason == "paid"

    @property
    def ended_unpaid(self) -> bool:
        """The watch ended without a payment: cancelled, deactivated or out of time."""
        return self.reason in ("cancelled", "deactivated", "timeout")


@dataclass(frozen=True)
class SavedCard:
    id: str
    brand: str
    masked: str
    expiry: str
    default: bool


@dataclass(frozen=True)
class Customer:
    id: str
    email: str
    description: str
    default_card_id: str | None
    cards: tuple[SavedCard, ...] = ()

    @property
    def default_card(self) -> SavedCard | None:
        return next((c for c in self.cards if c.default), None)


# ---- card details (phone order) ----------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class CardDetails:
    """Card data read over the phone, checked before anything is sent; lives only until tokenized.
    ``repr`` never shows the number (a traceback or a log line cannot carry it)."""

    number: str
    exp_month: str
    exp_year: str
    cvc: str | None = None
    postal_code: str | None = None

    def __repr__(self) -> str:
        return f"CardDetails(last4={self.number[-4:]}, exp={self.exp_month}/{self.exp_year})"

    @classmethod
    def parse(cls, number: str, expiry: str, cvc: str = "", postal_code: str = "") -> CardDetails:
        """What the cashier typed; ``ValidationError`` names the field and the rule."""
        digits = re.sub(r"[ -]", "", number or "")
        if not digits.isdigit() or not 12 <= len(digits) <= 19:
            raise ValidationError("card number", "must be 12 to 19 digits")
        if not luhn_ok(digits):
            raise ValidationError("card number", "is not a valid card number (check digit); read it again")
        match = re.fullmatch(r"\s*(\d{1,2})\s*/?\s*(\d{2}|\d{4})\s*", expiry or "")
        if not match or not 1 <= int(match.group(1)) <= 12:
            raise ValidationError("expiry", "must be MM/YY with a month 01 to 12")
        month, year = match.group(1).zfill(2), match.group(2)
        full_year = int(year) + (2000 if len(year) == 2 else 0)
        check_not_expired("expiry", int(month), full_year)
        cvc = (cvc or "").strip()
        if cvc and not re.fullmatch(r"\d{3,4}", cvc):
            raise ValidationError("security code", "must be 3 or 4 digits")
        postal = (postal_code or "").strip()
        if postal and not re.fullmatch(r"[A-Za-z0-9 -]{1,10}", postal):
            raise ValidationError("postal code", "must be 1 to 10 letters, digits, spaces or dashes")
        return cls(digits, month, year, cvc or None, postal or None)


# ---- plumbing ----------------------------------------------------------------------------------
def charge_api_of(ctx: FlowContext) -> JournaledChargeApi:
    charge_api = ctx.charge_api
    if charge_api is None:
        raise ValidationError("charge_api_url", "this till has no Charge API: set charge_api_url in the till "
                                             "profile and its secret key in the keyring")
    assert isinstance(charge_api, JournaledChargeApi)
    return charge_api


def _check_amount(amount: Decimal, currency: str) -> Decimal:
    return parse_amount(amount, currency, "amount",
                        maximum=from_minor(CHARGE_API_MAX_MINOR, currency))


def _masked(card: api.Card | None) -> str | None:
    if card is not None and card.first6 and card.last4:
        return f"{card.first6}XXXXXX{card.last4}"
    return None


def _result(ctx: FlowContext, outcome: MovementResult) -> CardNotPresentResult:
    entry = outcome.entry
    state = entry.state
    name: Outcome
    if state in (State.APPROVED, State.CAPTURED):
        name = "approved"
    elif state is State.DECLINED:
        name = "declined"
    elif state in (State.UNKNOWN, State.SENT, State.INTENT):
        name = "unknown"
    else:
        name = "error"
    error = outcome.error
    message = error.message if error is not None else ""
    if name == "unknown":
        message = "no answer from the Charge API: recovery re-sends it with the same key (never twice)"
    charge_id = outcome.result.id if outcome.result is not None else (error.charge_id if error else None)
    return CardNotPresentResult(name, message, entry, charge_id or entry.charge_id, entry.card,
                        error.code if error is not None else None)


def _refused(exc: ChargeApiError) -> CardNotPresentResult:
    """An attempt that moved no money (the token was refused): nothing to journal."""
    outcome: Outcome = "declined" if isinstance(exc, CardError) else "error"
    return CardNotPresentResult(outcome, exc.message, code=exc.code)


async def _tokenize(charge_api: JournaledChargeApi, card: CardDetails) -> str:
    client = charge_api.client
    token = await client.create_token(card.number, card.exp_month, card.exp_year, cvc=card.cvc,
                                      address_zip=card.postal_code, use_public_key=True)
    return token.id


# ---- phone order -------------------------------------------------------------------------------
async def phone_order(ctx: FlowContext, amount: Decimal, card: CardDetails, *, currency: str = "USD",
                      authorize_only: bool = False, description: str | None = None) -> CardNotPresentResult:
    """Card read over the phone -> token -> a journaled charge of the token."""
    charge_api = charge_api_of(ctx)
    _check_amount(amount, currency)
    try:
        token = await _tokenize(charge_api, card)
    except ChargeApiError as exc:
        return _refused(exc)
    outcome = await charge_api.charge(amount, currency, card=token, captured=not authorize_only,
                                   description=description or "phone order", actor=ctx.actor)
    return _result(ctx, outcome)


# ---- pay by link -------------------------------------------------------------------------------
def _link(record: Record[api.PaymentLink]) -> PaymentLink:
    obj = record.model
    currency = obj.currency or "USD"
    return PaymentLink(id=obj.id, url=obj.url, amount=from_minor(obj.amount, currency), currency=currency,
                       active=obj.active, successful_charges=obj.successful_charges,
                       deactivation_reason=obj.deactivation_reason)


async def create_link(ctx: FlowContext, amount: Decimal, *, currency: str = "USD", name: str | None = None,
                      max_charges: int = 1) -> PaymentLink:
    """A link for one sale. Decision: it takes ``max_charges`` (1) successful charge and then
    deactivates itself, so a link passed on twice can never be paid twice."""
    charge_api = charge_api_of(ctx)
    _check_amount(amount, currency)
    obj = await charge_api.client.create_payment_link(to_minor(amount, currency), currency, name=name,
                                                   max_successful_charges=max_charges)
    link = _link(obj)
    ctx.bus.publish(LinkCreated(link.id, link.url, link.amount, link.currency))
    return link


async def deactivate_link(ctx: FlowContext, link_id: str) -> PaymentLink:
    link = _link(await charge_api_of(ctx).client.deactivate_payment_link(link_id))
    ctx.bus.publish(LinkStatus(link.id, "deactivated", link.deactivation_reason or "manual"))
    return link


async def record_link_charge(ctx: FlowContext, charge: api.Charge | Record[api.Charge]) -> Entry:
    """Journal a successful charge the customer made through a link (the till did not send it).

    Keyed ``link:<charge id>``, so seeing it again (another poll, another till process) finds the
    same entry instead of counting it twice."""
    if isinstance(charge, Record):
        charge = charge.model
    charge_id = charge.id
    currency = charge.currency
    amount = from_minor(charge.amount, currency)
    key = f"link:{charge_id}"
    entry = await ctx.journal.by_idempotency_key(key)
    if entry is None:
        entry = await ctx.journal.create(NewEntry(Kind.CHARGE, amount, actor=ctx.actor, currency=currency,
                                         idempotency_key=key, op=Op.CHARGE,
                                         payment_link_id=charge.payment_link_id or None))
    if entry.state in (State.APPROVED, State.CAPTURED):
        return entry
    if entry.state is not State.INTENT:  # left open or marked never-sent by a crash: it did happen
        entry = await ctx.journal.transition(entry.id, State.SENT, actor=ctx.actor)
    fields: dict[str, Any] = {"approved": amount, "charge_id": charge_id,
                              "message": f"paid through payment link {charge.payment_link_id}"}
    if charge.captured:
        fields["captured"] = amount
    card = _masked(charge.card)
    if card:
        fields["card"] = card
    return await ctx.journal.transition(entry.id, State.APPROVED, actor=ctx.actor, **fields)


async def _link_charges(charge_api: JournaledChargeApi, link_id: str) -> list[api.Charge]:
    return [charge async for charge in charge_api.client.iterate_models(
        f"/payment-links/{link_id}/charges", api.Charge)]


async def _seen(ctx: FlowContext, link_id: str, charge: api.Charge, seen: set[str],
                result: LinkResult) -> None:
    if charge.id in seen or charge.status == "pending":
        return
    seen.add(charge.id)
    entry = await record_link_charge(ctx, charge) if charge.status == "successful" else None
    event = LinkChargeSeen(link_id, charge.id, charge.status, from_minor(charge.amount, charge.currency),
                           _masked(charge.card), charge.failure_code, entry)
    result.attempts.append(event)
    if entry is not None:
        result.paid.append(entry)
    ctx.bus.publish(event)


async def watch_link(ctx: FlowContext, link: PaymentLink, *, cancel: asyncio.Event | None = None,
                     watch: LinkWatch | None = None, pad_form: str | None = None) -> LinkResult:
    """Poll the link's charges with backoff until it is paid, deactivated, cancelled or timed out.

    Paid charges are journaled as they arrive. On the cashier's cancel (or the timeout) the link is
    deactivated so it cannot be paid behind the till's back, then looked at once more: a payment
    that landed meanwhile is journaled, never lost. With ``pad_form`` the link's address is shown
    on the PIN pad as well, the way a QR payment's code is (LG's stored form; other options have
    none, and a pad that cannot show it never stops the watch)."""
    charge_api = charge_api_of(ctx)
    pad = qr.show_on_pad(ctx, link.url, pad_form) if pad_form else None
    try:
        return await _watch(ctx, charge_api, link, cancel, watch)
    finally:
        await qr._clear_pad(ctx, pad)


async def _watch(ctx: FlowContext, charge_api: JournaledChargeApi, link: PaymentLink,
                 cancel: asyncio.Event | None, watch: LinkWatch | None) -> LinkResult:
    watch = watch or LinkWatch()
    cancel = cancel or asyncio.Event()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + watch.timeout_s
    delay = watch.first_s
    seen: set[str] = set()
    result = LinkResult(link, "timeout")
    ctx.bus.publish(LinkStatus(link.id, "waiting"))
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(cancel.wait(), timeout=max(0.0, min(delay, deadline - loop.time())))
        stop = "cancelled" if cancel.is_set() else "timeout" if loop.time() >= deadline else None
        if stop is not None:
            return await _end_watch(ctx, charge_api, link, stop, seen, result)
        try:
            charges = await _link_charges(charge_api, link.id)
            current = _link(await charge_api.client.get_payment_link(link.id))
        except ChargeApiNoDecision as exc:
            ctx.bus.publish(LinkStatus(link.id, "unreachable", exc.message))
            delay = min(delay * watch.factor, watch.max_s)
            continue
        for charge in reversed(charges):  # oldest first
            await _seen(ctx, link.id, charge, seen, result)
        result.link = current
        if result.paid:
            result.reason = "paid"
            ctx.bus.publish(LinkStatus(link.id, "paid"))
            return result
        if not current.active:
            result.reason = "deactivated"
            ctx.bus.publish(LinkStatus(link.id, "deactivated", current.deactivation_reason or ""))
            return result
        delay = min(delay * watch.factor, watch.max_s)


async def _end_watch(ctx: FlowContext, charge_api: JournaledChargeApi, link: PaymentLink, reason: str,
                     seen: set[str], result: LinkResult) -> LinkResult:
    result.reason = reason
    try:
        result.link = await deactivate_link(ctx, link.id)
        for charge in reversed(await _link_charges(charge_api, link.id)):
            await _seen(ctx, link.id, charge, seen, result)
    except ChargeApiError as exc:
        # the link may still be live: say so; the cashier can deactivate it again
        log.warning("payment link %s: deactivation not confirmed: %s", link.id, exc.message)
        ctx.bus.publish(LinkStatus(link.id, "unreachable", exc.message))
        return result
    if result.paid:
        result.reason = "paid"
        ctx.bus.publish(LinkStatus(link.id, "paid"))
    return result


async def training_customer_pays_link(ctx: FlowContext, link: PaymentLink,
                                      card_number: str = "4242424242424242") -> Record[api.Charge]:
    """Training only: what the link's payment page does for the customer -- a token of a test
    card, then ``POST /charges`` with ``paymentLinkId`` (amount and currency come from the link).
    It is the customer's payment, so it is not journaled here: the till learns of it by watching."""
    charge_api = charge_api_of(ctx)
    if charge_api.client.live:
        raise ValidationError("training", "the training customer pays only with a test key")
    token = await charge_api.client.create_token(card_number, "12", str(datetime.now(UTC).year + 3),
                                              cvc="123", use_public_key=True)
    return await charge_api.client.create_charge(to_minor(link.amount, link.currency), link.currency,
                                              card=token.id, payment_link_id=link.id)


# ---- customers ---------------------------------------------------------------------------------
def _saved(card: api.Card, default_id: str | None) -> SavedCard:
    return SavedCard(id=card.id, brand=card.brand, masked=_masked(card) or f"…{card.last4}",
                     expiry=card.expiry, default=card.id == default_id)


async def _customer(charge_api: JournaledChargeApi, obj: api.Customer) -> Customer:
    default_id = obj.default_card_id
    cards = [_saved(c, default_id) async for c in charge_api.client.iterate_models(
        f"/customers/{obj.id}/cards", api.Card) if not c.deleted]
    return Customer(id=obj.id, email=obj.email, description=obj.description or "",
                    default_card_id=default_id, cards=tuple(cards))


async def find_customers(ctx: FlowContext, query: str) -> list[Customer]:
    """By id (``cust_...``) or by e-mail address; an unknown id is an empty list, not an error."""
    charge_api = charge_api_of(ctx)
    text = (query or "").strip()
    if re.fullmatch(r"cust_[A-Za-z0-9]{1,96}", text):
        try:
            found = [(await charge_api.client.get_customer(text)).model]
        except NotFoundError:
            return []
    elif re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", text):
        page = await charge_api.client.list_customers(email=text, limit=100)
        found = page.models
    else:
        raise ValidationError("customer", "type an e-mail address or a customer id (cust_...)")
    return [await _customer(charge_api, obj) for obj in found if not obj.deleted]


async def charge_customer(ctx: FlowContext, customer: Customer, amount: Decimal, *, currency: str = "USD",
                          card_id: str | None = None) -> CardNotPresentResult:
    """A journaled charge of the customer's default card (or of one of their saved cards)."""
    charge_api = charge_api_of(ctx)
    _check_amount(amount, currency)
    if card_id is None and customer.default_card_id is None:
        raise ValidationError("customer", f"{customer.email or customer.id} has no default card: add one")
    if card_id is not None and card_id not in {c.id for c in customer.cards}:
        raise ValidationError("card", "is not one of this customer's saved cards")
    outcome = await charge_api.charge(amount, currency, customer_id=customer.id, card=card_id,
                                   description="saved card", actor=ctx.actor)
    return _result(ctx, outcome)


async def add_card(ctx: FlowContext, customer: Customer, *, token: str | None = None,
                   card: CardDetails | None = None, make_default: bool = True) -> Customer:
    """Save a card from a token (or from card details, tokenized first); no money moves."""
    charge_api = charge_api_of(ctx)
    if (token is None) == (card is None):
        raise ValidationError("token", "give a token or the card details, not both")
    if card is not None:
        token = await _tokenize(charge_api, card)
    elif not re.fullmatch(r"tok_[A-Za-z0-9]{1,96}", token or ""):
        raise ValidationError("token", "must be a card token (tok_...)")
    saved = await charge_api.client.create_card(customer.id, token=token)
    if make_default:
        await charge_api.client.update_customer(customer.id, default_card_id=saved.id)
    return await _customer(charge_api, (await charge_api.client.get_customer(customer.id)).model)


async def create_customer(ctx: FlowContext, email: str, *, description: str | None = None) -> Customer:
    charge_api = charge_api_of(ctx)
    if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", (email or "").strip()):
        raise ValidationError("email", "must be an e-mail address such as ana@example.com")
    created = await charge_api.client.create_customer(email.strip(), description=description)
    return await _customer(charge_api, created.model)


# ---- refunds from the journal ------------------------------------------------------------------
def refundable(entry: Entry) -> Decimal:
    """What a Charge API payment in the journal can still give back (the rule lives in
    ``cashier.entry_rules``, shared with the window)."""
    return refundable_amount(entry)


async def refund_charge(ctx: FlowContext, entry: Entry,
                        amount: Decimal | None = None, *,
                        manager: Clerk | None = None) -> CardNotPresentResult:
    """Refund a Charge API payment of this journal, through the Charge API, with a new idempotency
    key journaled first. ``None`` refunds what is left. An authorization not yet captured can only
    be given back whole (the refund releases it)."""
    charge_api = charge_api_of(ctx)
    left = refundable(entry)
    if left <= 0:
        raise ValidationError("entry", "is not a Charge API payment with money left to refund")
    if amount is not None:
        _check_amount(amount, entry.currency)
        if amount > left:
            raise ValidationError("amount", f"must be at most {left} (what is left to refund)")
    back = amount if amount is not None else left
    approver = ctx.approval(Action.REFUND, back, manager)  # before anything is asked or sent
    charge = await charge_api.client.get_charge(str(entry.charge_id))
    if not charge.model.captured and amount is not None and amount != left:
        raise ValidationError("amount", "an authorization not yet captured can only be refunded whole")
    await ctx.journal_approval(approver, Action.REFUND, back, entry_id=entry.id)
    outcome = await charge_api.refund(str(entry.charge_id), back,
                                   currency=entry.currency, reason="requested_by_customer", actor=ctx.actor)
    result = _result(ctx, outcome)
    return result
