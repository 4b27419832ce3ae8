"""Refunds of a charge, full or partial."""

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
    check_metadata,
)
from cashier.chargeapi.models import Refund


class RefundOperations(ChargeApiClientBase):
    async def create_refund(self, charge_id: str, amount: int | None = None, *, reason: str | None = None,
                            metadata: Mapping[str, str] | None = None,
                            idempotency_key: str | None = None) -> Record[Refund]:
        """Full refund without ``amount``; partial ones only for a captured charge."""
        params = {"chargeId": _id(charge_id), "amount": None if amount is None else check_amount(amount),
                  "reason": reason, "metadata": check_metadata(metadata)}
        answer = await self._post("/refunds", params, idempotency_key)
        return as_record(answer, Refund)

    async def list_refunds(self, charge_id: str, **page: Any) -> RecordList[Refund]:
        answer = await self._list("/refunds", self.page_params(chargeId=_id(charge_id), **page))
        return as_record_list(answer, Refund)

    async def get_refund(self, refund_id: str) -> Record[Refund]:
        answer = await self._get(f"/refunds/{_id(refund_id)}")
        return as_record(answer, Refund)

    async def update_refund(self, refund_id: str, *, metadata: Mapping[str, str]) -> Record[Refund]:
        answer = await self._post(f"/refunds/{_id(refund_id)}", {"metadata": check_metadata(metadata)})
        return as_record(answer, Refund)
