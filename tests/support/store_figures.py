"""What the store's money tests share: the till's clerks (Alice, and Bob the manager) and the
tills' report figures the store's totals carry, added up (``added``) and as the store shows them
(``carried``), so a test compares the two whole."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

from cashier.clerks import Clerk, ManagerRules, Roster
from tests.support.profiles import pin_hash

ROSTER = Roster([Clerk(id=101, name="Alice", pin_hash=pin_hash("1111")),
                 Clerk(id=102, name="Bob", pin_hash=pin_hash("2222"), role="manager")],
                ManagerRules())
BOB = ROSTER.manager(102, "2222")


def added(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The tills' report figures the store's totals carry, added up: the tax, its classes that
    charged something, and every part of the discounts (each name's count and amount)."""
    tax, classes = D(0), dict[tuple[str, str], D]()
    parts: dict[str, dict[str, list[Any]]] = {}
    total = D(0)
    rounding: list[Any] = [0, D(0)]
    for r in reports:
        tax += D(r["tax"])
        for c in r["tax_by_class"]:
            if D(c["tax"]):
                key = (c["tax_class"], c["rate"])
                classes[key] = classes.get(key, D(0)) + D(c["tax"])
        d = r["discounts"]
        total += D(d["total"])
        rounding = [rounding[0] + d["cash_rounding"]["count"],
                    rounding[1] + D(d["cash_rounding"]["amount"])]
        for part in ("by_reason", "by_clerk", "promotions", "overrides_by_manager"):
            for name, pair in d[part].items():
                acc = parts.setdefault(part, {}).setdefault(name, [0, D(0)])
                acc[0] += pair["count"]
                acc[1] += D(pair["amount"])
    return {"tax": tax, "tax_by_class": classes, "total": total, "cash_rounding": rounding,
            **{p: {n: (v[0], v[1]) for n, v in names.items()} for p, names in parts.items()}}


def carried(figures: dict[str, Any]) -> dict[str, Any]:
    """The same figures as the store's totals show them (one till's or the store's)."""
    d = figures["discounts"]
    out: dict[str, Any] = {
        "tax": D(figures["tax"]),
        "tax_by_class": {(c["tax_class"], c["rate"]): D(c["tax"]) for c in figures["tax_by_class"]},
        "total": D(d["total"]),
        "cash_rounding": [d["cash_rounding"]["count"], D(d["cash_rounding"]["amount"])]}
    for part in ("by_reason", "by_clerk", "promotions", "overrides_by_manager"):
        if d[part]:
            out[part] = {n: (v["count"], D(v["amount"])) for n, v in d[part].items()}
    return out
