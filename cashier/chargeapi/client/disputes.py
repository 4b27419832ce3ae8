"""Disputes and the fraud warnings that may precede them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiList,
    ChargeApiObject,
    _id,
    check_metadata,
)


class DisputeOperations(ChargeApiClientBase):
    async def list_disputes(self, **page: Any) -> ChargeApiList:
        return await self._list("/disputes", self.page_params(**page))

    async def get_dispute(self, dispute_id: str) -> ChargeApiObject:
        return await self._get(f"/disputes/{_id(dispute_id)}")

    async def update_dispute(self, dispute_id: str, *, evidence: Mapping[str, Any] | None = None,
                             metadata: Mapping[str, str] | None = None) -> ChargeApiObject:
        return await self._post(f"/disputes/{_id(dispute_id)}", {"evidence": evidence,
                                                                 "metadata": check_metadata(metadata)})

    async def close_dispute(self, dispute_id: str) -> ChargeApiObject:
        return await self._post(f"/disputes/{_id(dispute_id)}/close")

    async def list_fraud_warnings(self, **page: Any) -> ChargeApiList:
        return await self._list("/fraud-warnings", self.page_params(**page))

    async def get_fraud_warning(self, warning_id: str) -> ChargeApiObject:
        return await self._get(f"/fraud-warnings/{_id(warning_id)}")
