"""``/wallet/initiate``, ``/wallet/sale`` and ``/wallet/refund`` (HD only), a digital wallet.

The vendor declares HTTP 200 only for these three operations, so every error the handlers raise
is the host's error envelope with status 200 (a client reads ``result[0].error`` either way).

Life of a wallet payment (the sandbox's reading; our spec shows no transitions for it):
initiate (client token for the wallet's UI) -> sale with the nonce the UI returns, or with a
``wallet.paymentMethodId`` vaulted by an earlier sale sent with ``paymentMethodIdUsage`` 'M'
-> refunds against ``transaction.originalInvoice`` up to the amount sold.
"""

from __future__ import annotations

import base64
import secrets
from decimal import Decimal
from typing import Any

from cashier.sandbox.core import Family, Handler, HostCall, HostFault
from cashier.sandbox.longtail import (
    amount,
    merchant,
    new_id,
    text,
)
from cashier.sandbox.shared import get, now_text

FAMILY = Family("wallet")

#: Amounts above this decline, as the vendor's card trigger table does.
DECLINE_ABOVE = Decimal("999999")
#: The vendor's refund decline trigger.
REFUND_DECLINE = Decimal("19.19")


class WalletFault(HostFault):
    """A wallet error: the host envelope, HTTP 200 (the only status the vendor declares)."""

    def __init__(self, primary_code: int, short_text: str, long_text: str, code: int) -> None:
        super().__init__(primary_code, short_text, long_text, http_status=200, code=code)


def _checked(fn: Handler) -> Handler:
    """Turn the shared helpers' 400 faults into the wallet's HTTP 200 envelope."""
    async def run(call: HostCall) -> dict[str, Any]:
        try:
            result: dict[str, Any] = await fn(call)
        except HostFault as fault:
            fault.http_status = 200
            raise
        return result
    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _payments(call: HostCall) -> dict[str, dict[str, Any]]:
    payments: dict[str, dict[str, Any]] = call.state.family("wallet").setdefault("payments", {})
    return payments


def _vault(call: HostCall) -> dict[str, dict[str, Any]]:
    vault: dict[str, dict[str, Any]] = call.state.family("wallet").setdefault("methods", {})
    return vault


INITIATE_CUSTOMER = (("addressLine1", 30), ("city", 30), ("country", 2), ("emailAddress", 80),
                     ("firstName", 30), ("lastName", 30), ("ipAddress", 20), ("phoneNumber", 32),
                     ("phoneCountry", 3), ("region", 3), ("externalId", 64), ("enrollDate", 40))


@FAMILY.route("POST", "/wallet/initiate", "HD")
@_checked
async def wallet_initiate(call: HostCall) -> dict[str, Any]:
    body = call.body
    total = amount(body)
    tax = amount(body, "amount.tax", positive=False)
    assert total is not None and tax is not None
    currency = text(body, "currencyCode", max_len=3, min_len=3)
    text(body, "sourceIp", max_len=45)
    invoice = text(body, "transaction.invoice", max_len=10)
    vendor_reference = text(body, "transaction.vendorReference", max_len=50)
    assert invoice is not None
    for name, limit in INITIATE_CUSTOMER:
        text(body, f"customer.{name}", max_len=limit)
    payments = _payments(call)
    existing = payments.get(invoice)
    if existing is not None and existing["state"] != "initiated":
        raise WalletFault(9815, "DUPLICATE INV", f"Invoice {invoice} already has a wallet "
                          f"{existing['state']}", code=40104)
    token_data = f'{{"version":2,"sandbox":true,"invoice":"{invoice}","nonce":"{secrets.token_hex(8)}"}}'
    client_token = base64.b64encode(token_data.encode()).decode()
    payments[invoice] = {"state": "initiated", "total": str(total), "tax": str(tax),
                         "currencyCode": currency, "clientToken": client_token, "refunded": "0"}
    transaction = {"authSource": "A", "invoice": invoice}
    if vendor_reference:
        transaction["vendorReference"] = vendor_reference
    return {"dateTime": now_text(call), "amount": {"tax": tax, "total": total},
            "wallet": {"clientToken": client_token, "clientMetaDataId": secrets.token_hex(16)},
            "merchant": merchant(call), "transaction": transaction}


def _ids() -> dict[str, str]:
    legacy = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(8))
    return {"transactionId": base64.b64encode(f"transaction_{legacy}".encode()).decode().rstrip("="),
            "legacyId": legacy,
            "orderId": "-".join(str(secrets.randbelow(10 ** n)).zfill(n) for n in (6, 7, 10, 4))}


@FAMILY.route("POST", "/wallet/sale", "HD")
@_checked
async def wallet_sale(call: HostCall) -> dict[str, Any]:
    body = call.body
    total = amount(body)
    assert total is not None
    invoice = text(body, "transaction.invoice", max_len=10)
    assert invoice is not None
    text(body, "currencyCode", max_len=3, min_len=3)
    text(body, "sourceIp", max_len=45)
    text(body, "customer.browserType", max_len=255)
    usage = text(body, "wallet.paymentMethodIdUsage", max_len=1, required=False, choices=("S", "M"))
    method_id = text(body, "wallet.paymentMethodId", max_len=32, required=False)
    payments, vault = _payments(call), _vault(call)
    record = payments.get(invoice)
    if method_id is not None:
        if method_id not in vault:
            raise WalletFault(9846, "BAD METHOD ID", "wallet.paymentMethodId is not known: vault "
                              "one with paymentMethodIdUsage M first", code=40105)
        if record is None:
            record = payments[invoice] = {"state": "initiated", "total": str(total), "tax": "0",
                                          "currencyCode": get(body, "currencyCode"), "refunded": "0"}
    else:
        for name in ("payerId", "paymentMethodNonce", "deviceData"):
            text(body, f"wallet.{name}", max_len=4096)
        if record is None:
            raise WalletFault(9815, "NOT INITIATED", f"Invoice {invoice} was not initiated with "
                              "/wallet/initiate", code=40104)
    if record["state"] != "initiated":
        raise WalletFault(9815, "DUPLICATE INV", f"Invoice {invoice} already has a wallet "
                          f"{record['state']}", code=40104)
    if total > Decimal(record["total"]):
        raise WalletFault(9000, "INVALID AMOUNT", f"amount.total {total} is more than the "
                          f"{record['total']} initiated", code=40107)
    ids = _ids()
    declined = total > DECLINE_ABOVE
    wallet: dict[str, Any] = {**ids, "authorizationId": new_id(length=17),
                              "captureId": new_id(length=17),
                              "status": "PROCESSOR_DECLINED" if declined else "SETTLING"}
    if declined:
        record["state"] = "declined"
    else:
        record.update(state="sale", total=str(total), sale=ids)
        if method_id is not None:
            wallet["paymentMethodId"] = method_id
        elif usage == "M":
            method_id = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(8))
            vault[method_id] = {"payerId": get(body, "wallet.payerId")}
            wallet["paymentMethodId"] = method_id
    return {"dateTime": now_text(call), "amount": {"total": total}, "merchant": merchant(call),
            "transaction": {"authSource": "A", "invoice": invoice,
                            "responseCode": "D" if declined else "A"},
            "wallet": wallet}


@FAMILY.route("POST", "/wallet/refund", "HD")
@_checked
async def wallet_refund(call: HostCall) -> dict[str, Any]:
    body = call.body
    total = amount(body)
    assert total is not None
    invoice = text(body, "transaction.invoice", max_len=10)
    original = text(body, "transaction.originalInvoice", max_len=10)
    text(body, "transaction.originalDate", max_len=40)
    assert invoice is not None and original is not None
    payments = _payments(call)
    sale = payments.get(original)
    if sale is None or sale["state"] != "sale":
        raise WalletFault(9815, "NO INV", f"No settled wallet sale for invoice {original}",
                          code=40104)
    if invoice in payments:
        raise WalletFault(9815, "DUPLICATE INV", f"Invoice {invoice} is already used", code=40104)
    remaining = Decimal(sale["total"]) - Decimal(sale["refunded"])
    if total > remaining:
        raise WalletFault(9000, "INVALID AMOUNT", f"amount.total {total} is more than the "
                          f"{remaining} left to refund on invoice {original}", code=40107)
    declined = total == REFUND_DECLINE
    ids = _ids()
    if not declined:
        sale["refunded"] = str(Decimal(sale["refunded"]) + total)
        payments[invoice] = {"state": "refund", "total": str(total), "originalInvoice": original,
                             "refunded": "0"}
    return {"dateTime": now_text(call), "amount": {"total": total}, "merchant": merchant(call),
            "transaction": {"authSource": "A", "invoice": invoice,
                            "responseCode": "D" if declined else "A"},
            "wallet": {**ids, "status": "PROCESSOR_DECLINED" if declined else "SETTLING"}}
