"""Cards: verify and identify."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cashier.errors import ValidationError
from cashier.host.client.base import HostClientBase
from cashier.host.models.cards import CardIdentifyResult, CardVerifyResult
from cashier.host.models.common import Card, Customer


class CardOperations(HostClientBase):
    """Cards: verify and identify."""

    # ---- cards -----------------------------------------------------------------------------
    async def card_verify(self, *, card: Card | None = None, customer: Customer | None = None,
                          api_options: Sequence[str] = ()) -> CardVerifyResult:
        """Validate with the processor (AVS and CSC when sent); with no card the pad reads one."""
        body = self._card_or_pad(card)
        if customer is not None:
            body["customer"] = customer.wire()
        if api_options:
            body["apiOptions"] = list(api_options)
        return await self.call(CardVerifyResult, "POST", "/cards/verify", body,
                               timeout_class=self._timeout_for(card))

    async def card_identify(self, *, card: Card | None = None) -> CardIdentifyResult:
        return await self.call(CardIdentifyResult, "POST", "/cards/identify", self._card_or_pad(card),
                               timeout_class=self._timeout_for(card))

    def _card_or_pad(self, card: Card | None) -> dict[str, Any]:
        """The keyed card or token, else the option's PIN pad (HD has none)."""
        if card is not None:
            return {"card": self._card_part(card)}
        dev = self._device_part()
        if dev is None:
            raise ValidationError("card", "HD needs a keyed card or a token: there is no PIN pad")
        return {"device": dev}
