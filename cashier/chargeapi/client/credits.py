"""Credits: money sent to a card."""

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
    check_metadata,
)
from cashier.errors import ValidationError


class CreditOperations(ChargeApiClientBase):
    async def create_credit(self, amount: int, currency: str, *, card: str | None = None,
                            customer_id: str | None = None, description: str | None = None,
                            metadata: Mapping[str, str] | None = None,
                            idempotency_key: str | None = None) -> ChargeApiObject:
        if card is None and customer_id is None:
            raise ValidationError("customer_id", "either customer_id or card must be given")
        return await self._post("/credits", {"amount": check_amount(amount),
                                             "currency": check_currency(currency), "card": card,
                                             "customerId": customer_id, "description": description,
                                             "metadata": check_metadata(metadata)}, idempotency_key)

    async def list_credits(self, **page: Any) -> ChargeApiList:
        return await self._list("/credits", self.page_params(**page))

    async def get_credit(self, credit_id: str) -> ChargeApiObject:
        return await self._get(f"/credits/{_id(credit_id)}")

    async def update_credit(self, credit_id: str, **params: Any) -> ChargeApiObject:
        return await self._post(f"/credits/{_id(credit_id)}", params)
