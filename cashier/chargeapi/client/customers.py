"""Customers: the saved payer a card belongs to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiObject,
    Record,
    RecordList,
    _id,
    as_record,
    as_record_list,
    check_metadata,
)
from cashier.chargeapi.models import Customer
from cashier.errors import ValidationError


class CustomerOperations(ChargeApiClientBase):
    async def create_customer(self, email: str, *, description: str | None = None, card: str | None = None,
                              metadata: Mapping[str, str] | None = None,
                              idempotency_key: str | None = None) -> Record[Customer]:
        if not isinstance(email, str) or "@" not in email:
            raise ValidationError("email", "must be an e-mail address")
        answer = await self._post("/customers", {"email": email, "description": description, "card": card,
                                       "metadata": check_metadata(metadata)}, idempotency_key)
        return as_record(answer, Customer)

    async def list_customers(self, *, email: str | None = None, deleted: bool | None = None,
                             **page: Any) -> RecordList[Customer]:
        """The live customers (by ``email``); with ``deleted=True`` only the deleted ones."""
        answer = await self._list("/customers", self.page_params(email=email, deleted=deleted, **page))
        return as_record_list(answer, Customer)

    async def get_customer(self, customer_id: str) -> Record[Customer]:
        answer = await self._get(f"/customers/{_id(customer_id)}")
        return as_record(answer, Customer)

    async def update_customer(self, customer_id: str, *, email: str | None = None,
                              description: str | None = None, default_card_id: str | None = None,
                              card: str | None = None, metadata: Mapping[str, str] | None = None,
                              idempotency_key: str | None = None) -> Record[Customer]:
        answer = await self._post(f"/customers/{_id(customer_id)}", {
    "email": email, "description": description, "defaultCardId": default_card_id, "card": card,
    "metadata": check_metadata(metadata)}, idempotency_key)
        return as_record(answer, Customer)

    async def delete_customer(self, customer_id: str) -> ChargeApiObject:
        return await self._delete(f"/customers/{_id(customer_id)}")
