"""``/updater/request`` and ``/updater/status`` (HD only): the account updater.

As on the vendor's test host, a request is pending ('P') for the first hour of SANDBOX time
(``POST /_sandbox/clock`` moves it) and complete ('C') after that. Each card's status comes from
the test card behind its token (the vendor says "driven by test PANs" without the table, so the
sandbox's table is below and in docs/decisions/002-sandbox.md, "Updater"). Errors use
``ErrorNoPrimarySecondary``.
"""

from __future__ import annotations

import uuid
from typing import Any

from cashier.sandbox.core import Family, HostCall, HostFault
from cashier.sandbox.longtail import (
    merchant,
    require,
    test_card_for_token,
)
from cashier.sandbox.shared import now_text

FAMILY = Family("updater")

PENDING_SECONDS = 3600.0
MAX_CARDS = 5000
#: Test card -> updater card status. Any other known card: 'E' (no update, account valid);
#: a token the vault does not know: 'T'.
STATUS_BY_CARD = {
    "4321000000001119": "A",  # new account number (and expiration date)
    "5432000000003332": "B",  # new expiration date, same account number
    "373400000002221": "C",   # account closed
    "6011013928534509": "D",  # contact the cardholder
    "3337000000005551": "F",  # no match, participating issuer
    "3059910000007215": "H",  # no match, non-participating issuer
    "5290111111111111": "O",  # cardholder opted out
}
#: The card that replaces an 'A' card (its new token is returned as ``newToken``).
REPLACEMENT_CARD = "4761739001010010"


def _fault(code: int, long_text: str) -> HostFault:
    return HostFault(0, "Invalid Param", long_text, code=code, legacy=False)


def _requests(call: HostCall) -> dict[str, dict[str, Any]]:
    requests: dict[str, dict[str, Any]] = call.state.family("updater").setdefault("requests", {})
    return requests


@FAMILY.route("POST", "/updater/request", "HD")
async def updater_request(call: HostCall) -> dict[str, Any]:
    cards = require(call.body, "cards", legacy=False)
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_CARDS:
        raise _fault(40101, f"cards: must be a list of 1 to {MAX_CARDS} cards")
    tokens: list[str] = []
    for i, card in enumerate(cards):
        token = card.get("token") if isinstance(card, dict) else None
        if not isinstance(token, str) or not 1 <= len(token) <= 16:
            raise _fault(40101, f"cards[{i}].token: must be a token of 1 to 16 characters")
        tokens.append(token)
    request_id = str(uuid.uuid4())
    _requests(call)[request_id] = {"created": call.state.clock.now(), "tokens": tokens}
    return {"dateTime": now_text(call), "merchant": merchant(call),
            "updaterRequestId": request_id}


def _expiry(call: HostCall, token: str) -> str | None:
    """The expiration date on file for a token (MMYY, 4 digits), when the token store has one."""
    record = call.state.family("tokens").get("tokens", {}).get(token)
    value = record.get("expirationDate") if isinstance(record, dict) else None
    return str(value).zfill(4) if value is not None and str(value).isdigit() else None


def _card_status(call: HostCall, token: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"token": token}
    number = test_card_for_token(call, token)
    if number is None:
        entry["status"] = "T"
        return entry
    status = STATUS_BY_CARD.get(number, "E")
    entry["status"] = status
    expiry = _expiry(call, token)
    if expiry is not None:
        entry["expirationDate"] = expiry
    if status in ("A", "B"):
        old_year = int(expiry[2:]) if expiry else 26
        entry["newExpirationDate"] = f"{(expiry or '12')[:2]}{(old_year + 3) % 100:02d}"
    if status == "A":
        entry["newToken"] = call.state.tokenize(REPLACEMENT_CARD, "VS")
    return entry


@FAMILY.route("POST", "/updater/status", "HD")
async def updater_status(call: HostCall) -> dict[str, Any]:
    request_id = require(call.body, "updaterRequestId", legacy=False)
    if not isinstance(request_id, str):
        raise _fault(40101, "updaterRequestId: must be text")
    request = _requests(call).get(request_id)
    if request is None:
        raise _fault(40104, f"updaterRequestId {request_id} is not known")
    item: dict[str, Any] = {"dateTime": now_text(call), "merchant": merchant(call),
                            "updaterRequestId": request_id}
    if call.state.clock.now() - float(request["created"]) < PENDING_SECONDS:
        item["updaterStatus"] = "P"
        return item
    if "cards" not in request:  # computed once: the answer stays the same on every later call
        request["cards"] = [_card_status(call, token) for token in request["tokens"]]
    item["updaterStatus"] = "C"
    item["cards"] = request["cards"]
    return item
