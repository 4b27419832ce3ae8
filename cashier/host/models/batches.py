"""Batch totals and batch close, and offline/online mode."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from cashier.host.models.base import HostModel
from cashier.host.models.common import Merchant, Server


class BatchProcessor(HostModel):
    archives_id: int | None = None
    processor: str | None = None
    currency_code: str | None = None
    sale_amount: Decimal | None = None
    sale_count: int | None = None
    refund_amount: Decimal | None = None
    refund_count: int | None = None


class BatchResponse(HostModel):
    """``BatchResponseNoProcessors`` (totals); ``BatchResponse`` adds ``processors`` (submit)."""

    inclusive: Literal["Y", "N"] | None = None
    net_amount: Decimal | None = None
    net_count: int | None = None
    sale_amount: Decimal | None = None
    sale_count: int | None = None
    refund_amount: Decimal | None = None
    refund_count: int | None = None
    processors: list[BatchProcessor] | None = None


class BatchTransaction(HostModel):
    business_date: str | None = None


class BatchResult(HostModel):
    date_time: str | None = None
    batch: BatchResponse | None = None
    merchant: Merchant | None = None
    server: Server | None = None
    transaction: BatchTransaction | None = None


class ModeTransaction(HostModel):
    auth_source: str | None = None


class ModeResult(HostModel):
    """``/mode/offline`` and ``/mode/online``: ``authSource`` O offline, E online."""

    date_time: str | None = None
    transaction: ModeTransaction | None = None
    server: Server | None = None

    @property
    def offline(self) -> bool:
        return bool(self.transaction and self.transaction.auth_source == "O")
