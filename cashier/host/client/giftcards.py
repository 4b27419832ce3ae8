"""Gift cards: activate, allocate, reload, balance, deactivate, cash out, cancel."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from cashier.host.client.base import HostClientBase
from cashier.host.models.common import Card
from cashier.host.models.giftcards import AmountGC, GiftCardResult
from cashier.host.validation import validate_invoice


class GiftCardOperations(HostClientBase):
    """Gift cards: activate, allocate, reload, balance, deactivate, cash out, cancel."""

    # ---- gift cards ------------------------------------------------------------------------
    def _giftcard_body(self, invoice: str, card: Card | None, *,
                       amount: Decimal | AmountGC | None = None,
                       deactivation_reason: str | None = None,
                       api_options: Sequence[str] = ()) -> dict[str, Any]:
        validate_invoice(invoice)
        body: dict[str, Any] = {"transaction": {"invoice": invoice}}
        if amount is not None:
            gc = amount if isinstance(amount, AmountGC) else AmountGC(total=amount)
            body["amount"] = gc.wire()
        card_part = self._card_part(card) or {}
        if card is not None:
            # gift card bodies carry only number, expiry and code value
            card_part.pop("entryMode", None)
            code = card_part.get("securityCode")
            if isinstance(code, dict):
                if code.get("value"):
                    card_part["securityCode"] = {"value": code["value"]}
                else:
                    card_part.pop("securityCode")
        card_part.setdefault("present", "Y" if card is None else "N")
        if deactivation_reason is not None:
            card_part["deactivationReason"] = deactivation_reason
        body["card"] = card_part
        if card is None:
            dev = self.device()
            if dev is not None:
                body["device"] = dev
        if api_options:
            body["apiOptions"] = list(api_options)
        return body

    async def _giftcard(self, op: str, body: dict[str, Any], card: Card | None) -> GiftCardResult:
        return await self.call(GiftCardResult, "POST", f"/giftcards/{op}", body,
                               timeout_class=self._timeout_for(card))

    async def giftcard_activate(self, *, invoice: str, amount: Decimal | AmountGC | None = None,
                                card: Card | None = None) -> GiftCardResult:
        """Activate a card, loading ``amount`` when given."""
        body = self._giftcard_body(invoice, card, amount=amount if amount is not None else Decimal(0))
        if amount is None:
            body.pop("amount")
        return await self._giftcard("activate", body, card)

    async def giftcard_allocate(self, *, invoice: str, amount: Decimal | AmountGC,
                                program_id: str | None = None) -> GiftCardResult:
        """A new card generated under a Program ID (no card read)."""
        validate_invoice(invoice)
        gc = amount if isinstance(amount, AmountGC) else AmountGC(total=amount)
        body: dict[str, Any] = {"amount": gc.wire(), "transaction": {"invoice": invoice}}
        if program_id is not None:
            body["programId"] = program_id
        return await self.call(GiftCardResult, "POST", "/giftcards/allocate", body)

    async def giftcard_reload(self, *, invoice: str, amount: Decimal | AmountGC,
                              card: Card | None = None) -> GiftCardResult:
        return await self._giftcard("reload", self._giftcard_body(invoice, card, amount=amount), card)

    async def giftcard_balance(self, *, invoice: str, card: Card | None = None,
                               history: bool = False) -> GiftCardResult:
        """Balance; ``history`` sends RETURNHIST and fills ``history[]``. A fee may apply."""
        body = self._giftcard_body(invoice, card, api_options=("RETURNHIST",) if history else ())
        return await self._giftcard("balance", body, card)

    async def giftcard_deactivate(self, *, invoice: str, reason: str = "Customer request",
                                  card: Card | None = None) -> GiftCardResult:
        body = self._giftcard_body(invoice, card, deactivation_reason=reason)
        return await self._giftcard("deactivate", body, card)

    async def giftcard_reactivate(self, *, invoice: str, card: Card | None = None) -> GiftCardResult:
        return await self._giftcard("reactivate", self._giftcard_body(invoice, card), card)

    async def giftcard_cashback(self, *, invoice: str, reason: str = "Cash out",
                                card: Card | None = None) -> GiftCardResult:
        """Deactivate and remove the balance, to return it as cash."""
        body = self._giftcard_body(invoice, card, deactivation_reason=reason)
        return await self._giftcard("cashback", body, card)

    async def giftcard_cashout(self, *, invoice: str, reason: str = "Cash out",
                               card: Card | None = None) -> GiftCardResult:
        """Deprecated twin of ``giftcard_cashback``, kept for hosts that only know it."""
        body = self._giftcard_body(invoice, card, deactivation_reason=reason)
        return await self._giftcard("cashout", body, card)

    async def giftcard_cancel(self, *, invoice: str, token: str) -> GiftCardResult:
        """Undo the last gift card request; token bodies only (keep it from the answer)."""
        validate_invoice(invoice)
        body = {"transaction": {"invoice": invoice}, "card": {"token": {"value": token}}}
        return await self.call(GiftCardResult, "POST", "/giftcards/cancel", body)
