"""Payouts and the movements each one pays out."""

from __future__ import annotations

from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiList,
    ChargeApiObject,
    _id,
)
from cashier.errors import ValidationError


class PayoutOperations(ChargeApiClientBase):
    async def create_payout(self) -> ChargeApiObject:
        """Test mode only: pays out the test-mode movements since the last payout."""
        if self.live:
            raise ValidationError("secret_key", "a payout can be created only with a test key")
        return await self._post("/payouts")

    async def list_payouts(self, **page: Any) -> ChargeApiList:
        return await self._list("/payouts", self.page_params(**page))

    async def get_payout(self, payout_id: str) -> ChargeApiObject:
        return await self._get(f"/payouts/{_id(payout_id)}")

    async def list_payout_transactions(self, *, payout: str | None = None, source: str | None = None,
                                       **page: Any) -> ChargeApiList:
        if payout is None and source is None:
            raise ValidationError("payout", "give payout or source")
        return await self._list("/payout-transactions",
                                self.page_params(payout=payout, source=source, **page))
