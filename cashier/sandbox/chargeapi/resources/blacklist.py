"""Blacklist rules: a charge matching one (card fingerprint, e-mail, IP) fails ``blacklisted``."""

from __future__ import annotations

import re
from typing import Any

from cashier.redact import luhn_ok
from cashier.sandbox.chargeapi.store import (
    Req,
    allow,
    as_bool,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.testcards import (
    fingerprint_of,
)
from cashier.sandbox.chargeapi.wire import invalid


def matching_rule(req: Req, card: dict[str, Any], customer: dict[str, Any] | None,
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
