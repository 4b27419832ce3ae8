"""The Gift card screen's state, without Qt: the amount typed (a ``CentsBuffer`` the screen's
display shows), the card number typed or scanned (kept in memory only, for the next request;
None: the PIN pad reads the card), the last request this till made (named when F12 asks to
cancel it), F12's first press and the last balance's history. ``request`` is the flow an action
runs, ``done`` takes what came of it; the window only draws and runs what these say.

Light on purpose, as ``sale_entry``: the screen is built before the flows are loaded, so they
are imported where a request is made, not here.
"""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from cashier.money import CentsBuffer
from cashier.redact import mask_pan

if TYPE_CHECKING:
    from cashier.flows.base import FlowContext
    from cashier.flows.giftcards import Balance, GiftCard, GiftCardFlowResult, HistoryLine


class GiftCardOp(StrEnum):
    """What the screen's keys ask of a gift card (F2 to F7)."""

    BALANCE = "balance"
    ACTIVATE = "activate"
    RELOAD = "reload"
    DEACTIVATE = "deactivate"
    REACTIVATE = "reactivate"
    CASHBACK = "cashback"


@dataclass(frozen=True)
class LastRequest:
    """This till's last gift card request, as F12 names it before cancelling it."""

    invoice: str
    kind: str  # the journal entry's kind (the window words it)
    amount: Decimal  # what it moved: approved, else what was asked
    currency: str


class GiftCardEntry:
    """One Gift card screen's state. ``amount`` is the buffer the screen's display shows."""

    def __init__(self, amount: CentsBuffer | None = None) -> None:
        self.amount = amount if amount is not None else CentsBuffer()
        self.number: str | None = None  # in memory only, for the next request
        self.last: LastRequest | None = None
        self.cancel_armed: str | None = None  # the invoice F12 asked about; the second press cancels
        self.history: tuple[HistoryLine, ...] = ()  # the last balance's movements

    # ---- the card ----------------------------------------------------------------------------
    def take_number(self, text: str) -> None:
        """The number typed or scanned, checked (a ``ValidationError`` names the field and the
        rule, and the number on hold stays as it was); empty: the PIN pad reads the card."""
        from cashier.flows.giftcards import GiftCard

        text = text.strip()
        if text:
            GiftCard(number=text)
        self.number = text or None

    @property
    def on_pad(self) -> bool:
        """No number on hold: the request reads the card on the PIN pad (the customer is asked)."""
        return self.number is None

    @property
    def masked(self) -> str | None:
        """The number on hold as the screen shows it (None: read on the PIN pad)."""
        return mask_pan(self.number) if self.number else None

    def card(self) -> GiftCard:
        from cashier.flows.giftcards import GiftCard

        return GiftCard(number=self.number) if self.number else GiftCard()

    def shown_card(self, balance: Balance) -> str:
        """A balance's card, masked one way on the screen: the number on hold as the card line
        shows it; the host's own masked form only for a card read on the pad."""
        return self.masked or balance.card or "-"

    @staticmethod
    def needs_activation(balance: Balance) -> bool:
        """The host holds the card as never activated: the screen says to activate it first."""
        return balance.state == "not activated"

    # ---- requests ----------------------------------------------------------------------------
    def request(self, ctx: FlowContext, op: GiftCardOp) -> Coroutine[Any, Any, Balance | GiftCardFlowResult]:
        """The flow ``op`` runs on the card on hold with the amount typed (an activation takes
        the amount only when one is typed: else the host's default)."""
        from cashier.flows import giftcards

        card = self.card()
        amount = self.amount.value
        if op is GiftCardOp.BALANCE:
            return giftcards.balance(ctx, card, history=True)
        if op is GiftCardOp.ACTIVATE:
            return giftcards.activate(ctx, card, amount if self.amount.entered else None)
        if op is GiftCardOp.RELOAD:
            return giftcards.reload(ctx, card, amount)
        if op is GiftCardOp.DEACTIVATE:
            return giftcards.deactivate(ctx, card)
        if op is GiftCardOp.REACTIVATE:
            return giftcards.reactivate(ctx, card)
        return giftcards.cashback(ctx, card)

    def started(self) -> None:
        """A request is on its way: the last balance's history no longer shows."""
        self.history = ()

    def done(self, outcome: Balance | GiftCardFlowResult) -> None:
        """What came of a request: a balance's history kept, else the request F12 may cancel
        (its amount cleared for the next one)."""
        from cashier.flows.giftcards import Balance

        if isinstance(outcome, Balance):
            self.history = tuple(outcome.history or ())
            return
        entry = outcome.entry
        self.last = LastRequest(str(entry.invoice), str(entry.kind), entry.approved or entry.requested,
                                entry.currency)
        self.cancel_armed = None
        self.amount.clear()

    def arm_cancel(self) -> bool:
        """F12: True when this press only asks (naming the last request); the second press on
        the same request cancels it."""
        if self.last is None:
            return False
        if self.cancel_armed != self.last.invoice:
            self.cancel_armed = self.last.invoice
            return True
        self.cancel_armed = None
        return False

    def cancel(self, ctx: FlowContext) -> Coroutine[Any, Any, GiftCardFlowResult]:
        """Undo the last request (the flow checks it is the card's last)."""
        from cashier.flows import giftcards

        if self.last is None:
            raise RuntimeError("no gift card request to cancel")
        return giftcards.cancel(ctx, self.last.invoice)
