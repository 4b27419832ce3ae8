"""Payment methods (wallets, alternative methods)."""

from __future__ import annotations

from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiList,
    ChargeApiObject,
    _id,
)


class PaymentMethodOperations(ChargeApiClientBase):
    async def create_payment_method(self, type_: str, **params: Any) -> ChargeApiObject:
        return await self._post("/payment-methods", {"type": type_, **params})

    async def list_payment_methods(self, *, deleted: bool | None = None, **page: Any) -> ChargeApiList:
        """The live payment methods; with ``deleted=True`` only the deleted ones."""
        return await self._list("/payment-methods", self.page_params(deleted=deleted, **page))

    async def get_payment_method(self, method_id: str) -> ChargeApiObject:
        return await self._get(f"/payment-methods/{_id(method_id)}")

    async def delete_payment_method(self, method_id: str) -> ChargeApiObject:
        return await self._delete(f"/payment-methods/{_id(method_id)}")
