"""Small helpers shared by the sandbox's long-tail families (cards, risk, wallet, 3-D Secure, OCT,
ACH, updater, DCC, rules, checkout sessions).

Kept apart from ``core.py`` so those families read the same way without touching the core: the
same "missing field" wording, the same masked card, the same merchant block, sandbox time.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from cashier.redact import luhn_ok
from cashier.sandbox.core import HostCall, HostFault, invalid_field, missing_field, timeout_fault

#: The vendor's published test cards, by number: (card type, debit capable).
TEST_CARDS: dict[str, tuple[str, str]] = {
    "4321000000001119": ("VS", "N"), "4616222222222257": ("VS", "N"),
    "4761739001010010": ("VS", "Y"),
    "5432000000003332": ("MC", "N"), "5290111111111111": ("MC", "Y"),
    "2221000000000009": ("MC", "N"),
    "373400000002221": ("AX", "N"), "342877777777705": ("AX", "N"), "374245455400001": ("AX", "N"),
    "6011013928534509": ("NS", "N"), "6011000000004444": ("NS", "N"),
    "3337000000005551": ("JC", "N"),
    "3059910000007215": ("NS", "N"),
    # original credit transfer cards
    "4515300011000159": ("VS", "Y"), "4515300011000167": ("VS", "Y"),
    "5312600000002167": ("MC", "Y"),
}

#: Cards the sandbox treats as issued abroad: DCC can convert to their currency.
#: (currency, minor units, rate per merchant unit as text). The vendor publishes no DCC cards.
FOREIGN_CARDS: dict[str, tuple[str, int, str]] = {
    "3337000000005551": ("JPY", 0, "157.2300"),
    "5290111111111111": ("EUR", 2, "0.9215"),
    "4616222222222257": ("CAD", 2, "1.3650"),
}


def get(body: Mapping[str, Any], dotted: str) -> Any:
    node: Any = body
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _fault(fault: HostFault, legacy: bool) -> HostFault:
    fault.legacy = legacy
    return fault


def require(body: Mapping[str, Any], dotted: str, *, legacy: bool = True) -> Any:
    """The value at ``dotted``; a missing, null or empty one is a 400 naming the field."""
    value = get(body, dotted)
    if value is None or value == "" or value == [] or value == {}:
        raise _fault(missing_field(dotted), legacy)
    return value


def text(body: Mapping[str, Any], dotted: str, *, max_len: int, required: bool = True,
         min_len: int = 1, legacy: bool = True, choices: tuple[str, ...] = ()) -> str | None:
    """A text field with its length rule (and allowed values), or None when optional and absent."""
    value = require(body, dotted, legacy=legacy) if required else get(body, dotted)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fault(invalid_field(dotted, "must be text"), legacy)
    if not min_len <= len(value) <= max_len:
        raise _fault(invalid_field(dotted, f"must be {min_len} to {max_len} characters"), legacy)
    if choices and value not in choices:
        raise _fault(invalid_field(dotted, f"must be one of {', '.join(choices)}"), legacy)
    return value


def amount(body: Mapping[str, Any], dotted: str = "amount.total", *, required: bool = True,
           legacy: bool = True, positive: bool = True) -> Decimal | None:
    """An amount as ``Decimal``; the common rules (decimals, length) already ran in app.py."""
    value = require(body, dotted, legacy=legacy) if required else get(body, dotted)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise _fault(invalid_field(dotted, "must be a number in major units, such as 12.50"), legacy)
    try:
        result = Decimal(value)
    except InvalidOperation:
        raise _fault(invalid_field(dotted, "must be a number"), legacy) from None
    if positive and result <= 0:
        raise _fault(invalid_field(dotted, "must be more than zero"), legacy)
    return result


def boolean(body: Mapping[str, Any], dotted: str, *, legacy: bool = True) -> bool | None:
    value = get(body, dotted)
    if value is not None and not isinstance(value, bool):
        raise _fault(invalid_field(dotted, "must be true or false"), legacy)
    return value


def api_options(body: Mapping[str, Any]) -> set[str]:
    raw = body.get("apiOptions")
    if raw is None:
        return set()
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise invalid_field("apiOptions", "must be a list of texts")
    return {item.upper() for item in raw}


def sandbox_now(call: HostCall) -> str:
    """Sandbox time (``/_sandbox/clock`` moves it), local, with milliseconds and offset."""
    moment = datetime.fromtimestamp(call.state.clock.now()).astimezone()
    return moment.isoformat(timespec="milliseconds")


def merchant(call: HostCall) -> dict[str, Any]:
    return {"mid": call.config.merchant_id, "name": call.config.merchant_name[:22]}


def new_id(prefix: str = "", length: int = 12) -> str:
    """An opaque upper-case id (risk tranId, retrieval references, ...)."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
    return prefix + "".join(secrets.choice(alphabet) for _ in range(length))


# ---- cards ---------------------------------------------------------------------------------
def card_type(number: str) -> str | None:
    """The host's card type for a number: the test card table first, then the brand prefixes."""
    if number in TEST_CARDS:
        return TEST_CARDS[number][0]
    if number.startswith("4"):
        return "VS"
    two, four = int(number[:2]), int(number[:4])
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return "MC"
    if two in (34, 37):
        return "AX"
    if number.startswith(("6011", "65", "36", "38", "300", "301", "302", "303", "304", "305", "3095")):
        return "NS"
    if 644 <= int(number[:3]) <= 649:
        return "NS"
    if 3528 <= four <= 3589:
        return "JC"
    return None


def check_card_number(value: Any, field: str = "card.number", *, legacy: bool = True) -> str:
    """A card number the test host accepts, or the host's error: format, Luhn, card range."""
    if not isinstance(value, str) or not value.isdigit() or not 13 <= len(value) <= 19:
        raise _fault(invalid_field(field, "must be 13 to 19 digits"), legacy)
    if not luhn_ok(value):
        raise _fault(HostFault(9820, "LUHN FAIL", f"{field} fails the check digit test", code=40101),
                     legacy)
    trigger = trigger_card_fault(value)
    if trigger is not None:
        raise _fault(trigger, legacy)
    if card_type(value) is None:
        raise _fault(HostFault(9842, "NOT IN CARDRANGE", "Card type not recognized", code=40101),
                     legacy)
    return value


def trigger_card_fault(number: str) -> HostFault | None:
    """The vendor's error and timeout trigger cards (``test-triggers.yml``).

    The core's trigger table is meant to hold these; until it lands they live here.
    """
    if number in ("4321000000011001", "4184324142934805"):
        return timeout_fault()
    if number == "4321000000009401":
        return HostFault(9401, "HOST ERROR", "The host returned error 9401", severity="Error",
                         code=60000)
    if number == "4417010617574247":
        return HostFault(9961, "HOST ERROR", "Demo host error", secondary_code=9, severity="Error",
                         code=69999)
    return None


def masked_number(number: str) -> str:
    """As the host shows it: every digit but the last four replaced by X."""
    return "X" * (len(number) - 4) + number[-4:]


def bin_of(number: str) -> str:
    """Eight digits for 16-digit and longer numbers, six for shorter ones (the field holds 8)."""
    return number[:8] if len(number) >= 16 else number[:6]


def expiration(body: Mapping[str, Any], dotted: str = "card.expirationDate", *,
               required: bool = True, legacy: bool = True) -> int | None:
    """MMYY as an integer (January 2026 is 126), month 01 to 12."""
    value = require(body, dotted, legacy=legacy) if required else get(body, dotted)
    if value is None:
        return None
    digits = str(value)
    if isinstance(value, bool) or not isinstance(value, int | str) or not digits.isdigit() \
            or not 3 <= len(digits) <= 4 or not 1 <= int(digits.zfill(4)[:2]) <= 12:
        raise _fault(invalid_field(dotted, "must be MMYY, 3 to 4 digits with a month 01 to 12"), legacy)
    return int(digits)


# ---- tokens the long-tail families issue or accept -------------------------------------------
def issue_token(call: HostCall, number: str, exp: int | None = None) -> str:
    """A 16-digit token ending in the card's last four, as the vendor's examples show.

    Only the first six and last four digits are remembered (never the full number).
    """
    cards = call.state.family("cards").setdefault("tokens", {})
    for token, record in cards.items():
        if record["bin"] == number[:6] and record["last4"] == number[-4:] \
                and record["length"] == len(number):
            return str(token)
    while True:
        token = "8" + "".join(secrets.choice("0123456789") for _ in range(11)) + number[-4:]
        if token not in cards and token not in call.state.issued_tokens:
            break
    cards[token] = {"bin": number[:6], "last4": number[-4:], "length": len(number),
                    "type": card_type(number), "expirationDate": exp}
    call.state.issued_tokens.add(token)
    return token


def test_card_for_token(call: HostCall, token: str) -> str | None:
    """The test card a token stands for, matched by first six and last four digits.

    Tokens issued by other families are found by their last four digits among the test cards,
    since every token of the sandbox ends with its card's last four.
    """
    record = call.state.family("cards").get("tokens", {}).get(token)
    known = record is not None or token in call.state.issued_tokens
    for number in TEST_CARDS:
        if record is not None:
            if number[:6] == record["bin"] and number[-4:] == record["last4"]:
                return number
        elif known and number[-4:] == token[-4:]:
            return number
    return None


def token_value(body: Mapping[str, Any], dotted: str = "card.token.value", *,
                legacy: bool = True) -> str:
    value = text(body, dotted, max_len=16, legacy=legacy)
    assert value is not None
    return value


def unknown_token(legacy: bool = True) -> HostFault:
    return _fault(HostFault(9846, "BAD UNIQUE ID", "Token not found for this merchant", code=40105),
                  legacy)
