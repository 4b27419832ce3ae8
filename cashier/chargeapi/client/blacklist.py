"""Blacklist rules (refuse a card, an e-mail, an address...)."""

from __future__ import annotations

from typing import Any

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiList,
    ChargeApiObject,
    _id,
)


class BlacklistOperations(ChargeApiClientBase):
    async def create_blacklist_rule(self, rule_type: str, **condition: Any) -> ChargeApiObject:
        return await self._post("/blacklist", {"ruleType": rule_type, **condition})

    async def list_blacklist_rules(self, *, deleted: bool | None = None, **page: Any) -> ChargeApiList:
        """The rules in force; with ``deleted=True`` only the deleted ones."""
        return await self._list("/blacklist", self.page_params(deleted=deleted, **page))

    async def get_blacklist_rule(self, rule_id: str) -> ChargeApiObject:
        return await self._get(f"/blacklist/{_id(rule_id)}")

    async def delete_blacklist_rule(self, rule_id: str) -> ChargeApiObject:
        return await self._delete(f"/blacklist/{_id(rule_id)}")
