"""Tokens (the only call that carries card data) and 3D Secure."""

from __future__ import annotations

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiObject,
    _id,
    check_amount,
    check_currency,
)


class TokenOperations(ChargeApiClientBase):
    async def create_token(self, number: str, exp_month: str, exp_year: str, *, cvc: str | None = None,
                           cardholder_name: str | None = None, address_zip: str | None = None,
                           use_public_key: bool = True) -> ChargeApiObject:
        """The only call that carries card data; the answer holds first 6 / last 4 only."""
        params = {"number": number, "expMonth": exp_month, "expYear": exp_year, "cvc": cvc,
                  "cardholderName": cardholder_name, "addressZip": address_zip}
        return await self.request("POST", "/tokens", params, public=use_public_key)

    async def get_token(self, token_id: str) -> ChargeApiObject:
        return await self._get(f"/tokens/{_id(token_id)}")

    async def create_3d_secure(self, amount: int, currency: str, card: str) -> ChargeApiObject:
        return await self._post("/3d-secure", {"amount": check_amount(amount),
                                               "currency": check_currency(currency), "card": card})
