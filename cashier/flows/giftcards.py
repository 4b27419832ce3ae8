"""Gift cards: activate, allocate, reload, balance (with history), deactivate, reactivate,
cashback and cancel of the last request, each journaled like a payment (HD, LG).

Why a balance snapshot before every request on a known card: ``GET /transactions/invoice`` knows
card transactions only, so a gift card request whose answer was lost can only be settled by asking
the card itself. The snapshot (balance and the length of its history, ``RETURNHIST``) is journaled
before the request goes; afterwards a new history line of the right type and amount means it
landed, an unchanged history means it did not (safe to retry). ``/giftcards/cancel`` is never used
to "resolve" a lost answer: it undoes the card's LAST request, which is someone else's (or the
activation) when ours never landed. See docs/decisions/008-gift-cards-and-qr.md, "Flows: gift cards and QR".

The card: keyed (``GiftCard(number=...)``, journaled masked), a token from an earlier answer, or
read by the PIN pad on LG (``GiftCard()``): the pad read is a balance inquiry, whose answer gives
the token every later request of the flow uses, so the customer presents the card once.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from cashier.cards import check_token
from cashier.errors import ValidationError
from cashier.flows.base import (
    FlowContext,
    FlowResult,
    Resolver,
    WrapsResult,
    finish,
    once_sent,
    outcome_of,
)
from cashier.flows.events import DevicePrompt
from cashier.host.endpoints import BY_METHOD
from cashier.host.errors import HostError, HostNoDecision, HostOutcomeUnknown, HostRetrySafe
from cashier.host.models.common import Card, SecurityCode, Token
from cashier.host.models.giftcards import GiftCardResult
from cashier.journal.model import Entry, Kind, NewEntry, Op, State
from cashier.redact import mask_pan, redact
from cashier.text import free_text

log = logging.getLogger(__name__)

#: The history ``transactionType`` each journal kind leaves on the card.
HISTORY_TYPE: dict[Kind, str] = {
    Kind.GIFTCARD_ACTIVATE: "Activate", Kind.GIFTCARD_ALLOCATE: "Allocate",
    Kind.GIFTCARD_RELOAD: "Reload", Kind.GIFTCARD_CASHBACK: "Cashback",
    Kind.GIFTCARD_DEACTIVATE: "Deactivate", Kind.GIFTCARD_REACTIVATE: "Reactivate",
}
CLIENT_METHOD: dict[Kind, str] = {
    Kind.GIFTCARD_ACTIVATE: "giftcard_activate", Kind.GIFTCARD_ALLOCATE: "giftcard_allocate",
    Kind.GIFTCARD_RELOAD: "giftcard_reload", Kind.GIFTCARD_CASHBACK: "giftcard_cashback",
    Kind.GIFTCARD_DEACTIVATE: "giftcard_deactivate", Kind.GIFTCARD_REACTIVATE: "giftcard_reactivate",
}
#: Host refusals of a gift card request (by the card's state, card range, unknown token): declines.
REFUSAL_CODES = frozenset({9101, 9842, 9846})
SNAPSHOT_NOTE = "giftcard_snapshot"
MAX_REASON = 32


# ---- input -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GiftCard:
    """A keyed number, a token, or neither (the LG PIN pad reads the card). Never journaled whole."""

    number: str | None = field(default=None, repr=False)
    token: str | None = None
    security_code: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.number is not None and self.token is not None:
            raise ValidationError("card", "give a gift card number or a token, not both")
        if self.number is not None:
            digits = re.sub(r"[ -]", "", self.number)
            if not (digits.isascii() and digits.isdigit()) or not 13 <= len(digits) <= 19:
                raise ValidationError("card", "a gift card number must be 13 to 19 digits")
            object.__setattr__(self, "number", digits)
        if self.token is not None:
            check_token("token", self.token)
        if self.token is not None and not re.fullmatch(r"[A-Za-z0-9]{1,16}", self.token):
            raise ValidationError("token", "must be 1 to 16 letters or digits")
        if self.security_code is not None:
            if self.number is None:
                raise ValidationError("security_code", "goes with a keyed gift card number")
            if not re.fullmatch(r"\d{3,8}", self.security_code):
                raise ValidationError("security_code", "must be 3 to 8 digits")

    def __repr__(self) -> str:
        return f"GiftCard({self.masked or self.token or 'PIN pad'})"

    @property
    def on_pad(self) -> bool:
        return self.number is None and self.token is None

    @property
    def masked(self) -> str | None:
        return mask_pan(self.number) if self.number else None

    def wire(self) -> Card | None:
        if self.number is not None:
            code = SecurityCode(value=self.security_code) if self.security_code else None
            return Card(number=self.number, security_code=code, present="N")
        if self.token is not None:
            return Card(token=Token(value=self.token))
        return None


@dataclass(frozen=True)
class HistoryLine:
    type: str
    amount: Decimal
    date_time: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {"type": self.type, "amount": str(self.amount), "date_time": self.date_time}


@dataclass(frozen=True)
class Balance:
    """A balance inquiry's answer: what the counter shows (masked card, token, history)."""

    invoice: str
    card: str | None
    token: str | None
    balance: Decimal | None
    history: tuple[HistoryLine, ...] | None
    #: The card's state as the host holds it: "active", "deactivated" (the host names why) or
    #: "not activated" (the host refuses a balance of a card it never activated).
    state: str = "active"
    deactivation_reason: str | None = None

    @property
    def active(self) -> bool:
        return self.state == "active"

    def as_dict(self) -> dict[str, Any]:
        return {"invoice": self.invoice, "outcome": "approved", "card": self.card, "token": self.token,
                "balance": None if self.balance is None else str(self.balance), "active": self.active,
                "state": self.state, "deactivation_reason": self.deactivation_reason,
                "history": None if self.history is None else [h.as_dict() for h in self.history]}


@dataclass(frozen=True)
class GiftCardFlowResult(WrapsResult):
    """The journaled result, plus the balance the host reported and, for an allocation, the new
    card's number (in memory only, to hand to the customer; the journal keeps it masked)."""

    result: FlowResult
    balance: Decimal | None = None
    new_card_number: str | None = field(default=None, repr=False)

    def as_dict(self, *, show_number: bool = False) -> dict[str, Any]:
        out = self.result.as_dict()
        out["token"] = self.entry.token
        out["balance"] = None if self.balance is None else str(self.balance)
        if show_number and self.new_card_number:
            out["new_card_number"] = self.new_card_number
        return out


# ---- helpers -----------------------------------------------------------------------------------
def require(ctx: FlowContext, client_method: str) -> None:
    """Refuse, before anything is journaled, an operation the processing option lacks."""
    ep = BY_METHOD[client_method]
    if not ep.supports(ctx.client.option):
        raise ValidationError("processing_option", f"{ep.path} exists on {' '.join(sorted(ep.options))} "
                                                   f"only, not {ctx.client.option}")


def _amount(ctx: FlowContext, value: Decimal, name: str) -> Decimal:
    return ctx.bounds.parse(value, ctx.journal.currency, name)


def _check_card(ctx: FlowContext, card: GiftCard) -> None:
    if card.on_pad and ctx.client.option == "HD":
        raise ValidationError("card", "Host Direct has no PIN pad: key the gift card number or give "
                                      "its token")


def _history(result: GiftCardResult) -> tuple[HistoryLine, ...] | None:
    if result.history is None:
        return None
    return tuple(HistoryLine(h.transaction_type or "", h.amount.total if h.amount and h.amount.total
                             is not None else Decimal(0), h.date_time) for h in result.history)


def _balance_of(invoice: str, result: GiftCardResult, fallback_card: str | None) -> Balance:
    """The host names a deactivated card's reason on every answer about it: its state is that."""
    reason = result.card.deactivation_reason if result.card else None
    return Balance(invoice=invoice, card=(result.card.number if result.card else None) or fallback_card,
                   token=result.token, balance=result.balance, history=_history(result),
                   state="deactivated" if reason else "active",
                   deactivation_reason=redact(reason)[:40] if reason else None)


def _code(exc: HostError) -> str | None:
    return f"{exc.primary_code},{exc.secondary_code or 0}" if exc.primary_code is not None else None


def _text(exc: Exception) -> str:
    if isinstance(exc, HostError):
        return redact(f"{exc.short_text} {exc.long_text}".strip())[:300]
    return redact(str(exc))[:200]


async def _ask_balance(ctx: FlowContext, invoice: str, wire: Card | None) -> Balance:
    """Balance with history; an inactive card (refusal 9101) is a balance of nothing."""
    try:
        result = await ctx.client.giftcard_balance(invoice=invoice, card=wire, history=True)
    except HostError as exc:
        if exc.primary_code == 9101 and wire is not None:
            return Balance(invoice, None, None, None, (), state="not activated")
        raise
    return _balance_of(invoice, result, None)


async def _snapshot_note(ctx: FlowContext, entry: Entry, snap: Balance) -> None:
    await ctx.journal.note(entry.id, SNAPSHOT_NOTE, actor=ctx.actor,
                           balance=None if snap.balance is None else str(snap.balance),
                           history=None if snap.history is None else len(snap.history),
                           last=None if not snap.history else snap.history[-1].as_dict(),
                           active=snap.active)


async def _last_snapshot(ctx: FlowContext, entry: Entry) -> dict[str, Any] | None:
    for event in reversed(await ctx.journal.events(entry.id)):
        if event.type == SNAPSHOT_NOTE:
            note: dict[str, Any] = event.data.get("_note", {})
            return note
    return None


# ---- the journaled request ---------------------------------------------------------------------
Send = Callable[[str, Card | None], Awaitable[GiftCardResult]]


async def _run(ctx: FlowContext, kind: Kind, card: GiftCard, amount: Decimal | None,
               send: Send) -> GiftCardFlowResult:
    """One gift card request, holding the PIN pad while the card is read on it."""
    with ctx.pinpad.reserve(f"a {kind.value.replace('_', ' ')}", card.on_pad, gift_card=True):
        return await _run_request(ctx, kind, card, amount, send)


async def _run_request(ctx: FlowContext, kind: Kind, card: GiftCard, amount: Decimal | None,
                       send: Send) -> GiftCardFlowResult:
    """Intent -> (pad read / snapshot) -> SENT -> request -> outcome, one journal step each."""
    require(ctx, CLIENT_METHOD[kind])
    _check_card(ctx, card)
    entry = await ctx.journal.create(NewEntry(
        kind, amount or Decimal(0), actor=ctx.actor, card=card.masked, token=card.token,
        clerk=ctx.actor, op=Op.GIFTCARD))
    inv = str(entry.invoice)
    wire = card.wire()
    masked = card.masked
    token = card.token
    requested = amount or Decimal(0)
    if not (card.on_pad and kind is Kind.GIFTCARD_ACTIVATE):
        # Decision: the snapshot goes on the request's own invoice (a read, it moves nothing).
        if card.on_pad:
            ctx.bus.publish(DevicePrompt(entry.id, "Present the gift card on the PIN pad"))
        try:
            snap = await _ask_balance(ctx, inv, wire)
        except HostError as exc:
            entry = await ctx.move(entry, State.ERROR, message="not sent: could not read the card "
                                                               f"first ({_text(exc)})",
                                   host_code=_code(exc) if isinstance(exc, HostError) else None)
            return GiftCardFlowResult(finish(ctx, entry))
        await _snapshot_note(ctx, entry, snap)
        token = token or snap.token  # journaled: recovery asks the card by it
        if card.on_pad:  # from now on the flow uses the token the pad read gave
            masked = snap.card
            wire = Card(token=Token(value=token)) if token else None
        if kind is Kind.GIFTCARD_CASHBACK and snap.balance is not None:
            requested = snap.balance
    entry = await ctx.move(entry, State.SENT, op=Op.GIFTCARD, requested=requested, pending=requested,
                           card=masked, token=token)
    if wire is None:
        ctx.bus.publish(DevicePrompt(entry.id, "Present the gift card on the PIN pad"))
    extras: dict[str, Any] = {}
    entry = await once_sent(ctx, entry, _send_and_apply(ctx, entry, kind, card, send, inv, wire,
                                                        extras))
    return GiftCardFlowResult(finish(ctx, entry), **extras)


async def _send_and_apply(ctx: FlowContext, entry: Entry, kind: Kind, card: GiftCard, send: Send, inv: str,
                          wire: Card | None, extras: dict[str, Any]) -> Entry:
    """The request and its journaled answer (``extras``: balance and a new card's number)."""
    try:
        result = await send(inv, wire)
    except HostRetrySafe as exc:
        return await ctx.move(entry, State.ERROR, message=f"not sent, safe to retry: {_text(exc)}")
    except HostOutcomeUnknown as exc:
        entry = await ctx.move(entry, State.UNKNOWN, message=f"no answer: {_text(exc)}",
                               host_code=_code(exc) if isinstance(exc, HostError) else None)
        return await resolve_giftcard(ctx, entry, card=None if card.on_pad else card)
    except HostError as exc:
        state = State.DECLINED if exc.primary_code in REFUSAL_CODES else State.ERROR
        return await ctx.move(entry, state, host_code=_code(exc), message=_text(exc))
    if kind is Kind.GIFTCARD_ALLOCATE and result.card and result.card.number \
            and result.card.number.isdigit():
        extras["new_card_number"] = result.card.number  # handed out once; journaled masked
    extras["balance"] = result.balance
    return await _apply(ctx, entry, kind, result)


async def _apply(ctx: FlowContext, entry: Entry, kind: Kind, result: GiftCardResult, *,
                 actor: str | None = None) -> Entry:
    code = result.response_code
    fields: dict[str, Any] = {"response_code": code or None}
    if result.card is not None and result.card.number and not entry.card:
        fields["card"] = result.card.number  # masked by the journal if it came in full (allocate)
    if result.token:
        fields["token"] = result.token
    auth = (result.transaction.model_extra or {}).get("authorizationCode") if result.transaction else None
    if isinstance(auth, str) and auth:
        fields["auth_code"] = auth[:16]
    if code in ("A", "P"):
        if kind in (Kind.GIFTCARD_DEACTIVATE, Kind.GIFTCARD_REACTIVATE):
            approved = Decimal(0)
        elif result.amount is not None and result.amount.total is not None:
            approved = result.amount.total
        else:
            approved = entry.requested
        message = None if result.balance is None else f"balance {result.balance}"
        return await ctx.move(entry, State.APPROVED, actor=actor, approved=approved, message=message,
                              **fields)
    if not code:
        return await ctx.move(entry, State.UNKNOWN, actor=actor, message="blank response code", **fields)
    return await ctx.move(entry, State.DECLINED, actor=actor, message=f"host response code {code}",
                          **fields)


# ---- the operations ----------------------------------------------------------------------------
async def activate(ctx: FlowContext, card: GiftCard, amount: Decimal | None = None) -> GiftCardFlowResult:
    """Activate a new card, loading ``amount`` when given."""
    value = _amount(ctx, amount, "amount") if amount is not None else None
    return await _run(ctx, Kind.GIFTCARD_ACTIVATE, card, value,
                      lambda inv, wire: ctx.client.giftcard_activate(invoice=inv, amount=value, card=wire))


async def allocate(ctx: FlowContext, amount: Decimal, *, program_id: str | None = None) -> GiftCardFlowResult:
    """A new card generated by the host under a Program ID; its number comes back once."""
    value = _amount(ctx, amount, "amount")
    if program_id is not None and not 1 <= len(program_id) <= 16:
        raise ValidationError("program_id", "must be 1 to 16 characters")
    require(ctx, "giftcard_allocate")
    entry = await ctx.journal.create(NewEntry(Kind.GIFTCARD_ALLOCATE, value, actor=ctx.actor,
                                                 clerk=ctx.actor, op=Op.GIFTCARD, sent=True))
    inv = str(entry.invoice)
    try:
        result = await ctx.client.giftcard_allocate(invoice=inv, amount=value, program_id=program_id)
    except HostRetrySafe as exc:
        entry = await ctx.move(entry, State.ERROR, message=f"not sent, safe to retry: {_text(exc)}")
        return GiftCardFlowResult(finish(ctx, entry))
    except HostOutcomeUnknown as exc:
        # Decision: the new number is lost with the answer and nothing can look it up: UNKNOWN
        entry = await ctx.move(entry, State.UNKNOWN, message="no answer: the new card's number is "
                               f"unknown; ask the processor about invoice {inv} ({_text(exc)})")
        return GiftCardFlowResult(finish(ctx, entry))
    except HostError as exc:
        state = State.DECLINED if exc.primary_code in REFUSAL_CODES else State.ERROR
        entry = await ctx.move(entry, state, host_code=_code(exc), message=_text(exc))
        return GiftCardFlowResult(finish(ctx, entry))
    number = result.card.number if result.card and result.card.number and \
        result.card.number.isdigit() else None
    entry = await _apply(ctx, entry, Kind.GIFTCARD_ALLOCATE, result)
    return GiftCardFlowResult(finish(ctx, entry), balance=result.balance, new_card_number=number)


async def reload(ctx: FlowContext, card: GiftCard, amount: Decimal) -> GiftCardFlowResult:
    value = _amount(ctx, amount, "amount")
    return await _run(ctx, Kind.GIFTCARD_RELOAD, card, value,
                      lambda inv, wire: ctx.client.giftcard_reload(invoice=inv, amount=value, card=wire))


def _reason(reason: str) -> str:
    reason = free_text("reason", reason)
    if not 1 <= len(reason) <= MAX_REASON:
        raise ValidationError("reason", f"must be 1 to {MAX_REASON} characters")
    return reason


async def deactivate(ctx: FlowContext, card: GiftCard, *,
                     reason: str = "Customer request") -> GiftCardFlowResult:
    """The balance stays on the card (where the processor supports that)."""
    why = _reason(reason)
    return await _run(ctx, Kind.GIFTCARD_DEACTIVATE, card, None,
                      lambda inv, wire: ctx.client.giftcard_deactivate(invoice=inv, reason=why, card=wire))


async def reactivate(ctx: FlowContext, card: GiftCard) -> GiftCardFlowResult:
    return await _run(ctx, Kind.GIFTCARD_REACTIVATE, card, None,
                      lambda inv, wire: ctx.client.giftcard_reactivate(invoice=inv, card=wire))


async def cashback(ctx: FlowContext, card: GiftCard, *, reason: str = "Cash out") -> GiftCardFlowResult:
    """Deactivate and take the whole balance off the card, to pay it out in cash."""
    why = _reason(reason)
    return await _run(ctx, Kind.GIFTCARD_CASHBACK, card, None,
                      lambda inv, wire: ctx.client.giftcard_cashback(invoice=inv, reason=why, card=wire))


async def balance(ctx: FlowContext, card: GiftCard, *, history: bool = True) -> Balance:
    """Not a money movement (a fee may apply): a journal note with its own invoice, no entry."""
    require(ctx, "giftcard_balance")
    _check_card(ctx, card)
    with ctx.pinpad.reserve("a gift card balance", card.on_pad, gift_card=True):
        invoice = await ctx.journal.allocate_invoice()
        if card.on_pad:
            ctx.bus.publish(DevicePrompt(0, "Present the gift card on the PIN pad"))
        try:
            result = await ctx.client.giftcard_balance(invoice=invoice, card=card.wire(), history=history)
        except HostError as exc:
            if exc.primary_code != 9101:
                raise
            # the host tells no balance of a card it never activated: that is the card's state
            await ctx.journal.note(None, "giftcard_balance", actor=ctx.actor, invoice=invoice,
                                   card=card.masked, balance=None, state="not activated")
            return Balance(invoice, card.masked, card.token, None, (), state="not activated")
    found = _balance_of(invoice, result, card.masked)
    await ctx.journal.note(None, "giftcard_balance", actor=ctx.actor, invoice=invoice, card=found.card,
                           balance=None if found.balance is None else str(found.balance),
                           state=found.state)
    return found


async def cancel(ctx: FlowContext, invoice: str) -> GiftCardFlowResult:
    """Undo the gift card request journaled under ``invoice``; the host undoes the card's LAST
    request, so the card's history is checked first and a request that is not the last is refused."""
    require(ctx, "giftcard_cancel")
    entry = await ctx.journal.by_invoice(invoice)
    if entry is None:
        raise ValidationError("invoice", "is not in this till's journal")
    if entry.kind not in HISTORY_TYPE:
        raise ValidationError("invoice", f"is a {entry.kind}, not a gift card request (a gift card "
                                         "sale is voided, not cancelled)")
    if entry.state is not State.APPROVED:
        raise ValidationError("invoice", f"is {entry.state}: only an approved gift card request can be "
                                         "cancelled")
    if not entry.token:
        raise ValidationError("invoice", "has no card token on file: cancel needs one")
    token = entry.token
    snap = await _ask_balance(ctx, invoice, Card(token=Token(value=token)))
    if snap.history:
        last = snap.history[-1]
        want = HISTORY_TYPE[entry.kind]
        if last.type != want or (entry.kind is not Kind.GIFTCARD_CASHBACK and entry.approved
                                 and last.amount != entry.approved):
            raise ValidationError("invoice", f"is not the card's last request (the last is {last.type} "
                                             f"{last.amount}): the host cancels only the last one")
    await _snapshot_note(ctx, entry, snap)
    entry = await ctx.move(entry, State.SENT, op=Op.VOID)
    try:
        result = await ctx.client.giftcard_cancel(invoice=invoice, token=token)
    except HostRetrySafe as exc:
        entry = await ctx.move(entry, State.APPROVED, op=Op.GIFTCARD,
                               message=f"cancel not sent: {_text(exc)}")
        return GiftCardFlowResult(finish(ctx, entry))
    except HostOutcomeUnknown as exc:
        entry = await ctx.move(entry, State.UNKNOWN, message=f"no answer to the cancel: {_text(exc)}")
        entry = await resolve_giftcard(ctx, entry)
        return GiftCardFlowResult(finish(ctx, entry))
    except HostError as exc:
        entry = await ctx.move(entry, State.APPROVED, op=Op.GIFTCARD, host_code=_code(exc),
                               message=f"cancel refused: {_text(exc)}")
        return GiftCardFlowResult(finish(ctx, entry))
    if result.response_code in ("A", ""):
        entry = await ctx.move(entry, State.VOIDED, response_code=result.response_code or None,
                               message=f"cancelled at the host; balance {result.balance}")
    else:
        entry = await ctx.move(entry, State.APPROVED, op=Op.GIFTCARD,
                               message=f"cancel answered {result.response_code}: the request stands")
    return GiftCardFlowResult(finish(ctx, entry), balance=result.balance)


# ---- resolution ------------------------------------------------------------------------------
async def resolve_giftcard(ctx: FlowContext, entry: Entry, *, actor: str | None = None,
                           delays_s: tuple[float, ...] | None = None, card: GiftCard | None = None,
                           **_: Any) -> Entry:
    """Settle a gift card entry whose answer was lost by asking the card (balance + history).

    Listed in ``RESOLVERS``, which the runtime passes to the flows. ``card`` lets the
    cashier present a card the journal has no token for (a pad-read activation).
    """
    who = actor or ctx.actor
    if entry.state is State.INTENT:
        return await ctx.move(entry, State.ERROR, actor=who, message="never sent")
    if entry.state not in (State.SENT, State.UNKNOWN):
        return entry
    snap = await _last_snapshot(ctx, entry)
    wire = card.wire() if card is not None and not card.on_pad else (
        Card(token=Token(value=entry.token)) if entry.token else None)
    if wire is None:
        message = ("outcome unknown: the new card's number was lost with the answer"
                   if entry.kind is Kind.GIFTCARD_ALLOCATE else
                   "outcome unknown: the journal has no token for this card; present or key the "
                   "card to check it (cashier giftcard check)")
        return await ctx.move(entry, State.UNKNOWN, actor=who, message=message)
    now: Balance | None = None
    for delay in delays_s if delays_s is not None else ctx.policy.delays_s:
        if delay:
            await asyncio.sleep(delay)
        try:
            now = await _ask_balance(ctx, str(entry.invoice), wire)
            break
        except HostNoDecision:
            continue
        except HostError as exc:
            log.warning("gift card balance for %s failed: %s", entry.invoice, _text(exc))
            continue
    if now is None:
        return await ctx.move(entry, State.UNKNOWN, actor=who,
                              message="outcome unknown: the card's balance could not be read yet")
    return await _decide(ctx, entry, snap, now, who)


async def _unexplained(ctx: FlowContext, entry: Entry, before: int,
                       new: list[HistoryLine]) -> list[HistoryLine]:
    """The card's history lines since ``entry``'s snapshot that this journal's other settled
    requests on the same card do not account for. A request killed before it reached the host
    leaves none: its lines are all the other requests', so it settles as not done instead of
    waiting forever for a person (issue: six killed reloads stayed unknown for good)."""
    if not entry.token:
        return new
    left = list(new)
    for other in await ctx.journal.search(kinds=[str(k) for k in HISTORY_TYPE],
                                          states=[str(State.APPROVED)], limit=2000):
        if other.id == entry.id or other.token != entry.token or other.op is Op.VOID:
            continue
        snap = await _last_snapshot(ctx, other)
        if snap is None or snap.get("history") is None or int(snap["history"]) < before:
            continue  # it reached the card before our snapshot: not among the new lines
        any_amount = other.kind in (Kind.GIFTCARD_CASHBACK, Kind.GIFTCARD_DEACTIVATE,
                                    Kind.GIFTCARD_REACTIVATE)
        for i, line in enumerate(left):
            if line.type == HISTORY_TYPE[other.kind] and (any_amount or line.amount == other.approved):
                del left[i]
                break
        else:
            return new  # a settled request the history does not show: trust nothing here
    return left


async def _decide(ctx: FlowContext, entry: Entry, snap: dict[str, Any] | None, now: Balance,
                  who: str) -> Entry:
    cancelling = entry.op is Op.VOID
    activating = entry.kind is Kind.GIFTCARD_ACTIVATE and not cancelling
    if activating and not now.active:
        return await ctx.move(entry, State.ERROR, actor=who, message="not done: the card is still not "
                              "active (safe to retry)")
    if snap is None:
        last = now.history[-1] if now.history else None
        if activating and last is not None and last.type == "Activate" \
                and last.amount == entry.requested:
            # a pad-read activation has no snapshot: its card is active and its last line is ours
            return await ctx.move(entry, State.APPROVED, actor=who, approved=last.amount,
                                  response_code="A", message=f"landed: the card is active with "
                                  f"balance {now.balance}")
        return await ctx.move(entry, State.UNKNOWN, actor=who,
                              message="outcome unknown: no snapshot of the card before the request")
    before = snap.get("history")
    if before is not None and now.history is not None:
        if len(now.history) < int(before):
            return await ctx.move(entry, State.UNKNOWN, actor=who,
                                  message="outcome unknown: the card's history is shorter than before")
        new = list(now.history[int(before):])
        if cancelling:
            if any(h.type == "Cancel" for h in new):
                return await ctx.move(entry, State.VOIDED, actor=who, message="cancel confirmed by the "
                                      f"card's history; balance {now.balance}")
            if not new:
                return await ctx.move(entry, State.APPROVED, actor=who, op=Op.GIFTCARD,
                                      message="the cancel did not land: the request stands")
        else:
            want = HISTORY_TYPE[entry.kind]
            rest = await _unexplained(ctx, entry, int(before), new) if new else new
            if new and not rest:
                return await ctx.move(entry, State.ERROR, actor=who, message="not done at the host: "
                                      "the card's history since holds only this till's other "
                                      "requests (safe to retry)")
            new = rest
            for i, line in enumerate(new):
                amount_ok = entry.kind in (Kind.GIFTCARD_CASHBACK, Kind.GIFTCARD_DEACTIVATE,
                                           Kind.GIFTCARD_REACTIVATE) or line.amount == entry.requested
                if line.type == want and amount_ok:
                    approved = Decimal(0) if entry.kind in (Kind.GIFTCARD_DEACTIVATE,
                                                            Kind.GIFTCARD_REACTIVATE) else line.amount
                    if any(h.type == "Cancel" for h in new[i + 1:]):
                        return await ctx.move(entry, State.VOIDED, actor=who, approved=approved,
                                              message="landed, then cancelled (card history)")
                    extra: dict[str, Any] = {"token": now.token} if now.token and not entry.token else {}
                    return await ctx.move(entry, State.APPROVED, actor=who, approved=approved,
                                          response_code="A", message="landed: confirmed by the card's "
                                          f"history; balance {now.balance}", **extra)
            if not new:
                return await ctx.move(entry, State.ERROR, actor=who, message="not done at the host: the "
                                      "card's history is unchanged (safe to retry)")
        return await ctx.move(entry, State.UNKNOWN, actor=who, message="outcome unknown: other requests "
                              "reached the card meanwhile; check its history")
    # no history from the host: compare balances where the request changes the balance
    if snap.get("balance") is None or now.balance is None:
        return await ctx.move(entry, State.UNKNOWN, actor=who, message="outcome unknown: no history "
                              "and no balance to compare")
    b0, b1 = Decimal(str(snap["balance"])), now.balance
    delta = {Kind.GIFTCARD_RELOAD: entry.requested, Kind.GIFTCARD_ACTIVATE: entry.requested,
             Kind.GIFTCARD_CASHBACK: -b0}.get(entry.kind)
    if cancelling or delta is None or delta == 0:
        return await ctx.move(entry, State.UNKNOWN, actor=who, message="outcome unknown: the balance "
                              "cannot tell (no history from the host)")
    if b1 == b0 + delta:
        return await ctx.move(entry, State.APPROVED, actor=who, approved=abs(delta), response_code="A",
                              message=f"landed: the balance moved from {b0} to {b1}")
    if b1 == b0:
        return await ctx.move(entry, State.ERROR, actor=who, message="not done: the balance is unchanged")
    return await ctx.move(entry, State.UNKNOWN, actor=who, message=f"outcome unknown: the balance moved "
                          f"from {b0} to {b1}")


async def check(ctx: FlowContext, invoice: str, card: GiftCard | None = None) -> FlowResult:
    """Settle one unknown gift card entry now (the cashier may present or key the card)."""
    entry = await ctx.journal.by_invoice(invoice)
    if entry is None or entry.kind not in HISTORY_TYPE:
        raise ValidationError("invoice", "is not a gift card request in this till's journal")
    if entry.unresolved:
        entry = await resolve_giftcard(ctx, entry, card=card)
    return FlowResult(entry, outcome_of(entry), entry.message or "")


async def settle(ctx: FlowContext, invoice: str, *, landed: bool, manager_id: str,
                 reason: str) -> FlowResult:
    """The manager settles an unknown gift card request the card's history cannot (another till
    used the card meanwhile), after looking at the card's history or the processor's report.
    Journaled with actor ``manager``: who, why, and what was decided."""
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,32}", manager_id or ""):
        raise ValidationError("manager", "must name the manager (1 to 32 letters, digits, . _ -)")
    reason = free_text("reason", reason)
    if not 3 <= len(reason.strip()) <= 200:
        raise ValidationError("reason", "must say why, 3 to 200 characters (what the history showed)")
    entry = await ctx.journal.by_invoice(invoice)
    if entry is None or entry.kind not in HISTORY_TYPE:
        raise ValidationError("invoice", "is not a gift card request in this till's journal")
    if not entry.unresolved:
        raise ValidationError("invoice", f"is already settled ({entry.state}): nothing to decide")
    await ctx.journal.note(entry.id, "manager_settled", actor="manager", manager=manager_id,
                           landed=landed, reason=reason.strip())
    if landed:
        approved = Decimal(0) if entry.kind in (Kind.GIFTCARD_DEACTIVATE,
                                                Kind.GIFTCARD_REACTIVATE) else entry.requested
        entry = await ctx.move(entry, State.APPROVED, actor="manager", approved=approved,
                               message=f"settled by manager {manager_id}: landed ({reason.strip()[:80]})")
    else:
        entry = await ctx.move(entry, State.ERROR, actor="manager",
                               message=f"settled by manager {manager_id}: not done "
                                       f"({reason.strip()[:80]})")
    return finish(ctx, entry)


#: The gift card kinds ``resolve_giftcard`` settles (``base.OWN_RESOLVER_KINDS``).
RESOLVERS: dict[Kind, Resolver] = dict.fromkeys(HISTORY_TYPE, resolve_giftcard)
