"""A customer's saved cards (card data goes to ``create_token`` first)."""

from __future__ import annotations

from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiObject,
    Record,
    RecordList,
    _id,
    as_record,
    as_record_list,
)
from cashier.chargeapi.models import Card
from cashier.errors import ValidationError


class CardOperations(ChargeApiClientBase):
    async def create_card(self, customer_id: str, *, token: str | None = None, charge_id: str | None = None,
                          idempotency_key: str | None = None) -> Record[Card]:
        """Save a card from a token or from a charge (card data goes to ``create_token`` first)."""
        if (token is None) == (charge_id is None):
            raise ValidationError("token", "give exactly one of token and charge_id")
        params = {"card": token} if token else {"chargeId": charge_id}
        answer = await self._post(f"/customers/{_id(customer_id)}/cards", params, idempotency_key)
        return as_record(answer, Card)

    async def list_cards(self, customer_id: str, *, deleted: bool | None = None,
                         **page: Any) -> RecordList[Card]:
        """The customer's saved cards; with ``deleted=True`` only the deleted ones."""
        answer = await self._list(f"/customers/{_id(customer_id)}/cards",
                                  self.page_params(deleted=deleted, **page))
        return as_record_list(answer, Card)

    async def get_card(self, customer_id: str, card_id: str) -> Record[Card]:
        answer = await self._get(f"/customers/{_id(customer_id)}/cards/{_id(card_id)}")
        return as_record(answer, Card)

    async def update_card(self, customer_id: str, card_id: str, **fields: Any) -> Record[Card]:
        answer = await self._post(f"/customers/{_id(customer_id)}/cards/{_id(card_id)}", fields)
        return as_record(answer, Card)

    async def delete_card(self, customer_id: str, card_id: str) -> ChargeApiObject:
        return await self._delete(f"/customers/{_id(customer_id)}/cards/{_id(card_id)}")
