"""Blacklist rules: a charge matching one (card, e-mail, IP, metadata...) fails ``blacklisted``."""

from __future__ import annotations

import re
from typing import Any

from cashier.redact import luhn_ok
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_str,
    is_deleted,
    render,
)
from cashier.sandbox.chargeapi.testcards import (
    fingerprint_of,
)
from cashier.sandbox.chargeapi.wire import invalid

#: The field each rule type of ours and the vendor's SDKs names (``card_number`` is ours: kept
#: as a fingerprint; ``email_domain`` takes the domain in ``email``). ``ip_country``,
#: ``card_country`` and ``card_issuer`` rules are kept but never match (the sandbox has no IP
#: geography and no issuer tables); ``shipping`` takes no field and never matches either.
RULE_FIELDS: dict[str, tuple[str, ...]] = {
    "fingerprint": ("fingerprint",), "email": ("email",), "email_domain": ("email",),
    "ip_address": ("ipAddress",), "ip_country": ("ipCountry",), "user_agent": ("userAgent",),
    "accept_language": ("acceptLanguage",), "metadata": ("metadataKey", "metadataValue"),
    "card_number": ("cardNumber",), "card_bin": ("cardBin",), "card_country": ("cardCountry",),
    "card_issuer": ("cardIssuer",), "shipping": (),
}


def matching_rule(req: Req, card: dict[str, Any], customer: dict[str, Any] | None,
                  ip: str | None, metadata: dict[str, str] | None = None) -> str | None:
    objects = req.account["objects"]
    email = str((customer or {}).get("email") or "").lower()
    fraud = card.get("fraudCheckData") or {}
    meta = metadata or {}
    for rule_id in req.account["lists"].get("blacklistRule", []):
        rule = objects[rule_id]
        if is_deleted(rule):
            continue
        kind = rule["ruleType"]
        if (kind in ("fingerprint", "card_number") and rule.get("fingerprint") == card.get("fingerprint")) \
                or (kind == "email" and email and str(rule.get("email", "")).lower() == email) \
                or (kind == "email_domain" and email.endswith("@" + str(rule.get("email", "")).lower())) \
                or (kind == "card_bin" and str(card.get("first6", "")).startswith(str(rule["cardBin"]))) \
                or (kind == "ip_address" and ip and rule.get("ipAddress") == ip) \
                or (kind == "user_agent" and fraud.get("userAgent") == rule.get("userAgent")) \
                or (kind == "accept_language" and fraud.get("acceptLanguage") == rule.get("acceptLanguage")) \
                or (kind == "metadata" and meta.get(rule["metadataKey"]) == rule["metadataValue"]):
            return str(rule_id)
    return None


def create_blacklist_rule(req: Req) -> dict[str, Any]:
    p = req.params
    rule_type = as_str(p, "ruleType", required=True, max_len=20) or ""
    if rule_type not in RULE_FIELDS:
        raise invalid(f"ruleType: must be one of {', '.join(RULE_FIELDS)}")
    fields = RULE_FIELDS[rule_type]
    allow(p, {"ruleType", *fields})
    rule: dict[str, Any] = {"ruleType": rule_type}
    if rule_type == "card_number":
        number = re.sub(r"[ -]", "", as_str(p, "cardNumber", required=True, max_len=23) or "")
        if not number.isdigit() or not luhn_ok(number):
            raise invalid("cardNumber: is not a valid card number")
        # kept as a fingerprint and a masked number, never the number itself
        rule.update(fingerprint=fingerprint_of(number), first6=number[:6], last4=number[-4:])
    elif rule_type == "email":
        rule["email"] = as_str(p, "email", required=True, max_len=254, pattern=r"[^@\s]+@[^@\s]+")
    elif rule_type == "email_domain":
        domain = as_str(p, "email", required=True, max_len=254, pattern=r"@?[^@\s]+\.[^@\s]+") or ""
        rule["email"] = domain.lstrip("@")
    elif rule_type == "card_bin":
        rule["cardBin"] = as_str(p, "cardBin", required=True, max_len=8, pattern=r"\d{4,8}")
    else:
        for name in fields:
            rule[name] = as_str(p, name, required=True, max_len=500)
    req.add("blacklistRule", rule)
    return render(rule)


def list_blacklist(req: Req) -> dict[str, Any]:
    return req.page("blacklistRule", deletable=True)


def get_blacklist_rule(req: Req, rule_id: str) -> dict[str, Any]:
    return render(req.get("blacklistRule", rule_id))


def delete_blacklist_rule(req: Req, rule_id: str) -> dict[str, Any]:
    rule = req.get("blacklistRule", rule_id)
    rule["deleted"] = True
    return render(rule)
