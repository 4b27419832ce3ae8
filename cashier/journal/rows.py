"""A journal row read back as the typed ``Entry`` (one reading for the store and the tickets)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from cashier.journal.model import Entry, Kind, Op, State, money
from cashier.journal.tokens import decode_token


def entry_of_row(row: sqlite3.Row | Mapping[str, Any]) -> Entry:
    cur = row["currency"]
    token, auth_code = decode_token(row["token"]), row["auth_code"]
    if row["kind"] == Kind.CHARGE:  # the pre-v5 reading of a Charge API entry (see Entry)
        auth_code = row["refund_id"] or row["charge_id"]
        token = token or row["payment_link_id"] or row["customer_id"] or (
            row["charge_id"] if row["op"] in (Op.CAPTURE, Op.REFUND, Op.VOID) else None)
    return Entry(
        id=row["id"], till_id=row["till_id"], kind=Kind(row["kind"]), state=State(row["state"]),
        op=Op(row["op"]) if row["op"] else None, invoice=row["invoice"],
        idempotency_key=row["idempotency_key"], original_invoice=row["original_invoice"],
        currency=cur, requested=money(row["requested_minor"], cur),
        approved=money(row["approved_minor"], cur), tip=money(row["tip_minor"], cur),
        tax=money(row["tax_minor"], cur), captured=money(row["captured_minor"], cur),
        refunded=money(row["refunded_minor"], cur), pending=money(row["pending_minor"], cur),
        card=row["card"], card_last4=row["card_last4"], card_type=row["card_type"],
        token=token, auth_code=auth_code,
        response_code=row["response_code"], host_code=row["host_code"], message=row["message"],
        reversal_reason=row["reversal_reason"], training=bool(row["training"]), clerk=row["clerk"],
        created_at=row["created_at"], updated_at=row["updated_at"], sent_at=row["sent_at"],
        business_date=row["business_date"], batch_no=int(row["batch_no"]), attempts=row["attempts"],
        charge_id=row["charge_id"], refund_id=row["refund_id"],
        payment_link_id=row["payment_link_id"], customer_id=row["customer_id"],
        ticket_id=row["ticket_id"], offline=_optional(row, "offline"),
    )


def _optional(row: sqlite3.Row | Mapping[str, Any], name: str) -> Any:
    """A column a later migration added (a store's fields from an older journal lack it)."""
    try:
        return row[name]
    except (IndexError, KeyError):
        return None
