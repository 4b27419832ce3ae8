"""Charges: create (card, token, saved card or payment method), capture, increment, update."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources import blacklist, payment_links
from cashier.sandbox.chargeapi.resources.cards import card_source, default_card, public_card
from cashier.sandbox.chargeapi.resources.common import payment_method_id, state_error
from cashier.sandbox.chargeapi.state import (
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
    ISSUER_DECLINE_CODES,
    MAX_AMOUNT,
    MESSAGES,
    SLOW_DELAY_S,
)
from cashier.sandbox.chargeapi.wire import ChargeApiFault, card_error, invalid, missing

CAPTURE_WINDOW_S = 5 * 86400


def make_charge(req: Req, *, amount: int, currency: str, card: dict[str, Any],
                customer: dict[str, Any] | None, captured: bool = True,
                extra: dict[str, Any] | None = None, created: int | None = None,
                ip: str | None = None) -> tuple[dict[str, Any], ChargeApiFault | None]:
    """Record a charge attempt; a failed one is kept too and comes back with its fault."""
    extra = extra or {}
    rule_id = blacklist.matching_rule(req, card, customer, ip, extra.get("metadata"))
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
    decline_code = ISSUER_DECLINE_CODES.get(code or "")
    if code:
        charge["failureCode"] = code
        charge["failureMessage"] = MESSAGES[code]
        if decline_code:
            charge["failureIssuerDeclineCode"] = decline_code
    else:
        charge["fraudDetails"] = {"status": "in_progress" if outcome == "fraud_warning" else "safe"}
    req.add("charge", charge)
    if code:
        req.emit("CHARGE_FAILED", charge)
        return charge, card_error(code, MESSAGES[code], charge_id=charge["id"], blacklist_rule_id=rule_id,
                                  issuer_decline_code=decline_code)
    req.emit("CHARGE_SUCCEEDED", charge)
    if charge["captured"]:
        charge["_capturedAt"] = charge["created"]
    if outcome in ("dispute", "fraud_warning"):
        req.schedule(charge["created"] + FOLLOW_UP_DELAY_S, outcome, charge["id"])
    if outcome == "slow":
        req.delay_s = SLOW_DELAY_S
    return charge, None


#: Ours (the spec's) and the vendor SDKs' (``flow``, ``type``, ``threeDSecure``,
#: ``merchantAccountId``, ``external``): all accepted; anything else refused.
CHARGE_CREATE = {"amount", "currency", "card", "customerId", "captured", "description", "metadata",
                 "options", "paymentMethod", "paymentLinkId", "ipAddress", "shipping", "billing",
                 "flow", "type", "threeDSecure", "merchantAccountId", "external"}
THREE_D_SECURE_OPTIONS = {"requireAttempt", "requireEnrolledCard",
                          "requireSuccessfulLiabilityShiftForEnrolledCard"}


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
        "flow": as_obj(p, "flow"), "type": as_str(p, "type", max_len=40),
        "merchantAccountId": as_str(p, "merchantAccountId", max_len=64), "external": as_obj(p, "external"),
    }
    three_ds = as_obj(p, "threeDSecure") or {}
    allow(three_ds, THREE_D_SECURE_OPTIONS, "threeDSecure")
    for name in THREE_D_SECURE_OPTIONS:
        as_bool(three_ds, name, label=f"threeDSecure.{name}")
    if auth_type:
        extra["_authorizationType"] = auth_type
    customer = None
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        customer = req.find("customer", customer_id, "customerId")
        if customer.get("deleted"):
            raise invalid(f"customerId: customer '{customer_id}' was deleted")
    method_id = payment_method_id(req, p.get("paymentMethod"), "paymentMethod")
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
        payment_links.count_attempt(req, link, fault is None)
    if fault is not None:
        raise fault
    return render(charge, req)


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
    return render(charge, req)


def list_charges(req: Req) -> dict[str, Any]:
    filters: dict[str, Any] = {k: req.query[k] for k in ("customerId", "subscriptionId", "paymentLinkId")
                               if k in req.query}
    return req.page("charge", filters, frozenset({"customerId", "subscriptionId", "paymentLinkId"}))


def get_charge(req: Req, charge_id: str) -> dict[str, Any]:
    return render(req.get("charge", charge_id), req)


def update_charge(req: Req, charge_id: str) -> dict[str, Any]:
    """Update; with ``status`` it is the testing operation that resolves a pending charge."""
    charge = req.get("charge", charge_id)
    p = req.params
    allow(p, {"description", "metadata", "shipping", "billing", "status", "failureCode", "customerId",
              "fraudDetails"})
    status = as_str(p, "status", max_len=20)
    if status is not None:
        if req.mode == "live":
            raise invalid("status: resolving a pending charge is a testing operation (test key only)")
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
    customer_id = as_str(p, "customerId", max_len=64)
    if customer_id:
        req.find("customer", customer_id, "customerId")
        charge["customerId"] = customer_id
    fraud = as_obj(p, "fraudDetails")
    if fraud is not None:
        allow(fraud, {"status"}, "fraudDetails")
        status_text = as_str(fraud, "status", max_len=20, label="fraudDetails.status")
        if status_text not in (None, "fraudulent", "safe"):
            raise invalid("fraudDetails.status: must be fraudulent or safe")
        if status_text:
            charge["fraudDetails"] = {**charge.get("fraudDetails", {}), "status": status_text}
    req.emit("CHARGE_UPDATED", charge)
    return render(charge, req)


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
    return render(charge, req)


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
    return render(charge, req)
