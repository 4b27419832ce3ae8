"""Cards: card data checked and reduced to what may be kept, charge sources, a customer's cards."""

from __future__ import annotations

import re
from typing import Any

from cashier.redact import luhn_ok
from cashier.sandbox.chargeapi.resources.common import customer_of, utc
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_obj,
    as_str,
    is_deleted,
    render,
)
from cashier.sandbox.chargeapi.testcards import (
    MESSAGES,
    brand_of,
    fingerprint_of,
    outcome_of,
)
from cashier.sandbox.chargeapi.wire import card_error, invalid, missing

ADDRESS_FIELDS = ("addressLine1", "addressLine2", "addressCity", "addressState", "addressZip",
                  "addressCountry")
CARD_DATA_FIELDS = frozenset({"number", "expMonth", "expYear", "cvc", "cardholderName", "fraudCheckData",
                              *ADDRESS_FIELDS})
CARD_PUBLIC = ("first6", "last4", "fingerprint", "expMonth", "expYear", "brand", "type",
               "cardholderName", *ADDRESS_FIELDS, "fraudCheckData")
#: What the vendor's SDKs send as a card's ``fraudCheckData`` (echoed back on the card).
FRAUD_CHECK_FIELDS = frozenset({"ipAddress", "email", "userAgent", "acceptLanguage"})


def card_from_data(req: Req, data: dict[str, Any], label: str = "card") -> dict[str, Any]:
    """Validate card data; keep only what may be kept (first 6, last 4, fingerprint)."""
    unknown = sorted(set(data) - CARD_DATA_FIELDS)
    if unknown:
        raise invalid(f"{label}.{unknown[0]}: is not a card field")
    raw_number = data.get("number")
    if raw_number in (None, ""):
        raise missing(f"{label}.number")
    number = re.sub(r"[ -]", "", str(raw_number))
    if not number.isdigit() or not 12 <= len(number) <= 19 or not luhn_ok(number):
        raise card_error("invalid_number", MESSAGES["invalid_number"])
    month_text = as_str(data, "expMonth", required=True, max_len=2, label=f"{label}.expMonth")
    year_text = as_str(data, "expYear", required=True, max_len=4, label=f"{label}.expYear")
    assert month_text is not None and year_text is not None
    if not month_text.isdigit() or not 1 <= int(month_text) <= 12:
        raise card_error("invalid_expiry_month", MESSAGES["invalid_expiry_month"])
    if not year_text.isdigit() or len(year_text) not in (2, 4):
        raise card_error("invalid_expiry_year", MESSAGES["invalid_expiry_year"])
    year = int(year_text) + (2000 if len(year_text) == 2 else 0)  # "27" is kept as "2027", as the vendor does
    today = utc(req.now)
    if year < today.year or year > today.year + 50:
        raise card_error("invalid_expiry_year", MESSAGES["invalid_expiry_year"])
    if year == today.year and int(month_text) < today.month:
        raise card_error("expired_card", MESSAGES["expired_card"])
    cvc = data.get("cvc")
    if cvc not in (None, "") and not re.fullmatch(r"\d{3,4}", str(cvc)):
        raise card_error("invalid_cvc", MESSAGES["invalid_cvc"])
    card: dict[str, Any] = {
        "first6": number[:6], "last4": number[-4:], "fingerprint": fingerprint_of(number),
        "expMonth": month_text, "expYear": str(year), "brand": brand_of(number), "type": "Credit Card",
        "_outcome": outcome_of(number),
    }
    for name in ("cardholderName", *ADDRESS_FIELDS):
        value = as_str(data, name, max_len=200, label=f"{label}.{name}")
        if value is not None:
            card[name] = value
    fraud = as_obj(data, "fraudCheckData")
    if fraud is not None:
        allow(fraud, FRAUD_CHECK_FIELDS, f"{label}.fraudCheckData")
        checked = {name: as_str(fraud, name, max_len=500, label=f"{label}.fraudCheckData.{name}")
                   for name in sorted(fraud)}
        card["fraudCheckData"] = {name: value for name, value in checked.items() if value is not None}
    return card


def card_source(req: Req, raw: Any, customer: dict[str, Any] | None, label: str = "card") -> dict[str, Any]:
    """A card to charge: a token, a card of the customer, or card data (``{"id": ...}`` is an id)."""
    if isinstance(raw, dict) and set(raw) == {"id"}:
        raw = raw["id"]
    if isinstance(raw, dict):
        return card_from_data(req, raw, label)
    if not isinstance(raw, str) or not raw:
        raise invalid(f"{label}: must be a token id, a card id or card data")
    if raw.startswith("tok_"):
        token = req.find("token", raw, label)
        if token.get("used") or token["_expires"] <= req.now:
            raise card_error("expired_token", MESSAGES["expired_token"])
        token["used"] = True
        card = {k: token[k] for k in CARD_PUBLIC if k in token}
        card["_outcome"] = token["_outcome"]
        if token.get("_threeds"):
            card["_threeds"] = True
        return card
    if raw.startswith("card_"):
        saved = req.find("card", raw, label)
        if customer is None or saved.get("customerId") != customer["id"]:
            raise invalid(f"{label}: card '{raw}' does not belong to the given customerId")
        if saved.get("deleted"):
            raise invalid(f"{label}: card '{raw}' was deleted")
        return dict(saved)
    raise invalid(f"{label}: '{raw[:40]}' is neither a token (tok_) nor a card (card_)")


def public_card(req: Req, card: dict[str, Any]) -> dict[str, Any]:
    out = {"id": card.get("id") or req.new_id("card"), "created": card.get("created", req.now),
           "objectType": "card"}
    out.update({k: card[k] for k in CARD_PUBLIC if k in card})
    if card.get("customerId"):
        out["customerId"] = card["customerId"]
    return out


def default_card(req: Req, customer: dict[str, Any]) -> dict[str, Any] | None:
    card_id = customer.get("defaultCardId")
    if not card_id:
        return None
    return dict(req.account["objects"][card_id])


def save_card(req: Req, customer: dict[str, Any], card: dict[str, Any],
              make_default: bool = False) -> dict[str, Any]:
    saved = {k: v for k, v in card.items() if k in CARD_PUBLIC or k in ("_outcome", "_threeds")}
    saved["customerId"] = customer["id"]
    saved["objectType"] = "card"
    req.add("card", saved, (f"cards:{customer['id']}",))
    if make_default or not customer.get("defaultCardId"):
        customer["defaultCardId"] = saved["id"]
    req.emit("CUSTOMER_CARD_CREATED", saved)
    return saved


def create_card(req: Req, customer_id: str) -> dict[str, Any]:
    """Three ways: a token (``card``, or ``id`` as the vendor's SDKs send it), a charge's card
    (``chargeId``, or ``id`` holding a charge id), or card data."""
    customer = customer_of(req, customer_id)
    p = dict(req.params)
    if p.get("customerId") not in (None, customer_id):
        raise invalid(f"customerId: must be the customer of the path, '{customer_id}'")
    p.pop("customerId", None)
    if "id" in p:
        allow(p, {"id"})
        given = as_str(p, "id", required=True, max_len=64) or ""
        if given.startswith("char_"):
            p = {"chargeId": given}
        elif given.startswith("tok_"):
            p = {"card": given}
        else:
            raise invalid(f"id: '{given[:40]}' is neither a token (tok_) nor a charge (char_)")
    if "chargeId" in p:
        allow(p, {"chargeId"})
        charge = req.find("charge", str(p["chargeId"]), "chargeId")
        if "card" not in charge:
            raise invalid(f"chargeId: charge '{charge['id']}' was not made with a card")
        card = dict(charge["card"])
        card["_outcome"] = charge.get("_outcome", "success")
    elif "card" in p:
        allow(p, {"card"})
        if isinstance(p["card"], str) and p["card"].startswith("card_"):
            raise invalid("card: give a token, card data, or chargeId")
        card = card_source(req, p["card"], customer)
    else:
        card = card_from_data(req, p, "card")
    return render(save_card(req, customer, card))


def list_cards(req: Req, customer_id: str) -> dict[str, Any]:
    """``deleted`` (``Req.page``); ``customerId``, which some SDKs repeat in the query, must be
    the customer of the path."""
    req.get("customer", customer_id)
    if req.query.get("customerId") not in (None, "", customer_id):
        raise invalid(f"customerId: must be the customer of the path, '{customer_id}'")
    return req.page(f"cards:{customer_id}", None, frozenset({"customerId"}), deletable=True)


def _card_of(req: Req, customer_id: str, card_id: str) -> dict[str, Any]:
    req.get("customer", customer_id)
    card = req.get("card", card_id)
    if card.get("customerId") != customer_id:
        raise invalid(f"Card '{card_id}' does not belong to customer '{customer_id}'", 404)
    return card


def get_card(req: Req, customer_id: str, card_id: str) -> dict[str, Any]:
    return render(_card_of(req, customer_id, card_id))


def update_card(req: Req, customer_id: str, card_id: str) -> dict[str, Any]:
    card = _card_of(req, customer_id, card_id)
    p = req.params
    allow(p, {"expMonth", "expYear", "cardholderName", *ADDRESS_FIELDS})
    month = as_str(p, "expMonth", max_len=2)
    if month is not None and (not month.isdigit() or not 1 <= int(month) <= 12):
        raise invalid("expMonth: must be 1 to 12")
    year = as_str(p, "expYear", max_len=4)
    if year is not None and (not year.isdigit() or len(year) not in (2, 4)):
        raise invalid("expYear: must be 2 or 4 digits")
    if year is not None and len(year) == 2:
        p = {**p, "expYear": f"20{year}"}
    for name in ("expMonth", "expYear", "cardholderName", *ADDRESS_FIELDS):
        value = as_str(p, name, max_len=200)
        if value is not None:
            card[name] = value
    return render(card)


def delete_card(req: Req, customer_id: str, card_id: str) -> dict[str, Any]:
    card = _card_of(req, customer_id, card_id)
    customer = req.get("customer", customer_id)
    card["deleted"] = True
    if customer.get("defaultCardId") == card_id:
        objects = req.account["objects"]
        left = [c for c in req.account["lists"].get(f"cards:{customer_id}", [])
                if not is_deleted(objects[c])]
        # the spec: the most recently added card becomes the default
        customer["defaultCardId"] = left[-1] if left else None
    req.emit("CUSTOMER_CARD_DELETED", card)
    return render(card)
