"""Charges: create, read, capture, incremental authorization, the test-mode settle."""

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
from cashier.chargeapi.models import Charge
from cashier.errors import ValidationError


class ChargeOperations(ChargeApiClientBase):
    async def create_charge(self, amount: int, currency: str, *, card: str | None = None,
                            customer_id: str | None = None, captured: bool = True,
                            authorization_type: str | None = None, description: str | None = None,
                            metadata: Mapping[str, str] | None = None, payment_method: str | None = None,
                            payment_link_id: str | None = None, idempotency_key: str | None = None,
                            **extra: Any) -> Record[Charge]:
        """Charge a token (``tok_``), a customer's card (``card_``) or default card; never raw card data."""
        if card is not None and not isinstance(card, str):
            raise ValidationError("card", "must be a token or card id: card data only goes to create_token")
        if card is None and customer_id is None and payment_method is None:
            raise ValidationError("card", "give a card token, a customer_id or a payment_method")
        if authorization_type not in (None, "pre", "final"):
            raise ValidationError("authorization_type", "must be pre or final")
        if authorization_type == "pre" and captured:
            raise ValidationError("authorization_type", "pre needs captured=False")
        params = {"amount": check_amount(amount), "currency": check_currency(currency), "card": card,
                  "customerId": customer_id, "captured": captured, "description": description,
                  "metadata": check_metadata(metadata), "paymentMethod": payment_method,
                  "paymentLinkId": payment_link_id,
                  "options": {"authorizationType": authorization_type} if authorization_type else None,
                  **extra}
        answer = await self._post("/charges", params, idempotency_key)
        return as_record(answer, Charge)

    async def list_charges(self, **page: Any) -> RecordList[Charge]:
        answer = await self._list("/charges", self.page_params(**page))
        return as_record_list(answer, Charge)

    async def get_charge(self, charge_id: str) -> Record[Charge]:
        answer = await self._get(f"/charges/{_id(charge_id)}")
        return as_record(answer, Charge)

    async def update_charge(self, charge_id: str, *, description: str | None = None,
                            metadata: Mapping[str, str] | None = None, idempotency_key: str | None = None,
                            **extra: Any) -> Record[Charge]:
        answer = await self._post(f"/charges/{_id(charge_id)}", {"description": description,
                        "metadata": check_metadata(metadata), **extra}, idempotency_key)
        return as_record(answer, Charge)

    async def capture_charge(self, charge_id: str, *, idempotency_key: str | None = None) -> Record[Charge]:
        answer = await self._post(f"/charges/{_id(charge_id)}/capture", None, idempotency_key)
        return as_record(answer, Charge)

    async def incremental_authorization(self, charge_id: str, amount: int, *,
                                        idempotency_key: str | None = None) -> Record[Charge]:
        answer = await self._post(f"/charges/{_id(charge_id)}/incremental-authorization",
                        {"amount": check_amount(amount)}, idempotency_key)
        return as_record(answer, Charge)

    async def resolve_pending_charge(self, client_charge_id: str, status: str, *,
                                     failure_code: str | None = None) -> Record[Charge]:
        """Testing operation: settle a pending charge as ``successful`` or ``failed``."""
        if status not in ("successful", "failed"):
            raise ValidationError("status", "must be successful or failed")
        answer = await self._post(f"/charges/{_id(client_charge_id)}",
                        {"status": status, "failureCode": failure_code})
        return as_record(answer, Charge)
