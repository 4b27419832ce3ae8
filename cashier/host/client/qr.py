"""QR payments: the code, its details, its status, its cancel."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cashier.host.client.base import HostClientBase
from cashier.host.models.common import Amount
from cashier.host.models.qr import QrCancelResult, QrCodeResult, QrDetailsResult, QrStatusResult
from cashier.host.validation import validate_invoice


class QrPaymentOperations(HostClientBase):
    """QR payments: the code, its details, its status, its cancel."""

    # ---- QR payments -----------------------------------------------------------------------
    async def qr_get_code(self, *, invoice: str, amount: Amount, sale: bool = True,
                          vendor_reference: str | None = None) -> QrCodeResult:
        """A transaction QR code for ``amount``; ``sale`` False makes it an authorization."""
        validate_invoice(invoice)
        wire = {k: v for k, v in amount.wire().items() if k in ("total", "tax", "tip", "cashback")}
        wire.setdefault("tax", Decimal(0))
        transaction: dict[str, Any] = {"invoice": invoice, "saleFlag": "S" if sale else "A"}
        if vendor_reference is not None:
            transaction["vendorReference"] = vendor_reference
        return await self.call(QrCodeResult, "POST", "/qrpayments/getqrcode",
                               {"amount": wire, "transaction": transaction})

    async def qr_get_details(self, qr_code: str) -> QrDetailsResult:
        return await self.call(QrDetailsResult, "POST", "/qrpayments/getqrdetails",
                               {"qrCode": {"value": qr_code}})

    async def qr_payment_status(self, qr_code: str) -> QrStatusResult:
        """Poll: A approved, C cancelled, T cancelled and reversed; the sale shape otherwise."""
        return await self.call(QrStatusResult, "POST", "/qrpayments/getqrpaymentstatus",
                               {"qrCode": {"value": qr_code}})

    async def qr_cancel(self, qr_code: str) -> QrCancelResult:
        return await self.call(QrCancelResult, "POST", "/qrpayments/cancelqrpayment",
                               {"qrCode": {"value": qr_code}})
