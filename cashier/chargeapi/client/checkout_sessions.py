"""Checkout sessions (the hosted payment page)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiList,
    ChargeApiObject,
    _id,
    check_amount,
    check_currency,
)
from cashier.errors import ValidationError


class CheckoutSessionOperations(ChargeApiClientBase):
    async def create_checkout_session(self, currency: str, *, amount: int | None = None,
                                      line_items: list[Mapping[str, Any]] | None = None,
                                      **params: Any) -> ChargeApiObject:
        if (amount is None) == (line_items is None):
            raise ValidationError("amount", "give amount or line_items")
        return await self._post("/checkout-sessions", {
            "currency": check_currency(currency), "lineItems": line_items,
            "amount": None if amount is None else check_amount(amount), **params})

    async def list_checkout_sessions(self, **page: Any) -> ChargeApiList:
        return await self._list("/checkout-sessions", self.page_params(**page))

    async def get_checkout_session(self, session_id: str) -> ChargeApiObject:
        return await self._get(f"/checkout-sessions/{_id(session_id)}")
