"""Plans and subscriptions: a subscription bills its plan to the customer's default card each period."""

from __future__ import annotations

import calendar
from typing import Any

from cashier.sandbox.chargeapi.resources.cards import card_source, default_card, save_card
from cashier.sandbox.chargeapi.resources.charges import make_charge
from cashier.sandbox.chargeapi.resources.common import state_error, utc
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
    MAX_AMOUNT,
)
from cashier.sandbox.chargeapi.wire import invalid

INTERVALS = ("day", "week", "month", "year")
#: Plan fields of the vendor's SDKs: a trial, a number of billing cycles and the plan that follows.
PLAN_FIELDS = frozenset({"trialPeriodDays", "billingCycles", "statementDescription", "recursTo"})
SUBSCRIPTION_FIELDS = frozenset({"captureCharges", "trialEnd", "threeDSecure", "merchantAccountId"})


def add_interval(ts: int, interval: str, count: int) -> int:
    if interval == "day":
        return ts + 86400 * count
    if interval == "week":
        return ts + 7 * 86400 * count
    start = utc(ts)
    months = count * (12 if interval == "year" else 1)
    year, month0 = divmod(start.month - 1 + months, 12)
    year += start.year
    day = min(start.day, calendar.monthrange(year, month0 + 1)[1])
    return int(start.replace(year=year, month=month0 + 1, day=day).timestamp())


def create_plan(req: Req) -> dict[str, Any]:
    p = req.params
    allow(p, {"amount", "currency", "interval", "intervalCount", "name", "metadata", *PLAN_FIELDS})
    interval = as_str(p, "interval", required=True, max_len=5)
    if interval not in INTERVALS:
        raise invalid("interval: must be day, week, month or year")
    plan: dict[str, Any] = {
        "amount": as_int(p, "amount", required=True, minimum=1, maximum=MAX_AMOUNT),
        "currency": as_currency(p), "interval": interval,
        "intervalCount": as_int(p, "intervalCount", minimum=1, maximum=365, default=1),
        "name": as_str(p, "name", required=True, max_len=200), "metadata": as_metadata(p),
        "trialPeriodDays": as_int(p, "trialPeriodDays", minimum=0, maximum=3650),
        "billingCycles": as_int(p, "billingCycles", minimum=1, maximum=10_000),
        "statementDescription": as_str(p, "statementDescription", max_len=200),
        "recursTo": as_str(p, "recursTo", max_len=64),
    }
    if plan["recursTo"]:
        req.find("plan", plan["recursTo"], "recursTo")
    req.add("plan", plan)
    req.emit("PLAN_CREATED", plan)
    return render(plan)


def list_plans(req: Req) -> dict[str, Any]:
    return req.page("plan", deletable=True)


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
    """Billed now, or at the end of a trial (``trialEnd``, else the plan's ``trialPeriodDays``)."""
    p = req.params
    allow(p, {"customerId", "planId", "card", "quantity", "metadata", "shipping", "billing",
              *SUBSCRIPTION_FIELDS})
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
    capture = as_bool(p, "captureCharges", default=True)
    assert capture is not None
    trial_end = as_int(p, "trialEnd", minimum=0)
    if trial_end is None and plan.get("trialPeriodDays"):
        trial_end = req.now + int(plan["trialPeriodDays"]) * 86400
    if trial_end is not None and trial_end <= req.now:
        raise invalid("trialEnd: must be in the future")
    if p.get("card") not in (None, ""):
        # a card given here becomes the customer's default, which the spec bills
        save_card(req, customer, card_source(req, p["card"], customer), make_default=True)
    card = default_card(req, customer)
    if card is None:
        raise invalid(f"customerId: customer '{customer_id}' has no default card to bill")
    sub_id = req.new_id("subscription")
    subscription: dict[str, Any] = {
        "id": sub_id, "planId": plan_id, "customerId": customer_id, "status": "active",
        "quantity": quantity, "captureCharges": capture, "start": req.now, "currentPeriodStart": req.now,
        "cancelAtPeriodEnd": False, "metadata": as_metadata(p), "shipping": as_obj(p, "shipping"),
        "billing": as_obj(p, "billing"), "merchantAccountId": as_str(p, "merchantAccountId", max_len=64),
        "remainingBillingCycles": plan.get("billingCycles"),
    }
    if trial_end is not None:
        subscription.update(status="trialing", trialStart=req.now, trialEnd=trial_end,
                            currentPeriodEnd=trial_end)
    else:
        charge, fault = make_charge(req, amount=plan["amount"] * quantity, currency=plan["currency"],
                                    card=card, customer=customer, captured=capture)
        if fault is not None:
            raise fault
        charge["subscriptionId"] = sub_id
        subscription["currentPeriodEnd"] = add_interval(req.now, plan["interval"], plan["intervalCount"])
        _count_cycle(req, subscription)
    req.add("subscription", subscription)
    req.schedule(subscription["currentPeriodEnd"], "rebill", sub_id)
    req.emit("SUBSCRIPTION_CREATED", subscription)
    return render(subscription)


def _count_cycle(req: Req, sub: dict[str, Any]) -> None:
    """One billing cycle used; the last one ends the subscription or moves it to ``recursTo``."""
    if sub.get("remainingBillingCycles") is None:
        return
    sub["remainingBillingCycles"] -= 1
    if sub["remainingBillingCycles"] > 0:
        return
    plan = req.account["objects"][sub["planId"]]
    follow = req.account["objects"].get(plan.get("recursTo") or "")
    if follow is not None and follow.get("objectType") == "plan" and not follow.get("deleted"):
        sub["planId"] = follow["id"]
        sub["remainingBillingCycles"] = follow.get("billingCycles")
    else:
        sub["cancelAtPeriodEnd"] = True  # the cycles are used up: it ends with this period


def rebill(req: Req, sub_id: str) -> None:
    """Charge each period that ended, at the plan's amount of that moment, to the default card."""
    sub = req.account["objects"].get(sub_id)
    if sub is None or sub["status"] == "canceled":
        return
    customer = req.account["objects"][sub["customerId"]]
    for _ in range(120):  # a clock moved by years does not bill forever
        if sub["currentPeriodEnd"] > req.now:
            break
        at = sub["currentPeriodEnd"]
        if sub["cancelAtPeriodEnd"]:
            sub.update(status="canceled", canceledAt=at, endedAt=at, deleted=True)
            req.emit("SUBSCRIPTION_CANCELED", sub)
            return
        plan = req.account["objects"][sub["planId"]]
        card = default_card(req, customer)
        if card is None or customer.get("deleted"):
            sub["status"] = "past_due"
        else:
            _, fault = make_charge(req, amount=plan["amount"] * sub["quantity"],
                                   currency=plan["currency"], card=card, customer=customer,
                                   captured=sub.get("captureCharges", True),
                                   extra={"subscriptionId": sub_id}, created=at)
            sub["status"] = "active" if fault is None else "past_due"
            _count_cycle(req, sub)
        plan = req.account["objects"][sub["planId"]]  # recursTo may have moved it
        sub["currentPeriodStart"] = at
        sub["currentPeriodEnd"] = add_interval(at, plan["interval"], plan["intervalCount"])
    req.schedule(sub["currentPeriodEnd"], "rebill", sub_id)


def list_subscriptions(req: Req) -> dict[str, Any]:
    """``customerId``, ``planId`` and ``deleted``: a cancelled subscription is a deleted one, so
    the default list leaves it out (the vendor's cancel is its ``DELETE``)."""
    filters = {k: req.query[k] for k in ("customerId", "planId") if req.query.get(k) not in (None, "")}
    return req.page("subscription", filters, frozenset({"customerId", "planId"}), deletable=True)


def get_subscription(req: Req, sub_id: str) -> dict[str, Any]:
    return render(req.get("subscription", sub_id))


def update_subscription(req: Req, sub_id: str) -> dict[str, Any]:
    sub = req.get("subscription", sub_id)
    p = req.params
    allow(p, {"metadata", "shipping", "billing", "quantity", "planId", "cancelAtPeriodEnd", "card",
              *SUBSCRIPTION_FIELDS})
    if sub["status"] == "canceled":
        raise state_error(f"subscription '{sub_id}' is cancelled")
    if p.get("card") not in (None, ""):
        # as on create: the card becomes the customer's default, which the next cycle bills
        customer = req.account["objects"][sub["customerId"]]
        save_card(req, customer, card_source(req, p["card"], customer), make_default=True)
    capture = as_bool(p, "captureCharges")
    if capture is not None:
        sub["captureCharges"] = capture
    trial_end = as_int(p, "trialEnd", minimum=0)
    if trial_end is not None:
        if trial_end <= req.now:
            raise invalid("trialEnd: must be in the future")
        if sub["status"] != "trialing":
            raise state_error(f"trialEnd: subscription '{sub_id}' is {sub['status']}, not trialing")
        sub.update(trialEnd=trial_end, currentPeriodEnd=trial_end)
        req.schedule(trial_end, "rebill", sub_id)
    merchant_account = as_str(p, "merchantAccountId", max_len=64)
    if merchant_account is not None:
        sub["merchantAccountId"] = merchant_account
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
    """Now, or with ``atPeriodEnd`` at the end of the paid period (query or body, as the SDKs send
    it); ``customerId``, which one SDK adds, must be the subscription's customer."""
    sub = req.get("subscription", sub_id)
    p = {**req.query, **req.params}
    allow(p, {"atPeriodEnd", "customerId"})
    if p.get("customerId") not in (None, "", sub["customerId"]):
        raise invalid(f"customerId: subscription '{sub_id}' is not this customer's")
    if as_bool(p, "atPeriodEnd", default=False) and sub["status"] != "canceled":
        sub["cancelAtPeriodEnd"] = True
        req.emit("SUBSCRIPTION_UPDATED", sub)
        return render(sub)
    if sub["status"] != "canceled":
        sub.update(status="canceled", canceledAt=req.now, endedAt=req.now, deleted=True)
        req.emit("SUBSCRIPTION_CANCELED", sub)
    return render(sub)


def subscription_charges(req: Req, sub_id: str) -> dict[str, Any]:
    req.get("subscription", sub_id)
    return req.page("charge", {"subscriptionId": sub_id})
