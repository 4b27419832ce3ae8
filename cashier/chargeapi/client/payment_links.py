"""Payment links: a URL that takes one sale's payment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    Record,
    RecordList,
    _id,
    as_record,
    as_record_list,
    check_amount,
    check_currency,
    check_metadata,
)
from cashier.chargeapi.models import Charge, PaymentLink
from cashier.errors import ValidationError


class PaymentLinkOperations(ChargeApiClientBase):
    async def create_payment_link(self, amount: int, currency: str, *, name: str | None = None,
                                  description: str | None = None, max_successful_charges: int | None = None,
                                  max_failed_attempts: int | None = None,
                                  metadata: Mapping[str, str] | None = None,
                                  idempotency_key: str | None = None) -> Record[PaymentLink]:
        for field, value in (("max_successful_charges", max_successful_charges),
                             ("max_failed_attempts", max_failed_attempts)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValidationError(field, "must be a whole number of at least 1")
        answer = await self._post("/payment-links", {
    "amount": check_amount(amount), "currency": check_currency(currency), "name": name,
    "description": description, "maxSuccessfulCharges": max_successful_charges,
    "maxFailedAttempts": max_failed_attempts, "metadata": check_metadata(metadata)},
    idempotency_key)
        return as_record(answer, PaymentLink)

    async def list_payment_links(self, **page: Any) -> RecordList[PaymentLink]:
        answer = await self._list("/payment-links", self.page_params(**page))
        return as_record_list(answer, PaymentLink)

    async def get_payment_link(self, link_id: str) -> Record[PaymentLink]:
        answer = await self._get(f"/payment-links/{_id(link_id)}")
        return as_record(answer, PaymentLink)

    async def update_payment_link(self, link_id: str, **params: Any) -> Record[PaymentLink]:
        answer = await self._post(f"/payment-links/{_id(link_id)}", params)
        return as_record(answer, PaymentLink)

    async def deactivate_payment_link(self, link_id: str) -> Record[PaymentLink]:
        answer = await self._post(f"/payment-links/{_id(link_id)}/deactivate")
        return as_record(answer, PaymentLink)

    async def reactivate_payment_link(self, link_id: str) -> Record[PaymentLink]:
        answer = await self._post(f"/payment-links/{_id(link_id)}/reactivate")
        return as_record(answer, PaymentLink)

    async def list_payment_link_charges(self, link_id: str, **page: Any) -> RecordList[Charge]:
        answer = await self._list(f"/payment-links/{_id(link_id)}/charges",
                                  self.page_params(**page))
        return as_record_list(answer, Charge)
