"""``/giftcards/*``: the gift card lifecycle (HD, LG), with cancel undoing the last request.

Sandbox gift card numbers (decision): 13 to 19 digits starting with ``266465``, the prefix of
the vendor's example gift card 2664654648774 (the test gift card the default customer
presents). On LG with no card in the body the virtual terminal reads the gift card.

Records: ``state.family("giftcards")["cards"]``: card key -> ``{"number": masked, "state":
active | deactivated | inactive, "balance": "12.50", "history": [...], "undo": {"state",
"balance"} | None, "lastOperation", ...}``. The full number is never kept, in memory or on
disk: a card is found by its one-way key (``state.card_key``, a keyed hash of the number), and
its token maps to that key. Answers mask the number (except the new number
``/giftcards/allocate`` must hand out, once) and carry a token, which ``/giftcards/cancel`` takes.

Helpers for the transaction handlers: ``is_gift_card(number)``, ``card_key``,
``key_for_token``, ``spend``, ``give_back``, ``take_back`` (a gift card sale cannot be
cancelled, only voided).
"""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cashier.sandbox.core import Family, HostCall, HostFault, invalid_field, missing_field
from cashier.sandbox.host_tokens import gift_key_of, issue_gift_token, token_not_found, universal_for_key
from cashier.sandbox.shared import GIFT_PREFIX, get, is_gift_card, masked, now_text, terminal_of
from cashier.sandbox.terminals import (
    DEFAULT_CARD,
    TerminalBusy,
    TerminalCancelled,
    TerminalTimeout,
    TerminalUnavailable,
    prompt_fault,
)

FAMILY = Family("giftcards")

EXPIRATION = 1230  # MMYY the sandbox reports for its gift cards
#: A training till starts with this gift card active and holding TRAINING_GIFT_BALANCE, so a
#: trainee pays with a gift card at once (the test gift card 2664654648774 starts inactive, for
#: rehearsing an activation). Listed in the cashier's guide and on the training PIN pad's list.
TRAINING_GIFT_CARD = "2664650000000050"
TRAINING_GIFT_BALANCE = Decimal("50.00")
DISCOUNT_PERCENTAGE = Decimal(0)


def training_customer_card(selected: str | None, *, purpose: str, gift_card_sale: bool) -> str:
    """The card the training pad's customer presents: the test card selected in its list (the
    test Visa when none is), except that a gift card request gets a gift card: the selected one
    when it is a gift card, else the active training gift card. A ``/giftcards/*`` prompt's
    ``purpose`` says it is one; a gift card sale on the pad is a plain sale on the wire, so the
    till says it (``gift_card_sale``: its ``PinPad.wants_gift_card``)."""
    if gift_card_sale or purpose.startswith("gift"):
        return selected if selected is not None and is_gift_card(selected) else TRAINING_GIFT_CARD
    return selected if selected is not None else DEFAULT_CARD


def _cards(state: Any) -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = state.family("giftcards").setdefault("cards", {})
    return cards


@dataclass(frozen=True)
class GiftRef:
    """A gift card as a request names it: its one-way key, masked number, and token if given."""

    key: str
    masked: str
    token: str | None = None


def gift_ref(state: Any, number: str) -> GiftRef:
    return GiftRef(card_key(state, number), masked(number))


def _record(state: Any, key: str) -> dict[str, Any]:
    """The card's record; a card never seen is an inactive card with no balance."""
    return _cards(state).get(key) or {"state": "inactive", "balance": "0", "history": [],
                                      "undo": None}


def _save(state: Any, ref: GiftRef | str, record: dict[str, Any]) -> None:
    if isinstance(ref, GiftRef):
        record["number"] = ref.masked
        _cards(state)[ref.key] = record
    else:
        _cards(state)[ref] = record


def _refused(operation: str, why: str, secondary: int = 0) -> HostFault:
    """9101 is the vendor's gift card refusal (ACTIVATE FAILED, ALLOCATE FAILED, ...)."""
    short = {"deactivate": "DEACT", "reactivate": "REACT"}.get(operation, operation.upper())
    return HostFault(9101, f"{short} FAILED", f"{operation.upper()} FAILED: {why}",
                     secondary_code=secondary, code=40101)


def _amount(call: HostCall, *, required: bool) -> Decimal | None:
    total = get(call.body, "amount.total")
    if total is None:
        if required:
            raise missing_field("amount.total")
        return None
    value = Decimal(total)
    if value <= 0:
        raise invalid_field("amount.total", "must be more than 0")
    return value


def _invoice(call: HostCall) -> str:
    invoice = get(call.body, "transaction.invoice")
    if invoice is None:
        raise missing_field("transaction.invoice")
    return str(invoice)


async def _card_number(call: HostCall, operation: str) -> tuple[GiftRef, str | None]:
    """(card, terminal id): from the token, the keyed number, or the LG PIN pad."""
    token = get(call.body, "card.token.value")
    if token is not None:
        if not isinstance(token, str) or not 1 <= len(token) <= 16:
            raise invalid_field("card.token.value", "must be 1 to 16 characters")
        key = gift_key_of(call.state, token)
        if key is None:
            if call.state.detokenize(token) is not None:  # a card-brand card's token
                _gift_number("")
            raise token_not_found(token, call)
        shown = str(call.state.family("tokens")["tokens"][token]["masked"])
        return GiftRef(key, shown, token), None
    if get(call.body, "card.number") is not None:
        return gift_ref(call.state, _gift_number(str(get(call.body, "card.number")))), None
    if get(call.body, "p2pe") is not None:
        raise invalid_field("p2pe", "the sandbox does not decrypt P2PE data; send card.number, "
                                    "card.token or let the PIN pad read the card")
    if call.option == "HD" or operation == "cancel":
        raise missing_field("card.token.value" if operation == "cancel" else "card.number")
    terminal = terminal_of(call)
    try:
        read = await terminal.read_card(amount=_amount(call, required=False) or Decimal(0),
                                        purpose=f"giftcard {operation}")
    except (TerminalCancelled, TerminalTimeout, TerminalBusy, TerminalUnavailable) as exc:
        raise prompt_fault(exc, terminal.terminal_id) from None
    return gift_ref(call.state, _gift_number(read.number)), terminal.terminal_id


def _gift_number(number: str) -> str:
    if not is_gift_card(number):
        raise HostFault(9842, "NOT IN CARDRANGE", "Card type not recognized: sandbox gift cards are "
                        f"13 to 19 digits starting with {GIFT_PREFIX}", code=40101)
    return number


def _history(call: HostCall, record: dict[str, Any], kind: str, amount: Decimal, invoice: str) -> None:
    record.setdefault("history", []).append(
        {"transactionType": kind, "amount": str(amount), "invoice": invoice,
         "dateTime": now_text(call)})


def _answer(call: HostCall, ref: GiftRef, record: dict[str, Any], invoice: str, *,
            amount: Decimal | None = None, terminal_id: str | None = None,
            balance: bool = True) -> dict[str, Any]:
    token = ref.token or issue_gift_token(call.state, ref.key, ref.masked)
    card: dict[str, Any] = {"number": ref.masked, "type": "GC", "token": {"value": token}}
    if balance:
        card["balance"] = {"amount": Decimal(record["balance"])}
    item: dict[str, Any] = {"dateTime": now_text(call), "card": card,
                            "merchant": {"mid": call.config.merchant_id,
                                         "name": call.config.merchant_name},
                            "transaction": {"invoice": invoice, "responseCode": "A",
                                            "authSource": "E"},
                            "universalToken": {"value": universal_for_key(ref.key)}}
    if amount is not None:
        item["amount"] = {"total": amount}
    if terminal_id is not None:
        item["device"] = {"terminalId": terminal_id}
    return item


def _begin(record: dict[str, Any], operation: str) -> dict[str, Any]:
    """A copy of the record whose undo point is the state and balance before this request."""
    updated = dict(record)
    updated["history"] = list(record.get("history", []))
    updated["undo"] = {"state": record["state"], "balance": record["balance"]}
    updated["lastOperation"] = operation
    return updated


# ---- operations ------------------------------------------------------------------------------
@FAMILY.route("POST", "/giftcards/activate", "HD LG")
async def activate(call: HostCall) -> dict[str, Any]:
    invoice = _invoice(call)
    amount = _amount(call, required=False)
    ref, tid = await _card_number(call, "activate")
    record = _record(call.state, ref.key)
    if record["state"] != "inactive":
        raise _refused("activate", f"the card is already {record['state']}")
    updated = _begin(record, "Activate")
    updated["state"] = "active"
    updated["balance"] = str(Decimal(record["balance"]) + (amount or 0))
    _history(call, updated, "Activate", amount or Decimal(0), invoice)
    _save(call.state, ref, updated)
    return _answer(call, ref, updated, invoice, amount=amount or Decimal(0), terminal_id=tid)


@FAMILY.route("POST", "/giftcards/allocate", "HD LG")
async def allocate(call: HostCall) -> dict[str, Any]:
    """A new card under a Program ID; its number is returned in full (it must be handed out)."""
    invoice = _invoice(call)
    amount = _amount(call, required=True)
    assert amount is not None
    program = call.body.get("programId")
    if program is not None and (not isinstance(program, str) or not 1 <= len(program) <= 16):
        raise invalid_field("programId", "must be text of 1 to 16 characters")
    cards = _cards(call.state)
    number = ""
    while not number or card_key(call.state, number) in cards:
        number = GIFT_PREFIX + "".join(secrets.choice(string.digits) for _ in range(10))
    ref = gift_ref(call.state, number)
    record = _begin(_record(call.state, ref.key), "Allocate")
    record.update(state="active", balance=str(amount), programId=program)
    _history(call, record, "Allocate", amount, invoice)
    _save(call.state, ref, record)
    item = _answer(call, ref, record, invoice, amount=amount)
    item["card"]["number"] = number  # decision: the new card's number, in full, once
    item.pop("universalToken", None)
    item["transaction"].pop("authSource", None)
    if program is not None:
        item["programId"] = program
    return item


@FAMILY.route("POST", "/giftcards/deactivate", "HD LG")
async def deactivate(call: HostCall) -> dict[str, Any]:
    invoice = _invoice(call)
    reason = get(call.body, "card.deactivationReason")
    if reason is None:
        raise missing_field("card.deactivationReason")
    if not isinstance(reason, str) or not 1 <= len(reason) <= 32:
        raise invalid_field("card.deactivationReason", "must be text of 1 to 32 characters")
    ref, tid = await _card_number(call, "deactivate")
    record = _record(call.state, ref.key)
    if record["state"] != "active":
        raise _refused("deactivate", f"the card is {record['state']}, not active")
    updated = _begin(record, "Deactivate")
    updated.update(state="deactivated", deactivationReason=reason)
    _history(call, updated, "Deactivate", Decimal(0), invoice)
    _save(call.state, ref, updated)
    item = _answer(call, ref, updated, invoice, terminal_id=tid)
    item["card"]["deactivationReason"] = reason
    return item


async def _cash_out(call: HostCall, operation: str) -> dict[str, Any]:
    invoice = _invoice(call)
    reason = get(call.body, "card.deactivationReason")
    if reason is not None and (not isinstance(reason, str) or not 1 <= len(reason) <= 32):
        raise invalid_field("card.deactivationReason", "must be text of 1 to 32 characters")
    ref, tid = await _card_number(call, operation)
    record = _record(call.state, ref.key)
    if record["state"] != "active":
        raise _refused(operation, f"the card is {record['state']}, not active")
    cash = Decimal(record["balance"])
    updated = _begin(record, "Cashback")
    updated.update(state="deactivated", balance="0", deactivationReason=reason or "Cashed out")
    _history(call, updated, "Cashback", cash, invoice)
    _save(call.state, ref, updated)
    item = _answer(call, ref, updated, invoice, amount=cash, terminal_id=tid, balance=False)
    item["card"]["deactivationReason"] = updated["deactivationReason"]
    return item


@FAMILY.route("POST", "/giftcards/cashback", "HD LG")
async def cashback(call: HostCall) -> dict[str, Any]:
    return await _cash_out(call, "cashback")


@FAMILY.route("POST", "/giftcards/cashout", "HD LG")
async def cashout(call: HostCall) -> dict[str, Any]:
    """Deprecated name of cashback; the same effect."""
    return await _cash_out(call, "cashout")


@FAMILY.route("POST", "/giftcards/reactivate", "HD LG")
async def reactivate(call: HostCall) -> dict[str, Any]:
    invoice = _invoice(call)
    if call.body.get("amount") is not None:
        raise invalid_field("amount", "funds cannot be added on reactivate; reload the card after "
                                      "reactivating it")
    ref, tid = await _card_number(call, "reactivate")
    record = _record(call.state, ref.key)
    if record["state"] != "deactivated":
        raise _refused("reactivate", f"the card is {record['state']}, not deactivated")
    updated = _begin(record, "Reactivate")
    updated["state"] = "active"
    updated.pop("deactivationReason", None)
    _history(call, updated, "Reactivate", Decimal(0), invoice)
    _save(call.state, ref, updated)
    return _answer(call, ref, updated, invoice, terminal_id=tid)


@FAMILY.route("POST", "/giftcards/reload", "HD LG")
async def reload(call: HostCall) -> dict[str, Any]:
    invoice = _invoice(call)
    amount = _amount(call, required=True)
    assert amount is not None
    ref, tid = await _card_number(call, "reload")
    record = _record(call.state, ref.key)
    if record["state"] != "active":
        raise _refused("reload", f"the card is {record['state']}, not active")
    updated = _begin(record, "Reload")
    updated["balance"] = str(Decimal(record["balance"]) + amount)
    _history(call, updated, "Reload", amount, invoice)
    _save(call.state, ref, updated)
    item = _answer(call, ref, updated, invoice, amount=amount, terminal_id=tid)
    item["transaction"]["authorizationCode"] = "GC" + secrets.token_hex(2).upper()
    return item


@FAMILY.route("POST", "/giftcards/balance", "HD LG")
async def balance(call: HostCall) -> dict[str, Any]:
    """Not undoable: cancel after a balance inquiry undoes the request before it (decision)."""
    invoice = _invoice(call)
    ref, tid = await _card_number(call, "balance")
    record = _record(call.state, ref.key)
    if record["state"] == "inactive":
        raise _refused("balance", "the card is not active")
    item = _answer(call, ref, record, invoice, terminal_id=tid)
    item["card"]["expirationDate"] = EXPIRATION
    # Decision: the vendor names a discount percentage but no field: a sandbox addition.
    item["card"]["discountPercentage"] = DISCOUNT_PERCENTAGE
    if record.get("deactivationReason"):
        item["card"]["deactivationReason"] = record["deactivationReason"]
    if "RETURNHIST" in (call.body.get("apiOptions") or []):
        item["history"] = [{"amount": {"total": Decimal(h["amount"])},
                            "transactionType": h["transactionType"]}
                           for h in record.get("history", [])]
    return item


@FAMILY.route("POST", "/giftcards/cancel", "HD LG")
async def cancel(call: HostCall) -> dict[str, Any]:
    """Back to the state and balance before the last gift card request; not after a sale."""
    invoice = _invoice(call)
    ref, tid = await _card_number(call, "cancel")
    record = _record(call.state, ref.key)
    undo = record.get("undo")
    last = record.get("lastOperation")
    if last in PAYMENT_OPERATIONS:
        raise _refused("cancel", "a sale, refund or void cannot be cancelled; void it with "
                                 "DELETE /transactions/invoice", secondary=1)
    if not undo:
        raise _refused("cancel", "there is no gift card request to cancel on this card", secondary=2)
    updated = dict(record)
    updated["history"] = list(record.get("history", []))
    reverted = abs(Decimal(record["balance"]) - Decimal(undo["balance"]))
    updated.update(state=undo["state"], balance=undo["balance"], undo=None, lastOperation="Cancel")
    if updated["state"] != "deactivated":
        updated.pop("deactivationReason", None)
    _history(call, updated, "Cancel", reverted, invoice)
    _save(call.state, ref, updated)
    item = _answer(call, ref, updated, invoice, amount=reverted, terminal_id=tid)
    item["transaction"].pop("authSource", None)
    item.pop("universalToken", None)
    return item


# ---- for the transaction handlers --------------------------------------------------------------
#: ``transaction.hostResponse`` of a gift card sale the balance cannot cover (vendor reason 51).
INSUFFICIENT_FUNDS = {"reasonCode": "51", "reasonDescription": "Insufficient Funds"}
#: ... and of a card that cannot pay because it is not active (vendor reason 78: not activated).
NOT_ACTIVE = {"reasonCode": "78", "reasonDescription": "Card Not Activated"}
#: Operations whose effect only a void (``DELETE /transactions/invoice``) undoes.
PAYMENT_OPERATIONS = frozenset({"Sale", "Authorization", "Refund", "Void"})


def seed_training_gift_card(state: Any) -> None:
    """The training gift card, active with its balance, unless this sandbox has seen it already
    (a trainee who spent or deactivated it finds it as they left it)."""
    key = card_key(state, TRAINING_GIFT_CARD)
    if key in _cards(state):
        return
    _save(state, gift_ref(state, TRAINING_GIFT_CARD),
          {"state": "active", "balance": str(TRAINING_GIFT_BALANCE), "history": [], "undo": None})


def card_key(state: Any, number: str) -> str:
    """The one-way key a gift card's record lives under (what a transaction record keeps)."""
    return str(state.card_key(number))


def key_for_token(state: Any, token: str) -> str | None:
    """The record key of the gift card a token stands for; None when it is not a gift card's."""
    return gift_key_of(state, token)


@dataclass(frozen=True)
class Spent:
    """What a gift card sale took: response code, amount taken, balance left, why not."""

    response_code: str  # A, P or D
    taken: Decimal
    balance: Decimal
    host_response: dict[str, str] | None = None


def _move(state: Any, key: str, delta: Decimal, kind: str, invoice: str) -> dict[str, Any]:
    """Add ``delta`` (negative: take) to the balance; a payment clears the undo point."""
    record = _record(state, key)
    updated = dict(record)
    updated["history"] = list(record.get("history", []))
    updated.update(balance=str(Decimal(record["balance"]) + delta), undo=None, lastOperation=kind)
    updated["history"].append({"transactionType": kind, "amount": str(abs(delta)), "invoice": invoice})
    _save(state, key, updated)
    return updated


def spend(state: Any, key: str, amount: Decimal, invoice: str, *, partial_allowed: bool) -> Spent:
    """A gift card sale: the balance pays; short of the amount it pays what it holds when the
    request allows a partial approval (``P``), else nothing is taken (``D``, reason 51)."""
    record = _record(state, key)
    balance = Decimal(record["balance"])
    if record["state"] != "active":
        return Spent("D", Decimal(0), balance, NOT_ACTIVE)
    if balance <= 0 or (balance < amount and not partial_allowed):
        return Spent("D", Decimal(0), balance, INSUFFICIENT_FUNDS)
    taken = min(balance, amount)
    updated = _move(state, key, -taken, "Sale", invoice)
    return Spent("A" if taken == amount else "P", taken, Decimal(updated["balance"]))


def give_back(state: Any, key: str, amount: Decimal, invoice: str, kind: str) -> Decimal:
    """A void of a sale (``Void``) or a refund (``Refund``) reloads the card; the balance after.

    A refund needs a card that was activated (9101 otherwise); a void always gives back."""
    record = _record(state, key)
    if kind == "Refund" and record["state"] == "inactive":
        raise _refused("refund", "the gift card was never activated")
    return Decimal(_move(state, key, amount, kind, invoice)["balance"])


def take_back(state: Any, key: str, amount: Decimal, invoice: str) -> Decimal:
    """The void of a refund: the refunded amount leaves the card again (9101 when already spent)."""
    balance = Decimal(_record(state, key)["balance"])
    if balance < amount:
        raise _refused("void", f"the gift card holds {balance}, less than the {amount} refunded "
                               "to it", secondary=3)
    return Decimal(_move(state, key, -amount, "Void", invoice)["balance"])


def redeem(state: Any, number: str, amount: Decimal, invoice: str) -> Decimal:
    """A gift card sale allowing a partial approval: what the balance allowed (0 when declined).

    Raises ``HostFault`` when the card is not active. A sale cannot be cancelled afterwards.
    """
    key = card_key(state, number)
    record = _record(state, key)
    if record["state"] != "active":
        raise _refused("sale", f"the gift card is {record['state']}, not active")
    return spend(state, key, amount, invoice, partial_allowed=True).taken
