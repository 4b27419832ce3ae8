"""``/cards/verify`` and ``/cards/identify`` (HD and LG, our spec's Options column).

Verify answers with the vendor's AVS and CSC test triggers (``test-triggers.yml``): the prefix of
``customer.addressLine1`` or ``customer.postalCode`` sets the AVS result, the security code value
sets the CSC result. A failed check declines ('D') unless ``POSHANDLEAVSFAIL`` asks for 'f'.
Account Name Inquiry needs the ``USEANI`` API option and ``customer.lastName``, Visa only.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cashier.sandbox import triggers
from cashier.sandbox.core import Family, HostCall, HostFault, invalid_field, timeout_fault
from cashier.sandbox.longtail import (
    DEBIT_CARDS,
    FOREIGN_CARDS,
    api_options,
    bin_of,
    card_type,
    check_card_number,
    expiration,
    issue_token,
    merchant,
    test_card_for_token,
    text,
    token_value,
    unknown_token,
)
from cashier.sandbox.shared import get, masked, now_text
from cashier.sandbox.terminals import TerminalCancelled, TerminalTimeout

FAMILY = Family("cards")

#: Which address parts each AVS result says matched: (street, postal code).
AVS_MATCHES = {"A": ("Y", "N"), "W": ("N", "Y"), "Z": ("N", "Y"), "X": ("Y", "Y"), "Y": ("Y", "Y")}
#: The cardholder name the sandbox's issuer holds for every Visa test card (ANI).
ANI_NAME = ("JOHN", "SMITH")


def avs_block(customer: dict[str, Any]) -> tuple[dict[str, str], bool] | None:
    """(AVS block, failed), or None when no address data was sent (nothing to verify)."""
    line1, postal = customer.get("addressLine1"), customer.get("postalCode")
    found = triggers.avs_result(line1 if isinstance(line1, str) else None,
                                postal if isinstance(postal, str) else None)
    if found is None:
        return None
    result, failed = found
    street, zip_ok = AVS_MATCHES.get(result, ("N", "N"))
    return ({"result": result, "valid": "N" if failed else "Y", "streetVerified": street,
             "postalCodeVerified": zip_ok}, failed)


def csc_block(security_code: Any) -> tuple[dict[str, str], bool] | None:
    if security_code is None:
        return None
    if not isinstance(security_code, dict):
        raise invalid_field("card.securityCode", "must be an object with indicator and value")
    value = security_code.get("value")
    if value is None:
        return None
    if not isinstance(value, str) or not value.isdigit() or not 3 <= len(value) <= 4:
        raise invalid_field("card.securityCode.value", "must be 3 or 4 digits")
    indicator = security_code.get("indicator", "1")
    if indicator not in ("0", "1", "2", "9"):
        raise invalid_field("card.securityCode.indicator", "must be one of 0, 1, 2, 9")
    found = triggers.csc_result(value)
    assert found is not None
    result, failed = found
    # The indicator is echoed (never the value): the vendor's response schema names it.
    return {"indicator": indicator, "result": result, "valid": "N" if failed else "Y"}, failed


def _name_match(sent: str | None, held: str) -> str:
    if not sent:
        return "-"
    sent = sent.strip().upper()
    if sent == held:
        return "M"
    if sent and (held.startswith(sent) or sent.startswith(held)):
        return "P"
    return "N"


#: (first name, last name) match -> ANI response code, from the vendor's table.
ANI_CODES = {("M", "M"): "E", ("P", "M"): "A", ("N", "M"): "B", ("M", "P"): "C", ("M", "N"): "D",
             ("P", "P"): "F", ("N", "P"): "G", ("P", "N"): "H", ("-", "M"): "I", ("-", "P"): "J"}


def ani_code(customer: dict[str, Any], ctype: str | None) -> str:
    if ctype != "VS":
        return "U"  # Account Name Inquiry is limited to one network: not performed
    first = _name_match(customer.get("firstName"), ANI_NAME[0])
    last = _name_match(customer.get("lastName"), ANI_NAME[1])
    return ANI_CODES.get((first, last), "N")


async def _card_from_body(call: HostCall) -> tuple[str, int | None, str]:
    """(card number, expiration, entry mode) from a keyed card, a token or the LG PIN pad."""
    body = call.body
    if get(body, "card.number") is not None:
        number = check_card_number(get(body, "card.number"))
        exp = expiration(body, required=call.path == "/cards/verify")
        return number, exp, str(get(body, "card.entryMode") or "M")
    if get(body, "card.token") is not None:
        token = token_value(body)
        number_for_token = test_card_for_token(call, token)
        if number_for_token is None:
            raise unknown_token()
        return number_for_token, expiration(body, required=False), "M"
    if call.option == "LG" and get(body, "device") is not None:
        terminal_id = text(body, "device.terminalId", max_len=32)
        assert terminal_id is not None
        terminal = call.state.terminals.get(terminal_id)
        try:
            read = await terminal.read_card(amount=Decimal(0), purpose=call.path.rsplit("/", 1)[1])
        except TerminalCancelled:
            raise HostFault(9000, "CANCELLED", "The card read was cancelled at the PIN pad",
                            severity="Error", code=50101) from None
        except TerminalTimeout:
            raise timeout_fault() from None
        return check_card_number(read.number), None, read.entry_mode
    if call.option == "LG":
        raise invalid_field("card", "send card.number, card.token.value or device.terminalId")
    raise invalid_field("card", "send card.number or card.token.value")


@FAMILY.route("POST", "/cards/verify", "HD LG")
async def cards_verify(call: HostCall) -> dict[str, Any]:
    body = call.body
    options = api_options(body)
    customer = body.get("customer") or {}
    if not isinstance(customer, dict):
        raise invalid_field("customer", "must be an object")
    use_ani = "USEANI" in options
    if use_ani:
        text(body, "customer.lastName", max_len=30)
        text(body, "customer.firstName", max_len=30, required=False)
        text(body, "customer.middleName", max_len=30, required=False)
    text(body, "customer.addressLine1", max_len=30, required=False)
    number, exp, _entry_mode = await _card_from_body(call)
    ctype = card_type(number)
    avs = avs_block(customer)
    csc = csc_block(get(body, "card.securityCode"))
    failed = (avs is not None and avs[1]) or (csc is not None and csc[1])
    code = ("f" if "POSHANDLEAVSFAIL" in options else "D") if failed else "A"
    card: dict[str, Any] = {"number": masked(number), "type": ctype,
                            "token": {"value": issue_token(call, number)}}
    if exp is not None:
        card["expirationDate"] = exp
    if csc is not None:
        card["securityCode"] = csc[0]
    transaction: dict[str, Any] = {"responseCode": code}
    if code == "A":
        transaction["authorizationCode"] = "VRF" + number[-3:]
    if avs is not None:
        transaction["avs"] = avs[0]
    cof = get(body, "transaction.cardOnFile")
    if isinstance(cof, dict):
        transaction["cardOnFile"] = {k: v for k, v in cof.items() if k in ("type", "transactionId")}
    item: dict[str, Any] = {"dateTime": now_text(call), "card": card, "merchant": merchant(call),
                            "transaction": transaction}
    if customer:
        item["customer"] = {k: v for k, v in customer.items()
                            if k in ("firstName", "middleName", "lastName", "addressLine1",
                                     "postalCode", "emailAddress")}
    if call.option == "LG" and isinstance(body.get("device"), dict):
        item["device"] = {"terminalId": body["device"].get("terminalId")}
    if use_ani:
        item["accountNameInquiry"] = {"aniResponseCode": ani_code(customer, ctype)}
    return item


@FAMILY.route("POST", "/cards/identify", "HD LG")
async def cards_identify(call: HostCall) -> dict[str, Any]:
    number, _exp, _mode = await _card_from_body(call)
    ctype = card_type(number)
    debit = "Y" if number in DEBIT_CARDS else "N"
    card = {"bin": bin_of(number), "type": ctype, "debitCapable": debit,
            "dccCapable": "Y" if number in FOREIGN_CARDS else "N"}
    item: dict[str, Any] = {"dateTime": now_text(call), "card": card, "merchant": merchant(call)}
    if call.option == "LG" and isinstance(call.body.get("device"), dict):
        item["device"] = {"terminalId": call.body["device"].get("terminalId")}
    return item
