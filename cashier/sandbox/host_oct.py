"""``/oct/payout`` and ``/oct/updaterecipient`` (HD only): original credit transfers.

Errors use the vendor's ``ErrorNoPrimarySecondary`` shape (``error.code``, no primary or
secondary code). Only the vendor's OCT test cards receive funds; any other accepted test card
is declined with reason 57 (decision: a payout needs a card enabled for fast funds).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cashier.sandbox.core import Family, HostCall, HostFault
from cashier.sandbox.longtail import (
    amount,
    card_type,
    check_card_number,
    expiration,
    issue_token,
    merchant,
    new_id,
    test_card_for_token,
    text,
    token_value,
    unknown_token,
)
from cashier.sandbox.shared import get, masked, now_text

FAMILY = Family("oct")

OCT_CARDS = frozenset({"4515300011000159", "4515300011000167", "5312600000002167"})
DECLINE_ABOVE = Decimal("999999")


def _fault(code: int, short_text: str, long_text: str) -> HostFault:
    return HostFault(0, short_text, long_text, code=code, legacy=False)


def _recipients(call: HostCall) -> dict[str, dict[str, Any]]:
    recipients: dict[str, dict[str, Any]] = call.state.family("oct").setdefault("recipients", {})
    return recipients


def _card(call: HostCall) -> str:
    body = call.body
    if get(body, "card.token") is not None:
        found = test_card_for_token(call, token_value(body, legacy=False))
        if found is None:
            raise unknown_token(legacy=False)
        return found
    # The published OCT Mastercard fails the Luhn check; the test host lists it, so it passes.
    number = check_card_number(get(body, "card.number"), legacy=False, extra=OCT_CARDS) \
        if get(body, "card.number") is not None else None
    if number is None:
        raise _fault(40102, "Invalid Param", "card.number is required (or card.token.value)")
    expiration(body, legacy=False)
    text(body, "card.entryMode", max_len=1, choices=("M",), legacy=False)
    text(body, "card.present", max_len=1, choices=("Y", "N"), legacy=False)
    return number


@FAMILY.route("POST", "/oct/payout", "HD")
async def payout(call: HostCall) -> dict[str, Any]:
    body = call.body
    total = amount(body, legacy=False)
    assert total is not None
    invoice = text(body, "transaction.invoice", max_len=10, legacy=False)
    text(body, "sourceIp", max_len=45, legacy=False)
    email = text(body, "customer.emailAddress", max_len=80, legacy=False)
    text(body, "customer.ipAddress", max_len=20, legacy=False)
    company = text(body, "customer.companyName", max_len=30, required=False, legacy=False)
    names = {}
    if company is None:
        for name in ("firstName", "lastName"):
            names[name] = text(body, f"customer.{name}", max_len=30, legacy=False)
    number = _card(call)
    assert email is not None
    declined = number not in OCT_CARDS or total > DECLINE_ABOVE
    transaction: dict[str, Any] = {
        "authSource": "A", "invoice": invoice, "responseCode": "D" if declined else "A",
        "retrievalReference": f"ICTN-{new_id(length=6)}-{new_id(length=3)}-{new_id(length=5)}"}
    if number not in OCT_CARDS:
        transaction["hostResponse"] = {"reasonCode": "57",
                                       "reasonDescription": "Transaction not permitted to card"}
    vendor_reference = text(body, "transaction.vendorReference", max_len=50, required=False,
                            legacy=False)
    if vendor_reference:
        transaction["vendorReference"] = vendor_reference
    customer: dict[str, Any] = {"emailAddress": email,
                                "ipAddress": get(body, "customer.ipAddress"), **names}
    if not declined:
        record = _recipients(call).setdefault(email.lower(), {"payouts": []})
        record["payouts"].append({"invoice": invoice, "total": str(total)})
    return {"dateTime": now_text(call), "amount": {"total": total, "fee": Decimal("0.00")},
            "card": {"number": masked(number), "type": card_type(number),
                     "token": {"value": issue_token(call, number)}},
            "customer": customer, "merchant": merchant(call), "transaction": transaction}


@FAMILY.route("POST", "/oct/updaterecipient", "HD")
async def update_recipient(call: HostCall) -> dict[str, Any]:
    body = call.body
    old = text(body, "customer.emailAddress", max_len=80, legacy=False)
    new = text(body, "customer.newEmailAddress", max_len=80, legacy=False)
    text(body, "sourceIp", max_len=45, legacy=False)
    assert old is not None and new is not None
    recipients = _recipients(call)
    record = recipients.get(old.lower())
    if record is None:
        raise _fault(40105, "Invalid Param", f"No OCT recipient with customer.emailAddress {old}")
    if new.lower() != old.lower():
        if new.lower() in recipients:
            raise _fault(40101, "Invalid Param", "customer.newEmailAddress belongs to another recipient")
        recipients[new.lower()] = recipients.pop(old.lower())
    return {"dateTime": now_text(call), "customer": {"emailAddress": old, "newEmailAddress": new},
            "merchant": merchant(call), "transaction": {"authSource": "A", "responseCode": "A"}}
