"""Batches and the LG/DCP offline mode."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from cashier.host.client.base import HostClientBase, checked_business_date
from cashier.host.models.batches import BatchResult, ModeResult


class BatchOperations(HostClientBase):
    """Batches and the LG/DCP offline mode."""

    # ---- batches ---------------------------------------------------------------------------
    async def batch_totals(self, business_date: date | str, *,
                           inclusive: bool = True) -> BatchResult:
        """Totals up to (``inclusive``) or for exactly ``business_date``."""
        day = checked_business_date(business_date, "BusinessDate")
        headers = {"BusinessDate": day, "Inclusive": "Y" if inclusive else "N"}
        return await self.call(BatchResult, "GET", "/reports/batchtotals", headers=headers)

    async def batch_submit(self, business_date: date | str, *, inclusive: bool = True,
                           net_amount: Decimal | None = None,
                           net_count: int | None = None) -> BatchResult:
        """Close the batch; a net amount or count that does not match gives 9300/2."""
        batch: dict[str, Any] = {"inclusive": "Y" if inclusive else "N"}
        if net_amount is not None:
            batch["netAmount"] = net_amount
        if net_count is not None:
            batch["netCount"] = net_count
        body = {"transaction": {"businessDate": checked_business_date(business_date,
                                                               "transaction.businessDate")},
                "batch": batch}
        return await self.call(BatchResult, "POST", "/batches/submit", body)

    # ---- mode ------------------------------------------------------------------------------
    async def mode_offline(self) -> ModeResult:
        """LG (3080 or later, feature on) or DCP goes offline for a configured maximum."""
        return await self.call(ModeResult, "POST", "/mode/offline", {})

    async def mode_online(self) -> ModeResult:
        return await self.call(ModeResult, "POST", "/mode/online", {})
