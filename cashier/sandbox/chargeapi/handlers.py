"""The Charge API's operations and rules, one function per endpoint of the spec's table.

A handler gets a ``Req`` (parameters already parsed, account chosen by the API key) and
returns the JSON object to answer with, or raises ``ChargeApiFault``.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, datetime
from typing import Any

from cashier.redact import luhn_ok
from cashier.sandbox.chargeapi.store import (
    Req,
    allow,
    as_bool,
    as_currency,
    as_int,
    as_metadata,
    as_obj,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.testcards import (
    CARD_ERROR_CODES,
    FOLLOW_UP_DELAY_S,
    MAX_AMOUNT,
    MESSAGES,
    SLOW_DELAY_S,
    brand_of,
    fingerprint_of,
    outcome_of,
)
from cashier.sandbox.chargeapi.wire import ChargeApiFault, card_error, invalid, missing

CAPTURE_WINDOW_S = 5 * 86400
TOKEN_LIFETIME_S = 3600
ADDRESS_FIELDS = ("addressLine1", "addressLine2", "addressCity", "addressState", "addressZip",
                  "addressCountry")
CARD_DATA_FIELDS = frozenset({"number", "expMonth", "expYear", "cvc", "cardholderName", *ADDRESS_FIELDS})
CARD_PUBLIC = ("first6", "last4", "fingerprint", "expMonth", "expYear", "brand", "type",
               "cardholderName", *ADDRESS_FIELDS)
INTERVALS = ("day", "week", "month", "year")


def state_error(message: str) -> ChargeApiFault:
    return invalid(message, "invalid_state")


def _utc(ts: int) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


# ==== cards ======================================================================================
def card_from_data(req: Req, data: dict[str, Any], label: str = "card") -> dict[str, Any]:
    """Validate card data; keep only what may be kept (first 6, last 4, fingerprint)."""
    unknown = sorted(set(data) - CARD_DATA_FIELDS)
    if unknown:
        raise invalid(f"{label}.{unknown[0]}: is not a card field", "unknown_parameter")
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
    year = int(year_text) + (2000 if len(year_text) == 2 else 0)
    today = _utc(req.now)
    if year < today.year or year > today.year + 50:
        raise card_error("invalid_expiry_year", MESSAGES["invalid_expiry_year"])
    if year == today.year and int(month_text) < today.month:
        raise card_error("expired_card", MESSAGES["expired_card"])
    cvc = data.get("cvc")
    if cvc not in (None, "") and not re.fullmatch(r"\d{3,4}", str(cvc)):
        raise card_error("invalid_cvc", MESSAGES["invalid_cvc"])
    card: dict[str, Any] = {
        "first6": number[:6], "last4": number[-4:], "fingerprint": fingerprint_of(number),
        "expMonth": month_text, "expYear": year_text, "brand": brand_of(number), "type": "Credit Card",
        "_outcome": outcome_of(number),
    }
    for name in ("cardholderName", *ADDRESS_FIELDS):
        value = as_str(data, name, max_len=200, label=f"{label}.{name}")
        if value is not None:
            card[name] = value
    return card


def card_source(req: Req, raw: Any, customer: dict[str, Any] | None, label: str = "card") -> dict[str, Any]:
    """A card to charge: a token, a card of the customer, or card data."""
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


# ==== charges ====================================================================================
def _blacklist_rule(req: Req, card: dict[str, Any], customer: dict[str, Any] | None,
                    ip: str | None) -> str | None:
    objects = req.account["objects"]
    email = (customer or {}).get("email")
    for rule_id in req.account["lists"].get("blacklistRule", []):
        rule = objects[rule_id]
        if rule.get("deleted"):
            continue
        kind = rule["ruleType"]
        if (kind in ("fingerprint", "card_number") and rule.get("fingerprint") == card.get("fingerprint")) \
                or (kind == "email" and email and str(rule.get("email", "")).lower() == str(email).lower()) \
                or (kind == "ip_address" and ip and rule.get("ipAddress") == ip):
            return str(rule_id)
    return None


def make_charge(req: Req, *, amount: int, currency: str, card: dict[str, Any],
                customer: dict[str, Any] | None, captured: bool = True,
                extra: dict[str, Any] | None = None, created: int | None = None,
                ip: str | None = None) -> tuple[dict[str, Any], ChargeApiFault | None]:
    """Record a charge attempt; a failed one is kept too and comes back with its fault."""
    extra = extra or {}
    rule_id = _blacklist_rule(req, card, customer, ip)
    outcome = card.get("_outcome", "success")
    code: str | None = None
    if rule_id:
        code = "blacklisted"
    elif outcome == "authentication_required" and card.get("_threeds"):
        code = None
    elif outcome in CARD_ERROR_CODES:
        code = outcome
    charge: dict[str, Any] = {
        "amount": amount, "amountRefunded": 0, "currency": currency,
        "card": public_card(req, card), "captured": captured and code is None, "refunded": False,
        "disputed": False, "status": "failed" if code else "successful",
    }
    if created is not None:
        charge["created"] = created
    if customer is not None:
        charge["customerId"] = customer["id"]
    charge.update({k: v for k, v in extra.items() if v is not None})
    charge["_outcome"] = outcome
    if code:
        charge["failureCode"] = code
        charge["failureMessage"] = MESSAGES[code]
    else:
        charge["fraudDetails"] = {"status": "in_progress" if outcome == "fraud_warning" else "safe"}
    req.add("charge", charge)
    if code:
        req.emit("CHARGE_FAILED", charge)
        return charge, card_error(code, MESSAGES[code], charge_id=charge["id"], blacklist_rule_id=rule_id)
    req.emit("CHARGE_SUCCEEDED", charge)
    if charge["captured"]:
        charge["_capturedAt"] = charge["created"]
    if outcome in ("dispute", "fraud_warning"):
        req.schedule(charge["created"] + FOLLOW_UP_DELAY_S, outcome, charge["id"])
    if outcome == "slow":
        req.delay_s = SLOW_DELAY_S
    return charge, None


CHARGE_CREATE = {"amount", "currency", "card", "customerId", "captured", "description", "metadata",
                 "options", "paymentMethod", "paymentLinkId", "ipAddress", "shipping", "billing"}


def create_charge(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, CHARGE_CREATE)
    link = None
    link_id = as_str(p, "paymentLinkId", max_len=64)
    if link_id:
        link = req.find("paymentLink", link_id, "paymentLinkId")
        if not link["active"]:
            raise state_error(f"paymentLinkId: payment link '{link_id}' is deactivated")
    amount = as_int(p, "amount", required=link is None, minimum=1)
    currency = as_currency(p, required=link is None)
    if link is not None:
        if amount is not None and amount != link["amount"]:
            raise invalid(f"amount: must equal the payment link's amount {link['amount']}")
        if currency is not None and currency != link["currency"]:
            raise invalid(f"currency: must equal the payment link's currency {link['currency']}")
        amount, currency = link["amount"], link["currency"]
    assert amount is not None and currency is not None
    options = as_obj(p, "options") or {}
    allow(options, {"authorizationType"})
    auth_type = as_str(options, "authorizationType", label="options.authorizationType", max_len=10)
    if auth_type not in (None, "pre", "final"):
        raise invalid("options.authorizationType: must be pre or final")
    captured = as_bool(p, "captured", default=True)
    assert captured is not None
    if auth_type == "pre" and captured:
        raise invalid("options.authorizationType: pre needs captured=false (an authorization)")
    extra: dict[str, Any] = {
        "description": as_str(p, "description", max_len=1000),
        "metadata": as_metadata(p), "shipping": as_obj(p, "shipping"), "billing": as_obj(p, "billing"),
        "paymentLinkId": link_id, "ipAddress": as_str(p, "ipAddress", max_len=45),
    }
    if auth_type:
        extra["_authorizationType"] = auth_type
    customer = None
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        customer = req.find("customer", customer_id, "customerId")
        if customer.get("deleted"):
            raise invalid(f"customerId: customer '{customer_id}' was deleted")
    method_id = as_str(p, "paymentMethod", max_len=64)
    if method_id:
        return _pending_charge(req, amount, currency, method_id, customer, extra)
    if p.get("card") not in (None, ""):
        card = card_source(req, p["card"], customer)
    elif customer is not None:
        found = default_card(req, customer)
        if found is None:
            raise invalid(f"customerId: customer '{customer['id']}' has no default card to charge")
        card = found
    else:
        raise missing("card (or customerId, or paymentMethod)")
    if amount > MAX_AMOUNT:
        raise card_error("limit_exceeded", MESSAGES["limit_exceeded"])
    charge, fault = make_charge(req, amount=amount, currency=currency, card=card, customer=customer,
                                captured=captured, extra=extra, ip=extra["ipAddress"])
    if link is not None:
        _count_link_attempt(req, link, fault is None)
    if fault is not None:
        raise fault
    return render(charge)


def _pending_charge(req: Req, amount: int, currency: str, method_id: str,
                    customer: dict[str, Any] | None, extra: dict[str, Any]) -> dict[str, Any]:
    method = req.find("paymentMethod", method_id, "paymentMethod")
    if method.get("deleted"):
        raise invalid(f"paymentMethod: payment method '{method_id}' was deleted")
    charge: dict[str, Any] = {"amount": amount, "amountRefunded": 0, "currency": currency,
                              "paymentMethod": method_id, "captured": False, "refunded": False,
                              "disputed": False, "status": "pending", "_outcome": "success"}
    if customer is not None:
        charge["customerId"] = customer["id"]
    charge.update({k: v for k, v in extra.items() if v is not None})
    req.add("charge", charge)
    req.emit("CHARGE_PENDING", charge)
    return render(charge)


def _count_link_attempt(req: Req, link: dict[str, Any], succeeded: bool) -> None:
    if succeeded:
        link["successfulCharges"] += 1
    else:
        link["failedAttempts"] += 1
    reason = _link_limit_reached(link)
    if reason and link["active"]:
        link["active"] = False
        link["deactivationReason"] = reason
        req.emit("PAYMENT_LINK_DEACTIVATED", link)


def _link_limit_reached(link: dict[str, Any]) -> str | None:
    cap = link.get("maxSuccessfulCharges")
    if cap is not None and link["successfulCharges"] >= cap:
        return "successful_charges_limit"
    cap = link.get("maxFailedAttempts")
    if cap is not None and link["failedAttempts"] >= cap:
        return "failed_attempts_limit"
    return None


def list_charges(req: Req) -> dict[str, Any]:
    filters: dict[str, Any] = {k: req.query[k] for k in ("customerId", "subscriptionId", "paymentLinkId")
                               if k in req.query}
    return req.page("charge", filters, frozenset({"customerId", "subscriptionId", "paymentLinkId"}))


def get_charge(req: Req, charge_id: str) -> dict[str, Any]:
    return render(req.get("charge", charge_id))


def update_charge(req: Req, charge_id: str) -> dict[str, Any]:
    """Update; with ``status`` it is the testing operation that resolves a pending charge."""
    charge = req.get("charge", charge_id)
    p = req.params
    allow(p, {"description", "metadata", "shipping", "billing", "status", "failureCode"})
    status = as_str(p, "status", max_len=20)
    if status is not None:
        if req.mode == "live":
            raise invalid("status: resolving a pending charge is a testing operation (test key only)",
                          "test_mode_only")
        if charge["status"] != "pending":
            raise state_error(f"status: charge '{charge_id}' is {charge['status']}, not pending")
        if status == "successful":
            charge.update(status="successful", captured=True, _capturedAt=req.now)
            req.emit("CHARGE_SUCCEEDED", charge)
        elif status == "failed":
            code = as_str(p, "failureCode", max_len=40) or "processing_error"
            if code not in CARD_ERROR_CODES:
                raise invalid("failureCode: must be one of the card error codes")
            charge.update(status="failed", failureCode=code, failureMessage=MESSAGES[code])
            req.emit("CHARGE_FAILED", charge)
        else:
            raise invalid("status: must be successful or failed")
    elif "failureCode" in p:
        raise invalid("failureCode: only with status=failed")
    for name in ("description",):
        value = as_str(p, name, max_len=1000)
        if value is not None:
            charge[name] = value
    if "metadata" in p:
        charge["metadata"] = as_metadata(p)
    for name in ("shipping", "billing"):
        if name in p:
            charge[name] = as_obj(p, name)
    req.emit("CHARGE_UPDATED", charge)
    return render(charge)


def _uncaptured_successful(charge: dict[str, Any], action: str) -> None:
    if charge["status"] != "successful":
        raise state_error(f"charge '{charge['id']}' is {charge['status']}: it cannot be {action}")
    if charge["captured"]:
        raise state_error(f"charge '{charge['id']}' is already captured")
    if charge["amountRefunded"]:
        raise state_error(f"charge '{charge['id']}' was refunded (authorization released)")


def capture_charge(req: Req, charge_id: str) -> dict[str, Any]:
    charge = req.get("charge", charge_id)
    allow(req.params, set())
    _uncaptured_successful(charge, "captured")
    if req.now - charge["created"] > CAPTURE_WINDOW_S:
        raise state_error(f"charge '{charge_id}' was authorized more than 5 days ago: the capture "
                          "window has closed", )
    charge["captured"] = True
    charge["_capturedAt"] = req.now
    req.emit("CHARGE_CAPTURED", charge)
    return render(charge)


def incremental_authorization(req: Req, charge_id: str) -> dict[str, Any]:
    charge = req.get("charge", charge_id)
    allow(req.params, {"amount", "description"})
    if charge.get("_authorizationType") != "pre":
        raise state_error(f"charge '{charge_id}' was not authorized with options.authorizationType=pre")
    _uncaptured_successful(charge, "incremented")
    amount = as_int(req.params, "amount", required=True, minimum=1)
    assert amount is not None
    if charge["amount"] + amount > MAX_AMOUNT:
        raise card_error("limit_exceeded", MESSAGES["limit_exceeded"], charge_id=charge_id)
    charge["amount"] += amount
    req.emit("CHARGE_UPDATED", charge)
    return render(charge)


# ==== refunds ====================================================================================
def refund(req: Req, charge: dict[str, Any], amount: int | None, reason: str | None,
           metadata: dict[str, str] | None) -> dict[str, Any]:
    if charge["status"] != "successful":
        raise state_error(f"chargeId: charge '{charge['id']}' is {charge['status']}: nothing to refund")
    remaining = charge["amount"] - charge["amountRefunded"]
    if remaining <= 0:
        raise state_error(f"chargeId: charge '{charge['id']}' is already fully refunded")
    if amount is None:
        amount = remaining
    if amount > remaining:
        raise invalid(f"amount: {amount} is more than the {remaining} left to refund")
    if not charge["captured"] and amount != charge["amount"]:
        raise state_error("amount: partial refunds are possible only for a captured charge")
    item: dict[str, Any] = {"amount": amount, "currency": charge["currency"], "charge": charge["id"],
                            "status": "successful", "reason": reason, "metadata": metadata}
    req.add("refund", item)
    charge["amountRefunded"] += amount
    charge["refunded"] = True
    req.emit("CHARGE_REFUNDED", charge)
    return item


def create_refund(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"chargeId", "amount", "reason", "metadata"})
    charge_id = as_str(p, "chargeId", required=True, max_len=64)
    assert charge_id is not None
    charge = req.find("charge", charge_id, "chargeId")
    amount = as_int(p, "amount", minimum=1)
    return render(refund(req, charge, amount, as_str(p, "reason", max_len=100), as_metadata(p)))


def refund_via_charge(req: Req, charge_id: str) -> dict[str, Any]:
    """``POST /charges/{id}/refund``: the form the official SDK calls; answers with the charge."""
    charge = req.get("charge", charge_id)
    allow(req.params, {"amount", "reason", "metadata"})
    refund(req, charge, as_int(req.params, "amount", minimum=1), as_str(req.params, "reason", max_len=100),
           as_metadata(req.params))
    return render(charge)


def list_refunds(req: Req) -> dict[str, Any]:
    charge_id = req.query.get("chargeId") or req.query.get("charge")
    if not charge_id:
        raise missing("chargeId")
    req.find("charge", str(charge_id), "chargeId")
    return req.page("refund", {"charge": charge_id}, frozenset({"chargeId", "charge"}))


def get_refund(req: Req, refund_id: str) -> dict[str, Any]:
    return render(req.get("refund", refund_id))


def update_refund(req: Req, refund_id: str) -> dict[str, Any]:
    item = req.get("refund", refund_id)
    allow(req.params, {"metadata"})
    if "metadata" in req.params:
        item["metadata"] = as_metadata(req.params)
    return render(item)


# ==== customers and cards ========================================================================
def create_customer(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"email", "description", "metadata", "card", "shipping", "billing"})
    email = as_str(p, "email", required=True, max_len=254, pattern=r"[^@\s]+@[^@\s]+")
    card = card_source(req, p["card"], None) if p.get("card") not in (None, "") else None
    customer: dict[str, Any] = {"email": email, "description": as_str(p, "description", max_len=1000),
                                "metadata": as_metadata(p), "shipping": as_obj(p, "shipping"),
                                "billing": as_obj(p, "billing")}
    req.add("customer", customer)
    if card is not None:
        save_card(req, customer, card)
    req.emit("CUSTOMER_CREATED", customer)
    return render(customer, req)


def list_customers(req: Req) -> dict[str, Any]:
    email = req.query.get("email")
    deleted = as_bool(req.query, "deleted", default=False)

    def keep(obj: dict[str, Any]) -> bool:
        if bool(obj.get("deleted")) != deleted:
            return False
        return email is None or str(obj.get("email", "")).lower() == str(email).lower()

    return req.page("customer", None, frozenset({"email", "deleted"}), keep)


def get_customer(req: Req, customer_id: str) -> dict[str, Any]:
    return render(req.get("customer", customer_id), req)


def update_customer(req: Req, customer_id: str) -> dict[str, Any]:
    customer = req.get("customer", customer_id)
    p = req.params
    allow(p, {"email", "description", "metadata", "card", "defaultCardId", "shipping", "billing"})
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
    if p.get("card") not in (None, ""):
        save_card(req, customer, card_source(req, p["card"], customer), make_default=True)
    req.emit("CUSTOMER_UPDATED", customer)
    return render(customer, req)


def delete_customer(req: Req, customer_id: str) -> dict[str, Any]:
    customer = req.get("customer", customer_id)
    customer["deleted"] = True
    req.emit("CUSTOMER_DELETED", customer)
    return render(customer, req)


def _customer_of(req: Req, customer_id: str) -> dict[str, Any]:
    customer = req.get("customer", customer_id)
    if customer.get("deleted"):
        raise state_error(f"customer '{customer_id}' was deleted")
    return customer


def create_card(req: Req, customer_id: str) -> dict[str, Any]:
    """Three ways: a token (``card``), a charge's card (``chargeId``), or card data."""
    customer = _customer_of(req, customer_id)
    p = req.params
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
    req.get("customer", customer_id)
    deleted = as_bool(req.query, "deleted", default=False)
    return req.page(f"cards:{customer_id}", None, frozenset({"deleted"}),
                    lambda o: bool(o.get("deleted")) == deleted)


def _card_of(req: Req, customer_id: str, card_id: str) -> dict[str, Any]:
    req.get("customer", customer_id)
    card = req.get("card", card_id)
    if card.get("customerId") != customer_id:
        raise invalid(f"Card '{card_id}' does not belong to customer '{customer_id}'", "not_found", 404)
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
                if not objects[c].get("deleted")]
        # the spec: the most recently added card becomes the default
        customer["defaultCardId"] = left[-1] if left else None
    req.emit("CUSTOMER_CARD_DELETED", card)
    return render(card)


# ==== payment methods ============================================================================
def create_payment_method(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"type", "customerId", "billing", "metadata"})
    kind = as_str(p, "type", required=True, max_len=40, pattern=r"[a-z][a-z0-9_]{1,39}")
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        _customer_of(req, customer_id)
    method: dict[str, Any] = {"type": kind, "customerId": customer_id, "billing": as_obj(p, "billing"),
                              "metadata": as_metadata(p), "status": "chargeable"}
    req.add("paymentMethod", method)
    method["clientObjectId"] = f"client_{method['id']}"
    return render(method)


def list_payment_methods(req: Req) -> dict[str, Any]:
    filters = {"customerId": req.query["customerId"]} if "customerId" in req.query else None
    deleted = as_bool(req.query, "deleted", default=False)
    return req.page("paymentMethod", filters, frozenset({"customerId", "deleted"}),
                    lambda o: bool(o.get("deleted")) == deleted)


def get_payment_method(req: Req, method_id: str) -> dict[str, Any]:
    return render(req.get("paymentMethod", method_id))


def delete_payment_method(req: Req, method_id: str) -> dict[str, Any]:
    method = req.get("paymentMethod", method_id)
    method["deleted"] = True
    return render(method)


# ==== plans and subscriptions ====================================================================
def add_interval(ts: int, interval: str, count: int) -> int:
    if interval == "day":
        return ts + 86400 * count
    if interval == "week":
        return ts + 7 * 86400 * count
    start = _utc(ts)
    months = count * (12 if interval == "year" else 1)
    year, month0 = divmod(start.month - 1 + months, 12)
    year += start.year
    day = min(start.day, calendar.monthrange(year, month0 + 1)[1])
    return int(start.replace(year=year, month=month0 + 1, day=day).timestamp())


def create_plan(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"amount", "currency", "interval", "intervalCount", "name", "metadata"})
    interval = as_str(p, "interval", required=True, max_len=5)
    if interval not in INTERVALS:
        raise invalid("interval: must be day, week, month or year")
    plan: dict[str, Any] = {
        "amount": as_int(p, "amount", required=True, minimum=1, maximum=MAX_AMOUNT),
        "currency": as_currency(p), "interval": interval,
        "intervalCount": as_int(p, "intervalCount", minimum=1, maximum=365, default=1),
        "name": as_str(p, "name", required=True, max_len=200), "metadata": as_metadata(p),
    }
    req.add("plan", plan)
    req.emit("PLAN_CREATED", plan)
    return render(plan)


def list_plans(req: Req) -> dict[str, Any]:
    deleted = as_bool(req.query, "deleted", default=False)
    return req.page("plan", None, frozenset({"deleted"}), lambda o: bool(o.get("deleted")) == deleted)


def get_plan(req: Req, plan_id: str) -> dict[str, Any]:
    return render(req.get("plan", plan_id))


def update_plan(req: Req, plan_id: str) -> dict[str, Any]:
    """An amount or currency change applies to future rebills only (they read the plan then)."""
    plan = req.get("plan", plan_id)
    p = req.params
    allow(p, {"amount", "currency", "name", "metadata"})
    if plan.get("deleted"):
        raise state_error(f"plan '{plan_id}' was deleted")
    amount = as_int(p, "amount", minimum=1, maximum=MAX_AMOUNT)
    if amount is not None:
        plan["amount"] = amount
    currency = as_currency(p, required=False)
    if currency:
        plan["currency"] = currency
    name = as_str(p, "name", max_len=200)
    if name:
        plan["name"] = name
    if "metadata" in p:
        plan["metadata"] = as_metadata(p)
    req.emit("PLAN_UPDATED", plan)
    return render(plan)


def delete_plan(req: Req, plan_id: str) -> dict[str, Any]:
    plan = req.get("plan", plan_id)
    plan["deleted"] = True  # subscriptions on it keep being charged until cancelled
    req.emit("PLAN_DELETED", plan)
    return render(plan)


def create_subscription(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"customerId", "planId", "card", "quantity", "metadata", "shipping", "billing"})
    customer_id = as_str(p, "customerId", required=True, max_len=64)
    plan_id = as_str(p, "planId", required=True, max_len=64)
    assert customer_id is not None and plan_id is not None
    customer = req.find("customer", customer_id, "customerId")
    if customer.get("deleted"):
        raise invalid(f"customerId: customer '{customer_id}' was deleted")
    plan = req.find("plan", plan_id, "planId")
    if plan.get("deleted"):
        raise invalid(f"planId: plan '{plan_id}' was deleted")
    quantity = as_int(p, "quantity", minimum=1, maximum=1000, default=1)
    assert quantity is not None
    if p.get("card") not in (None, ""):
        # a card given here becomes the customer's default, which the spec bills
        save_card(req, customer, card_source(req, p["card"], customer), make_default=True)
    card = default_card(req, customer)
    if card is None:
        raise invalid(f"customerId: customer '{customer_id}' has no default card to bill")
    sub_id = req.new_id("subscription")
    charge, fault = make_charge(req, amount=plan["amount"] * quantity, currency=plan["currency"],
                                card=card, customer=customer)
    if fault is not None:
        raise fault
    charge["subscriptionId"] = sub_id
    subscription: dict[str, Any] = {
        "id": sub_id, "planId": plan_id, "customerId": customer_id, "status": "active",
        "quantity": quantity, "start": req.now, "currentPeriodStart": req.now,
        "currentPeriodEnd": add_interval(req.now, plan["interval"], plan["intervalCount"]),
        "cancelAtPeriodEnd": False, "metadata": as_metadata(p), "shipping": as_obj(p, "shipping"),
        "billing": as_obj(p, "billing"),
    }
    req.add("subscription", subscription)
    req.schedule(subscription["currentPeriodEnd"], "rebill", sub_id)
    req.emit("SUBSCRIPTION_CREATED", subscription)
    return render(subscription)


def rebill(req: Req, sub_id: str) -> None:
    """Charge each period that ended, at the plan's amount of that moment, to the default card."""
    sub = req.account["objects"].get(sub_id)
    if sub is None or sub["status"] == "canceled":
        return
    plan = req.account["objects"][sub["planId"]]
    customer = req.account["objects"][sub["customerId"]]
    for _ in range(120):  # a clock moved by years does not bill forever
        if sub["currentPeriodEnd"] > req.now:
            break
        at = sub["currentPeriodEnd"]
        card = default_card(req, customer)
        if card is None or customer.get("deleted"):
            sub["status"] = "past_due"
        else:
            _, fault = make_charge(req, amount=plan["amount"] * sub["quantity"],
                                        currency=plan["currency"], card=card, customer=customer,
                                        extra={"subscriptionId": sub_id}, created=at)
            sub["status"] = "active" if fault is None else "past_due"
        sub["currentPeriodStart"] = at
        sub["currentPeriodEnd"] = add_interval(at, plan["interval"], plan["intervalCount"])
    req.schedule(sub["currentPeriodEnd"], "rebill", sub_id)


def list_subscriptions(req: Req) -> dict[str, Any]:
    filters = {"customerId": req.query["customerId"]} if "customerId" in req.query else None
    return req.page("subscription", filters, frozenset({"customerId"}))


def get_subscription(req: Req, sub_id: str) -> dict[str, Any]:
    return render(req.get("subscription", sub_id))


def update_subscription(req: Req, sub_id: str) -> dict[str, Any]:
    sub = req.get("subscription", sub_id)
    p = req.params
    allow(p, {"metadata", "shipping", "billing", "quantity", "planId", "cancelAtPeriodEnd"})
    if sub["status"] == "canceled":
        raise state_error(f"subscription '{sub_id}' is cancelled")
    if "metadata" in p:
        sub["metadata"] = as_metadata(p)
    for name in ("shipping", "billing"):
        if name in p:
            sub[name] = as_obj(p, name)
    quantity = as_int(p, "quantity", minimum=1, maximum=1000)
    if quantity is not None:
        sub["quantity"] = quantity
    plan_id = as_str(p, "planId", max_len=64)
    if plan_id:
        plan = req.find("plan", plan_id, "planId")
        if plan.get("deleted"):
            raise invalid(f"planId: plan '{plan_id}' was deleted")
        sub["planId"] = plan_id
    flag = as_bool(p, "cancelAtPeriodEnd")
    if flag is not None:
        sub["cancelAtPeriodEnd"] = flag
    req.emit("SUBSCRIPTION_UPDATED", sub)
    return render(sub)


def cancel_subscription(req: Req, sub_id: str) -> dict[str, Any]:
    sub = req.get("subscription", sub_id)
    if sub["status"] != "canceled":
        sub["status"] = "canceled"
        sub["canceledAt"] = req.now
        req.emit("SUBSCRIPTION_CANCELED", sub)
    return render(sub)


def subscription_charges(req: Req, sub_id: str) -> dict[str, Any]:
    req.get("subscription", sub_id)
    return req.page("charge", {"subscriptionId": sub_id})


# ==== events, tokens, 3D Secure ==================================================================
def list_events(req: Req) -> dict[str, Any]:
    filters = {"type": req.query["type"]} if "type" in req.query else None
    return req.page("event", filters, frozenset({"type"}))


def get_event(req: Req, event_id: str) -> dict[str, Any]:
    return render(req.get("event", event_id))


def _new_token(req: Req, card: dict[str, Any]) -> dict[str, Any]:
    token = {k: v for k, v in card.items() if k in CARD_PUBLIC}
    token.update(used=False, _outcome=card["_outcome"], _expires=req.now + TOKEN_LIFETIME_S)
    return req.add("token", token)


def create_token(req: Req) -> dict[str, Any]:
    """Card data in, a single-use token out; the only call a public key may make."""
    p = req.params
    data = p["card"] if isinstance(p.get("card"), dict) and len(p) == 1 else p
    return render(_new_token(req, card_from_data(req, data, "card")))


def get_token(req: Req, token_id: str) -> dict[str, Any]:
    return render(req.get("token", token_id))


def three_d_secure(req: Req) -> dict[str, Any]:
    """A token whose charge passes the ``authentication_required`` card (the sandbox skips the ACS)."""
    p = req.params
    allow(p, {"amount", "currency", "card", "returnUrl"})
    as_int(p, "amount", required=True, minimum=1)
    as_currency(p)
    if p.get("card") in (None, ""):
        raise missing("card")
    card = card_source(req, p["card"], None)
    token = _new_token(req, card)
    token["_threeds"] = True
    token["threeDSecureInfo"] = {"enrolled": True, "liabilityShift": "successful", "version": "2.2.0"}
    return render(token)


# ==== blacklist ==================================================================================
def create_blacklist_rule(req: Req) -> dict[str, Any]:
    p = req.params
    rule_type = as_str(p, "ruleType", required=True, max_len=20)
    rule: dict[str, Any] = {"ruleType": rule_type}
    if rule_type == "fingerprint":
        allow(p, {"ruleType", "fingerprint"})
        rule["fingerprint"] = as_str(p, "fingerprint", required=True, max_len=64)
    elif rule_type == "email":
        allow(p, {"ruleType", "email"})
        rule["email"] = as_str(p, "email", required=True, max_len=254, pattern=r"[^@\s]+@[^@\s]+")
    elif rule_type == "ip_address":
        allow(p, {"ruleType", "ipAddress"})
        rule["ipAddress"] = as_str(p, "ipAddress", required=True, max_len=45)
    elif rule_type == "card_number":
        allow(p, {"ruleType", "cardNumber"})
        number = re.sub(r"[ -]", "", as_str(p, "cardNumber", required=True, max_len=23) or "")
        if not number.isdigit() or not luhn_ok(number):
            raise invalid("cardNumber: is not a valid card number")
        # kept as a fingerprint and a masked number, never the number itself
        rule.update(fingerprint=fingerprint_of(number), first6=number[:6], last4=number[-4:])
    else:
        raise invalid("ruleType: must be fingerprint, email, ip_address or card_number")
    req.add("blacklistRule", rule)
    return render(rule)


def list_blacklist(req: Req) -> dict[str, Any]:
    deleted = as_bool(req.query, "deleted", default=False)
    return req.page("blacklistRule", None, frozenset({"deleted"}),
                    lambda o: bool(o.get("deleted")) == deleted)


def get_blacklist_rule(req: Req, rule_id: str) -> dict[str, Any]:
    return render(req.get("blacklistRule", rule_id))


def delete_blacklist_rule(req: Req, rule_id: str) -> dict[str, Any]:
    rule = req.get("blacklistRule", rule_id)
    rule["deleted"] = True
    return render(rule)


# ==== credits ====================================================================================
def create_credit(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"amount", "currency", "card", "customerId", "description", "metadata"})
    amount = as_int(p, "amount", required=True, minimum=1)
    currency = as_currency(p)
    assert amount is not None and currency is not None
    customer = None
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        customer = _customer_of(req, customer_id)
    if p.get("card") not in (None, ""):
        card = card_source(req, p["card"], customer)
    elif customer is not None:
        found = default_card(req, customer)
        if found is None:
            raise invalid(f"customerId: customer '{customer_id}' has no default card")
        card = found
    else:
        raise invalid("customerId or card: one of them is required", "missing_parameter")
    if amount > MAX_AMOUNT:
        raise card_error("limit_exceeded", MESSAGES["limit_exceeded"])
    outcome = card.get("_outcome", "success")
    if outcome in CARD_ERROR_CODES and outcome != "authentication_required":
        raise card_error(outcome, MESSAGES[outcome])
    credit: dict[str, Any] = {"amount": amount, "currency": currency, "card": public_card(req, card),
                              "customerId": customer_id,
                              "description": as_str(p, "description", max_len=1000),
                              "metadata": as_metadata(p)}
    req.add("credit", credit)
    req.emit("CREDIT_SUCCEEDED", credit)
    return render(credit)


def list_credits(req: Req) -> dict[str, Any]:
    filters = {"customerId": req.query["customerId"]} if "customerId" in req.query else None
    return req.page("credit", filters, frozenset({"customerId"}))


def get_credit(req: Req, credit_id: str) -> dict[str, Any]:
    return render(req.get("credit", credit_id))


def update_credit(req: Req, credit_id: str) -> dict[str, Any]:
    credit = req.get("credit", credit_id)
    allow(req.params, {"description", "metadata"})
    description = as_str(req.params, "description", max_len=1000)
    if description is not None:
        credit["description"] = description
    if "metadata" in req.params:
        credit["metadata"] = as_metadata(req.params)
    return render(credit)


# ==== disputes and fraud warnings (opened by the jobs of their test cards) =======================
def open_dispute(req: Req, charge_id: str) -> None:
    charge = req.account["objects"].get(charge_id)
    if charge is None:
        return
    charge["disputed"] = True
    dispute: dict[str, Any] = {"amount": charge["amount"], "currency": charge["currency"],
                               "reason": "fraudulent", "status": "open", "acceptedAsLost": False,
                               "_charge": charge_id}
    dispute["created"] = charge["created"] + FOLLOW_UP_DELAY_S
    req.add("dispute", dispute)
    req.emit("CHARGE_DISPUTE_CREATED", _dispute_view(req, dispute))


def raise_fraud_warning(req: Req, charge_id: str) -> None:
    charge = req.account["objects"].get(charge_id)
    if charge is None:
        return
    charge["fraudDetails"] = {"status": "fraudulent"}
    warning = {"charge": charge_id, "actionable": not charge["refunded"],
               "created": charge["created"] + FOLLOW_UP_DELAY_S}
    req.add("fraudWarning", warning)
    req.emit("FRAUD_WARNING_CREATED", warning)


def _dispute_view(req: Req, dispute: dict[str, Any]) -> dict[str, Any]:
    view = render(dispute)
    view["charge"] = render(req.account["objects"][dispute["_charge"]])
    return view


def list_disputes(req: Req) -> dict[str, Any]:
    page = req.page("dispute")
    objects = req.account["objects"]
    page["list"] = [_dispute_view(req, objects[d["id"]]) for d in page["list"]]
    return page


def get_dispute(req: Req, dispute_id: str) -> dict[str, Any]:
    return _dispute_view(req, req.get("dispute", dispute_id))


def update_dispute(req: Req, dispute_id: str) -> dict[str, Any]:
    dispute = req.get("dispute", dispute_id)
    allow(req.params, {"evidence", "metadata"})
    if dispute["status"] == "lost":
        raise state_error(f"dispute '{dispute_id}' is closed")
    evidence = as_obj(req.params, "evidence")
    if evidence is not None:
        dispute.setdefault("evidence", {}).update(evidence)
        dispute["status"] = "under_review"
    if "metadata" in req.params:
        dispute["metadata"] = as_metadata(req.params)
    req.emit("CHARGE_DISPUTE_UPDATED", _dispute_view(req, dispute))
    return _dispute_view(req, dispute)


def close_dispute(req: Req, dispute_id: str) -> dict[str, Any]:
    dispute = req.get("dispute", dispute_id)
    allow(req.params, set())
    if dispute["status"] != "lost":
        dispute.update(status="lost", acceptedAsLost=True)  # no further evidence: lost
        req.emit("CHARGE_DISPUTE_CLOSED", _dispute_view(req, dispute))
    return _dispute_view(req, dispute)


def list_fraud_warnings(req: Req) -> dict[str, Any]:
    return req.page("fraudWarning")


def get_fraud_warning(req: Req, warning_id: str) -> dict[str, Any]:
    return render(req.get("fraudWarning", warning_id))


# ==== files ======================================================================================
MAX_FILE_BYTES = 10 * 1024 * 1024


def create_file(req: Req) -> dict[str, Any]:
    params = {**req.query, **req.params}  # the official SDK sends purpose in the query string
    allow(params, {"purpose"})
    purpose = as_str(params, "purpose", required=True, max_len=40, pattern=r"[a-z_]{1,40}")
    upload = req.files.get("file")
    if upload is None:
        raise missing("file (a multipart part)")
    filename, content = upload
    if not content:
        raise invalid("file: is empty")
    if len(content) > MAX_FILE_BYTES:
        raise invalid(f"file: larger than {MAX_FILE_BYTES} bytes")
    suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else "bin"
    item = {"purpose": purpose, "size": len(content), "type": suffix[:10]}
    req.add("fileUpload", item)
    return render(item)


def list_files(req: Req) -> dict[str, Any]:
    filters = {"purpose": req.query["purpose"]} if "purpose" in req.query else None
    return req.page("fileUpload", filters, frozenset({"purpose"}))


def get_file(req: Req, file_id: str) -> dict[str, Any]:
    return render(req.get("fileUpload", file_id))


# ==== payouts ====================================================================================
def create_payout(req: Req) -> dict[str, Any]:
    if req.mode == "live":
        raise invalid("a payout can be created only with a test key", "test_mode_only")
    if req.params:
        raise invalid(f"{sorted(req.params)[0]}: POST /payouts takes no parameters", "unknown_parameter")
    objects = req.account["objects"]
    lists = req.account["lists"]
    moves: list[tuple[dict[str, Any], str, int]] = []
    for cid in lists.get("charge", []):
        c = objects[cid]
        if c["status"] == "successful" and c["captured"] and not c.get("_paidOut"):
            moves.append((c, "charge", c["amount"]))
    for rid in lists.get("refund", []):
        r = objects[rid]
        if not r.get("_paidOut"):
            moves.append((r, "refund", -r["amount"]))
    for did in lists.get("dispute", []):
        d = objects[did]
        if d["status"] == "lost" and not d.get("_paidOut"):
            moves.append((d, "chargeback", -d["amount"]))
    for crid in lists.get("credit", []):
        cr = objects[crid]
        if not cr.get("_paidOut"):
            moves.append((cr, "credit", -cr["amount"]))
    if not moves:
        raise state_error("nothing to pay out: no test-mode charges, refunds, chargebacks or credits since "
                          "the last payout")
    payouts: dict[str, dict[str, Any]] = {}
    for source, kind, amount in moves:
        currency = source["currency"]
        payout = payouts.get(currency)
        if payout is None:
            payout = req.add("payout", {"date": req.now, "amount": 0, "currency": currency})
            payouts[currency] = payout
        payout["amount"] += amount
        source["_paidOut"] = payout["id"]
        req.add("payoutTransaction", {"type": kind, "amount": amount, "currency": currency,
                                      "payout": payout["id"], "source": source["id"]})
    for payout in payouts.values():
        req.emit("PAYOUT_CREATED", payout)
    # one payout per currency; the answer is the first, GET /payouts lists them all
    return render(next(iter(payouts.values())))


def list_payouts(req: Req) -> dict[str, Any]:
    return req.page("payout")


def get_payout(req: Req, payout_id: str) -> dict[str, Any]:
    return render(req.get("payout", payout_id))


def list_payout_transactions(req: Req) -> dict[str, Any]:
    filters: dict[str, Any] = {k: req.query[k] for k in ("payout", "source") if k in req.query}
    if not filters:
        raise invalid("payout or source: one of them is required", "missing_parameter")
    return req.page("payoutTransaction", filters, frozenset({"payout", "source"}))


# ==== checkout sessions ==========================================================================
def create_checkout_session(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"amount", "currency", "lineItems", "customerId", "successUrl", "cancelUrl", "metadata"})
    currency = as_currency(p)
    items = p.get("lineItems")
    if items is not None:
        if not isinstance(items, list) or not items:
            raise invalid("lineItems: must be a list (lineItems[0][amount]=...)")
        total = 0
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise invalid(f"lineItems[{i}]: must be an object")
            allow(item, {"amount", "quantity", "name"})
            unit = as_int(item, "amount", required=True, minimum=1, label=f"lineItems[{i}][amount]")
            qty = as_int(item, "quantity", minimum=1, maximum=1000, default=1,
                         label=f"lineItems[{i}][quantity]")
            assert unit is not None and qty is not None
            total += unit * qty
        amount = total
        if "amount" in p and as_int(p, "amount") != total:
            raise invalid("amount: must equal the sum of the line items")
    else:
        amount_or_none = as_int(p, "amount", required=True, minimum=1)
        assert amount_or_none is not None
        amount = amount_or_none
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        _customer_of(req, customer_id)
    session: dict[str, Any] = {"amount": amount, "currency": currency, "lineItems": items,
                               "customerId": customer_id, "status": "open",
                               "successUrl": as_str(p, "successUrl", max_len=2000),
                               "cancelUrl": as_str(p, "cancelUrl", max_len=2000),
                               "metadata": as_metadata(p)}
    req.add("checkoutSession", session)
    session["clientSecret"] = f"{session['id']}_secret_{req.new_id('token')[4:]}"
    session["url"] = f"{req.base_url}/checkout/{session['id']}"
    return render(session)


def list_checkout_sessions(req: Req) -> dict[str, Any]:
    return req.page("checkoutSession")


def get_checkout_session(req: Req, session_id: str) -> dict[str, Any]:
    return render(req.get("checkoutSession", session_id))


# ==== payment links ==============================================================================
def create_payment_link(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"amount", "currency", "name", "description", "maxSuccessfulCharges", "maxFailedAttempts",
              "metadata"})
    link: dict[str, Any] = {
        "amount": as_int(p, "amount", required=True, minimum=1, maximum=MAX_AMOUNT),
        "currency": as_currency(p), "name": as_str(p, "name", max_len=200),
        "description": as_str(p, "description", max_len=1000),
        "maxSuccessfulCharges": as_int(p, "maxSuccessfulCharges", minimum=1, maximum=1_000_000),
        "maxFailedAttempts": as_int(p, "maxFailedAttempts", minimum=1, maximum=1_000_000),
        "successfulCharges": 0, "failedAttempts": 0, "active": True, "metadata": as_metadata(p),
    }
    req.add("paymentLink", link)
    link["url"] = f"{req.base_url}/pay/{link['id']}"
    req.emit("PAYMENT_LINK_CREATED", link)
    return render(link)


def list_payment_links(req: Req) -> dict[str, Any]:
    active = as_bool(req.query, "active")
    filters = {"active": active} if active is not None else None
    return req.page("paymentLink", filters, frozenset({"active"}))


def get_payment_link(req: Req, link_id: str) -> dict[str, Any]:
    return render(req.get("paymentLink", link_id))


def update_payment_link(req: Req, link_id: str) -> dict[str, Any]:
    link = req.get("paymentLink", link_id)
    p = req.params
    if "maxFailedAttempts" in p:
        raise invalid("maxFailedAttempts: can be set only when the payment link is created")
    allow(p, {"name", "description", "maxSuccessfulCharges", "metadata"})
    for name, limit in (("name", 200), ("description", 1000)):
        value = as_str(p, name, max_len=limit)
        if value is not None:
            link[name] = value
    cap = as_int(p, "maxSuccessfulCharges", minimum=1, maximum=1_000_000)
    if cap is not None:
        link["maxSuccessfulCharges"] = cap
    if "metadata" in p:
        link["metadata"] = as_metadata(p)
    reason = _link_limit_reached(link)
    if reason and link["active"]:
        link.update(active=False, deactivationReason=reason)
    return render(link)


def deactivate_payment_link(req: Req, link_id: str) -> dict[str, Any]:
    link = req.get("paymentLink", link_id)
    allow(req.params, set())
    if link["active"]:
        link.update(active=False, deactivationReason="manual")
        req.emit("PAYMENT_LINK_DEACTIVATED", link)
    return render(link)


def reactivate_payment_link(req: Req, link_id: str) -> dict[str, Any]:
    link = req.get("paymentLink", link_id)
    allow(req.params, set())
    reason = _link_limit_reached(link)
    if reason == "successful_charges_limit":
        raise state_error(f"payment link '{link_id}' reached its limit of {link['maxSuccessfulCharges']} "
                          "successful charges: it cannot be reactivated", )
    if reason == "failed_attempts_limit":
        raise state_error(f"payment link '{link_id}' reached its limit of {link['maxFailedAttempts']} "
                          "failed attempts: it cannot be reactivated")
    if not link["active"]:
        link["active"] = True
        link.pop("deactivationReason", None)
        req.emit("PAYMENT_LINK_REACTIVATED", link)
    return render(link)


def payment_link_charges(req: Req, link_id: str) -> dict[str, Any]:
    req.get("paymentLink", link_id)
    return req.page("charge", {"paymentLinkId": link_id})


JOBS = {"dispute": open_dispute, "fraud_warning": raise_fraud_warning, "rebill": rebill}
