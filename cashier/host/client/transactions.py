"""Transactions: sale, authorization, capture, refund, invoice status, void, signature."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from cashier.errors import ValidationError
from cashier.host.client.base import REVERSAL_REASONS, HostClientBase, api_options_header
from cashier.host.models.common import Amount, Card, Customer, TipOptions, Ui
from cashier.host.models.transactions import SignatureResult, TransactionResult, VoidResult
from cashier.host.validation import validate_invoice


class TransactionOperations(HostClientBase):
    """Transactions: sale, authorization, capture, refund, invoice status, void, signature."""

    # ---- transactions ----------------------------------------------------------------------
    async def sale(self, *, invoice: str, amount: Amount, card: Card | None = None,
                   customer: Customer | None = None, tip: TipOptions | None = None,
                   api_options: Sequence[str] = ("ALLOWPARTIALAUTH",),
                   clerk_id: int | None = None, ui: Ui | None = None,
                   extra: Mapping[str, Any] | None = None) -> TransactionResult:
        """Authorize and capture. With no card, the PIN pad of the option reads it."""
        body = self._payment_body(invoice, amount, card, customer, api_options, tip, clerk_id,
                                  ui=ui, extra=extra)
        return await self.call(TransactionResult, "POST", "/transactions/sale", body,
                               timeout_class=self._timeout_for(card))

    async def authorization(self, *, invoice: str, amount: Amount, card: Card | None = None,
                            customer: Customer | None = None, tip: TipOptions | None = None,
                            api_options: Sequence[str] = ("ALLOWPARTIALAUTH",),
                            clerk_id: int | None = None, ui: Ui | None = None,
                            extra: Mapping[str, Any] | None = None) -> TransactionResult:
        body = self._payment_body(invoice, amount, card, customer, api_options, tip, clerk_id,
                                  ui=ui, extra=extra)
        return await self.call(TransactionResult, "POST", "/transactions/authorization", body,
                               timeout_class=self._timeout_for(card))

    async def incremental_authorization(self, *, invoice: str, amount: Amount, token: str,
                                        clerk_id: int | None = None) -> TransactionResult:
        """Raise an open authorization (``transactions_authorization_incremental``).

        ``amount.total`` is the NEW authorized total: the host compares it with the amount on
        file for the invoice and seeks approval only for the difference (our spec). The vendor
        body has no marker for "incremental" (``authType`` is only 1 final / 2 pre-auth), so
        none is sent; a token body on an open invoice is what makes it one.
        """
        validate_invoice(invoice)
        wire = amount.wire()
        wire.setdefault("tax", Decimal(0))
        body = {"amount": wire, "clerk": {"numericId": clerk_id or self.settings.clerk_id},
                "transaction": {"invoice": invoice}, "card": {"token": {"value": token}}}
        return await self.call(TransactionResult, "POST", "/transactions/authorization", body)

    async def capture(self, *, invoice: str, amount: Amount, token: str,
                      clerk_id: int | None = None) -> TransactionResult:
        """Close an authorization; ``amount.total`` 0 voids it, more seeks only the difference."""
        validate_invoice(invoice)
        body = {"amount": amount.wire(), "clerk": {"numericId": clerk_id or self.settings.clerk_id},
                "transaction": {"invoice": invoice}, "card": {"token": {"value": token}}}
        return await self.call(TransactionResult, "POST", "/transactions/capture", body)

    async def refund(self, *, invoice: str, amount: Amount, card: Card | None = None,
                     original_invoice: str | None = None, customer: Customer | None = None,
                     clerk_id: int | None = None) -> TransactionResult:
        """Linked when ``original_invoice`` is given; with no card the PIN pad reads one."""
        extra = {"originalInvoice": original_invoice} if original_invoice else None
        if original_invoice:
            validate_invoice(original_invoice, "transaction.originalInvoice")
        if amount.tax is None:
            amount = amount.model_copy(update={"tax": Decimal(0)})
        body = self._payment_body(invoice, amount, card, customer, (), None, clerk_id,
                                  extra_transaction=extra, purchase_card=False)
        if card is not None and "present" not in body["card"]:
            body["card"]["present"] = "N"  # a keyed or token refund: the card is not here
        return await self.call(TransactionResult, "POST", "/transactions/refund", body,
                               timeout_class=self._timeout_for(card))

    async def invoice_status(self, invoice: str, *, token: str | None = None,
                             api_options: Sequence[str] = ()) -> TransactionResult:
        """``GET /transactions/invoice``: what really happened after a timeout."""
        validate_invoice(invoice)
        headers = {"Invoice": invoice}
        if token:
            headers["Token"] = token
        if api_options:
            headers["ApiOptions"] = api_options_header(api_options)
        return await self.call(TransactionResult, "GET", "/transactions/invoice", headers=headers)

    async def void(self, invoice: str, *, reversal_reason: str = "03",
                   token: str | None = None) -> VoidResult:
        """``DELETE /transactions/invoice``: void and reverse, not yet batched."""
        validate_invoice(invoice)
        if reversal_reason not in REVERSAL_REASONS:
            raise ValidationError("ReversalReason", "must be 01 to 09")
        headers = {"Invoice": invoice, "ReversalReason": reversal_reason}
        if token:
            headers["Token"] = token
        return await self.call(VoidResult, "DELETE", "/transactions/invoice", headers=headers)

    async def manual_authorization(self, *, invoice: str, amount: Amount, authorization_code: str,
                                   card: Card | None = None,
                                   clerk_id: int | None = None) -> TransactionResult:
        body = self._payment_body(invoice, amount, card, None, (), None, clerk_id,
                                  extra_transaction={"authorizationCode": authorization_code})
        return await self.call(TransactionResult, "POST", "/transactions/manualauthorization",
                               body, timeout_class=self._timeout_for(card))

    async def manual_sale(self, *, invoice: str, amount: Amount, authorization_code: str,
                          card: Card | None = None, clerk_id: int | None = None) -> TransactionResult:
        body = self._payment_body(invoice, amount, card, None, (), None, clerk_id,
                                  extra_transaction={"authorizationCode": authorization_code})
        return await self.call(TransactionResult, "POST", "/transactions/manualsale", body,
                               timeout_class=self._timeout_for(card))

    async def upload_signature(self, *, invoice: str, data: str,
                               format: str = "P") -> SignatureResult:
        """Attach a signature to an invoice; the vendor's only format value is ``P`` (PNG)."""
        validate_invoice(invoice)
        if format.upper() == "PNG":
            format = "P"
        body = {"transaction": {"invoice": invoice}, "signature": {"data": data, "format": format}}
        return await self.call(SignatureResult, "POST", "/transactions/signature", body)
