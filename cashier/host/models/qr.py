"""QR code payments: get a code, its details, poll its status, cancel it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pydantic import Field

from cashier.host.models.base import HostModel
from cashier.host.models.common import Merchant, Server
from cashier.host.models.transactions import TransactionResult


class QrAmount(HostModel):
    total: Decimal | None = None
    tax: Decimal | None = None
    tip: Decimal | None = None
    cashback: Decimal | None = None


class QrCode(HostModel):
    value: str | None = None


class QrTransaction(HostModel):
    invoice: str | None = None
    sale_flag: str | None = None
    vendor_reference: str | None = None
    response_code: str | None = None


class QrCodeResult(HostModel):
    date_time: str | None = None
    qr_code: QrCode | None = None
    amount: QrAmount | None = None
    merchant: Merchant | None = None
    transaction: QrTransaction | None = None
    server: Server | None = None


class QrPayConfig(HostModel):
    split_enabled: str | None = None
    tip_enabled: str | None = None
    tip_presets: list[Any] | None = None


class QrDetailsResult(HostModel):
    """The vendor's details answer carries ``credential`` (an access token): it is dropped on
    parsing so it can never reach a log, a repr or the journal."""

    date_time: str | None = None
    amount: QrAmount | None = None
    transaction: QrTransaction | None = None
    merchant: dict[str, Any] | None = None
    qr_pay_config: QrPayConfig | None = None
    credential: Any = Field(None, exclude=True, repr=False)
    server: Server | None = None

    def model_post_init(self, context: Any, /) -> None:
        self.credential = None


class QrStatusResult(TransactionResult):
    """The sale shape; ``responseCode`` A approved, C cancelled, T cancelled and reversed."""


class QrCancelResult(HostModel):
    date_time: str | None = None
    transaction: QrTransaction | None = None
    merchant: Merchant | None = None
    server: Server | None = None

    @property
    def response_code(self) -> str:
        return ((self.transaction.response_code if self.transaction else None) or "").strip()
