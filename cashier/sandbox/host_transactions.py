"""Transactions on the sandbox host: sale, authorization, capture, refund, void, invoice, manual.

The ledger is ``state.family("transactions")["invoices"]``: invoice -> record. The states follow
our spec's table: ``authorized`` (not captured), ``sale`` (ready to batch), ``refund``,
``voided``, ``batched``, and the unsuccessful ``declined``, ``referral`` and ``error``, which GET
still reports and which a new request with the same invoice replaces.

Invoice-based amendment: a request for an invoice that is already approved seeks approval only
for the amount above what is on file; the same or a lower amount answers with the approval on
file, so a retry can never approve twice.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from cashier.sandbox import host_giftcards as giftcards
from cashier.sandbox import host_mode, terminals, triggers
from cashier.sandbox.core import (
    SERVER_NAME,
    Family,
    HostCall,
    HostFault,
    duplicate_invoice,
    invalid_amount,
    invalid_field,
    invoice_not_found,
    missing_field,
    token_not_found,
)
from cashier.sandbox.host_tokens import issue_token
from cashier.sandbox.shared import get, is_gift_card, now_text, require, require_object
from cashier.sandbox.terminals import TerminalCancelled, TerminalTimeout

FAMILY = Family("transactions")

LIVE = frozenset({"authorized", "sale", "refund"})
#: States GET /transactions/invoice reports; voided and batched ones are "Invoice Not Found".
VISIBLE = LIVE | {"declined", "referral", "error"}
_INVOICE = re.compile(r"^\d{1,10}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
#: PIN pad entry modes (virtual terminal) -> ``card.entryMode`` (vendor ``CardEntryMode``).
ENTRY_MODES = {"E": "E", "T": "C", "C": "C", "S": "2", "M": "M", "R": "R", "1": "1", "2": "2",
               "Q": "Q"}
ENTRY_NAMES = {"E": "CHIP", "C": "CONTACTLESS", "R": "CONTACTLESS", "1": "SWIPED", "2": "SWIPED",
               "M": "MANUAL", "Q": "QR CODE"}
SALE_FLAGS = {"authorization": "A", "sale": "S", "refund": "C", "manualauthorization": "A",
              "manualsale": "S"}


# ---- small readers ---------------------------------------------------------------------------
def invoice_of(body: dict[str, Any]) -> str:
    require_object(body, "transaction")
    invoice = require(body, "transaction.invoice")
    if not isinstance(invoice, str) or not _INVOICE.match(invoice):
        raise invalid_field("transaction.invoice", "must be a string of 1 to 10 digits")
    return invoice


def total_of(body: dict[str, Any]) -> Decimal:
    require_object(body, "amount")
    value = require(body, "amount.total")
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise invalid_field("amount.total", "must be a number in major units, such as 12.50")
    return Decimal(value)


def api_options(body: dict[str, Any]) -> frozenset[str]:
    raw = body.get("apiOptions")
    if raw is None:
        return frozenset()
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise invalid_field("apiOptions", "must be a list of option names")
    return frozenset(item.upper() for item in raw)


def clerk_of(body: dict[str, Any]) -> int:
    require_object(body, "clerk")
    value = require(body, "clerk.numericId")
    return int(value)


def ledger(call: HostCall) -> dict[str, dict[str, Any]]:
    invoices: dict[str, dict[str, Any]] = call.state.family("transactions").setdefault("invoices", {})
    return invoices


def business_date(call: HostCall) -> str:
    given = get(call.body, "transaction.businessDate")
    if given is not None:
        if not isinstance(given, str) or not _DATE.match(given):
            raise invalid_field("transaction.businessDate", "must be a date, yyyy-mm-dd")
        return given[:10]
    return datetime.fromtimestamp(call.state.clock.now()).date().isoformat()


def money(value: Decimal) -> Decimal:
    return value.quantize(triggers.CENT) if value == value.to_integral_value() else value


# ---- cards -----------------------------------------------------------------------------------
@dataclass
class CardUse:
    """The card of one request. ``number`` (full) lives only as long as the request."""

    brand: str
    masked: str
    token: str
    entry_mode: str
    present: str
    number: str | None = None
    security_code: str | None = None
    postal_code: str | None = None
    terminal_id: str | None = None
    #: The gift card's record key (``host_giftcards``) when a gift card pays; never its number.
    giftcard: str | None = None

    def record(self) -> dict[str, Any]:
        return {"type": self.brand, "number": self.masked, "token": self.token,
                "entryMode": self.entry_mode, "present": self.present}

    @classmethod
    def from_record(cls, card: dict[str, Any], terminal_id: str | None = None) -> CardUse:
        return cls(card.get("type", "VS"), card.get("number", ""), card.get("token", ""),
                   card.get("entryMode", "M"), card.get("present", "N"), terminal_id=terminal_id)


def _problem_fault(problem: triggers.CardProblem) -> HostFault:
    return HostFault(problem.primary_code, problem.short_text, problem.long_text,
                     secondary_code=problem.secondary_code, http_status=problem.http_status,
                     severity=problem.severity, code=problem.code)


def _keyed(call: HostCall, number: Any, entry_mode: str, present: str) -> CardUse:
    if not isinstance(number, str):
        raise invalid_field("card.number", "must be text of 12 to 19 digits")
    if is_gift_card(number):
        return CardUse("GC", "X" * (len(number) - 4) + number[-4:], issue_token(call.state, number),
                       ENTRY_MODES.get(entry_mode, "M"), present, number=number,
                       giftcard=giftcards.card_key(call.state, number))
    problem = triggers.check_card(number)
    if problem is not None:
        raise _problem_fault(problem)
    brand = triggers.brand_of(number)
    token = call.state.tokenize(number, brand)
    return CardUse(brand, "X" * (len(number) - 4) + number[-4:], token,
                   ENTRY_MODES.get(entry_mode, "M"), present, number=number)


def from_token(call: HostCall, token: Any) -> CardUse:
    if not isinstance(token, str) or not 1 <= len(token) <= 16:
        raise invalid_field("card.token.value", "must be 1 to 16 characters")
    found = call.state.detokenize(token)
    if found is None:
        raise token_not_found(token, call.config.merchant_id)
    gift = giftcards.key_for_token(call.state, token) if found["type"] == "GC" else None
    return CardUse(found["type"], found["number"], token, "M", "N", giftcard=gift)


def terminal_of(call: HostCall) -> str:
    """LG ``device.terminalId``, DCC ``device.serialNumber``, DCP either or the default pad."""
    device = call.body.get("device")
    if device is not None and not isinstance(device, dict):
        raise invalid_field("device", "must be an object")
    return terminals.terminal_id_for(call.option, call.body)


async def resolve_card(call: HostCall, amount: Decimal, purpose: str,
                       with_tip: bool) -> tuple[CardUse, Decimal | None]:
    """The card from the body (keyed number or token), or read by the option's PIN pad."""
    body = call.body
    card = body.get("card")
    if card is not None and not isinstance(card, dict):
        raise invalid_field("card", "must be an object")
    card = card or {}
    present = card.get("present", "N")
    if card.get("number") is not None:
        use = _keyed(call, card["number"], str(card.get("entryMode") or "M"), str(present))
        security = get(body, "card.securityCode.value")
        use.security_code = str(security) if security is not None else None
        return use, None
    if get(body, "card.token.value") is not None:
        return from_token(call, get(body, "card.token.value")), None
    if call.option == "HD":
        raise missing_field("card.number")
    terminal_id = terminal_of(call)
    tip_request: dict[str, Any] | None = None
    if with_tip:
        # LG's gateway prompts for a tip by its own settings, unless the POS already sends one
        # (amount.tip: the tip was keyed or taken); the controllers only when asked
        if call.option in ("DCP", "DCC"):
            tip_request = body.get("tip")
        elif get(body, "amount.tip") is None:
            tip_request = {}
        if tip_request is not None and not isinstance(tip_request, dict):
            raise invalid_field("tip", "must be an object")
    terminal = call.state.terminals.get(terminal_id)
    try:
        read = await terminal.read_card(amount=amount, purpose=purpose, tip=tip_request)
    except (TerminalCancelled, TerminalTimeout, terminals.TerminalBusy,
            terminals.TerminalUnavailable) as exc:
        raise terminals.prompt_fault(exc, terminal_id) from None
    use = _keyed(call, read.number, read.entry_mode, "Y")
    use.terminal_id = terminal_id
    use.security_code = read.security_code
    use.postal_code = read.postal_code
    tip = Decimal(read.tip) if read.tip is not None and Decimal(read.tip) > 0 else None
    return use, tip


# ---- records and answers -----------------------------------------------------------------------
def _codes(call: HostCall) -> tuple[str, str]:
    """A fresh authorization code (6) and retrieval reference (12)."""
    n = call.state.next_sequence("approval")
    alphabet = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    x, code = n * 7919 + 104729, ""
    for _ in range(4):
        x, r = divmod(x, len(alphabet))
        code += alphabet[r]
    day = datetime.fromtimestamp(call.state.clock.now()).strftime("%y%j")
    return "OK" + code, f"{day}{n % 10_000_000:07d}"


def new_record(call: HostCall, invoice: str, kind: str, card: CardUse, requested: Decimal) -> dict[str, Any]:
    body = call.body
    amount = body.get("amount") if isinstance(body.get("amount"), dict) else {}
    record: dict[str, Any] = {
        "invoice": invoice, "kind": kind, "state": "error", "approvedAmount": "0",
        "requestedAmount": str(requested), "responseCode": "e", "authSource": "E",
        "saleFlag": SALE_FLAGS[kind], "card": card.record(), "clerk": get(body, "clerk.numericId"),
        "businessDate": business_date(call), "createdAt": call.state.clock.now(),
        "dateTime": body.get("dateTime") if isinstance(body.get("dateTime"), str) else now_text(call),
        "refundedAmount": "0",
    }
    for part in ("tax", "cashback", "surcharge"):
        if isinstance(amount, dict) and amount.get(part) is not None:
            record[part] = str(amount[part])
    if card.terminal_id is not None:
        record["terminalId"] = card.terminal_id
    if get(body, "transaction.authType") == "1":
        record["finalAuth"] = True
    customer = body.get("customer")
    if isinstance(customer, dict):
        names = {k: customer[k] for k in ("firstName", "lastName") if isinstance(customer.get(k), str)}
        if names:
            record["customer"] = names
    return record


def receipt(record: dict[str, Any]) -> list[dict[str, str]]:
    code = record.get("responseCode", "")
    text = {"A": "APPROVED", "C": "APPROVED", "P": "PARTIAL APPROVAL", "D": "DECLINED",
            "R": "CALL FOR AUTHORIZATION", "f": "AVS/CSC FAILURE", "S": "PIN REQUIRED",
            "e": "ERROR"}.get(code, code)
    card = record.get("card", {})
    lines = [{"key": "MaskedPAN", "printName": "CARD", "printValue": card.get("number", "")},
             {"key": "CardEntryMode", "printName": "ENTRY METHOD",
              "printValue": ENTRY_NAMES.get(card.get("entryMode", ""), "MANUAL")},
             {"key": "TransactionResponse", "printName": "Response", "printValue": text}]
    if record.get("authorizationCode") and code in ("A", "C", "P", "f"):
        lines.append({"key": "AuthorizationCode", "printName": "AUTH",
                      "printValue": record["authorizationCode"]})
    return lines


def answer(call: HostCall, record: dict[str, Any], *, response_code: str | None = None,
           total: Decimal | None = None, with_device: bool = True, brief: bool = False,
           extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """``result[0]`` for a record, shaped like the vendor's examples."""
    code = response_code if response_code is not None else record["responseCode"]
    shown_total = total if total is not None else Decimal(record["approvedAmount"])
    amount: dict[str, Any] = {"total": money(shown_total)}
    for part in ("tax", "tip", "cashback", "surcharge"):
        if record.get(part) is not None:
            amount[part] = money(Decimal(record[part]))
    card_rec = record.get("card", {})
    card: dict[str, Any] = {"type": card_rec.get("type", "VS"), "number": card_rec.get("number", ""),
                            "entryMode": card_rec.get("entryMode", "M"),
                            "token": {"value": card_rec.get("token", "")}}
    if not brief:
        card["present"] = card_rec.get("present", "N")
    transaction: dict[str, Any] = {"invoice": record["invoice"], "responseCode": code,
                                   "authSource": record.get("authSource", "E"),
                                   "saleFlag": record["saleFlag"]}
    if record.get("authorizationCode") and code in ("A", "C", "P", "f"):
        transaction["authorizationCode"] = record["authorizationCode"]
    if record.get("hostResponse") and code == "D":
        transaction["hostResponse"] = dict(record["hostResponse"])
    if record.get("deferredAuth") and code in ("A", "P"):
        transaction["deferredAuth"] = record["deferredAuth"]
    result: dict[str, Any] = {
        "dateTime": call.body.get("dateTime") if isinstance(call.body.get("dateTime"), str)
        else now_text(call),
        "amount": amount, "card": card,
        "merchant": {"mid": call.config.merchant_id, "name": call.config.merchant_name},
        "receipt": receipt({**record, "responseCode": code}),
        "server": {"name": SERVER_NAME},
        "transaction": transaction,
    }
    if record.get("clerk") is not None:
        result["clerk"] = {"numericId": record["clerk"]}
    if not brief:
        if record.get("retrievalReference"):
            transaction["retrievalReference"] = record["retrievalReference"]
        if record.get("avs"):
            transaction["avs"] = dict(record["avs"])
        if record.get("csc"):
            card["securityCode"] = dict(record["csc"])
        if record.get("balance") is not None:
            card["balance"] = {"amount": money(Decimal(record["balance"]))}
        if record.get("customer"):
            result["customer"] = dict(record["customer"])
        if with_device and record.get("terminalId") and call.option != "HD":
            result["device"] = {"terminalId": record["terminalId"]}
    result.update(extra or {})
    return result


def _error_fault(problem: triggers.CardProblem, record: dict[str, Any] | None,
                 book: dict[str, dict[str, Any]]) -> HostFault:
    """Host errors leave an ``error`` record that GET reports; timeouts leave nothing."""
    if record is not None and problem.http_status != 504:
        record.update(state="error", responseCode="e", approvedAmount="0")
        book[record["invoice"]] = record
    return _problem_fault(problem)


async def _wait(call: HostCall, seconds: float) -> None:
    if seconds > 0:
        await asyncio.sleep(seconds * call.config.delay_scale)


def _live(book: dict[str, dict[str, Any]], invoice: str) -> dict[str, Any] | None:
    record = book.get(invoice)
    return record if record is not None and record["state"] in LIVE else None


# ---- sale and authorization ------------------------------------------------------------------
async def _payment(call: HostCall, kind: str) -> dict[str, Any]:
    body = call.body
    invoice = invoice_of(body)
    total = total_of(body)
    clerk_of(body)
    options = api_options(body)
    book = ledger(call)
    auth_type = get(body, "transaction.authType")
    if auth_type is not None and auth_type not in ("1", "2"):
        raise invalid_field("transaction.authType", "must be 1 (final) or 2 (pre-authorization)")
    live = _live(book, invoice)
    if live is not None and live["state"] == "refund":
        raise duplicate_invoice(invoice)
    if live is not None:
        # an incremental authorization is this too: a token body on an open invoice whose
        # amount.total is the new total (the vendor body carries no other marker)
        token = get(body, "card.token.value")
        if token is not None and token != live["card"].get("token"):
            raise token_not_found(str(token), call.config.merchant_id)
        return await _amend(call, live, kind, total, options)

    card, tip = await resolve_card(call, total, kind, with_tip=True)
    if tip is not None:
        total += tip
    record = new_record(call, invoice, kind, card, total)
    if tip is not None:
        record["tip"] = str(tip)
    if call.option in ("LG", "DCP") and host_mode.is_offline(call.state):
        return _offline_payment(call, record, card, options, book)
    if card.giftcard is not None:
        return _gift_payment(call, record, card.giftcard, options, book)
    if card.number is not None and triggers.needs_online_pin(card.number, card.entry_mode):
        record.update(state="declined", responseCode="S")
        book[invoice] = record
        return answer(call, record, total=total)
    outcome = triggers.amount_outcome(total, total, kind=kind,
                                      partial_allowed="ALLOWPARTIALAUTH" in options)
    await _wait(call, outcome.delay_s)
    if outcome.error is not None:
        raise _error_fault(outcome.error, record, book)
    code = outcome.response_code
    avs = triggers.avs_result(get(body, "customer.addressLine1") or None,
                              get(body, "customer.postalCode") or card.postal_code)
    csc = triggers.csc_result(card.security_code)
    if avs is not None:
        record["avs"] = {"result": avs[0], "valid": "N" if avs[1] else "Y"}
    if csc is not None:
        record["csc"] = {"result": csc[0], "valid": "N" if csc[1] else "Y"}
    failed_checks = (avs is not None and avs[1]) or (csc is not None and csc[1])
    if code in ("A", "P") and failed_checks:
        # One-pass AVS/CSC failure: 'f' leaves the approval for the POS to keep or void;
        # without POSHANDLEAVSFAIL the host declines (and reverses) it itself.
        code = "f" if "POSHANDLEAVSFAIL" in options else "D"
    record["responseCode"] = code
    if outcome.balance is not None:
        record["balance"] = str(outcome.balance)
    if code in ("A", "P", "f"):
        auth_code, reference = _codes(call)
        record.update(state="authorized" if kind == "authorization" else "sale",
                      approvedAmount=str(money(outcome.approved)), authorizationCode=auth_code,
                      retrievalReference=reference)
        book[invoice] = record
        return answer(call, record)
    record.update(state="referral" if code == "R" else "declined", approvedAmount="0")
    book[invoice] = record
    return answer(call, record, total=total)


def _offline_payment(call: HostCall, record: dict[str, Any], card: CardUse, options: frozenset[str],
                     book: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Offline mode: the gateway approves and stores a card payment (``host_mode``). A gift
    card's balance lives at the host, so offline it is declined (decision)."""
    if card.giftcard is not None:
        record.update(state="declined", responseCode="D", authSource="O")
        book[record["invoice"]] = record
        return answer(call, record, total=Decimal(record["requestedAmount"]))
    host_mode.approve_offline(call.state, record, options)
    auth_code, reference = _codes(call)
    record.update(state="authorized" if record["kind"] == "authorization" else "sale",
                  authorizationCode=auth_code, retrievalReference=reference)
    book[record["invoice"]] = record
    return answer(call, record)


def _gift_payment(call: HostCall, record: dict[str, Any], key: str, options: frozenset[str],
                  book: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A gift card pays by sale: its balance decides (no amount triggers), see
    docs/decisions/002-sandbox.md."""
    if record["kind"] != "sale":
        raise HostFault(9000, "NOT SUPPORTED", "A gift card pays by sale; it cannot be authorized",
                        code=40600)
    total = Decimal(record["requestedAmount"])
    spent = giftcards.spend(call.state, key, total, record["invoice"],
                            partial_allowed="ALLOWPARTIALAUTH" in options)
    record.update(giftcard=key, balance=str(money(spent.balance)), responseCode=spent.response_code)
    if spent.response_code == "D":
        record.update(state="declined", hostResponse=spent.host_response)
        book[record["invoice"]] = record
        return answer(call, record, total=total)
    auth_code, reference = _codes(call)
    record.update(state="sale", approvedAmount=str(money(spent.taken)), authorizationCode=auth_code,
                  retrievalReference=reference)
    book[record["invoice"]] = record
    return answer(call, record)


def _gift_more(call: HostCall, live: dict[str, Any], total: Decimal,
               options: frozenset[str]) -> dict[str, Any]:
    """A gift card sale raised on its invoice: the card's balance pays the difference."""
    approved = Decimal(live["approvedAmount"])
    spent = giftcards.spend(call.state, live["giftcard"], total - approved, live["invoice"],
                            partial_allowed="ALLOWPARTIALAUTH" in options)
    live["balance"] = str(money(spent.balance))
    if spent.response_code == "D":
        return answer(call, {**live, "hostResponse": spent.host_response}, response_code="D",
                      total=total)
    live.update(approvedAmount=str(money(approved + spent.taken)), responseCode=spent.response_code,
                requestedAmount=str(total), updatedAt=call.state.clock.now())
    return answer(call, live)


async def _amend(call: HostCall, live: dict[str, Any], kind: str, total: Decimal,
                 options: frozenset[str]) -> dict[str, Any]:
    """Same invoice again: never approve twice, seek only what is above the amount on file."""
    approved = Decimal(live["approvedAmount"])
    if kind == "sale" and live["state"] == "authorized":
        live["state"] = "sale"  # a sale on an open authorization captures it
        live["saleFlag"] = "S"
    if total <= approved:
        return answer(call, live)
    if live.get("giftcard"):
        return _gift_more(call, live, total, options)
    return await _seek_more(call, live, total, total - approved, options, kind)


async def _seek_more(call: HostCall, live: dict[str, Any], total: Decimal, sought: Decimal,
                     options: frozenset[str], kind: str,
                     trigger: Decimal | None = None) -> dict[str, Any]:
    """Seek approval for ``sought`` more; ``trigger`` is the amount the test triggers read."""
    if live.get("finalAuth"):
        raise invalid_amount("a final authorization cannot be raised")
    outcome = triggers.amount_outcome(total if trigger is None else trigger, sought, kind=kind,
                                      partial_allowed="ALLOWPARTIALAUTH" in options)
    await _wait(call, outcome.delay_s)
    if outcome.error is not None:
        raise _problem_fault(outcome.error)  # the approval on file stands
    if outcome.response_code in ("A", "P"):
        new_total = Decimal(live["approvedAmount"]) + outcome.approved
        live.update(approvedAmount=str(money(new_total)), responseCode=outcome.response_code,
                    requestedAmount=str(total), updatedAt=call.state.clock.now())
        return answer(call, live)
    # declined or referral for the extra amount: the approval on file stands
    return answer(call, live, response_code=outcome.response_code, total=total)


@FAMILY.route("POST", "/transactions/sale")
async def sale(call: HostCall) -> dict[str, Any]:
    return await _payment(call, "sale")


@FAMILY.route("POST", "/transactions/authorization")
async def authorization(call: HostCall) -> dict[str, Any]:
    return await _payment(call, "authorization")


# ---- capture -------------------------------------------------------------------------------
@FAMILY.route("POST", "/transactions/capture")
async def capture(call: HostCall) -> dict[str, Any]:
    body = call.body
    invoice = invoice_of(body)
    total = total_of(body)
    clerk_of(body)
    token = require(body, "card.token.value")
    book = ledger(call)
    record = book.get(invoice)
    if record is None or record["state"] not in ("authorized", "sale") \
            or record["kind"] not in ("authorization", "manualauthorization"):
        raise invoice_not_found(invoice)
    if record["card"].get("token") != token:
        raise token_not_found(str(token), call.config.merchant_id)
    approved = Decimal(record["approvedAmount"])
    if total == 0:
        if record["state"] != "authorized":
            raise invalid_amount("0 voids an open authorization only; this one is captured")
        record.update(state="voided", voidedAt=call.state.clock.now(), reversalReason="capture 0")
        return answer(call, record, total=Decimal(0))
    if record.get("finalAuth") and total != approved:
        raise invalid_amount(f"a final authorization is captured for exactly {money(approved)}")
    if record["state"] == "sale":  # a capture sent again: answer what is on file, or seek more
        if total <= approved:
            return answer(call, record)
        return await _seek_more(call, record, total, total - approved, api_options(body), "capture")
    record.update(state="sale", capturedAt=call.state.clock.now(), saleFlag="S")
    tip = get(body, "amount.tip")
    if tip is not None:
        record["tip"] = str(tip)
    if total <= approved:
        record.update(approvedAmount=str(money(total)), responseCode="A")
        return answer(call, record)
    return await _seek_more(call, record, total, total - approved, api_options(body), "capture")


# ---- refund --------------------------------------------------------------------------------
@FAMILY.route("POST", "/transactions/refund")
async def refund(call: HostCall) -> dict[str, Any]:
    body = call.body
    invoice = invoice_of(body)
    total = total_of(body)
    clerk_of(body)
    book = ledger(call)
    original_invoice = get(body, "transaction.originalInvoice")
    original: dict[str, Any] | None = None
    if original_invoice is not None:
        if not isinstance(original_invoice, str) or not _INVOICE.match(original_invoice):
            raise invalid_field("transaction.originalInvoice", "must be a string of 1 to 10 digits")
        original = book.get(original_invoice)
        if original is None or original["state"] not in ("sale", "batched"):
            raise invoice_not_found(original_invoice)
    live = _live(book, invoice)
    if live is not None and live["state"] != "refund":
        raise duplicate_invoice(invoice)
    already = Decimal(live["approvedAmount"]) if live is not None else Decimal(0)
    if live is not None and total <= already:
        return answer(call, live)
    if original is not None:
        refundable = Decimal(original["approvedAmount"]) - Decimal(original.get("refundedAmount", "0"))
        if total - already > refundable:
            raise invalid_amount(f"exceeds the {money(refundable)} left to refund on invoice "
                                 f"{original_invoice}")
    outcome = triggers.amount_outcome(total, total - already, kind="refund", partial_allowed=False)
    if live is not None:
        if outcome.response_code != "A":
            return answer(call, live, response_code=outcome.response_code, total=total)
        if live.get("giftcard"):
            live["balance"] = str(money(giftcards.give_back(call.state, live["giftcard"],
                                                            total - already, invoice, "Refund")))
        live.update(approvedAmount=str(money(total)), requestedAmount=str(total))
        record = live
    else:
        if original is not None:
            card = CardUse.from_record(original["card"])  # a linked refund uses the card on file
            card.giftcard = original.get("giftcard")
        else:
            card, _ = await resolve_card(call, total, "refund", with_tip=False)
        record = new_record(call, invoice, "refund", card, total)
        if card.giftcard is not None and outcome.response_code == "A":
            # a refund to a gift card reloads it
            record.update(giftcard=card.giftcard, balance=str(money(giftcards.give_back(
                call.state, card.giftcard, total, invoice, "Refund"))))
        record["state"] = "refund" if outcome.response_code == "A" else "declined"
        record["responseCode"] = outcome.response_code
        if original is not None:
            record["originalInvoice"] = original_invoice
        if outcome.response_code == "A":
            auth_code, reference = _codes(call)
            record.update(approvedAmount=str(money(total)), authorizationCode=auth_code,
                          retrievalReference=reference)
        book[invoice] = record
        if outcome.response_code != "A":
            return answer(call, record, total=total)
    if original is not None:
        refunded = Decimal(original.get("refundedAmount", "0")) + (total - already)
        original["refundedAmount"] = str(money(refunded))
    return answer(call, record)


# ---- invoice: status and void --------------------------------------------------------------------
def header_invoice(call: HostCall) -> str:
    invoice = call.header("Invoice")
    if not invoice:
        raise missing_field("Invoice")
    if not _INVOICE.match(invoice):
        raise invalid_field("Invoice", "must be 1 to 10 digits")
    return invoice


def _check_token_header(call: HostCall, record: dict[str, Any]) -> None:
    token = call.header("Token")
    if token and token != record["card"].get("token"):
        raise token_not_found(token, call.config.merchant_id)


@FAMILY.route("GET", "/transactions/invoice")
async def invoice_status(call: HostCall) -> dict[str, Any]:
    invoice = header_invoice(call)
    record = ledger(call).get(invoice)
    if record is None or record["state"] not in VISIBLE:
        raise invoice_not_found(invoice)
    _check_token_header(call, record)
    total = Decimal(record["approvedAmount"]) if record["state"] in LIVE \
        else Decimal(record["requestedAmount"])
    result = answer(call, record, total=total, brief=True)
    result["dateTime"] = record.get("dateTime") or now_text(call)
    return result


def refunded_void(invoice: str, refunded: Decimal) -> HostFault:
    """A void of a sale refunded in part would give the refunded part back twice: refused with
    the vendor's 50100 "Transaction failed, invalid status" (docs/decisions/004-journal-and-flows.md, "Money
    and authority, round 4 (issue #46): refunds"); the rest is refunded instead."""
    return HostFault(9000, "Tran Failed", f"Transaction failed, invalid status: invoice {invoice} "
                     f"was refunded ({money(refunded)}); refund the rest instead",
                     severity="Error", code=50100)


@FAMILY.route("DELETE", "/transactions/invoice")
async def void(call: HostCall) -> dict[str, Any]:
    invoice = header_invoice(call)
    reason = call.header("ReversalReason")
    if reason is not None and reason not in {f"0{i}" for i in range(1, 10)}:
        raise invalid_field("ReversalReason", "must be 01 to 09")
    book = ledger(call)
    record = _live(book, invoice)
    if record is None:
        raise invoice_not_found(invoice)
    _check_token_header(call, record)
    refunded = Decimal(record.get("refundedAmount") or "0")
    if record["state"] != "refund" and refunded > 0:
        raise refunded_void(invoice, refunded)
    if record.get("giftcard"):
        # a gift card sale's money goes back on the card; a refund's comes off it again
        approved = Decimal(record["approvedAmount"])
        if record["state"] == "refund":
            left = giftcards.take_back(call.state, record["giftcard"], approved, invoice)
        else:
            left = giftcards.give_back(call.state, record["giftcard"], approved, invoice, "Void")
        record["balance"] = str(money(left))
    record.update(state="voided", voidedAt=call.state.clock.now(), reversalReason=reason or "")
    original = book.get(record.get("originalInvoice") or "")
    if original is not None:
        back = Decimal(original.get("refundedAmount", "0")) - Decimal(record["approvedAmount"])
        original["refundedAmount"] = str(money(max(back, Decimal(0))))
    result = answer(call, record, response_code="A", brief=True)
    result.pop("clerk", None)
    result["amount"] = {"total": money(Decimal(record["approvedAmount"]))}
    return result


# ---- manual (offline) authorization and sale -------------------------------------------------------
async def _manual(call: HostCall, kind: str) -> dict[str, Any]:
    """No processor approval. Decision: an authorization code is required only when the amount
    exceeds the amount on file for the invoice (0 when there is none, as after a referral)."""
    body = call.body
    invoice = invoice_of(body)
    total = total_of(body)
    clerk_of(body)
    book = ledger(call)
    existing = book.get(invoice)
    live = _live(book, invoice)
    if live is not None and live["state"] == "refund":
        raise duplicate_invoice(invoice)
    on_file = Decimal(live["approvedAmount"]) if live is not None else Decimal(0)
    code = get(body, "transaction.authorizationCode")
    if live is not None and total <= on_file:
        if kind == "manualsale" and live["state"] == "authorized":
            live.update(state="sale", saleFlag="S")
        return answer(call, live)
    if not code:
        raise HostFault(9000, "MISSING FIELD",
                        f"transaction.authorizationCode is required: {money(total)} exceeds the "
                        f"{money(on_file)} on file for invoice {invoice}", code=40102)
    if live is not None:
        card = CardUse.from_record(live["card"], live.get("terminalId"))
    elif body.get("card") is None and existing is not None and existing["state"] == "referral":
        card = CardUse.from_record(existing["card"], existing.get("terminalId"))
    else:
        card, _ = await resolve_card(call, total, kind, with_tip=False)
        if card.giftcard is not None:
            raise HostFault(9000, "NOT SUPPORTED", "A gift card has no voice authorization; "
                            "its balance decides a sale", code=40600)
    record = live if live is not None else new_record(call, invoice, kind, card, total)
    record.update(state="authorized" if kind == "manualauthorization" else "sale",
                  approvedAmount=str(money(total)), responseCode="A", authSource="O",
                  authorizationCode=str(code).upper()[:6], requestedAmount=str(total),
                  saleFlag=SALE_FLAGS[kind])
    if "retrievalReference" not in record:
        record["retrievalReference"] = _codes(call)[1]
    book[invoice] = record
    return answer(call, record)


@FAMILY.route("POST", "/transactions/manualauthorization")
async def manual_authorization(call: HostCall) -> dict[str, Any]:
    return await _manual(call, "manualauthorization")


@FAMILY.route("POST", "/transactions/manualsale")
async def manual_sale(call: HostCall) -> dict[str, Any]:
    return await _manual(call, "manualsale")


# ---- signature -------------------------------------------------------------------------------
SIGNATURE_FORMATS = frozenset({"P", "PNG"})  # decision: the vendor enum is "P"; "PNG" is accepted


@FAMILY.route("POST", "/transactions/signature", "HD LG")
async def signature(call: HostCall) -> dict[str, Any]:
    body = call.body
    invoice = invoice_of(body)
    require_object(body, "signature")
    data = require(body, "signature.data")
    fmt = require(body, "signature.format")
    if fmt not in SIGNATURE_FORMATS:
        raise invalid_field("signature.format", "must be P (PNG)")
    if not isinstance(data, str) or len(data) > 4_194_304:
        raise invalid_field("signature.data", "must be base64 text of at most 4194304 characters")
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise invalid_field("signature.data", "must be base64") from None
    record = _live(ledger(call), invoice)
    if record is None:
        raise invoice_not_found(invoice)
    record["signature"] = {"bytes": len(raw), "format": "P"}
    return {"dateTime": body.get("dateTime") or now_text(call),
            "merchant": {"mid": call.config.merchant_id, "name": call.config.merchant_name},
            "server": {"name": SERVER_NAME},
            "transaction": {"invoice": invoice, "saleFlag": record["saleFlag"]}}
