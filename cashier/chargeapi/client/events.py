"""Events: what happened to each object, newest first."""

from __future__ import annotations

from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiList,
    ChargeApiObject,
    _id,
)


class EventOperations(ChargeApiClientBase):
    async def list_events(self, **page: Any) -> ChargeApiList:
        return await self._list("/events", self.page_params(**page))

    async def get_event(self, event_id: str) -> ChargeApiObject:
        return await self._get(f"/events/{_id(event_id)}")
