"""The window's words for payments (kinds, states, reasons) and its view of the receipt: the
receipt itself is the core's one layout (``cashier.printing.receipt``), shown as it prints."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import QLocale

from ui.i18n import format_money, tr

WIDTH = 32
#: A ticket tender's kind as the counter words it (translated where shown).
TENDER_TITLES = {"card": "Card", "giftcard": "Gift card", "qr": "QR", "cash": "Cash"}


def cash_words(given: Decimal, taken: Decimal, change: Decimal | None, currency: str) -> str:
    """Cash handed over, as one sentence in the window's language: what the customer gave, what
    the till took and the change. The one wording of it on screen (the Sale screen's ticket panel
    and result, the Journal's details); the receipt's rows say the same in its words (``Cash
    given``, ``Change``: ``cashier.printing.receipt.WORDS``)."""
    return tr("Cash {given} given, {taken} taken, change {change}").format(
        given=format_money(given, currency), taken=format_money(taken, currency),
        change=format_money(change if change is not None else Decimal(0), currency))


def receipt_lines(entry: Any, company: str, till: str) -> list[str]:
    """A payment's receipt on screen (and on the PIN pad's printer from a page): the core's one
    layout, in the window's language."""
    from cashier.printing.receipt import ReceiptStyle, entry_receipt

    return entry_receipt(entry, ReceiptStyle(company=company, till_id=till, width=WIDTH,
                                             language=receipt_language()))


def ticket_receipt_lines(ticket: Any, company: str, till: str) -> list[str]:
    """A ticket's receipt on screen: the core's one layout, in the window's language."""
    from cashier.printing.receipt import ReceiptStyle, ticket_receipt

    return ticket_receipt(ticket, ReceiptStyle(company=company, till_id=till, width=WIDTH,
                                               language=receipt_language()))


def receipt_language() -> str:
    """The window's language as the receipts speak it (en or es)."""
    return "es" if QLocale().language() == QLocale.Language.Spanish else "en"


def kind_name(kind: str) -> str:
    names = {"sale": tr("Sale"), "authorization": tr("Tab (authorization)"), "refund": tr("Refund"),
             "manual_sale": tr("Manual sale"), "manual_authorization": tr("Manual authorization"),
             "giftcard_activate": tr("Gift card activation"), "giftcard_reload": tr("Gift card reload"),
             "giftcard_allocate": tr("Gift card allocation"), "giftcard_cashback": tr("Gift card cash-out"),
             "giftcard_deactivate": tr("Gift card deactivation"),
             "giftcard_reactivate": tr("Gift card reactivation"), "giftcard_sale": tr("Gift card sale"),
             "qr": tr("QR payment"), "charge": tr("Card-not-present charge"), "cash": tr("Cash")}
    return names.get(kind, kind)


def state_name(state: str) -> str:
    """Every journal state in words a cashier understands (UNKNOWN is never 'failed')."""
    names = {"intent": tr("Starting"), "sent": tr("Sent, waiting for the host"),
             "approved": tr("Approved"), "declined": tr("Declined"),
             "error": tr("Not charged (error)"), "unknown": tr("Checking with the host"),
             "voiding": tr("Voiding"), "voided": tr("Voided"), "captured": tr("Captured"),
             "taken": tr("Taken"), "given_back": tr("Given back"),
             # the core's shown states (``entry_rules.shown_state``)
             "cancelled": tr("Cancelled"), "refunded": tr("Refunded"),
             "declined_on_forward": tr("Declined when sent on (stored offline): collect it")}
    return names.get(state, state)


def reason_text(reason: Any, currency: str = "USD") -> str:
    """What happened and what to do, in the cashier's words, for a case the core named
    (``cashier.entry_rules.reason``); the host's own text stays in the journal's details."""
    if reason is None:
        return ""
    if reason.partial:
        return tr("Approved for only %s: collect the remaining %s another way.") % (
            format_money(reason.approved, currency), format_money(reason.rest, currency))
    words = {
        "declined": tr("Declined by the card's bank. Ask for another card or another way to pay."),
        "referral": tr("The bank wants a phone call. Ask for another card, or call the bank for an "
                       "approval code."),
        "address_or_code": tr("The address or security code did not match: not charged. Check them "
                              "with the customer or ask for another card."),
        "risk_declined": tr("Refused by the payment host's fraud rules: not charged. Ask for another "
                            "way to pay."),
        "cancelled": tr("Cancelled on the PIN pad: not charged."),
        "pinpad_busy": tr("The PIN pad was busy with another payment: not charged. Wait for it, "
                          "then try again."),
        "pinpad_error": tr("The PIN pad reported a problem: not charged. Try again; if it repeats, "
                           "restart the PIN pad."),
        "card_not_accepted": tr("This card is not accepted here: not charged. Ask for another card."),
        "bad_card_number": tr("The card number is not valid: not charged. Check it or ask for another "
                              "card."),
        "no_card": tr("No card was read: not charged. Ask the customer to present the card again."),
        "no_pin": tr("No PIN was entered: not charged. Try again and ask the customer for the PIN."),
        "split_tender": tr("Not enough on the card: take part of the amount another way."),
        "no_such_invoice": tr("The host has no record of this payment: nothing was charged."),
        "duplicate": tr("The host already has this payment: check the journal before trying again."),
        "timeout": tr("No answer from the host in time: the till is checking whether it went "
                      "through. Do not take the payment another way yet."),
        "checking": tr("Checking with the host: do not take the payment another way yet."),
        "host_unreachable": tr("The payment host cannot be reached: not charged. Try again in a "
                               "moment, or use offline mode (Manager)."),
        "not_sent": tr("The request never reached the host: not charged. It is safe to try again."),
        "offline_now": tr("The payment host cannot be reached: not charged. The till is offline now "
                          "and stores card payments: present the card again."),
        "host_away_no_store": tr("The payment host cannot be reached: not charged. Take cash, or a "
                                 "manager takes a manual sale with a voice authorization code."),
        "declined_on_forward": tr("Stored while the host was away, then declined by the host: not "
                                  "charged. Reach the customer and collect it."),
        "bad_request": tr("The till sent something the host refused: not charged. Tell the manager."),
        "bad_amount": tr("The host refused this amount: not charged. Check the amount."),
        "token": tr("The saved card is no longer valid: not charged. Ask for the card."),
        "not_allowed": tr("This till is not allowed to do that: not charged. Tell the manager."),
        "misconfigured": tr("The till's setup is wrong: not charged. Tell the manager (support)."),
        "host_error": tr("The payment host reported an error: not charged. Try again; the details "
                         "are in the journal."),
    }
    return words.get(reason.case, words["host_error"])
