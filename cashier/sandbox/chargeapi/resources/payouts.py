"""Payouts: a test-mode payout sweeps what moved since the last one, per currency."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.state import (
    Req,
    render,
)
from cashier.sandbox.chargeapi.wire import invalid

#: Currency of a payout with nothing in it when no payout came before.
DEFAULT_CURRENCY = "EUR"


def create_payout(req: Req) -> dict[str, Any]:
    if req.mode == "live":
        raise invalid("a payout can be created only with a test key")
    if req.params:
        raise invalid(f"{sorted(req.params)[0]}: POST /payouts takes no parameters")
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
        if d["acceptedAsLost"] and not d.get("_paidOut"):
            moves.append((d, "chargeback", -d["amount"]))
    for crid in lists.get("credit", []):
        cr = objects[crid]
        if not cr.get("_paidOut") and not cr.get("_failed"):
            moves.append((cr, "credit", -cr["amount"]))
    # the period runs from the end of the last payout (or the first movement) to now
    previous = [objects[i] for i in lists.get("payout", [])]
    period_start = previous[-1]["periodEnd"] if previous else min(
        (source["created"] for source, _, _ in moves), default=req.now)
    payouts: dict[str, dict[str, Any]] = {}

    def payout_in(currency: str) -> dict[str, Any]:
        if currency not in payouts:
            number = len(lists.get("payout", [])) + 1
            payouts[currency] = req.add("payout", {"date": req.now, "amount": 0, "currency": currency,
                                                   "periodStart": period_start, "periodEnd": req.now,
                                                   "payoutNumber": f"{number:08d}", "metadata": {}})
        return payouts[currency]

    for source, kind, amount in moves:
        payout = payout_in(source["currency"])
        payout["amount"] += amount
        source["_paidOut"] = payout["id"]
        # the sandbox charges no fees, so a payout is the sum of its transactions
        req.add("payoutTransaction", {"type": kind, "amount": amount, "currency": source["currency"],
                                      "fee": 0, "payout": payout["id"], "source": source["id"],
                                      "description": f"{kind} {source['id']}"})
    if not moves:  # as the vendor's test mode: an empty payout, not a refusal
        payout_in(previous[-1]["currency"] if previous else DEFAULT_CURRENCY)
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
        raise invalid("payout or source: one of them is required")
    return req.page("payoutTransaction", filters, frozenset({"payout", "source"}))
