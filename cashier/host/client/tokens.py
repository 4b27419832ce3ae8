"""Tokens and the merchant record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cashier.errors import ValidationError
from cashier.host.client.base import HostClientBase, api_options_header
from cashier.host.models.common import Card, Customer
from cashier.host.models.tokens import MerchantResult, TokenResult


class TokenOperations(HostClientBase):
    """Tokens and the merchant record."""

    # ---- tokens and merchant ---------------------------------------------------------------
    async def token_add(self, *, card: Card | None = None, customer: Customer | None = None,
                        api_options: Sequence[str] = ()) -> TokenResult:
        """Store card data and get a token; with no card the option's PIN pad reads it."""
        body: dict[str, Any] = {}
        if card is not None:
            body["card"] = self._card_part(card)
        else:
            dev = self._device_part()
            if dev is None and self.option == "HD":
                raise ValidationError("card", "HD needs a keyed card: there is no PIN pad")
            if dev is not None:
                body["device"] = dev
        customer_part = self._customer_part(card, customer)
        if customer_part is not None:
            body["customer"] = customer_part
        if api_options:
            body["apiOptions"] = list(api_options)
        return await self.call(TokenResult, "POST", "/tokens/add", body,
                               timeout_class=self._timeout_for(card))

    async def token_duplicate(self, token: str, *, api_options: Sequence[str] = ()) -> TokenResult:
        body: dict[str, Any] = {"card": {"token": {"value": token}}}
        if api_options:
            body["apiOptions"] = list(api_options)
        return await self.call(TokenResult, "POST", "/tokens/duplicate", body)

    async def token_delete(self, token: str) -> TokenResult:
        """Irreversible."""
        return await self.call(TokenResult, "POST", "/tokens/delete",
                               {"card": {"token": {"value": token}}})

    async def universal_token(self, *, token: str | None = None,
                              card_number: str | None = None) -> TokenResult:
        """The existing universal token of a card, asked for by token (or keyed number)."""
        headers: dict[str, str] = {}
        if token:
            headers["Token"] = token
        if card_number:
            headers["CardNumber"] = card_number
        if not headers:
            raise ValidationError("Token", "a token or a card number is required")
        return await self.call(TokenResult, "GET", "/tokens/universaltoken", headers=headers)

    async def token_four_words(self, token: str) -> TokenResult:
        """Four-word reference; legacy-style tokens only."""
        return await self.call(TokenResult, "POST", "/tokens/4words",
                               {"card": {"token": {"value": token}}})

    async def merchant_info(self, *, api_options: Sequence[str] = ()) -> MerchantResult:
        """``RETURNPROCESSORS`` adds the card ranges per processor."""
        headers = {"ApiOptions": api_options_header(api_options)} if api_options else None
        return await self.call(MerchantResult, "GET", "/merchants/merchant", headers=headers)
