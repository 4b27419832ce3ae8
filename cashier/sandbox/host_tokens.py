"""``/tokens/*``: add, duplicate, delete (for good), universal token, four words.

Two token styles, told apart by their shape (decision, see docs/decisions/002-sandbox.md):

- legacy-style: 16 DIGITS, the last four being the card's (the vendor's ``8048471746471119``);
  this is what ``state.tokenize`` (the shared vault) issues;
- global-vault style: the card's last four then 12 lowercase letters and digits with at least
  one letter (the vendor's ``1119eqetd26hfne4``); issued while the sandbox merchant has the
  global vault switched on (``POST /_sandbox/tokens/settings {"gtv": true}``).

Four words exist for legacy-style tokens only. Records live in ``state.family("tokens")``:
``tokens``: value -> {card, style, expirationDate}; ``deleted``: values never usable again.
Every token is also put in the shared vault so the transaction handlers accept it.

Helpers for other families: ``issue_token(state, number)``, ``resolve_token(state, value)``,
``card_type(number)``, ``universal_token(number)``.
"""

from __future__ import annotations

import hashlib
import secrets
import string
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cashier.cards import never_luhn_valid
from cashier.sandbox.control import _json, control_error, read_json
from cashier.sandbox.core import Family, HostCall, HostFault, invalid_field, missing_field
from cashier.sandbox.shared import card_type, get, is_gift_card, masked, now_text, terminal_of
from cashier.sandbox.terminals import (
    TerminalBusy,
    TerminalCancelled,
    TerminalTimeout,
    TerminalUnavailable,
    prompt_fault,
)
from cashier.sandbox.triggers import TEST_CARDS, check_card

FAMILY = Family("tokens")

_WORDS = ("amber", "apple", "arch", "bay", "bell", "blue", "brook", "cat", "cedar", "clay", "cloud",
          "coral", "crane", "dawn", "deer", "dune", "east", "elm", "fern", "field", "fig", "flint",
          "fox", "gold", "grove", "gull", "hare", "hill", "iris", "ivy", "jade", "kite", "lake",
          "lark", "leaf", "lime", "lynx", "maple", "mint", "moon", "moss", "north", "oak", "olive",
          "opal", "owl", "pearl", "pine", "plum", "pond", "quail", "rain", "reed", "river", "rose",
          "sage", "sand", "snow", "star", "stone", "swan", "tide", "vale", "wren")


def _family(state: Any) -> dict[str, Any]:
    family: dict[str, Any] = state.family("tokens")
    family.setdefault("tokens", {})
    family.setdefault("deleted", [])
    family.setdefault("gtv", False)
    return family


def is_legacy_token(value: str) -> bool:
    """Legacy-style tokens are all digits; global-vault tokens carry letters."""
    return value.isdigit()


def universal_token(number: str) -> str:
    """The same value for the same card everywhere (vendor shape 8-4-8-11 hex)."""
    h = hashlib.sha256(b"cashier-sandbox-universal:" + number.encode()).hexdigest().upper()
    return f"{h[:8]}-{h[8:12]}-{h[12:20]}-{h[20:31]}"


def universal_for_key(card_key: str) -> str:
    """A gift card's universal token, from its one-way key (its number is not kept)."""
    h = hashlib.sha256(b"cashier-sandbox-universal-gift:" + card_key.encode()).hexdigest().upper()
    return f"{h[:8]}-{h[8:12]}-{h[12:20]}-{h[20:31]}"


def universal_of(state: Any, number: str) -> str:
    """The universal token of any card number (a gift card's comes from its one-way key)."""
    return universal_for_key(state.card_key(number)) if is_gift_card(number) else universal_token(number)


def issue_gift_token(state: Any, card_key: str, masked_number: str, *,
                     expiration: int | None = None, style: str | None = None,
                     fresh: bool = False) -> str:
    """A gift card's token, tied to its one-way key (``state.card_key``), never its number."""
    family = _family(state)
    style = style or ("global" if family["gtv"] else "legacy")
    deleted = set(family["deleted"])
    last4 = masked_number[-4:]
    value = ""
    if style == "legacy" and not fresh:
        digest = hashlib.sha256(b"cashier-sandbox-gift-token:" + card_key.encode()).hexdigest()
        value = never_luhn_valid(str(int(digest[:16], 16))[:12].rjust(12, "0") + last4)
    while not value or value in deleted or (fresh and value in family["tokens"]):
        if style == "legacy":
            value = never_luhn_valid("9" + "".join(secrets.choice(string.digits) for _ in range(11)) + last4)
        else:
            tail = [secrets.choice(string.ascii_lowercase + string.digits) for _ in range(11)]
            tail.insert(secrets.randbelow(12), secrets.choice(string.ascii_lowercase))
            value = last4 + "".join(tail)
    record = family["tokens"].get(value) or {
        "giftcard": card_key, "masked": masked_number, "last4": last4,
        "length": len(masked_number), "type": "GC", "style": style}
    if expiration is not None:
        record["expirationDate"] = expiration
    family["tokens"][value] = record
    vault = state.family("vault").setdefault("tokens", {})
    if value not in vault:
        vault[value] = {"type": "GC", "number": masked_number, "last4": last4}
    return value


def gift_key_of(state: Any, token_value: str) -> str | None:
    """The one-way key of the gift card a live token stands for; None for any other token."""
    family = _family(state)
    if token_value in family["deleted"]:
        return None
    record = family["tokens"].get(token_value)
    return str(record["giftcard"]) if isinstance(record, dict) and record.get("giftcard") else None


def issue_token(state: Any, card_number: str, *, expiration: int | None = None,
                style: str | None = None, fresh: bool = False) -> str:
    """A 16-character token ending with (legacy) or starting with (global) the card's last 4.

    Legacy tokens come from the shared vault (same card, same token) unless that value was
    deleted or ``fresh`` asks for a new one (``/tokens/duplicate``).
    """
    if is_gift_card(card_number):
        return issue_gift_token(state, state.card_key(card_number), masked(card_number),
                                expiration=expiration, style=style, fresh=fresh)
    family = _family(state)
    style = style or ("global" if family["gtv"] else "legacy")
    deleted = set(family["deleted"])
    value = ""
    if style == "legacy" and not fresh:
        value = state.tokenize(card_number, card_type(card_number))
    while not value or value in deleted or (fresh and value in family["tokens"]):
        if style == "legacy":
            value = never_luhn_valid(
                "9" + "".join(secrets.choice(string.digits) for _ in range(11)) + card_number[-4:])
        else:
            tail = [secrets.choice(string.ascii_lowercase + string.digits) for _ in range(11)]
            tail.insert(secrets.randbelow(12), secrets.choice(string.ascii_lowercase))
            value = card_number[-4:] + "".join(tail)
    record = family["tokens"].get(value) or _token_record(card_number, style)
    if expiration is not None:
        record["expirationDate"] = expiration
    family["tokens"][value] = record
    vault = state.family("vault").setdefault("tokens", {})
    vault.setdefault(value, {"type": card_type(card_number), "number": masked(card_number),
                             "last4": card_number[-4:]})
    return value


def _token_record(card_number: str, style: str) -> dict[str, Any]:
    """Like the shared vault, no full card number: first six, last four, length and brand
    (gift cards: ``issue_gift_token``, which keeps the card's one-way key instead)."""
    return {"bin": card_number[:6], "last4": card_number[-4:], "length": len(card_number),
            "type": card_type(card_number), "style": style}


def _test_card(bin6: str, last4: str, length: int, brand: str | None) -> str | None:
    """The published test card matching what a token remembers (only those are accepted)."""
    for card in TEST_CARDS:
        if len(card.number) == length and card.number[-4:] == last4 \
                and (not bin6 or card.number[:6] == bin6) and (brand is None or card.brand == brand):
            return card.number
    return None


def resolve_token(state: Any, token_value: str) -> str | None:
    """The card number a live token stands for; None for unknown or deleted tokens."""
    family = _family(state)
    if token_value in family["deleted"]:
        return None
    record = family["tokens"].get(token_value)
    if record is not None:
        if record.get("giftcard"):
            return None  # a gift card's number is not kept: ``gift_key_of``
        return _test_card(record["bin"], record["last4"], int(record["length"]), record.get("type"))
    # A token the transaction handlers issued (shared vault, masked number only): the sandbox
    # accepts only the published test cards, so the masked number names one of them.
    vaulted = state.family("vault").get("tokens", {}).get(token_value)
    if not isinstance(vaulted, dict):
        return None
    shown = str(vaulted.get("number", ""))
    return _test_card("", shown[-4:], len(shown), vaulted.get("type"))


def token_not_found(value: str, call: HostCall) -> HostFault:
    return HostFault(9846, "BAD UNIQUE ID", f"Unique Identifier({value}) not found for Merchant "
                     f"{call.config.merchant_id}", code=40105)


def _token_in(call: HostCall) -> tuple[str, str | None]:
    """(token, card number); the number is None for a gift card's token (``gift_key_of``)."""
    value = get(call.body, "card.token.value")
    if value is None:
        raise missing_field("card.token.value")
    if not isinstance(value, str) or not 1 <= len(value) <= 16:
        raise invalid_field("card.token.value", "must be 1 to 16 characters")
    number = resolve_token(call.state, value)
    if number is None and gift_key_of(call.state, value) is None:
        raise token_not_found(value, call)
    return value, number


def _gift_view(call: HostCall, value: str) -> tuple[str, str]:
    """(one-way key, masked number) of a gift card's token."""
    key = gift_key_of(call.state, value)
    assert key is not None
    record = _family(call.state)["tokens"][value]
    return key, str(record["masked"])


def _merchant(call: HostCall) -> dict[str, Any]:
    return {"mid": call.config.merchant_id, "name": call.config.merchant_name}


def _expiration(call: HostCall) -> int | None:
    value = get(call.body, "card.expirationDate")
    if value is None:
        return None
    text = str(value)
    if isinstance(value, bool) or not text.isdigit() or not 3 <= len(text) <= 4 \
            or not 1 <= int(text.zfill(4)[:2]) <= 12:
        raise invalid_field("card.expirationDate", "must be MMYY, 3 to 4 digits, month 01 to 12")
    return int(text)


def check_number(number: Any, field: str = "card.number") -> str:
    """A test card (or sandbox gift card) number, or the host's refusal."""

    if not isinstance(number, str | int) or isinstance(number, bool):
        raise invalid_field(field, "must be a card number of 12 to 19 digits")
    digits = str(number)
    if is_gift_card(digits):
        return digits
    problem = check_card(digits)
    if problem is not None:
        raise HostFault(problem.primary_code, problem.short_text, problem.long_text,
                        secondary_code=problem.secondary_code, http_status=problem.http_status,
                        severity=problem.severity, code=problem.code)
    return digits


# ---- routes ---------------------------------------------------------------------------------
@FAMILY.route("POST", "/tokens/add", "HD LG DCP DCC")
async def add(call: HostCall) -> dict[str, Any]:
    """A keyed card (HD, any option) or a card read by the option's PIN pad."""
    from decimal import Decimal

    if get(call.body, "p2pe") is not None:
        raise invalid_field("p2pe", "the sandbox does not decrypt P2PE data; send card.number "
                                    "or let the PIN pad read the card")
    raw = get(call.body, "card.number")
    item: dict[str, Any] = {"dateTime": now_text(call)}
    if raw is not None:
        number = check_number(raw)
        expiration = _expiration(call)
        if expiration is None:
            raise missing_field("card.expirationDate")
        entry_mode = "M"
    elif call.option == "HD":
        raise missing_field("card.number")
    else:
        terminal = terminal_of(call)
        try:
            read = await terminal.read_card(amount=Decimal(0), purpose="token")
        except (TerminalCancelled, TerminalTimeout, TerminalBusy, TerminalUnavailable) as exc:
            raise prompt_fault(exc, terminal.terminal_id) from None
        number = check_number(read.number)
        expiration, entry_mode = 1230, read.entry_mode
        item["device"] = {"terminalId": terminal.terminal_id}
    token = issue_token(call.state, number, expiration=expiration)
    item["card"] = {"entryMode": entry_mode, "number": masked(number), "type": card_type(number),
                    "token": {"value": token}}
    if "RETURNEXPDATE" in (call.body.get("apiOptions") or []) and expiration is not None:
        item["card"]["expirationDate"] = expiration
    customer = call.body.get("customer")
    if isinstance(customer, dict) and customer:
        item["customer"] = {k: v for k, v in customer.items() if isinstance(v, str)}
    item["merchant"] = _merchant(call)
    item["universalToken"] = {"value": universal_of(call.state, number)}
    return item


@FAMILY.route("POST", "/tokens/duplicate", "HD LG")
async def duplicate(call: HostCall) -> dict[str, Any]:
    """A new token for the card of an existing one (which stays valid)."""
    value, number = _token_in(call)
    known = _family(call.state)["tokens"].get(value, {})
    style = "legacy" if is_legacy_token(value) else "global"
    expiration = _expiration(call) or known.get("expirationDate")
    if number is None:
        key, shown = _gift_view(call, value)
        new = issue_gift_token(call.state, key, shown, expiration=expiration, style=style, fresh=True)
        kind, universal_value = "GC", universal_for_key(key)
    else:
        new = issue_token(call.state, number, expiration=expiration, style=style, fresh=True)
        shown, kind, universal_value = masked(number), card_type(number), universal_token(number)
    card: dict[str, Any] = {"number": shown, "type": kind, "token": {"value": new}}
    if "RETURNEXPDATE" in (call.body.get("apiOptions") or []) and expiration is not None:
        card["expirationDate"] = expiration
    return {"dateTime": now_text(call), "card": card, "merchant": _merchant(call),
            "universalToken": {"value": universal_value}}


@FAMILY.route("POST", "/tokens/delete", "HD LG")
async def delete(call: HostCall) -> dict[str, Any]:
    """Irreversible: the value is remembered as deleted and never resolves or is issued again."""
    value, _number = _token_in(call)
    family = _family(call.state)
    family["tokens"].pop(value, None)
    family["deleted"].append(value)
    call.state.family("vault").get("tokens", {}).pop(value, None)
    return {"dateTime": now_text(call), "card": {"token": {"value": value}},
            "merchant": _merchant(call)}


@FAMILY.route("GET", "/tokens/universaltoken", "HD LG DCP DCC")
async def universal(call: HostCall) -> dict[str, Any]:
    number_header = call.header("CardNumber")
    token_header = call.header("Token")
    if number_header:
        number = check_number(number_header.strip(), "CardNumber header")
    elif token_header:
        found = resolve_token(call.state, token_header.strip())
        gift = gift_key_of(call.state, token_header.strip()) if found is None else None
        if gift is not None:
            return {"dateTime": now_text(call), "merchant": _merchant(call),
                    "universalToken": {"value": universal_for_key(gift)}}
        if found is None:
            raise token_not_found(token_header.strip(), call)
        number = found
    elif any(call.header(h) for h in ("TrackData", "P2PEData", "P2PEFormat", "P2PEKsn")):
        raise invalid_field("TrackData", "the sandbox reads no track or P2PE data; send the "
                                         "CardNumber or Token header")
    else:
        raise missing_field("CardNumber or Token header")
    return {"dateTime": now_text(call), "merchant": _merchant(call),
            "universalToken": {"value": universal_of(call.state, number)}}


@FAMILY.route("POST", "/tokens/4words", "HD LG")
async def four_words(call: HostCall) -> dict[str, Any]:
    value, number = _token_in(call)
    if not is_legacy_token(value):
        raise HostFault(9000, "NOT SUPPORTED", "card.token.value: four words exist for legacy-style "
                        "tokens only (16 digits); this is a global-vault token", code=40101)
    digest = hashlib.sha256(b"cashier-sandbox-4words:" + value.encode()).digest()
    words = " ".join(_WORDS[b % len(_WORDS)] for b in digest[:4])
    shown = masked(number) if number is not None else _gift_view(call, value)[1]
    return {"dateTime": now_text(call),
            "card": {"entryMode": "M", "fourWords": words[:28], "number": shown},
            "merchant": _merchant(call)}


# ---- control: the merchant's global vault switch ------------------------------------------------
async def _settings(request: Request) -> Response:
    sandbox = request.app.state.sandbox
    family = _family(sandbox.state)
    if request.method == "POST":
        try:
            data = await read_json(request)
        except ValueError as exc:
            return control_error(str(exc))
        if not isinstance(data, dict) or set(data) != {"gtv"} or not isinstance(data["gtv"], bool):
            return control_error('send {"gtv": true} or {"gtv": false}')
        family["gtv"] = data["gtv"]
    return _json({"gtv": family["gtv"], "tokens": len(family["tokens"]),
                  "deleted": len(family["deleted"])})


FAMILY.controls.append(Route("/_sandbox/tokens/settings", _settings, methods=["GET", "POST"]))
