"""Gift and private label cards: activate, allocate, reload, balance (with history), cancel, ..."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from cashier.host.models.base import HostModel
from cashier.host.models.common import CardBalance, Device, Merchant, Server, Token, UniversalToken

GiftCardOperation = Literal["Sale", "Activate", "Allocate", "Deactivate", "Cashback", "Reactivate",
                            "Reload", "Balance", "Cancel"]


class AmountGC(HostModel):
    """``AmountGC`` (request): a gift card amount has no tax."""

    total: Decimal
    check_total: Decimal | None = None


class AmountGCResponse(HostModel):
    total: Decimal | None = None


class CardResponseGC(HostModel):
    """``CardResponseGC`` / ``CardResponseDeact`` / ``CardResponseCashout``: one tolerant shape."""

    number: str | None = None
    type: str | None = None
    entry_mode: str | None = None
    expiration_date: int | str | None = None
    present: str | None = None
    deactivation_reason: str | None = None
    balance: CardBalance | None = None
    token: Token | None = None


class GiftCardTransaction(HostModel):
    invoice: str | None = None
    response_code: str | None = None
    auth_source: str | None = None


class HistoryAmount(HostModel):
    total: Decimal | None = None


class GiftCardHistoryEntry(HostModel):
    """One line of ``history[]``, returned by balance when ``RETURNHIST`` is sent."""

    date_time: str | None = None
    amount: HistoryAmount | None = None
    transaction_type: str | None = None


class GiftCardResult(HostModel):
    """``result[0]`` of every ``/giftcards/*`` operation."""

    date_time: str | None = None
    amount: AmountGCResponse | None = None
    card: CardResponseGC | None = None
    device: Device | None = None
    merchant: Merchant | None = None
    server: Server | None = None
    transaction: GiftCardTransaction | None = None
    universal_token: UniversalToken | None = None
    program_id: str | None = None
    history: list[GiftCardHistoryEntry] | None = None

    @property
    def response_code(self) -> str:
        return ((self.transaction.response_code if self.transaction else None) or "").strip()

    @property
    def approved(self) -> bool:
        return self.response_code in ("A", "C", "P")

    @property
    def balance(self) -> Decimal | None:
        """Balance left on the card, when the host tells it."""
        if self.card and self.card.balance and self.card.balance.amount is not None:
            return self.card.balance.amount
        return None

    @property
    def token(self) -> str | None:
        return self.card.token.value if self.card and self.card.token else None
