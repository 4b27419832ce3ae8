"""Transactions: sale, authorization, capture, refund, invoice, manual, signature."""

from __future__ import annotations

from decimal import Decimal

from pydantic import Field

from cashier.host.models.base import HostModel
from cashier.host.models.common import (
    Amount,
    Avs,
    Card,
    Clerk,
    Customer,
    Device,
    HostResponse,
    Merchant,
    ReceiptLine,
    Server,
    TipOptions,
)

APPROVED_CODES = frozenset({"A", "C", "P"})


class TransactionInfo(HostModel):
    invoice: str | None = None
    original_invoice: str | None = None
    response_code: str | None = None
    authorization_code: str | None = None
    auth_source: str | None = None
    sale_flag: str | None = None
    retrieval_reference: str | None = None
    host_response: HostResponse | None = None
    avs: Avs | None = None
    deferred_auth: str | None = None
    business_date: str | None = None
    notes: str | None = None


class Signature(HostModel):
    data: str | None = None
    format: str | None = None


class Emv(HostModel):
    tlv_data: str | None = None
    fallback: str | None = None


class TransactionResult(HostModel):
    """``result[0]`` of authorization, sale, capture, refund, manual and invoice answers."""

    date_time: str | None = None
    amount: Amount | None = None
    card: Card | None = None
    clerk: Clerk | None = None
    customer: Customer | None = None
    device: Device | None = None
    merchant: Merchant | None = None
    receipt: list[ReceiptLine] | None = None
    server: Server | None = None
    transaction: TransactionInfo = Field(default_factory=TransactionInfo)
    signature: Signature | None = None
    emv: Emv | None = None
    tip: TipOptions | None = None

    @property
    def response_code(self) -> str:
        return (self.transaction.response_code or "").strip()

    @property
    def approved(self) -> bool:
        return self.response_code in APPROVED_CODES

    @property
    def partial(self) -> bool:
        return self.response_code == "P"

    @property
    def approved_amount(self) -> Decimal:
        if not self.approved or self.amount is None:
            return Decimal(0)
        return self.amount.total

    @property
    def masked_card(self) -> str | None:
        return self.card.number if self.card else None

    @property
    def token(self) -> str | None:
        return self.card.token.value if self.card and self.card.token else None


class VoidResult(TransactionResult):
    """DELETE /transactions/invoice: ``CardResponseVoid`` and the transaction it reversed."""


class SignatureResult(HostModel):
    date_time: str | None = None
    transaction: TransactionInfo | None = None
    merchant: Merchant | None = None
    server: Server | None = None
