"""``/risk/assess``, ``/risk/rulestatus`` and ``/risk/ruleupdate`` (HD only).

The vendor publishes no risk triggers, so the sandbox decides (docs/decisions/002-sandbox.md, "Sandbox long
tail"): a rule set with ``/risk/ruleupdate`` wins; otherwise ``+deny``, ``+review`` or
``+escalate`` in the local part of ``customer.emailAddress`` picks the assessment; everything
else is approved. Card rules are keyed by first six and last four digits, never the full number.
"""

from __future__ import annotations

import uuid
from typing import Any

from cashier.sandbox.core import Family, HostCall, invalid_field, missing_field
from cashier.sandbox.longtail import (
    amount,
    check_card_number,
    issue_token,
    merchant,
    new_id,
    require,
    test_card_for_token,
    text,
    token_value,
    unknown_token,
)
from cashier.sandbox.shared import get, now_text

FAMILY = Family("risk")

#: ``risk.assessment``: A approve, D deny, R review, E escalate (needs 3-D Secure).
ASSESSMENTS = ("A", "D", "R", "E")
EMAIL_TRIGGERS = {"+deny": "D", "+review": "R", "+escalate": "E"}
#: ``riskRules.status`` a rule can hold: A always approve, D always deny, R always review,
#: C clear (no rule). 'A' is refused for card and token, as our spec says.
RULE_STATUSES = ("A", "D", "R", "C")
PARAMETERS = ("card", "email", "token")


def _rules(call: HostCall) -> dict[str, dict[str, str]]:
    family = call.state.family("risk")
    rules: dict[str, dict[str, str]] = family.setdefault("rules", {})
    return rules


def card_key(number: str) -> str:
    return f"card:{number[:6]}:{number[-4:]}:{len(number)}"


def _email(call: HostCall, dotted: str = "customer.emailAddress", required: bool = False) -> str | None:
    value = text(call.body, dotted, max_len=80, required=required)
    if value is not None and ("@" not in value or value.startswith("@") or value.endswith("@")):
        raise invalid_field(dotted, "must be an email address such as ann@example.com")
    return value.lower() if value else None


def _card_number(call: HostCall) -> tuple[str, str | None]:
    """(card number, token) of the body: one of the two is sent."""
    if get(call.body, "card.number") is not None:
        return check_card_number(get(call.body, "card.number")), None
    if get(call.body, "card.token") is not None:
        token = token_value(call.body)
        number = test_card_for_token(call, token)
        if number is None:
            raise unknown_token()
        return number, token
    raise missing_field("card.number")


@FAMILY.route("POST", "/risk/assess", "HD")
async def risk_assess(call: HostCall) -> dict[str, Any]:
    body = call.body
    invoice = text(body, "transaction.invoice", max_len=10)
    total = amount(body)
    text(body, "risk.sessionId", max_len=32)
    text(body, "currencyCode", max_len=3, min_len=3)
    text(body, "sourceIp", max_len=45)
    number, token = _card_number(call)
    if get(body, "card.number") is not None:
        text(body, "card.type", max_len=2, choices=("AP", "CC", "PP", "GC"))
    email = _email(call)
    rules = _rules(call)
    assessment = "A"
    decided = False
    for key in (card_key(number), f"token:{token}" if token else None, f"email:{email}" if email else None):
        if key and key in rules:
            assessment, decided = rules[key]["status"], True
            break
    if not decided and email:
        local = email.split("@", 1)[0]
        for marker, result in EMAIL_TRIGGERS.items():
            if marker in local:
                assessment = result
                break
    gateway_risk_id = str(uuid.uuid4()).upper()
    tran_id = new_id(length=12)
    call.state.family("risk").setdefault("assessments", {})[gateway_risk_id] = {
        "tranId": tran_id, "assessment": assessment, "invoice": invoice, "total": str(total)}
    transaction: dict[str, Any] = {"gatewayRiskId": gateway_risk_id, "invoice": invoice}
    order_id = get(body, "transaction.orderId")
    if isinstance(order_id, str):
        transaction["orderId"] = order_id
    return {"dateTime": now_text(call), "amount": {"total": total},
            "card": {"token": {"value": token or issue_token(call, number)}},
            "merchant": merchant(call), "risk": {"tranId": tran_id, "assessment": assessment},
            "transaction": transaction}


def find_assessment(state: Any, gateway_risk_id: str) -> dict[str, Any] | None:
    """For payment handlers: the assessment a sale or authorization says it carries."""
    found: dict[str, Any] | None = state.family("risk").get("assessments", {}).get(gateway_risk_id)
    return found


def _rule_subject(call: HostCall) -> tuple[str, str]:
    """(parameter, rule key) named by ``riskRules.parameter`` and the matching body field."""
    parameter = text(call.body, "riskRules.parameter", max_len=5, choices=PARAMETERS)
    if parameter == "card":
        number = check_card_number(require(call.body, "card.number"))
        return parameter, card_key(number)
    if parameter == "token":
        return parameter, f"token:{token_value(call.body)}"
    email = _email(call, required=True)
    return "email", f"email:{email}"


def _rule_answer(call: HostCall, parameter: str, status: str | None, ok: bool,
                 message: str = "") -> dict[str, Any]:
    rules: dict[str, Any] = {"parameter": parameter, "result": "N" if ok else "E"}
    if status is not None:
        rules["status"] = status
    if message:
        rules["resultText"] = message
    return {"dateTime": now_text(call), "merchant": merchant(call), "riskRules": rules,
            "transaction": {"responseCode": "A" if ok else "E"}}


@FAMILY.route("POST", "/risk/rulestatus", "HD")
async def risk_rule_status(call: HostCall) -> dict[str, Any]:
    parameter, key = _rule_subject(call)
    rule = _rules(call).get(key)
    if parameter == "token" and rule is None and call.state.detokenize(key[6:]) is None:
        return _rule_answer(call, parameter, None, False, "Token not found for this merchant")
    return _rule_answer(call, parameter, rule["status"] if rule else "C", True)


@FAMILY.route("POST", "/risk/ruleupdate", "HD")
async def risk_rule_update(call: HostCall) -> dict[str, Any]:
    parameter, key = _rule_subject(call)
    status = text(call.body, "riskRules.status", max_len=1, choices=RULE_STATUSES)
    assert status is not None
    if status == "A" and parameter in ("card", "token"):
        # Our spec: 'A' is not allowed for card or token; the call itself reports the failure.
        return _rule_answer(call, parameter, None, False,
                            f"Status A is not allowed when riskRules.parameter is {parameter}")
    rules = _rules(call)
    if status == "C":
        rules.pop(key, None)
    else:
        rules[key] = {"status": status, "parameter": parameter}
    return _rule_answer(call, parameter, status, True)
