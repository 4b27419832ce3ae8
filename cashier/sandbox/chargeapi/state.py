"""The Charge API sandbox's records: one isolated account per API key suffix and mode.

Everything lives in ``sandbox.state.family("chargeapi")`` as plain JSON so ``--state FILE``
keeps it. Objects are dicts; keys starting with ``_`` are the sandbox's own bookkeeping and
never leave it. Lists keep ids in creation order and are served newest first. A card number
is never kept: only its first 6 and last 4 digits and a fingerprint.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cashier.sandbox.chargeapi.wire import ChargeApiFault, invalid, missing, not_found

#: Type prefix of each family's identifiers (the spec fixes ``char_``; the rest are ours).
PREFIXES: dict[str, str] = {
    "charge": "char", "refund": "re", "customer": "cust", "card": "card", "paymentMethod": "pm",
    "subscription": "sub", "plan": "plan", "event": "evt", "token": "tok", "blacklistRule": "bl",
    "credit": "cr", "dispute": "dp", "fileUpload": "file", "fraudWarning": "fw", "payout": "po",
    "payoutTransaction": "pt", "checkoutSession": "cs", "paymentLink": "pl",
}
KIND_BY_PREFIX = {prefix: kind for kind, prefix in PREFIXES.items()}
HUMAN = {"charge": "Charge", "refund": "Refund", "customer": "Customer", "card": "Card",
         "paymentMethod": "Payment method", "subscription": "Subscription", "plan": "Plan",
         "event": "Event", "token": "Token", "blacklistRule": "Blacklist rule", "credit": "Credit",
         "dispute": "Dispute", "fileUpload": "File upload", "fraudWarning": "Fraud warning",
         "payout": "Payout", "payoutTransaction": "Payout transaction",
         "checkoutSession": "Checkout session", "paymentLink": "Payment link"}
#: What every list of the vendor's SDKs takes (their ``ListRequest``): the cursors, ``limit``,
#: ``created`` (``gt``, ``gte``, ``lt``, ``lte``), ``includeTotalCount``; and ``expand`` (the fields
#: whose ids come back as their objects: ``expand`` below, applied by the app to every GET).
PAGE_PARAMS = frozenset({"limit", "startingAfterId", "endingBeforeId", "created", "includeTotalCount",
                         "expand"})
CREATED_BOUNDS = ("gt", "gte", "lt", "lte")
_CURRENCY = re.compile(r"^[A-Za-z]{3}$")
_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


def new_account(mode: str) -> dict[str, Any]:
    return {"mode": mode, "objects": {}, "lists": {}, "idem": {}, "jobs": []}


@dataclass
class Req:
    """One request as a handler sees it."""

    method: str
    params: dict[str, Any]
    query: dict[str, Any]
    files: dict[str, tuple[str, bytes]]
    account: dict[str, Any]
    mode: str  # "test", "live" or "demo"
    key_kind: str  # "secret" or "public"
    now: int
    base_url: str
    #: Real seconds to wait before answering (the "slow" test card).
    delay_s: float = 0.0
    events: list[str] = field(default_factory=list)

    # ---- objects ---------------------------------------------------------------------------
    def new_id(self, kind: str) -> str:
        # base 36: long runs of digits (which card-number scanners flag) practically never occur
        return f"{PREFIXES[kind]}_" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(24))

    def add(self, kind: str, obj: dict[str, Any], list_keys: tuple[str, ...] = ()) -> dict[str, Any]:
        obj.setdefault("id", self.new_id(kind))
        obj.setdefault("created", self.now)
        obj.setdefault("objectType", kind)
        self.account["objects"][obj["id"]] = obj
        for key in (kind, *list_keys):
            self.account["lists"].setdefault(key, []).append(obj["id"])
        return obj

    def get(self, kind: str, object_id: str) -> dict[str, Any]:
        obj = self.account["objects"].get(object_id)
        if obj is None or obj.get("objectType") != kind:
            raise not_found(HUMAN[kind], object_id)
        result: dict[str, Any] = obj
        return result

    def find(self, kind: str, object_id: str, field_name: str) -> dict[str, Any]:
        """Like ``get`` for an id given as a parameter: a bad one is a 400 naming the field."""
        obj = self.account["objects"].get(object_id)
        if obj is None or obj.get("objectType") != kind:
            raise invalid(f"{field_name}: {HUMAN[kind]} '{object_id}' does not exist")
        result: dict[str, Any] = obj
        return result

    def schedule(self, due: int, job: str, target: str) -> None:
        self.account["jobs"].append([due, job, target])

    def emit(self, event_type: str, obj: dict[str, Any]) -> None:
        self.add("event", {"type": event_type, "data": render(obj, self)})
        self.events.append(event_type)

    # ---- listing ---------------------------------------------------------------------------
    def page(self, list_key: str, filters: dict[str, Any] | None = None,
             allowed: frozenset[str] = frozenset(), predicate: Any = None, *,
             deletable: bool = False) -> dict[str, Any]:
        """One page, newest first, with the spec's cursor parameters. A ``deletable`` list (one
        whose SDK request takes ``deleted``) keeps to ``is_deleted``: the live objects by default,
        only the deleted ones with ``deleted=true``."""
        query = self.query
        unknown = sorted(set(query) - PAGE_PARAMS - allowed - ({"deleted"} if deletable else set()))
        if unknown:
            raise invalid(f"{unknown[0]}: is not a parameter of this list")
        wants_deleted = as_bool(query, "deleted", default=False) if deletable else None
        limit = as_int(query, "limit", minimum=1, maximum=100, default=10) or 10
        after, before = query.get("startingAfterId"), query.get("endingBeforeId")
        if after is not None and before is not None:
            raise invalid("startingAfterId and endingBeforeId: give one of them, not both")
        with_total = as_bool(query, "includeTotalCount", default=False)
        created = created_range(query)
        objects = self.account["objects"]
        ids = [i for i in reversed(self.account["lists"].get(list_key, []))]
        items = []
        for object_id in ids:
            obj = objects[object_id]
            if created and not created(obj["created"]):
                continue
            if filters and any(obj.get(k) != v for k, v in filters.items()):
                continue
            if wants_deleted is not None and is_deleted(obj) != wants_deleted:
                continue
            if predicate is not None and not predicate(obj):
                continue
            items.append(obj)
        total = {"totalCount": len(items)} if with_total else {}
        if after is not None or before is not None:
            cursor = str(after if after is not None else before)
            name = "startingAfterId" if after is not None else "endingBeforeId"
            position = next((i for i, o in enumerate(items) if o["id"] == cursor), None)
            if position is None:
                raise invalid(f"{name}: '{cursor}' is not in this list")
            if after is not None:
                items = items[position + 1:]
            else:
                start = max(0, position - limit)
                has_more = start > 0
                return {"list": [render(o, self) for o in items[start:position]], "hasMore": has_more,
                        **total}
        return {"list": [render(o, self) for o in items[:limit]], "hasMore": len(items) > limit, **total}


def is_deleted(obj: dict[str, Any]) -> bool:
    """THE rule of ``deleted``, as the vendor has it: a deleted object is out of a list's default
    page and is all that ``deleted=true`` lists; a cancelled subscription is a deleted one (the
    vendor's cancel is ``DELETE``), also one a state file kept from before it was marked so."""
    return bool(obj.get("deleted")) or (obj.get("objectType") == "subscription"
                                        and obj.get("status") == "canceled")


def created_range(query: dict[str, Any]) -> Callable[[int], bool] | None:
    """``created[gt|gte|lt|lte]`` (Unix seconds) as a test of a creation time; None without one.
    A bare ``created=T`` (no SDK sends it; a hand-written query might) is read as that second."""
    raw = query.get("created")
    if raw is None or raw == "":
        return None
    if not isinstance(raw, dict):
        exact = as_int(query, "created", minimum=0)
        return lambda ts: ts == exact
    unknown = sorted(set(raw) - set(CREATED_BOUNDS))
    if unknown:
        raise invalid(f"created[{unknown[0]}]: use created[gt], created[gte], created[lt] or created[lte]")
    bounds = {name: as_int(raw, name, label=f"created[{name}]", minimum=0) for name in CREATED_BOUNDS}
    gt, gte, lt, lte = (bounds[name] for name in CREATED_BOUNDS)

    def within(ts: int) -> bool:
        return ((gt is None or ts > gt) and (gte is None or ts >= gte)
                and (lt is None or ts < lt) and (lte is None or ts <= lte))

    return within


def expand_paths(query: dict[str, Any]) -> list[str]:
    """``expand`` as the SDKs send it: ``expand=a``, ``expand=a,b``, ``expand[]=a`` or
    ``expand[0]=a`` (form), or a JSON list."""
    raw = query.get("expand")
    if raw is None or raw == "":
        return []
    items = raw if isinstance(raw, list) else [raw]
    paths: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise invalid("expand: must be field names (expand[]=source)")
        for name in item.split(","):
            name = name.strip()
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.]{0,63}", name):
                raise invalid(f"expand: {name[:40]!r} is not a field name")
            paths.append(name)
    return paths


def expand(body: dict[str, Any], paths: list[str], req: Req) -> dict[str, Any]:
    """Each path's id replaced by the object it names (in every item of a list). A path that
    names no id of this account is left as it is: a field another version expands means nothing
    here, and the vendor documents such a path as accepted."""
    objects = req.account["objects"]

    def one(item: Any) -> None:
        if not isinstance(item, dict):
            return
        for path in paths:
            head, _, rest = path.partition(".")
            value = item.get(head)
            if isinstance(value, str) and value in objects:
                item[head] = render(objects[value], req)
            if rest and isinstance(item.get(head), dict):
                expand(item[head], [rest], req)

    if isinstance(body.get("list"), list):
        for item in body["list"]:
            one(item)
    else:
        one(body)
    return body


def render(obj: dict[str, Any], req: Req | None = None) -> dict[str, Any]:
    """The public view of an object: bookkeeping removed, unset fields absent (never null)."""
    out = {k: _copy(v) for k, v in obj.items() if not k.startswith("_") and v is not None}
    kind = obj.get("objectType")
    if kind == "customer" and req is not None:
        objects = req.account["objects"]
        out["cards"] = [render(objects[c]) for c in req.account["lists"].get(f"cards:{obj['id']}", [])
                        if not is_deleted(objects[c])]
        if obj.get("defaultCardId") in objects:
            out["defaultCard"] = render(objects[obj["defaultCardId"]])
    elif kind == "charge" and req is not None:
        # as the vendor returns a charge: its refunds listed, its dispute (if any) inside
        objects = req.account["objects"]
        out["refunds"] = [render(objects[r]) for r in req.account["lists"].get(f"refunds:{obj['id']}", [])]
        if obj.get("_dispute") in objects:
            out["dispute"] = render(objects[obj["_dispute"]])
    return out


def _copy(value: Any) -> Any:
    """A copy of JSON data (several times faster than ``copy.deepcopy`` on the hot path)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


# ---- coercion: each refusal names the field and the rule ----------------------------------------
def allow(params: dict[str, Any], names: set[str] | frozenset[str], within: str = "") -> None:
    """Refuse a parameter neither our spec nor the vendor's SDKs name (naming it)."""
    unknown = sorted(set(params) - set(names))
    if unknown:
        name = f"{within}.{unknown[0]}" if within else unknown[0]
        raise invalid(f"{name}: is not a parameter of this operation")


def as_int(params: dict[str, Any], name: str, *, required: bool = False, minimum: int | None = None,
           maximum: int | None = None, default: int | None = None, label: str | None = None) -> int | None:
    label = label or name
    raw = params.get(name)
    if raw is None or raw == "":
        if required:
            raise missing(label)
        return default
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise invalid(f"{label}: must be an integer")
    if isinstance(raw, str):
        text = raw.strip()
        if not re.fullmatch(r"-?\d{1,18}", text):
            raise invalid(f"{label}: must be an integer (minor units, no decimal point), got {raw[:20]!r}")
        value = int(text)
    else:
        value = raw
    if minimum is not None and value < minimum:
        raise invalid(f"{label}: must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise invalid(f"{label}: must be at most {maximum}")
    return value


def as_str(params: dict[str, Any], name: str, *, required: bool = False, max_len: int = 1000,
           pattern: str | None = None, label: str | None = None) -> str | None:
    label = label or name
    raw = params.get(name)
    if raw is None or raw == "":
        if required:
            raise missing(label)
        return None
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise invalid(f"{label}: must be a string")
    value = str(raw)
    if len(value) > max_len:
        raise invalid(f"{label}: must be at most {max_len} characters")
    if pattern is not None and not re.fullmatch(pattern, value):
        raise invalid(f"{label}: has an invalid format")
    return value


def as_bool(params: dict[str, Any], name: str, default: bool | None = None,
            label: str | None = None) -> bool | None:
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.lower() in {"true", "1"}:
        return True
    if isinstance(raw, str) and raw.lower() in {"false", "0"}:
        return False
    raise invalid(f"{label or name}: must be true or false")


def as_currency(params: dict[str, Any], name: str = "currency", required: bool = True) -> str | None:
    value = as_str(params, name, required=required, max_len=3)
    if value is None:
        return None
    if not _CURRENCY.match(value):
        raise invalid(f"{name}: must be a 3-letter ISO 4217 code")
    return value.upper()


def as_obj(params: dict[str, Any], name: str) -> dict[str, Any] | None:
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    if not isinstance(raw, dict):
        raise invalid(f"{name}: must be an object (use {name}[field]=value)")
    return raw


def as_metadata(params: dict[str, Any], name: str = "metadata") -> dict[str, str] | None:
    """The spec's limits: 20 pairs, keys up to 40 characters, values up to 500."""
    raw = params.get(name)
    if raw is None:
        return None
    if raw == "":
        return {}
    if not isinstance(raw, dict):
        raise invalid(f"{name}: must be key-value pairs (use {name}[key]=value)")
    if len(raw) > 20:
        raise invalid(f"{name}: at most 20 keys are allowed, got {len(raw)}")
    out: dict[str, str] = {}
    for key, value in raw.items():
        if not key or len(key) > 40:
            raise invalid(f"{name}[{key[:40]}...]: keys must be 1 to 40 characters"
                          if len(key) > 40 else f"{name}: keys must not be empty")
        if isinstance(value, dict | list) or value is None:
            raise invalid(f"{name}[{key}]: values must be strings")
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if len(text) > 500:
            raise invalid(f"{name}[{key}]: values must be at most 500 characters")
        out[key] = text
    return out


def kind_of_id(object_id: str) -> str | None:
    prefix = object_id.split("_", 1)[0]
    return KIND_BY_PREFIX.get(prefix)


__all__ = [
    "ChargeApiFault",
    "Req",
    "allow",
    "as_bool",
    "as_currency",
    "as_int",
    "as_metadata",
    "as_obj",
    "as_str",
    "created_range",
    "expand",
    "expand_paths",
    "is_deleted",
    "new_account",
    "render",
]
