"""What the store checks in what a till tells it, before anything is stored.

A till is the source of truth for its own money, but not for anyone else's, and not for what it
already told the store. So a push is refused whole (nothing of it stored) when:

- a value cannot be stored as given (a NUL character, a lone surrogate, a whole number outside
  PostgreSQL's 64 bits, a non-finite number, text where a number belongs, nesting deeper than
  ``MAX_DEPTH``): 422 naming the field;
- an entry's invoice does not carry the till's number (another till's invoices are not its own
  to use up): 422;
- an amount contradicts the entry's state machine (a ``created`` entry already approved, an
  approved amount on an entry still intent or declined, an amount asked or approved changed by
  an event that moves nothing, a negative amount, a move the journal's state machine forbids):
  422;
- a sequence rewrites history (an entry created twice, or its invoice, kind or currency changed
  after it was created): 409;
- the journal's chain through the store's mark is not the store's: a copy restored from an
  older point under the same journal id (``JournalForked``): 409.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cashier.errors import CashierError, ValidationError
from cashier.journal.model import CORRECTIONS, MOVED_WITH_STATE, TRANSITIONS, Kind, State

#: The most a push body may hold: a chunk of 500 journal events is a few hundred KiB.
MAX_BODY = 1024 * 1024
#: Deepest nesting a body may have (a journal event is 3 levels deep).
MAX_DEPTH = 32
_BIGINT = 2 ** 63
#: Fields fixed when an entry is created; a later event changing them rewrites history.
IMMUTABLE = ("kind", "currency", "invoice", "till_id")
_AMOUNTS = ("requested_minor", "approved_minor", "tip_minor", "tax_minor", "captured_minor",
            "refunded_minor", "pending_minor")
_PAYMENT_KINDS = frozenset(str(k) for k in Kind)
_STATES = frozenset(str(s) for s in State)


class HistoryRewritten(ValidationError):
    """A push that would change what the store already holds (answered 409)."""


class JournalForked(CashierError):
    """A journal whose history up to the store's mark is not the one the store holds: a copy
    restored from an older point that went on under the same journal id (answered 409)."""

    def __init__(self, high_water: int) -> None:
        self.high_water = high_water
        super().__init__(
            f"journal: restored from an older copy (its events up to {high_water} are not the "
            "ones the store holds); nothing of this push was stored. A manager moves this "
            "journal file aside and keeps it (its sales since the restore are not in the "
            "store's books), then starts the till on a new journal: it continues the invoices")


def _no_constant(name: str) -> Any:
    raise ValidationError("body", f"must be plain JSON ({name} is not a number JSON allows)")


def parse_body(raw: bytes) -> dict[str, Any]:
    """A request body as a JSON object whose every value PostgreSQL can store as given."""
    try:
        body = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise ValidationError("body", f"must nest at most {MAX_DEPTH} levels deep") from None
    except (ValueError, UnicodeDecodeError):
        raise ValidationError("body", "must be a JSON object in UTF-8") from None
    if not isinstance(body, dict):
        raise ValidationError("body", "must be a JSON object")
    check_storable(body, "body")
    return body


def check_storable(value: Any, where: str) -> None:
    """Walk ``value`` (without recursion) and refuse what PostgreSQL would refuse or mangle."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValidationError(path, f"must nest at most {MAX_DEPTH} levels deep")
        if isinstance(item, str):
            _check_text(item, path)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -_BIGINT < item < _BIGINT:
                raise ValidationError(path, "must be a whole number below 2^63")
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                raise ValidationError(path, "must be a finite number")
        elif isinstance(item, dict):
            for key, sub in item.items():
                _check_text(key, path)
                stack.append((sub, f"{path}.{key}" if len(path) < 80 else path, depth + 1))
        elif isinstance(item, list):
            for i, sub in enumerate(item):
                stack.append((sub, f"{path}[{i}]" if len(path) < 80 else path, depth + 1))


def _check_text(text: str, path: str) -> None:
    if "\x00" in text:
        raise ValidationError(path, "must not hold a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(path, "must be valid Unicode (a lone surrogate is not)") from None


def _amount(fields: Mapping[str, Any], name: str, where: str) -> int:
    value = fields.get(name)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(f"{where}.{name}", "must be a whole number of minor units")
    if value < 0:
        raise ValidationError(f"{where}.{name}", "must not be negative")
    return value


def check_fields(fields: Mapping[str, Any], where: str) -> None:
    """Types of the fields the store projects (a text where a number belongs is refused)."""
    for name in _AMOUNTS:
        _amount(fields, name, where)
    for name in ("kind", "state", "op", "invoice", "currency", "card_type", "business_date",
                 "updated_at"):
        value = fields.get(name)
        if value is not None and not isinstance(value, str):
            raise ValidationError(f"{where}.{name}", "must be text")
    clerk = fields.get("clerk")
    if clerk is not None and (isinstance(clerk, bool) or not isinstance(clerk, str | int)):
        raise ValidationError(f"{where}.clerk", "must be a clerk number")


def check_invoice(fields: Mapping[str, Any], till_number: int | None, where: str) -> None:
    """An invoice of the till's own numbering: ``NN`` (its number) then 8 digits."""
    invoice = fields.get("invoice")
    if invoice is None:
        return
    if not isinstance(invoice, str) or not invoice.isdigit() or len(invoice) > 10:
        raise ValidationError(f"{where}.invoice", "must be 1 to 10 digits")
    if till_number is not None and len(invoice) == 10 and int(invoice[:2]) != till_number:
        raise ValidationError(f"{where}.invoice", f"{invoice} does not carry this till's number "
                                                  f"({till_number:02d})")


def check_created(fields: Mapping[str, Any], where: str) -> None:
    """A new entry starts with nothing approved, captured or refunded (the journal's rule)."""
    if not isinstance(fields.get("kind"), str) or not fields["kind"]:
        raise ValidationError(f"{where}.kind", "is required on a created entry")
    state = fields.get("state")
    if fields["kind"] in _PAYMENT_KINDS:
        if state not in (State.INTENT.value, State.SENT.value):
            raise ValidationError(f"{where}.state", "a new entry starts as intent or sent")
        for name in ("approved_minor", "captured_minor", "refunded_minor"):
            if _amount(fields, name, where):
                raise ValidationError(f"{where}.{name}", "a new entry has nothing approved, "
                                                         "captured or refunded yet")


def check_change(before: Mapping[str, Any], change: Mapping[str, Any], after: Mapping[str, Any],
                 where: str, *, corrected: bool = False) -> None:
    """A later event on a known entry: no rewrite of what it was created as, a move its state
    machine allows (or, for a ``corrected`` event, a correction the journal allows: the host held
    it otherwise), and an amount asked or approved changed only by an event that moves the entry
    (the journal changes them in no other way: ``MOVED_WITH_STATE``)."""
    for name in IMMUTABLE:
        if name in change and before.get(name) is not None and change[name] != before.get(name):
            raise HistoryRewritten(f"{where}.{name}", "was fixed when the entry was created: a "
                                                      "change rewrites history")
    kind = after.get("kind")
    if kind not in _PAYMENT_KINDS:
        return
    old, new = before.get("state"), change.get("state")
    allowed = CORRECTIONS if corrected else TRANSITIONS
    if new is not None and old in _STATES and (
            new not in _STATES or State(new) not in allowed.get(State(old), frozenset())):
        raise ValidationError(f"{where}.state", f"cannot move an entry from {old} to {new}")
    if change.get("state") is None:
        for name in MOVED_WITH_STATE:
            if name in change and change[name] != before.get(name):
                raise ValidationError(f"{where}.{name}", "changes only with a move of the entry "
                                                         "(an event naming its state)")
    if after.get("state") in (State.INTENT.value, State.DECLINED.value) and \
            _amount(after, "approved_minor", where):
        raise ValidationError(f"{where}.approved_minor", f"an entry {after['state']} has nothing "
                                                         "approved")
