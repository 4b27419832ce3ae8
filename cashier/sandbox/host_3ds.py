"""``/3dsecure/standalone`` and ``/3dsecure/completion`` (HD only).

The vendor's 3-D Secure test cards pick the flow: frictionless (the result at once), device
fingerprint (responseCode 'H' with a redirect URL; ``/3dsecure/completion`` is then required and
gives the result) or challenge (responseCode 'G'). Other accepted test cards run frictionless.

A desktop till cannot show the issuer's challenge page, so the sandbox decides
(docs/decisions/002-sandbox.md, "3-D Secure") that the challenge is answered through
``/3dsecure/completion``: ``compInd`` 'Y' means the cardholder passed it, 'N' or 'U' that it failed
(responseCode 'D', no cryptogram).

The result carries every field a sale or authorization needs (our spec: cryptogram,
ecommIndicator, securityLevelIndicator, programProtocol, directoryServerTranId and
authenticationSource) plus the card token, so the sale sends the token, not the card number.

The removed ``/3dsecure/sale``, ``/3dsecure/authorization`` and ``/3dsecure/verifycard`` are not
registered: the app answers them 404 in the host envelope.
"""

from __future__ import annotations

import base64
import secrets
import uuid
from decimal import Decimal
from typing import Any

from cashier.sandbox.core import Family, HostCall, HostFault, invalid_field, missing_field
from cashier.sandbox.longtail import (
    EXTRA_CARDS,
    amount,
    card_type,
    check_card_number,
    expiration,
    issue_token,
    merchant,
    require,
    test_card_for_token,
    text,
    token_value,
    unknown_token,
)
from cashier.sandbox.shared import get, masked, now_text

FAMILY = Family("3ds")

FRICTIONLESS = {"4176660000000027": "VS", "5299990270000368": "MC", "375987000169677": "AX",
                "36849800000679": "NS"}
FINGERPRINT = {"4176660000000068": "VS", "5299990270000392": "MC", "375987000169776": "AX",
               "36816499999982": "NS"}
CHALLENGE = {"4176660000000092": "VS", "5299910010000015": "MC", "375987000000005": "AX",
             "6011947300799885": "NS"}
THREEDS_CARDS = frozenset({*FRICTIONLESS, *FINGERPRINT, *CHALLENGE})
for _table in (FRICTIONLESS, FINGERPRINT, CHALLENGE):
    EXTRA_CARDS.update(_table)

ACS_URL = "https://acs.sandbox.invalid"
BROWSER_FIELDS = ("acceptHeader", "javaEnabled", "javascriptEnabled", "language", "colorDepth",
                  "screenWidth", "screenHeight", "tz")


def _sessions(call: HostCall) -> dict[str, dict[str, Any]]:
    sessions: dict[str, dict[str, Any]] = call.state.family("threeds").setdefault("sessions", {})
    return sessions


def _card(call: HostCall) -> str:
    body = call.body
    if get(body, "card.number") is not None:
        number = check_card_number(get(body, "card.number"), extra=THREEDS_CARDS)
        expiration(body)
        return number
    if get(body, "card.token") is not None:
        found = test_card_for_token(call, token_value(body))
        if found is None:
            raise unknown_token()
        return found
    raise missing_field("card.number")


def _check_request(call: HostCall) -> None:
    body = call.body
    for name in ("firstName", "lastName"):
        text(body, f"customer.{name}", max_len=30)
    text(body, "customer.emailAddress", max_len=80)
    text(body, "customer.ipAddress", max_len=20)
    text(body, "customer.phoneCountry", max_len=3, required=False)
    text(body, "currencyCode", max_len=3, min_len=3)
    text(body, "completionUrl", max_len=2048)
    text(body, "threeDSecure.initiate", max_len=2, choices=("01", "03"))
    for name in BROWSER_FIELDS:
        require(body, f"threeDSecure.browser.{name}")
    for name in ("javaEnabled", "javascriptEnabled"):
        if not isinstance(get(body, f"threeDSecure.browser.{name}"), bool):
            raise invalid_field(f"threeDSecure.browser.{name}", "must be true or false")
    text(body, "threeDSecure.headerContent", max_len=255)
    text(body, "threeDSecure.challengeWindowSize", max_len=2,
         choices=("01", "02", "03", "04", "05"))
    text(body, "threeDSecure.transType", max_len=2, choices=("01", "03", "10", "11", "28"))
    text(body, "threeDSecure.channel", max_len=2, choices=("01", "02", "03"))


def _result_data(eci: str) -> dict[str, str]:
    raw = secrets.token_bytes(20)
    return {"cryptogram": base64.b64encode(raw).decode(), "programProtocol": "2",
            "directoryServerTranId": str(uuid.uuid4()), "ecommIndicator": eci,
            "securityLevelIndicator": "212", "authenticationSource": "2"}


def _answer(call: HostCall, session: dict[str, Any], code: str,
            extra: dict[str, Any] | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {
        "dateTime": now_text(call),
        "amount": {"total": Decimal(session["total"]), "tax": Decimal(0)},
        "currencyCode": session["currencyCode"],
        "card": {"entryMode": "M", "number": session["maskedNumber"], "present": "N",
                 "type": session["type"], "token": {"value": session["token"]}},
        "customer": session["customer"],
        "merchant": merchant(call),
        "transaction": {"authSource": "A", "invoice": session["invoice"], "responseCode": code,
                        "retrievalReference": session["retrievalReference"]},
    }
    item.update(extra or {})
    return item


def _complete(call: HostCall, session: dict[str, Any], eci: str) -> dict[str, Any]:
    data = _result_data(eci)
    session.update(stage="complete", result=data)
    return _answer(call, session, "A", {"threeDSecure": {"trxId": session["trxId"], **data}})


@FAMILY.route("POST", "/3dsecure/standalone", "HD")
async def standalone(call: HostCall) -> dict[str, Any]:
    body = call.body
    total = amount(body)
    invoice = text(body, "transaction.invoice", max_len=10)
    _check_request(call)
    number = _card(call)
    customer = {k: v for k, v in (body.get("customer") or {}).items()
                if k in ("firstName", "lastName", "emailAddress", "ipAddress", "phoneNumber",
                         "addressLine1", "city", "region", "postalCode", "country")}
    trx_id = str(uuid.uuid4())
    session: dict[str, Any] = {
        "trxId": trx_id, "invoice": invoice, "total": str(total), "currencyCode": body["currencyCode"],
        "maskedNumber": masked(number), "type": card_type(number),
        "token": issue_token(call, number), "customer": customer,
        "retrievalReference": secrets.token_hex(6).upper(),
    }
    _sessions(call)[trx_id] = session
    if number in FINGERPRINT or number in CHALLENGE:
        stage = "fingerprint" if number in FINGERPRINT else "challenge"
        session["stage"] = stage
        return _answer(call, session, "H" if stage == "fingerprint" else "G",
                       {"threeDSecure": {"trxId": trx_id},
                        "redirectUrl": f"{ACS_URL}/{stage}/{trx_id}"})
    return _complete(call, session, "5")


@FAMILY.route("POST", "/3dsecure/completion", "HD")
async def completion(call: HostCall) -> dict[str, Any]:
    body = call.body
    invoice = text(body, "transaction.invoice", max_len=10)
    trx_id = text(body, "threeDSecure.trxId", max_len=36)
    comp_ind = text(body, "threeDSecure.compInd", max_len=1, choices=("Y", "N", "U"))
    assert trx_id is not None
    session = _sessions(call).get(trx_id)
    if session is None or session["invoice"] != invoice:
        raise HostFault(9815, "NO 3DS TRX", f"No 3-D Secure request {trx_id} for invoice {invoice}",
                        code=40104)
    if session["stage"] == "fingerprint":
        # The issuer is satisfied either way; an unfinished fingerprint only lowers the result
        # to "attempted" (ECI 6).
        return _complete(call, session, "5" if comp_ind == "Y" else "6")
    if session["stage"] == "challenge":
        if comp_ind == "Y":
            return _complete(call, session, "5")
        session["stage"] = "failed"
        return _answer(call, session, "D", {"threeDSecure": {"trxId": trx_id}})
    raise HostFault(9000, "ALREADY DONE", f"3-D Secure request {trx_id} is already "
                    f"{session['stage']}", code=40100)


def find_result(state: Any, cryptogram: str) -> dict[str, Any] | None:
    """For payment handlers: the completed 3-D Secure session that issued ``cryptogram``."""
    sessions: dict[str, dict[str, Any]] = state.family("threeds").get("sessions", {})
    for session in sessions.values():
        if session.get("stage") == "complete" and session["result"]["cryptogram"] == cryptogram:
            return session
    return None
