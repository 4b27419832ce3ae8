"""Small helpers shared by the sandbox's long-tail families (cards, risk, wallet, 3-D Secure, OCT,
ACH, updater, DCC, rules, checkout sessions).

Kept apart from ``core.py`` so those families read the same way without touching the core: the
same "missing field" wording, the same masked card, the same merchant block, sandbox time.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from cashier.sandbox import triggers
from cashier.sandbox.core import HostCall, HostFault, invalid_field, missing_field
from cashier.sandbox.shared import get

#: Test cards that can be processed as debit (``/cards/identify`` ``debitCapable``): the
#: vendor's debit Visa and Mastercard and the OCT cards (fast funds need a debit card).
DEBIT_CARDS = frozenset({"4761739001010010", "5290111111111111", "4515300011000159",
                         "4515300011000167", "5312600000002167"})
#: Cards that only some families accept (3-D Secure test cards), added by those families.
EXTRA_CARDS: dict[str, str] = {}

#: Cards the sandbox treats as issued abroad: DCC can convert to their currency.
#: (currency, minor units, rate per merchant unit as text). The vendor publishes no DCC cards.
FOREIGN_CARDS: dict[str, tuple[str, int, str]] = {
    "3337000000005551": ("JPY", 0, "157.2300"),
    "5290111111111111": ("EUR", 2, "0.9215"),
    "4616222222222257": ("CAD", 2, "1.3650"),
}


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


def merchant(call: HostCall) -> dict[str, Any]:
    return {"mid": call.config.merchant_id, "name": call.config.merchant_name[:22]}


def new_id(prefix: str = "", length: int = 12) -> str:
    """An opaque upper-case id (risk tranId, retrieval references, ...)."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
    return prefix + "".join(secrets.choice(alphabet) for _ in range(length))


# ---- cards ---------------------------------------------------------------------------------
def card_type(number: str) -> str:
    return EXTRA_CARDS.get(number) or triggers.brand_of(number)


def check_card_number(value: Any, field: str = "card.number", *, legacy: bool = True,
                      extra: frozenset[str] = frozenset()) -> str:
    """A card number the test host accepts (its published test cards, and ``extra``), or the
    host's error for it: format, Luhn, the error and timeout trigger cards, card range."""
    if not isinstance(value, str):
        raise _fault(invalid_field(field, "must be text of 12 to 19 digits"), legacy)
    if value in extra:
        return value
    problem = triggers.check_card(value)
    if problem is not None:
        long_text = problem.long_text.replace("card.number", field)
        raise _fault(HostFault(problem.primary_code, problem.short_text, long_text,
                               secondary_code=problem.secondary_code, http_status=problem.http_status,
                               severity=problem.severity, code=problem.code), legacy)
    return value


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


# ---- tokens ----------------------------------------------------------------------------------
def issue_token(call: HostCall, number: str) -> str:
    """The sandbox vault's token for the card (same card, same token; never the full number)."""
    token: str = call.state.tokenize(number, card_type(number))
    return token


def test_card_for_token(call: HostCall, token: str) -> str | None:
    """The test card a vault token stands for, found by its last four digits and card type.

    The vault keeps only the masked number; every test card has distinct last four digits.
    """
    record = call.state.detokenize(token)
    if record is None:
        return None
    for number in (*(card.number for card in triggers.TEST_CARDS), *EXTRA_CARDS):
        if number[-4:] == record.get("last4") and card_type(number) == record.get("type"):
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


# ---- outbound notifications (ACH, checkout sessions) ----------------------------------------
NOTIFY_TIMEOUT_S = 3.0
Poster = Callable[[str, dict[str, Any]], Awaitable[None]]
_log = logging.getLogger(__name__)
_pending: set[asyncio.Task[None]] = set()


async def http_post(url: str, payload: dict[str, Any]) -> None:
    """POST the payload as JSON with a short timeout; the receiver's answer is not used."""
    import httpx

    from cashier.host import codec

    async with httpx.AsyncClient(timeout=NOTIFY_TIMEOUT_S) as http:
        response = await http.post(url, content=codec.dumps(payload).encode(),
                                   headers={"Content-Type": "application/json"})
    if response.status_code != 200:
        _log.warning("notification to %s answered HTTP %s", url, response.status_code)


#: The function that delivers notifications; tests may swap it for an in-process receiver.
poster: Poster = http_post


def notify(url: str | None, payload: dict[str, Any]) -> asyncio.Task[None] | None:
    """Deliver in the background: never blocks the answer, never fails it (errors are logged)."""
    if not url:
        return None

    async def deliver() -> None:
        try:
            await poster(url, payload)
        except Exception as exc:  # a dead receiver must not hurt the host
            _log.warning("notification to %s failed: %s", url, type(exc).__name__)

    task = asyncio.get_running_loop().create_task(deliver())
    _pending.add(task)
    task.add_done_callback(_pending.discard)
    return task
