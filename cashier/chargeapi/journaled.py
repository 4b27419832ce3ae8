"""Charge API money movements through the journal: written down before the first byte is sent.

A charge, capture or refund is one journal entry (``Kind.CHARGE``) keyed by its idempotency
key, with the request itself kept as a ``gateway_request`` note (tokens and ids only: card
data never reaches this layer). The order is intent -> note -> sent -> the wire -> outcome.
After a timeout (or a crash) ``recover`` re-sends the stored request with the same key: the
server replays its first answer, or carries it out for the first time, never twice.

Journal amounts: a charge records ``approved`` (and ``captured`` when captured at once); a
capture entry records ``captured``; a refund entry records ``refunded``. The journal mirrors a
capture or refund on the charge it moved and counts each in its own bucket (see
docs/decisions/016-charge-api.md, Card-not-present at the till).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cashier.chargeapi.client import ChargeApiClient, ChargeApiObject, new_idempotency_key
from cashier.chargeapi.errors import (
    CardError,
    ChargeApiError,
    ChargeApiOutcomeUnknown,
    ChargeApiUnavailable,
)
from cashier.journal import Entry, Journal, Kind, Op, State
from cashier.journal.model import NewEntry, Outcome, outcome_of
from cashier.money import from_minor, to_minor

REQUEST_NOTE = "charge_api_request"
#: What journals written before the Charge API package got its name called the same note.
REQUEST_NOTES = frozenset({REQUEST_NOTE, "gateway_request"})


@dataclass(frozen=True)
class MovementResult:
    """What became of one Charge API money movement: its journal entry, and the answer or the
    error; ``outcome`` is the one outcome word (``cashier.journal.Outcome``), ``exit_code``
    follows ``cashier sale``."""

    entry: Entry
    result: ChargeApiObject | None = None
    error: ChargeApiError | None = None

    @property
    def outcome(self) -> Outcome:
        return outcome_of(self.entry)

    @property
    def state(self) -> State:
        return self.entry.state

    @property
    def exit_code(self) -> int:
        if self.entry.state in (State.APPROVED, State.CAPTURED):
            return 0
        if self.entry.state is State.DECLINED:
            return 1
        if self.entry.state in (State.UNKNOWN, State.SENT, State.INTENT):
            return 3
        return 2


def _masked(card: Any) -> str | None:
    if isinstance(card, dict) and card.get("first6") and card.get("last4"):
        return f"{card['first6']}XXXXXX{card['last4']}"
    return None


class JournaledChargeApi:
    """Charge, capture, refund and recovery over a ``ChargeApiClient`` and a ``Journal``."""

    def __init__(self, client: ChargeApiClient, journal: Journal, *, actor: str = "system") -> None:
        self.client = client
        self.journal = journal
        self.actor = actor

    async def charge(self, amount: Decimal, currency: str, *, card: str | None = None,
                     customer_id: str | None = None, captured: bool = True,
                     authorization_type: str | None = None, description: str | None = None,
                     metadata: dict[str, str] | None = None, payment_link_id: str | None = None,
                     actor: str | None = None) -> MovementResult:
        if card is not None and not isinstance(card, str):
            raise TypeError("card must be a token or card id")
        params: dict[str, Any] = {
            "amount": to_minor(amount, currency), "currency": currency.upper(), "card": card,
            "customerId": customer_id, "captured": captured, "description": description,
            "metadata": metadata, "paymentLinkId": payment_link_id,
            "options": {"authorizationType": authorization_type} if authorization_type else None}
        op = Op.CHARGE if captured else Op.AUTHORIZATION
        return await self._movement(op, amount, currency, "/charges", params, actor, token=card,
                                    customer_id=customer_id, payment_link_id=payment_link_id)

    async def capture(self, charge_id: str, *, actor: str | None = None) -> MovementResult:
        charge = await self.client.get_charge(charge_id)
        currency = str(charge["currency"])
        amount = from_minor(int(charge["amount"]), currency)
        return await self._movement(Op.CAPTURE, amount, currency, f"/charges/{charge_id}/capture", {},
                                    actor, charge_id=charge_id)

    async def refund(self, charge_id: str, amount: Decimal | None = None, *, currency: str | None = None,
                     reason: str | None = None, actor: str | None = None) -> MovementResult:
        """Full refund without ``amount``; the remaining amount is read first so it is journaled."""
        if amount is None or currency is None:
            charge = await self.client.get_charge(charge_id)
            currency = str(charge["currency"])
            if amount is None:
                amount = from_minor(int(charge["amount"]) - int(charge.get("amountRefunded", 0)), currency)
        params = {"chargeId": charge_id, "amount": to_minor(amount, currency), "reason": reason}
        return await self._movement(Op.REFUND, amount, currency, "/refunds", params, actor,
                                    charge_id=charge_id)

    async def _movement(self, op: Op, amount: Decimal, currency: str, path: str, params: dict[str, Any],
                        actor: str | None, *, token: str | None = None,
                        customer_id: str | None = None, payment_link_id: str | None = None,
                        charge_id: str | None = None) -> MovementResult:
        """The card ``token``, the ``customer_id`` and ``payment_link_id`` of a charge, or the
        ``charge_id`` a capture or refund moves, each in its own journal column."""
        who = actor or self.actor
        key = new_idempotency_key()
        clean = {k: v for k, v in params.items() if v is not None}
        entry = await self.journal.create(NewEntry(
            Kind.CHARGE, amount, actor=who, currency=currency.upper(), idempotency_key=key, op=op,
            token=token, customer_id=customer_id, payment_link_id=payment_link_id,
            charge_id=charge_id))
        await self.journal.note(entry.id, REQUEST_NOTE, actor=who, method="POST", path=path, params=clean)
        entry = await self.journal.transition(entry.id, State.SENT, actor=who)
        return await self._send(entry, op, path, clean, who)

    async def _send(self, entry: Entry, op: Op, path: str, params: dict[str, Any],
                    actor: str) -> MovementResult:
        key = entry.idempotency_key
        assert key is not None
        try:
            result = await self.client.request("POST", path, params, idempotency_key=key)
        except CardError as exc:
            entry = await self.journal.transition(entry.id, State.DECLINED, actor=actor,
                                                  response_code=exc.code, message=exc.message,
                                                  charge_id=exc.charge_id or entry.charge_id)
            return MovementResult(entry, error=exc)
        except ChargeApiOutcomeUnknown as exc:
            # it may have happened: UNKNOWN, and recovery re-sends with the same key
            entry = await self.journal.transition(entry.id, State.UNKNOWN, actor=actor, message=exc.message)
            return MovementResult(entry, error=exc)
        except ChargeApiUnavailable as exc:
            entry = await self.journal.transition(entry.id, State.ERROR, actor=actor, message=exc.message)
            return MovementResult(entry, error=exc)
        except ChargeApiError as exc:
            entry = await self.journal.transition(entry.id, State.ERROR, actor=actor,
                                                  response_code=exc.code, message=exc.message)
            return MovementResult(entry, error=exc)
        amounts: dict[str, Decimal] = {}
        currency = entry.currency
        if op in (Op.CHARGE, Op.AUTHORIZATION):
            amounts["approved"] = from_minor(int(result["amount"]), currency)
            if result.get("captured"):
                amounts["captured"] = amounts["approved"]
        elif op is Op.CAPTURE:
            amounts["captured"] = entry.requested
        elif op is Op.REFUND:
            amounts["refunded"] = from_minor(int(result["amount"]), currency)
        card = _masked(result.get("card"))
        made = "refund_id" if op is Op.REFUND else "charge_id"  # what the answer's id names
        changes: dict[str, Any] = {**amounts, made: result.id or getattr(entry, made),
                                   "message": "replayed" if result.replayed else None}
        if card:
            changes["card"] = card
        entry = await self.journal.transition(entry.id, State.APPROVED, actor=actor, **changes)
        return MovementResult(entry, result=result)

    async def recover(self, *, actor: str = "recovery") -> list[MovementResult]:
        """Finish every unresolved Charge API entry by re-sending its request with its key."""
        outcomes: list[MovementResult] = []
        for entry in await self.journal.unresolved():
            if entry.kind is not Kind.CHARGE or entry.state is State.VOIDING:
                continue
            request = None
            for event in await self.journal.events(entry.id):
                if event.type in REQUEST_NOTES:
                    request = event.data.get("_note")
            if not isinstance(request, dict):
                # the crash came before the request was written down: nothing was sent
                done = await self.journal.transition(entry.id, State.ERROR, actor=actor,
                                                     message="never sent (no request recorded)")
                outcomes.append(MovementResult(done))
                continue
            if entry.state is State.INTENT:
                entry = await self.journal.transition(entry.id, State.SENT, actor=actor)
            op = entry.op or Op.CHARGE
            outcomes.append(await self._send(entry, op, str(request["path"]), dict(request["params"]), actor))
        return outcomes
