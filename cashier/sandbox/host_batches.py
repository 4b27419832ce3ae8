"""Batch close and the totals report (HD only).

A batch holds the captured sales and the refunds of the open business days (cards, keyed, gift
cards spent as a tender, and paid QR sale codes); authorizations not yet captured stay out of it
(not ready to batch), voids and reversed QR payments never count, and a gift card's own balance
moves (activate, reload, cash back) stay on the card's ledger. ``/batches/submit`` moves
the included invoices to ``batched``: after that GET /transactions/invoice answers "Invoice Not
Found", as for a settled transaction.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from cashier.sandbox import host_qr
from cashier.sandbox.core import SERVER_NAME, Family, HostCall, HostFault, invalid_field, missing_field
from cashier.sandbox.host_transactions import ledger, money
from cashier.sandbox.shared import get, now_text, require, require_object

FAMILY = Family("batches")

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def _date(value: Any, field: str) -> str:
    if not isinstance(value, str) or not _DATE.match(value):
        raise invalid_field(field, "must be a date, yyyy-mm-dd (a full ISO 8601 date-time is accepted)")
    return value[:10]


def _inclusive(value: Any, field: str) -> bool:
    if value not in ("Y", "N"):
        raise invalid_field(field, "must be Y or N")
    return bool(value == "Y")


def open_totals(call: HostCall, day: str,
                inclusive: bool) -> tuple[dict[str, Any], list[str], list[str]]:
    """Totals of the open (unbatched) sales and refunds up to ``day`` (or on ``day`` only): the
    ledger's (cards, keyed, captured tabs, gift cards spent) and the paid QR sale codes; with the
    invoices and QR codes they hold."""
    sale_amount = refund_amount = Decimal(0)
    sale_count = refund_count = 0
    invoices: list[str] = []

    def in_range(booked: str) -> bool:
        return not (booked > day or (not inclusive and booked != day))

    for invoice, record in ledger(call).items():
        if record["state"] not in ("sale", "refund") or not in_range(record.get("businessDate", "")):
            continue
        amount = Decimal(record["approvedAmount"])
        if record["state"] == "sale":
            sale_amount += amount
            sale_count += 1
        else:
            refund_amount += amount
            refund_count += 1
        invoices.append(invoice)
    codes: list[str] = []
    for value, record in host_qr.batchable(call.state):
        if in_range(host_qr.paid_day(record)):
            sale_amount += host_qr.total_of(record)
            sale_count += 1
            codes.append(value)
    totals = {"inclusive": "Y" if inclusive else "N",
              "netAmount": money(sale_amount - refund_amount),
              "netCount": sale_count + refund_count,
              "refundAmount": money(refund_amount), "refundCount": refund_count,
              "saleAmount": money(sale_amount), "saleCount": sale_count}
    return totals, invoices, codes


@FAMILY.route("GET", "/reports/batchtotals", "HD")
async def batch_totals(call: HostCall) -> dict[str, Any]:
    raw_day = call.header("BusinessDate")
    if not raw_day:
        raise missing_field("BusinessDate")
    day = _date(raw_day, "BusinessDate")
    inclusive = _inclusive(call.header("Inclusive") or "Y", "Inclusive")
    totals, _, _ = open_totals(call, day, inclusive)
    return {"dateTime": now_text(call), "batch": totals,
            "merchant": {"mid": call.config.merchant_id, "name": call.config.merchant_name},
            "server": {"name": SERVER_NAME}, "transaction": {"businessDate": day}}


@FAMILY.route("POST", "/batches/submit", "HD")
async def submit(call: HostCall) -> dict[str, Any]:
    body = call.body
    require_object(body, "transaction")
    day = _date(require(body, "transaction.businessDate"), "transaction.businessDate")
    require_object(body, "batch")
    inclusive = _inclusive(require(body, "batch.inclusive"), "batch.inclusive")
    totals, invoices, codes = open_totals(call, day, inclusive)
    net_amount = get(body, "batch.netAmount")
    if net_amount is not None:
        if isinstance(net_amount, bool) or not isinstance(net_amount, int | Decimal):
            raise invalid_field("batch.netAmount", "must be a number in major units")
        if Decimal(net_amount) != totals["netAmount"]:
            raise HostFault(9300, "BATCH FAILED",
                            f"Received Net Amount {money(Decimal(net_amount))} doesn't match existing "
                            f"Net Amount {totals['netAmount']}. Batch submission process failed.",
                            secondary_code=2, severity="Error")
    net_count = get(body, "batch.netCount")
    if net_count is not None:
        if isinstance(net_count, bool) or not isinstance(net_count, int):
            raise invalid_field("batch.netCount", "must be a whole number")
        if net_count != totals["netCount"]:
            # decision: a count mismatch fails like an amount mismatch, secondary code 3
            raise HostFault(9300, "BATCH FAILED",
                            f"Received Net Count {net_count} doesn't match existing Net Count "
                            f"{totals['netCount']}. Batch submission process failed.",
                            secondary_code=3, severity="Error")
    book = ledger(call)
    batch_id = call.state.next_sequence("batch")
    for invoice in invoices:
        book[invoice]["state"] = "batched"
        book[invoice]["batchId"] = batch_id
    qr_codes = host_qr.codes_of(call.state)
    for value in codes:
        qr_codes[value]["batchId"] = batch_id
    closed = call.state.family("batches").setdefault("closed", [])
    closed.append({"batchId": batch_id, "businessDate": day, "inclusive": totals["inclusive"],
                   "closedAt": call.state.clock.now(), "invoices": invoices, "qrCodes": codes,
                   **{k: str(v) if isinstance(v, Decimal) else v for k, v in totals.items()}})
    return {"dateTime": body.get("dateTime") or now_text(call), "batch": totals,
            "merchant": {"mid": call.config.merchant_id, "name": call.config.merchant_name},
            "server": {"name": SERVER_NAME}, "transaction": {"businessDate": day}}
