"""Customers: a record with an e-mail, saved cards and a default card."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.cards import card_source, save_card
from cashier.sandbox.chargeapi.resources.common import payment_method_id, state_error
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_metadata,
    as_obj,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.wire import invalid


def create_customer(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"email", "description", "metadata", "card", "shipping", "billing", "paymentMethod"})
    email = as_str(p, "email", required=True, max_len=254, pattern=r"[^@\s]+@[^@\s]+")
    method_id = payment_method_id(req, p.get("paymentMethod"), "paymentMethod")
    card = card_source(req, p["card"], None) if p.get("card") not in (None, "") else None
    customer: dict[str, Any] = {"email": email, "description": as_str(p, "description", max_len=1000),
                                "metadata": as_metadata(p), "shipping": as_obj(p, "shipping"),
                                "billing": as_obj(p, "billing"), "defaultPaymentMethodId": method_id}
    req.add("customer", customer)
    if card is not None:
        save_card(req, customer, card)
    req.emit("CUSTOMER_CREATED", customer)
    return render(customer, req)


def list_customers(req: Req) -> dict[str, Any]:
    """``email`` (any case), ``deleted`` (``Req.page``), and ``metadataKey`` with an optional
    ``metadataValue``: customers whose metadata holds that key (with that value)."""
    email = as_str(req.query, "email", max_len=254)
    meta_key = as_str(req.query, "metadataKey", max_len=40)
    meta_value = as_str(req.query, "metadataValue", max_len=500)
    if meta_value is not None and meta_key is None:
        raise invalid("metadataValue: give metadataKey with it")

    def keep(obj: dict[str, Any]) -> bool:
        if email is not None and str(obj.get("email", "")).lower() != email.lower():
            return False
        if meta_key is not None:
            metadata = obj.get("metadata") or {}
            if meta_key not in metadata or (meta_value is not None and metadata[meta_key] != meta_value):
                return False
        return True

    return req.page("customer", None, frozenset({"email", "metadataKey", "metadataValue"}), keep,
                    deletable=True)


def get_customer(req: Req, customer_id: str) -> dict[str, Any]:
    return render(req.get("customer", customer_id), req)


def update_customer(req: Req, customer_id: str) -> dict[str, Any]:
    customer = req.get("customer", customer_id)
    p = req.params
    allow(p, {"email", "description", "metadata", "card", "defaultCardId", "shipping", "billing",
              "defaultPaymentMethodId"})
    if customer.get("deleted"):
        raise state_error(f"customer '{customer_id}' was deleted")
    email = as_str(p, "email", max_len=254, pattern=r"[^@\s]+@[^@\s]+")
    if email:
        customer["email"] = email
    description = as_str(p, "description", max_len=1000)
    if description is not None:
        customer["description"] = description
    if "metadata" in p:
        customer["metadata"] = as_metadata(p)
    for name in ("shipping", "billing"):
        if name in p:
            customer[name] = as_obj(p, name)
    default_id = as_str(p, "defaultCardId", max_len=64)
    if default_id:
        card = req.find("card", default_id, "defaultCardId")
        if card.get("customerId") != customer_id or card.get("deleted"):
            raise invalid(f"defaultCardId: card '{default_id}' is not a card of this customer")
        customer["defaultCardId"] = default_id
    method_id = payment_method_id(req, p.get("defaultPaymentMethodId"), "defaultPaymentMethodId")
    if method_id:
        customer["defaultPaymentMethodId"] = method_id
    if p.get("card") not in (None, ""):
        save_card(req, customer, card_source(req, p["card"], customer), make_default=True)
    req.emit("CUSTOMER_UPDATED", customer)
    return render(customer, req)


def delete_customer(req: Req, customer_id: str) -> dict[str, Any]:
    customer = req.get("customer", customer_id)
    customer["deleted"] = True
    req.emit("CUSTOMER_DELETED", customer)
    return render(customer, req)
