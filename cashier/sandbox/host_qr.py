"""``/qrpayments/*`` (HD, LG): a transaction-based QR code the customer scans and pays.

Life of a code: pending -> paid (``POST /_sandbox/qrpayments/pay``, the customer's phone) ->
reversed by cancel (T); or pending -> cancelled (C), after which the code cannot be used.

Decisions (docs/decisions/002-sandbox.md, "QR status while unpaid"):
- While pending, ``getqrpaymentstatus`` answers 200 with ``transaction`` (invoice, saleFlag) and
  NO ``responseCode``: the vendor's codes are only A, C and T, and "not paid yet" is no error.
- A second ``getqrcode`` for an invoice with a pending code of the same amount answers that same
  code (a retry after a lost answer); any other open code on the invoice is refused (9870,4).
- ``getqrdetails`` on a cancelled or reversed code is refused (9870,6); status still answers.

Records: ``state.family("qrpayments")["codes"]``: code -> ``{invoice, saleFlag, amount,
status, payment}``; the paid card is kept masked with its token.
"""

from __future__ import annotations

import secrets
import string
from datetime import datetime
from decimal import Decimal
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cashier.sandbox.control import _json, control_error, read_json
from cashier.sandbox.core import Family, HostCall, HostFault, invalid_field, missing_field
from cashier.sandbox.host_tokens import check_number, issue_token
from cashier.sandbox.shared import card_type, get, masked, now_text

FAMILY = Family("qr")

QR_BASE = "https://pay.sandbox.invalid/"
AMOUNT_PARTS = ("total", "tax", "tip", "cashback")


def _codes(state: Any) -> dict[str, dict[str, Any]]:
    codes: dict[str, dict[str, Any]] = state.family("qrpayments").setdefault("codes", {})
    return codes


def _qr_error(secondary: int, text: str) -> HostFault:
    return HostFault(9870, "QR PAY ERROR", text, secondary_code=secondary)


def _merchant(call: HostCall) -> dict[str, Any]:
    return {"mid": call.config.merchant_id, "name": call.config.merchant_name}


def _amount_out(record: dict[str, Any]) -> dict[str, Decimal]:
    return {k: Decimal(v) for k, v in record["amount"].items()}


def _find(call: HostCall) -> tuple[str, dict[str, Any]]:
    value = get(call.body, "qrCode.value")
    if value is None:
        raise missing_field("qrCode.value")
    if not isinstance(value, str) or not 1 <= len(value) <= 1024:
        raise invalid_field("qrCode.value", "must be the code text of 1 to 1024 characters")
    record = _codes(call.state).get(value)
    if record is None:
        raise _qr_error(1, "Invalid QR Code - not found")
    return value, record


@FAMILY.route("POST", "/qrpayments/getqrcode", "HD LG")
async def get_qr_code(call: HostCall) -> dict[str, Any]:
    amount = call.body.get("amount")
    if not isinstance(amount, dict):
        raise missing_field("amount")
    for part in ("total", "tax"):
        if amount.get(part) is None:
            raise missing_field(f"amount.{part}")
    invoice = get(call.body, "transaction.invoice")
    if invoice is None:
        raise missing_field("transaction.invoice")
    flag = get(call.body, "transaction.saleFlag")
    if flag is None:
        raise missing_field("transaction.saleFlag")
    if flag not in ("A", "S"):
        raise invalid_field("transaction.saleFlag", "must be A (authorization) or S (sale)")
    wanted = {k: str(Decimal(amount[k])) for k in AMOUNT_PARTS if amount.get(k) is not None}
    vendor_reference = get(call.body, "transaction.vendorReference")
    codes = _codes(call.state)
    for value, record in codes.items():
        if record["invoice"] != invoice or record["status"] in ("cancelled", "reversed"):
            continue
        if record["status"] == "pending" and record["amount"] == wanted and record["saleFlag"] == flag:
            return _code_answer(call, value, record)
        raise _qr_error(4, f"Fail to post QR Pay record: invoice {invoice} already has an open "
                           "QR payment; cancel it first")
    value = ""
    while not value or value in codes:
        value = QR_BASE + "".join(secrets.choice(string.ascii_uppercase + string.digits)
                                  for _ in range(7))
    record = {"invoice": str(invoice), "saleFlag": flag, "amount": wanted, "status": "pending",
              "createdAt": call.state.clock.now()}
    if isinstance(vendor_reference, str):
        record["vendorReference"] = vendor_reference[:50]
    codes[value] = record
    return _code_answer(call, value, record)


def _code_answer(call: HostCall, value: str, record: dict[str, Any]) -> dict[str, Any]:
    transaction: dict[str, Any] = {"invoice": record["invoice"], "saleFlag": record["saleFlag"],
                                   "responseCode": "A"}
    if record.get("vendorReference"):
        transaction["vendorReference"] = record["vendorReference"]
    return {"dateTime": now_text(call), "qrCode": {"value": value}, "amount": _amount_out(record),
            "merchant": _merchant(call), "transaction": transaction}


@FAMILY.route("POST", "/qrpayments/getqrdetails", "HD LG")
async def get_qr_details(call: HostCall) -> dict[str, Any]:
    _value, record = _find(call)
    if record["status"] in ("cancelled", "reversed"):
        raise _qr_error(6, "QR Pay is Cancelled - unable to process request")
    transaction: dict[str, Any] = {"invoice": record["invoice"], "saleFlag": record["saleFlag"]}
    if record.get("vendorReference"):
        transaction["vendorReference"] = record["vendorReference"]
    return {"dateTime": now_text(call), "amount": _amount_out(record), "transaction": transaction,
            "merchant": _merchant(call),
            "qrPayConfig": {"splitEnabled": "N", "tipEnabled": "Y", "tipPresets": ["15", "18", "20"]}}


def _paid_answer(call: HostCall, record: dict[str, Any], response_code: str) -> dict[str, Any]:
    payment = record["payment"]
    return {"dateTime": now_text(call), "amount": _amount_out(record),
            "card": {"entryMode": "Q", "number": payment["number"], "present": "N",
                     "type": payment["type"], "token": {"value": payment["token"]}},
            "clerk": {"numericId": 1}, "merchant": _merchant(call),
            "receipt": [{"key": "CardEntryMode", "printName": "ENTRY METHOD", "printValue": "QR CODE"},
                        {"key": "MaskedPAN", "printValue": payment["number"]},
                        {"key": "TransactionResponse", "printName": "Response",
                         "printValue": "APPROVED" if response_code == "A" else "REVERSED"}],
            "transaction": {"authorizationCode": payment["authorizationCode"], "authSource": "E",
                            "invoice": record["invoice"], "responseCode": response_code,
                            "saleFlag": record["saleFlag"]}}


@FAMILY.route("POST", "/qrpayments/getqrpaymentstatus", "HD LG")
async def get_qr_payment_status(call: HostCall) -> dict[str, Any]:
    _value, record = _find(call)
    status = record["status"]
    if status == "paid":
        return _paid_answer(call, record, "A")
    if status == "reversed":
        return _paid_answer(call, record, "T")
    transaction: dict[str, Any] = {"invoice": record["invoice"], "saleFlag": record["saleFlag"]}
    if status == "cancelled":
        transaction["responseCode"] = "C"
    return {"dateTime": now_text(call), "amount": _amount_out(record), "transaction": transaction,
            "merchant": _merchant(call)}


@FAMILY.route("POST", "/qrpayments/cancelqrpayment", "HD LG")
async def cancel_qr_payment(call: HostCall) -> dict[str, Any]:
    _value, record = _find(call)
    if record["status"] in ("cancelled", "reversed"):
        raise _qr_error(6, "QR Pay is Cancelled - unable to process request")
    if record["status"] == "paid" and "batchId" in record:
        raise _qr_error(7, "QR Pay is already settled in a batch - refund it instead")
    if record["status"] == "paid":
        record["status"], code = "reversed", "T"
    else:
        record["status"], code = "cancelled", "C"
    record["endedAt"] = call.state.clock.now()
    return {"dateTime": now_text(call), "transaction": {"responseCode": code},
            "merchant": _merchant(call)}


# ---- the batch: a paid sale code is a sale the host batches ---------------------------------------
def codes_of(state: Any) -> dict[str, dict[str, Any]]:
    return _codes(state)


def batchable(state: Any) -> list[tuple[str, dict[str, Any]]]:
    """Paid sale codes not yet in a batch, with the business date they were paid on (decision: a
    paid QR sale is a card sale for the merchant; a reversed one, an authorization code (A) and one
    already batched are not)."""
    return [(value, record) for value, record in _codes(state).items()
            if record["status"] == "paid" and record["saleFlag"] == "S" and "batchId" not in record]


def paid_day(record: dict[str, Any]) -> str:
    return datetime.fromtimestamp(record["payment"]["paidAt"]).date().isoformat()


def total_of(record: dict[str, Any]) -> Decimal:
    return Decimal(record["amount"]["total"])


# ---- control: the customer scans the code and pays ---------------------------------------------
async def _pay(request: Request) -> Response:
    sandbox = request.app.state.sandbox
    try:
        data = await read_json(request)
    except ValueError as exc:
        return control_error(str(exc))
    if not isinstance(data, dict):
        return control_error('send {"qrCode": "<the code value>"} (optionally "card")')
    unknown = set(data) - {"qrCode", "card"}
    if unknown:
        return control_error(f"{sorted(unknown)[0]}: unknown field (expected qrCode, card)")
    value = data.get("qrCode")
    if isinstance(value, dict):
        value = value.get("value")
    if not isinstance(value, str) or not value:
        return control_error("qrCode: is required, the value getqrcode returned")
    record = _codes(sandbox.state).get(value)
    if record is None:
        return control_error("qrCode: no such QR code", 404)
    if record["status"] != "pending":
        return control_error(f"qrCode: the payment is {record['status']}; this code can no longer "
                             "be used to pay", 409)
    card = data.get("card", "4321000000001119")
    try:
        number = check_number(card, "card")
    except HostFault as fault:
        return control_error(f"card: {fault.long_text}")
    record["status"] = "paid"
    record["payment"] = {"number": masked(number), "type": card_type(number),
                         "token": issue_token(sandbox.state, number),
                         "authorizationCode": "QR" + secrets.token_hex(2).upper(),
                         "paidAt": sandbox.state.clock.now()}
    sandbox.save()
    return _json({"qrCode": value, "status": "paid", "invoice": record["invoice"],
                  "card": record["payment"]["number"]})


FAMILY.controls.append(Route("/_sandbox/qrpayments/pay", _pay, methods=["POST"]))
