"""Payment methods: non-card methods whose charges stay pending until resolved."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.common import customer_of
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_currency,
    as_int,
    as_metadata,
    as_obj,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.wire import invalid

#: Wallet payloads the vendor's SDKs send, by the payment method type they go with. The
#: wallet's token is checked for shape and never kept: the sandbox decrypts nothing.
WALLETS = {"applePay": "apple_pay", "googlePay": "google_pay"}


def create_payment_method(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"type", "customerId", "billing", "metadata", *WALLETS, "threeDSecure"})
    kind = as_str(p, "type", required=True, max_len=40, pattern=r"[a-z][a-z0-9_]{1,39}")
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        customer_of(req, customer_id)
    for wallet, wallet_type in WALLETS.items():
        data = as_obj(p, wallet)
        if data is None:
            continue
        allow(data, {"token"}, wallet)
        as_str(data, "token", required=True, max_len=20_000, label=f"{wallet}.token")
        if kind != wallet_type:
            raise invalid(f"{wallet}: goes with type {wallet_type}, not {kind}")
    method: dict[str, Any] = {"type": kind, "customerId": customer_id, "billing": as_obj(p, "billing"),
                              "metadata": as_metadata(p), "status": "chargeable"}
    three_ds = as_obj(p, "threeDSecure")
    if three_ds is not None:
        allow(three_ds, {"amount", "currency"}, "threeDSecure")
        method["threeDSecure"] = {
            "amount": as_int(three_ds, "amount", required=True, minimum=1, label="threeDSecure.amount"),
            "currency": as_currency(three_ds)}
    req.add("paymentMethod", method)
    method["clientObjectId"] = f"client_{method['id']}"
    return render(method)


def list_payment_methods(req: Req) -> dict[str, Any]:
    filters = {"customerId": req.query["customerId"]} if "customerId" in req.query else None
    return req.page("paymentMethod", filters, frozenset({"customerId"}), deletable=True)


def get_payment_method(req: Req, method_id: str) -> dict[str, Any]:
    return render(req.get("paymentMethod", method_id))


def delete_payment_method(req: Req, method_id: str) -> dict[str, Any]:
    method = req.get("paymentMethod", method_id)
    method["deleted"] = True
    return render(method)
