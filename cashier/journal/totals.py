"""Running totals: which bucket each entry counts in, kept in the same transaction as the entry.

Buckets per (batch, bucket, currency): ``sale``, ``manual_sale``, ``capture`` (captured tabs),
``auth_open``, ``refund``, the other kinds by name, and the Charge API's own ``charge_sale``,
``charge_capture``, ``charge_refund``, ``charge_auth_open``; cash given back counts in ``cash_refund``;
a stored payment the host declined when the gateway forwarded it counts apart, in
``declined_on_forward``, for what the customer still owes (issue 40).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from cashier.journal.model import Kind, Op, State

#: The buckets the host counts in its batch, by construction the same as its ledger: every sale it
#: approved and captured (card, keyed, a captured tab, a gift card spent as a tender, a paid QR
#: code) and every refund. A gift card's own balance moves (activate, reload, cash back) stay on
#: the card's ledger and out of the card batch; cash never reaches the host; an open tab is not
#: batched until it is captured (docs/decisions/007-recovery-and-the-host.md, "What the host's batch holds").
HOST_BATCH_SALE_BUCKETS: tuple[str, ...] = ("sale", "manual_sale", "capture", "giftcard_sale", "qr")
HOST_BATCH_REFUND_BUCKETS: tuple[str, ...] = ("refund",)
#: Every bucket of money given back, whatever the tender: the host's refunds, cash given back and
#: the Charge API's refunds (a ticket's refund in any of them carries the tax it gave back).
GIVEN_BACK_BUCKETS: tuple[str, ...] = (*HOST_BATCH_REFUND_BUCKETS, "cash_refund", "charge_refund")
#: Every bucket of money taken, whatever the tender: the host's sales, cash, and the Charge API's
#: charges and captures (the store's figures by hour and by clerk, issue #42).
TAKEN_BUCKETS: tuple[str, ...] = (*HOST_BATCH_SALE_BUCKETS, "cash", "charge_sale", "charge_capture")

#: Stored payments the host declined at the forward: in no sale, in a bucket of their own.
DECLINED_ON_FORWARD_BUCKET = "declined_on_forward"


def contribution(row: Mapping[str, Any]) -> tuple[str, str, int] | None:
    """(bucket, currency, minor units) an entry adds to its batch's totals, or None."""
    state = row["state"]
    if state == State.DECLINED_ON_FORWARD:
        return DECLINED_ON_FORWARD_BUCKET, row["currency"], int(row["requested_minor"])
    if state in (State.VOIDED, State.DECLINED, State.ERROR, State.INTENT):
        return None
    kind = row["kind"]
    if kind == Kind.CHARGE:
        return _charge_contribution(row)
    if kind in (Kind.AUTHORIZATION, Kind.MANUAL_AUTHORIZATION):
        if row["captured_minor"]:
            return "capture", row["currency"], int(row["captured_minor"])
        if row["approved_minor"]:
            return "auth_open", row["currency"], int(row["approved_minor"])
        return None
    if kind == Kind.CASH and row["op"] == Op.REFUND:
        # cash given back moves money the other way: a bucket of its own, never netted silently
        return ("cash_refund", row["currency"], int(row["approved_minor"])) if row["approved_minor"] else None
    if row["approved_minor"]:
        return str(kind), row["currency"], int(row["approved_minor"])
    return None


def _charge_contribution(row: Mapping[str, Any]) -> tuple[str, str, int] | None:
    """Charge API movements in buckets of their own (the host's batch never sees them).

    ``charge_sale`` (charged and captured at once) + ``charge_capture`` is the money taken,
    ``charge_refund`` the money given back; an authorization counts in ``charge_auth_open`` only
    while it is neither captured nor released (both are mirrored on it by ``_propagate_charge``),
    and a refund that released an uncaptured authorization (op ``void``) moved no money."""
    op, currency = row["op"], row["currency"]
    if op == Op.AUTHORIZATION:
        if row["captured_minor"] or row["refunded_minor"] or not row["approved_minor"]:
            return None
        return "charge_auth_open", currency, int(row["approved_minor"])
    column, bucket = {Op.CHARGE: ("approved_minor", "charge_sale"),
                      Op.CAPTURE: ("captured_minor", "charge_capture"),
                      Op.REFUND: ("refunded_minor", "charge_refund")}.get(op, ("", ""))
    if not column or not row[column]:
        return None
    return bucket, currency, int(row[column])


def add_total(conn: sqlite3.Connection, batch_no: int, part: tuple[str, str, int], sign: int) -> None:
    bucket, currency, minor = part
    conn.execute(
        "INSERT INTO totals(batch_no, bucket, currency, count, amount_minor) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT(batch_no, bucket, currency) DO UPDATE SET count = count + excluded.count, "
        "amount_minor = amount_minor + excluded.amount_minor",
        (batch_no, bucket, currency, sign, sign * minor))


def rebuild_totals(conn: sqlite3.Connection, batch_nos: Sequence[int] | None = None) -> None:
    """Recompute running totals from the projection (a migration step and a batch close)."""
    conn.row_factory = sqlite3.Row
    if batch_nos is None:
        conn.execute("DELETE FROM totals")
        rows = conn.execute("SELECT * FROM entries").fetchall()
    else:
        marks = ",".join("?" * len(batch_nos))
        conn.execute(f"DELETE FROM totals WHERE batch_no IN ({marks})", tuple(batch_nos))
        rows = conn.execute(f"SELECT * FROM entries WHERE batch_no IN ({marks})",
                            tuple(batch_nos)).fetchall()
    for row in rows:
        part = contribution(row)
        if part is not None:
            add_total(conn, int(row["batch_no"]), part, 1)
