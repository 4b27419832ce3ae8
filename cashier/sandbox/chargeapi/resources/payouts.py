"""Payouts: a test-mode payout sweeps what moved since the last one, per currency."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.common import state_error
from cashier.sandbox.chargeapi.store import (
    Req,
    render,
)
from cashier.sandbox.chargeapi.wire import invalid


def create_payout(req: Req) -> dict[str, Any]:
    if req.mode == "live":
        raise invalid("a payout can be created only with a test key", "test_mode_only")
    if req.params:
        raise invalid(f"{sorted(req.params)[0]}: POST /payouts takes no parameters", "unknown_parameter")
    objects = req.account["objects"]
    lists = req.account["lists"]
    moves: list[tuple[dict[str, Any], str, int]] = []
    for cid in lists.get("charge", []):
        c = objects[cid]
        if c["status"] == "successful" and c["captured"] and not c.get("_paidOut"):
            moves.append((c, "charge", c["amount"]))
    for rid in lists.get("refund", []):
        r = objects[rid]
        if not r.get("_paidOut"):
            moves.append((r, "refund", -r["amount"]))
    for did in lists.get("dispute", []):
        d = objects[did]
        if d["status"] == "lost" and not d.get("_paidOut"):
            moves.append((d, "chargeback", -d["amount"]))
    for crid in lists.get("credit", []):
        cr = objects[crid]
        if not cr.get("_paidOut"):
            moves.append((cr, "credit", -cr["amount"]))
    if not moves:
        raise state_error("nothing to pay out: no test-mode charges, refunds, chargebacks or credits since "
                          "the last payout")
    payouts: dict[str, dict[str, Any]] = {}
    for source, kind, amount in moves:
        currency = source["currency"]
        payout = payouts.get(currency)
        if payout is None:
            payout = req.add("payout", {"date": req.now, "amount": 0, "currency": currency})
            payouts[currency] = payout
        payout["amount"] += amount
        source["_paidOut"] = payout["id"]
        req.add("payoutTransaction", {"type": kind, "amount": amount, "currency": currency,
                                      "payout": payout["id"], "source": source["id"]})
    for payout in payouts.values():
        req.emit("PAYOUT_CREATED", payout)
    # one payout per currency; the answer is the first, GET /payouts lists them all
    return render(next(iter(payouts.values())))


def list_payouts(req: Req) -> dict[str, Any]:
    return req.page("payout")


def get_payout(req: Req, payout_id: str) -> dict[str, Any]:
    return render(req.get("payout", payout_id))


def list_payout_transactions(req: Req) -> dict[str, Any]:
    filters: dict[str, Any] = {k: req.query[k] for k in ("payout", "source") if k in req.query}
    if not filters:
        raise invalid("payout or source: one of them is required", "missing_parameter")
    return req.page("payoutTransaction", filters, frozenset({"payout", "source"}))
