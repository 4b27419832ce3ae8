"""What the flows write now: each Charge API id in its own journal column, nothing in auth_code."""

from __future__ import annotations

import asyncio
import sqlite3
from decimal import Decimal
from typing import Any

from cashier.flows import card_not_present
from cashier.flows.payments import sale

FAST = card_not_present.LinkWatch(first_s=0.02, factor=1.5, max_s=0.1, timeout_s=10)


def _columns(till: Any, entry_id: int) -> dict[str, Any]:
    conn = sqlite3.connect(str(till.rt.profile.resolved_journal_path))
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT token, auth_code, charge_id, refund_id, payment_link_id, customer_id "
                           "FROM entries WHERE id = ?", (entry_id,)).fetchone()
        return dict(row)
    finally:
        conn.close()


async def test_charge_refund_and_link_payment_fill_their_own_columns(make_till: Any) -> None:
    till = await make_till()
    details = card_not_present.CardDetails.parse("4242424242424242", "12/40", "123", "94107")
    paid = await card_not_present.phone_order(till.ctx, Decimal("8.00"), details)
    assert paid.entry is not None and paid.charge_id
    charge = _columns(till, paid.entry.id)
    assert charge["auth_code"] is None and charge["charge_id"] == paid.charge_id
    assert str(charge["token"]).startswith("tok_") and charge["payment_link_id"] is None
    refund = await card_not_present.refund_charge(till.ctx, paid.entry, Decimal("3.00"))
    assert refund.entry is not None
    moved = _columns(till, refund.entry.id)
    assert (moved["charge_id"], moved["token"], moved["auth_code"]) == (paid.charge_id, None, None)
    assert str(moved["refund_id"]).startswith("re") and refund.entry.refund_id == moved["refund_id"]
    link = await card_not_present.create_link(till.ctx, Decimal("5.00"))
    watching = asyncio.create_task(card_not_present.watch_link(till.ctx, link, watch=FAST))
    await asyncio.sleep(0.05)
    await card_not_present.training_customer_pays_link(till.ctx, link)
    outcome = await asyncio.wait_for(watching, 5)
    through = _columns(till, outcome.paid[0].id)
    assert (through["payment_link_id"], through["token"], through["auth_code"]) == (link.id, None, None)
    host = await sale(till.ctx, Decimal("2.00"))
    assert _columns(till, host.entry.id)["auth_code"] == host.entry.auth_code is not None
