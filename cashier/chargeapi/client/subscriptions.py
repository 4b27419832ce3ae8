"""Plans and the subscriptions that bill them."""

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


class SubscriptionOperations(ChargeApiClientBase):
    async def create_plan(self, amount: int, currency: str, interval: str, name: str, *,
                          interval_count: int | None = None,
                          metadata: Mapping[str, str] | None = None) -> ChargeApiObject:
        return await self._post("/plans", {
            "amount": check_amount(amount), "currency": check_currency(currency), "interval": interval,
            "name": name, "intervalCount": interval_count, "metadata": check_metadata(metadata)})

    async def list_plans(self, *, deleted: bool | None = None, **page: Any) -> ChargeApiList:
        """The live plans; with ``deleted=True`` only the deleted ones."""
        return await self._list("/plans", self.page_params(deleted=deleted, **page))

    async def get_plan(self, plan_id: str) -> ChargeApiObject:
        return await self._get(f"/plans/{_id(plan_id)}")

    async def update_plan(self, plan_id: str, **params: Any) -> ChargeApiObject:
        return await self._post(f"/plans/{_id(plan_id)}", params)

    async def delete_plan(self, plan_id: str) -> ChargeApiObject:
        return await self._delete(f"/plans/{_id(plan_id)}")

    async def create_subscription(self, customer_id: str, plan_id: str, *, card: str | None = None,
                                  metadata: Mapping[str, str] | None = None,
                                  idempotency_key: str | None = None) -> ChargeApiObject:
        return await self._post("/subscriptions", {"customerId": customer_id, "planId": plan_id, "card": card,
                                                   "metadata": check_metadata(metadata)}, idempotency_key)

    async def list_subscriptions(self, *, deleted: bool | None = None, **page: Any) -> ChargeApiList:
        """The subscriptions still running; with ``deleted=True`` only the cancelled ones (the
        vendor's cancel deletes). ``customerId``/``planId`` filter, as the vendor's SDKs name them."""
        return await self._list("/subscriptions", self.page_params(deleted=deleted, **page))

    async def get_subscription(self, subscription_id: str) -> ChargeApiObject:
        return await self._get(f"/subscriptions/{_id(subscription_id)}")

    async def update_subscription(self, subscription_id: str, **params: Any) -> ChargeApiObject:
        return await self._post(f"/subscriptions/{_id(subscription_id)}", params)

    async def cancel_subscription(self, subscription_id: str) -> ChargeApiObject:
        return await self._delete(f"/subscriptions/{_id(subscription_id)}")

    async def list_subscription_charges(self, subscription_id: str, **page: Any) -> ChargeApiList:
        return await self._list(f"/subscriptions/{_id(subscription_id)}/charges", self.page_params(**page))
