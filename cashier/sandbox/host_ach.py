"""ACH (bank account) operations, HD only: verify, sale, refund, status, and bank-account linking
through the ``bankaggregator`` link token create and public token exchange.

Verify, sale, refund and exchange answer 'P' (pending) at once; the outcome then goes to
``config.ach_notification_url`` as an ACH notification, in the background (``longtail.notify``),
and ``/ach/status`` reports it. The sandbox settles right after answering (decision).
Triggers of the sandbox: an account number ending in 9999 is declined (return code R03);
``ach.verifyBalance`` on a sale above 5000.00 finds too little money ('VF', declined).
Errors use ``ErrorNoPrimarySecondary``. Only the last four digits of an account are kept.
"""

from __future__ import annotations

import json
import secrets
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from cashier.sandbox.core import Family, HostCall, HostFault
from cashier.sandbox.longtail import (
    amount,
    boolean,
    merchant,
    notify,
    text,
)
from cashier.sandbox.shared import get, now_text

FAMILY = Family("ach")

ACCOUNT_TYPES = ("PC", "PS", "CC", "CS")
BALANCE_LIMIT = Decimal("5000.00")
DECLINED_SUFFIX = "9999"
LANGUAGES = ("da", "nl", "en", "et", "fr", "de", "it", "lv", "lt", "no", "po", "ro", "es", "se")


def _fault(code: int, long_text: str, short_text: str = "Invalid Param") -> HostFault:
    return HostFault(0, short_text, long_text, code=code, legacy=False)


def _family(call: HostCall) -> dict[str, Any]:
    family: dict[str, Any] = call.state.family("ach")
    family.setdefault("tokens", {})
    family.setdefault("payments", {})
    return family


def _aba_ok(routing: str) -> bool:
    """The ABA routing number check digit: 3-7-1 weights, sum divisible by 10."""
    weights = (3, 7, 1) * 3
    return sum(int(d) * w for d, w in zip(routing, weights, strict=True)) % 10 == 0


def _bank_account(call: HostCall, *, verify: bool = False) -> dict[str, Any]:
    body = call.body
    number = text(body, "ach.accountNumber", max_len=17, min_len=4, legacy=False)
    routing = text(body, "ach.routingNumber", max_len=9, min_len=9, legacy=False)
    kind = text(body, "ach.accountType", max_len=2, min_len=2, choices=ACCOUNT_TYPES, legacy=False)
    holder = text(body, "ach.accountHolderName", max_len=22, legacy=False)
    assert number is not None and routing is not None
    if not number.isdigit():
        raise _fault(40101, "ach.accountNumber: must be 4 to 17 digits")
    if not routing.isdigit() or not _aba_ok(routing):
        raise _fault(40101, "ach.routingNumber: must be 9 digits with a valid check digit")
    if verify:
        text(body, "ach.verificationType", max_len=1, choices=("P",), legacy=False)
    text(body, "ach.paymentTypeCode", max_len=2, required=False, choices=("S", "R", "ST"),
         legacy=False)
    return {"routingNumber": routing, "last4": number[-4:], "accountType": kind,
            "holder": holder, "declined": number.endswith(DECLINED_SUFFIX)}


def _issue(call: HostCall, account: dict[str, Any]) -> str:
    tokens = _family(call)["tokens"]
    for token, record in tokens.items():
        if {k: record.get(k) for k in account} == account:
            return str(token)
    while True:
        fresh = "7" + "".join(secrets.choice("0123456789") for _ in range(11)) + str(account["last4"])
        if fresh not in tokens:
            break
    tokens[fresh] = dict(account)
    return fresh


def _account_of(call: HostCall) -> tuple[str, dict[str, Any]]:
    """(ACH token, account) from a bank account body or a token body."""
    if get(call.body, "token") is not None:
        token = str(text(call.body, "token.value", max_len=16, legacy=False))
        record: dict[str, Any] | None = _family(call)["tokens"].get(token)
        if record is None:
            raise _fault(40105, f"token.value {token} is not a known ACH token")
        return token, record
    account = _bank_account(call)
    return _issue(call, account), account


def _envelope_base(call: HostCall) -> dict[str, Any]:
    return {"dateTime": now_text(call), "merchant": merchant(call)}


def _send(call: HostCall, event: str, token: str, transaction: dict[str, Any],
          notification_id: str, extra: dict[str, Any] | None = None) -> None:
    payload: dict[str, Any] = {"event": {"type": event}, "token": {"value": token, "type": "ACH"},
                               "transaction": {"authSource": "A", **transaction},
                               "notificationId": notification_id,
                               "server": {"name": "SANDBOX01"}, **(extra or {})}
    notify(call.config.ach_notification_url, payload)


def _declined_response() -> dict[str, str]:
    return {"reasonCode": "R03", "reasonDescription": "No account / unable to locate account"}


@FAMILY.route("POST", "/ach/verify", "HD")
async def ach_verify(call: HostCall) -> dict[str, Any]:
    account = _bank_account(call, verify=True)
    text(call.body, "sourceIp", max_len=45, legacy=False)
    token = _issue(call, account)
    notification_id = str(uuid.uuid4())
    outcome: dict[str, Any] = {"responseCode": "D" if account["declined"] else "A"}
    if account["declined"]:
        outcome["hostResponse"] = _declined_response()
    _family(call)["tokens"][token]["verified"] = outcome["responseCode"]
    _send(call, "ach.verify.verification_status_update", token, outcome, notification_id,
          {"ach": {"verificationType": "P"}})
    transaction = {"authSource": "A", "responseCode": "P"}
    vendor_reference = text(call.body, "transaction.vendorReference", max_len=50, required=False,
                            legacy=False)
    if vendor_reference:
        transaction["vendorReference"] = vendor_reference
    return {**_envelope_base(call), "token": {"value": token, "type": "ACH"},
            "transaction": transaction, "notificationId": notification_id}


def _total(call: HostCall) -> Decimal:
    total = amount(call.body, legacy=False)
    assert total is not None
    if len(format(total, "f")) > 11:
        raise _fault(40107, "amount.total: must be at most 11 characters")
    return total


@FAMILY.route("POST", "/ach/sale", "HD")
async def ach_sale(call: HostCall) -> dict[str, Any]:
    total = _total(call)
    invoice = text(call.body, "transaction.invoice", max_len=10, legacy=False)
    text(call.body, "sourceIp", max_len=45, legacy=False)
    check_balance = boolean(call.body, "ach.verifyBalance", legacy=False)
    token, account = _account_of(call)
    payments = _family(call)["payments"]
    if invoice in payments:
        raise _fault(40104, f"transaction.invoice {invoice} is already used", "Duplicate")
    item: dict[str, Any] = {**_envelope_base(call), "amount": {"total": total},
                            "token": {"value": token, "type": "ACH"}}
    declined = bool(account["declined"])
    if check_balance:
        enough = total <= BALANCE_LIMIT
        item["ach"] = {"balanceVerificationResult": "VS" if enough else "VF"}
        declined = declined or not enough
    notification_id = str(uuid.uuid4())
    payments[invoice] = {"kind": "sale", "token": token, "total": str(total), "refunded": "0",
                         "status": "D" if declined else "A", "notificationId": notification_id}
    outcome: dict[str, Any] = {"invoice": invoice, "responseCode": payments[invoice]["status"]}
    if account["declined"]:
        outcome["hostResponse"] = _declined_response()
    _send(call, "ach.sale.status_update", token, outcome, notification_id)
    # a balance shortfall is known at once; everything else is pending until the notification
    immediate = "D" if check_balance and item["ach"]["balanceVerificationResult"] == "VF" else "P"
    item["transaction"] = {"authSource": "A", "invoice": invoice, "responseCode": immediate}
    item["notificationId"] = notification_id
    return item


@FAMILY.route("POST", "/ach/refund", "HD")
async def ach_refund(call: HostCall) -> dict[str, Any]:
    total = _total(call)
    invoice = text(call.body, "transaction.invoice", max_len=10, legacy=False)
    original = text(call.body, "transaction.originalInvoice", max_len=10, legacy=False)
    text(call.body, "sourceIp", max_len=45, legacy=False)
    token, _account = _account_of(call)
    payments = _family(call)["payments"]
    sale = payments.get(original)
    if sale is None or sale["kind"] != "sale" or sale["status"] != "A":
        raise _fault(40104, f"transaction.originalInvoice {original} is not a settled ACH sale")
    if invoice in payments:
        raise _fault(40104, f"transaction.invoice {invoice} is already used", "Duplicate")
    remaining = Decimal(sale["total"]) - Decimal(sale["refunded"])
    if total > remaining:
        raise _fault(40107, f"amount.total: {total} is more than the {remaining} left to refund")
    sale["refunded"] = str(Decimal(sale["refunded"]) + total)
    notification_id = str(uuid.uuid4())
    payments[invoice] = {"kind": "refund", "token": token, "total": str(total), "status": "A",
                         "originalInvoice": original, "notificationId": notification_id}
    _send(call, "ach.refund.status_update", token, {"invoice": invoice, "responseCode": "A"},
          notification_id)
    return {**_envelope_base(call), "amount": {"total": total},
            "token": {"value": token, "type": "ACH"},
            "transaction": {"authSource": "A", "invoice": invoice, "originalInvoice": original,
                            "responseCode": "P"},
            "notificationId": notification_id}


@FAMILY.route("POST", "/ach/status", "HD")
async def ach_status(call: HostCall) -> dict[str, Any]:
    """Not in the vendor file (added later): answered in the sale response's shape."""
    invoice = text(call.body, "transaction.invoice", max_len=10, legacy=False)
    payment = _family(call)["payments"].get(invoice)
    if payment is None:
        raise _fault(40104, f"transaction.invoice {invoice} is not an ACH sale or refund")
    transaction = {"authSource": "A", "invoice": invoice, "responseCode": payment["status"]}
    if "originalInvoice" in payment:
        transaction["originalInvoice"] = payment["originalInvoice"]
    return {**_envelope_base(call), "amount": {"total": Decimal(payment["total"])},
            "token": {"value": payment["token"], "type": "ACH"}, "transaction": transaction,
            "notificationId": payment["notificationId"]}


@FAMILY.route("POST", "/ach/bankaggregator/link_token/create", "HD")
async def link_token_create(call: HostCall) -> dict[str, Any]:
    user = text(call.body, "bankaggregator.client_user_id", max_len=128, legacy=False)
    text(call.body, "bankaggregator.language", max_len=2, required=False, choices=LANGUAGES,
         legacy=False)
    # "Conditional" (our spec): needed only for OAuth institutions, which the sandbox does not
    # simulate; when sent it must be an absolute https address.
    redirect = text(call.body, "bankaggregator.redirectUrl", max_len=2048, required=False,
                    legacy=False)
    if redirect is not None and (not redirect.startswith("https://") or redirect == "https://"):
        raise _fault(40101, "bankaggregator.redirectUrl: must be an absolute https:// address")
    expires = datetime.fromtimestamp(call.state.clock.now(), UTC) + timedelta(hours=4)
    link_token = f"link-sandbox-{uuid.uuid4()}"
    _family(call).setdefault("links", {})[link_token] = {"user": user}
    return {**_envelope_base(call),
            "transaction": {"authSource": "A", "responseCode": "S"},
            "bankaggregator": {"link_token": link_token,
                               "expiration": expires.strftime("%Y-%m-%dT%H:%M:%SZ"),
                               "client_user_id": user}}


@FAMILY.route("POST", "/ach/bankaggregator/public_token/exchange", "HD")
async def public_token_exchange(call: HostCall) -> dict[str, Any]:
    holder = text(call.body, "ach.accountHolderName", max_len=22, legacy=False)
    public = text(call.body, "bankaggregator.public_token", max_len=128, legacy=False)
    raw = text(call.body, "bankaggregator.metadata", max_len=65536, legacy=False)
    assert public is not None and raw is not None
    if not public.startswith("public-sandbox-"):
        raise _fault(40101, "bankaggregator.public_token: not a token from the linking interface")
    try:
        metadata = json.loads(raw)
    except ValueError:
        raise _fault(40103, "bankaggregator.metadata: must be the JSON text the linking "
                     "interface returned") from None
    mask = get(metadata, "account.mask") if isinstance(metadata, dict) else None
    last4 = mask if isinstance(mask, str) and mask.isdigit() and 2 <= len(mask) <= 4 else "0000"
    account = {"routingNumber": "linked", "last4": last4, "accountType": "PC", "holder": holder,
               "declined": last4 == DECLINED_SUFFIX}
    token = _issue(call, account)
    notification_id = str(uuid.uuid4())
    code = "D" if account["declined"] else "A"
    _send(call, "ach.verify.verification_status_update", token, {"responseCode": code},
          notification_id, {"ach": {"verificationType": "P"}})
    return {**_envelope_base(call), "transaction": {"authSource": "A", "responseCode": code},
            "notificationId": notification_id, "ach": {"accountLastFour": last4},
            "token": {"value": token, "type": "ACH"}}
