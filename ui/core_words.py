"""The core's refusals in the cashier's words and language.

The core words each refusal once, in English, as "field: rule" (the command line prints it as it
is). The window says the ones a cashier meets at the counter as a sentence in the window's
language, from the refusal's own parts (the field, the rule, the action and amount a manager must
approve); a refusal it has no words for is shown as the core said it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from cashier.errors import ManagerNeeded, ValidationError
from ui.i18n import format_money, tr


def _field_names() -> dict[str, str]:
    return {"amount": tr("Amount"), "tip": tr("Tip"), "tax": tr("Tax"), "pin": tr("PIN"),
            "manager": tr("Manager"), "clerk": tr("Clerk"), "reason": tr("Reason"),
            "float": tr("Float"), "counted": tr("Counted cash"), "card": tr("Card"),
            "invoice": tr("Invoice"), "ticket": tr("Ticket"), "line": tr("Line"),
            "cash": tr("Cash")}


def _rules() -> dict[str, str]:
    return {
        "must be greater than zero": tr("must be greater than zero"),
        "must not be negative": tr("must not be negative"),
        "is empty: type an amount such as 12.50": tr("is empty: type an amount such as 12.50"),
        "must have at most one decimal point": tr("must have at most one decimal point"),
        "must not contain separators (commas, underscores, spaces): type 1234.50":
            tr("must not contain separators (commas, underscores, spaces): type 1234.50"),
        "must be a number such as 12.50 (digits 0-9 and at most one decimal point)":
            tr("must be a number such as 12.50 (digits 0-9 and at most one decimal point)"),
        "must not use an exponent (1E+2): type the amount in full":
            tr("must not use an exponent (1E+2): type the amount in full"),
        "must use the digits 0-9 only (full-width or other-script digits are refused)":
            tr("must use the digits 0-9 only (full-width or other-script digits are refused)"),
        "has no lines: add an item or an amount first": tr("has no lines: add an item or an amount first"),
        # the counter's refusals with figures in them (``ValidationError.template``)
        "open the drawer first: there is no open cash drawer session at this till":
            tr("the drawer is closed: open it first on the Drawer screen (Ctrl+9)"),
        "the drawer is counted and waiting for a manager to close it: open the drawer again first":
            tr("the drawer is counted and waiting for a manager to close it: open the drawer "
               "again first"),
        "ticket {ticket} is {state}, not open": tr("ticket {ticket} is {state}, not open"),
        "a tender has been applied: cancel the ticket to change its lines":
            tr("a tender has been applied: cancel the ticket to change its lines"),
        "there is no such line on the ticket": tr("there is no such line on the ticket"),
        # parked tickets (issue #39)
        "has no lines: there is nothing to park": tr("has no lines: there is nothing to park"),
        "a tender has been applied: finish or cancel the ticket instead of parking it":
            tr("a tender has been applied: finish or cancel the ticket instead of parking it"),
        "ticket {ticket} is already parked": tr("ticket {ticket} is already parked"),
        "ticket {ticket} is not parked": tr("ticket {ticket} is not parked"),
        "ticket {ticket} is on the counter: park it or finish it first":
            tr("ticket {ticket} is on the counter: park it or finish it first"),
        "there is no open ticket to park": tr("there is no open ticket to park"),
        "a ticket has at most {most} lines": tr("a ticket has at most {most} lines"),
        "the ticket's total must be at most {limit}": tr("the ticket's total must be at most {limit}"),
        "the tip was already taken for this ticket": tr("the tip was already taken for this ticket"),
        "key the tip before the first tender": tr("key the tip before the first tender"),
        "ticket {ticket}: a tender is still being checked with the host: wait for its outcome":
            tr("ticket {ticket}: a tender is still being checked with the host: wait for its "
               "outcome"),
        "a tender is still being checked with the host: wait for its outcome before another tender":
            tr("a tender is still being checked with the host: wait for its outcome before "
               "another tender"),
        # the core names the profile's setting for the command line; the counter says the limit
        "must be at most {limit} (this till's max_amount)":
            tr("must be at most {limit} (this till's limit for one payment)"),
        "amount and tip together must be at most {limit} (this till's max_amount)":
            tr("amount and tip together must be at most {limit} (this till's limit for one "
               "payment)"),
        "{tendered} is more than the {remaining} that remains by {over}: at most {largest_note} "
        "(this till's largest_note) over":
            tr("{tendered} is more than the {remaining} that remains by {over}: at most "
               "{largest_note} over (the largest note this till takes)"),
        "must not be more than the amount ({amount}): a larger tip is almost always a typing "
        "slip; key it again":
            tr("must not be more than the amount ({amount}): a larger tip is almost always a "
               "typing slip; key it again"),
    }


def _ticket_states() -> dict[str, str]:
    return {"paid": tr("paid"), "cancelled": tr("cancelled"), "open": tr("open"),
            "unknown": tr("unknown")}


def _filled(rule: str, params: dict[str, object], currency: str) -> str:
    """A rule's figures in the window's words: amounts as money, a ticket's state translated."""
    shown: dict[str, str] = {}
    for name, value in params.items():
        if isinstance(value, Decimal):
            shown[name] = format_money(value, currency)
        elif name == "state":
            shown[name] = _ticket_states().get(str(value), str(value))
        else:
            shown[name] = str(value)
    return rule.format(**shown)


def _sign_in() -> dict[str, str]:
    """Whole core lines a cashier or a manager meets at the drawer and the counter."""
    return {
        "drawer: no open drawer session (open one with a float first)":
            tr("No drawer is open: open it with a float on the Drawer screen (Ctrl+9)."),
        "drawer: a session is already open at this till (close it before opening another)":
            tr("A drawer is already open at this till: close it before opening another."),
        "drawer: the session is counted and waiting for a manager to close it":
            tr("The drawer is counted and waits for a manager to close it."),
        "reason: is required (say what the cash is for)":
            tr("Reason: say what the cash is for."),
        "printer: this till has no [printer] url in its profile":
            tr("This till has no receipt printer in its profile."),
        "session: no closed drawer session yet (a Z report comes with the close)":
            tr("No drawer has been closed yet: a Z report comes with the close."),
        "pin: no clerk of this till has that PIN": tr("No clerk of this till has that PIN."),
        "pin: no manager of this till has that PIN": tr("No manager of this till has that PIN."),
        "pin: wrong manager PIN": tr("Wrong manager PIN."),
    }


def action_words(action: str) -> str:
    """An action a manager approves (``cashier.clerks.Action`` value), as a sentence's subject."""
    return {"refund": tr("A refund"), "void": tr("A void"), "cancel_ticket": tr("Cancelling a ticket"),
            "pay_in": tr("A pay-in"), "pay_out": tr("A pay-out"), "close_drawer": tr("Closing the drawer"),
            "close_batch": tr("Closing the batch"), "over_short": tr("An over/short"),
            "discount": tr("A discount"), "price_override": tr("A price override"),
            "manual_sale": tr("A manual sale")}.get(
        action, action.replace("_", " ").capitalize())


def manager_words(needed: ManagerNeeded, currency: str = "USD") -> str:
    """"Cancelling a ticket of $5.00 needs a manager's approval." in the window's language."""
    if not needed.action:
        return say(str(needed))
    what = action_words(needed.action)
    if needed.amount and needed.action == "discount":  # a percent of what it is on (issue #38)
        return tr("%s of %s %% needs a manager's approval.") % (
            what, f"{Decimal(needed.amount).normalize():f}")
    if needed.amount:
        return tr("%s of %s needs a manager's approval.") % (what, format_money(
            Decimal(needed.amount), currency))
    return tr("%s needs a manager's approval.") % what


def gift_card_words(primary: int, long_text: str) -> str | None:
    """A gift card refusal by the host, in words (its codes stay in the journal's details)."""
    if primary == 9842:
        return tr("This is not a gift card number the host knows: check the number.")
    if primary == 9846:
        return tr("The host does not know this gift card's token: key or scan the card again.")
    if primary != 9101:
        return None
    why = long_text.lower()
    if "already active" in why:
        return tr("This gift card is already active.")
    if "not deactivated" in why:
        return tr("This gift card is not deactivated: there is nothing to reactivate.")
    if "nothing to cancel" in why or "no gift card request to cancel" in why:
        return tr("There is no gift card request of this card to cancel.")
    if "cannot be cancelled" in why:
        return tr("A sale, refund or void cannot be cancelled: void it from the Journal.")
    if "not active" in why or "never activated" in why or why.strip() == "balance failed":
        return tr("This gift card is not active: activate it first (F3).")
    return tr("The host refused this gift card request.")


def error_words(exc: BaseException, currency: str = "USD") -> str:
    """A core refusal as the cashier reads it (see the module's docstring)."""
    if isinstance(exc, ManagerNeeded):
        return manager_words(exc, currency)
    primary = getattr(exc, "primary_code", None)  # a host refusal (no import: startup stays light)
    if isinstance(primary, int):
        words = gift_card_words(primary, f"{getattr(exc, 'short_text', '')} "
                                         f"{getattr(exc, 'long_text', '')}")
        if words is not None:
            return words
    if isinstance(exc, ValidationError):
        rule = _rules().get(exc.template)
        if rule is not None:
            field = _field_names().get(exc.field, exc.field.replace("_", " ").capitalize())
            return f"{field}: {_filled(rule, exc.params, currency)}"
    return say(str(exc))


def _line_patterns() -> list[tuple[str, Callable[[re.Match[str]], str]]]:
    """Core lines with a figure or a name in them (a printer's address, a store's lock), as
    patterns: the figure is kept, the words are the window's."""
    states = _ticket_states() | {"pending": tr("pending"), "expired": tr("expired"),
                                 "reversed": tr("reversed")}
    return [
        (r"manager: (\S+) is not a manager", lambda m: tr("Clerk %s is not a manager.") % m[1]),
        (r"pin: (?:this PIN prompt|clerk \S+) is locked for (\d+) s after (\d+) wrong PINs",
         lambda m: tr("Too many wrong PINs (%s): try again in %s s.") % (m[2], m[1])),
        (r"pin: other PIN checks kept the till busy: type the PIN again",
         lambda m: tr("Other PIN checks kept the till busy: type the PIN again.")),
        # the store service's refusals (``cashier.store``)
        (r"store: pin: not accepted for this store manager",
         lambda m: tr("The store did not accept this manager number and PIN.")),
        (r"store: manager (\S+): locked for (\d+) s after (\d+) wrong PINs",
         lambda m: tr("Store manager %s is locked for %s s after %s wrong PINs.")
         % (m[1], m[2], m[3])),
        (r"store: cannot reach (\S+) \((\w+)\)",
         lambda m: tr("The store service cannot be reached (%s, %s).") % (m[1], m[2])),
        (r"store: (\d+) \(the store service or its database is away\)",
         lambda m: tr("The store service or its database is away (%s).") % m[1]),
        (r"store: answered (\d+) without JSON",
         lambda m: tr("The store service gave an answer the till cannot read (%s).") % m[1]),
        # the training sandbox's customer phone (``cashier.sandbox.training_customer_pays``)
        (r"qrCode: the payment is (\w+); this code can no longer be used to pay",
         lambda m: tr("The code is %s: it can no longer be paid.") % states.get(m[1], m[1])),
        (r"qrCode: no such QR code", lambda m: tr("The sandbox does not know this code.")),
    ]


def say(text: str) -> str:
    """A core line ("pin: no manager of this till has that PIN") as a sentence: a whole line the
    window knows, or a line pattern with its figures kept; else the line as the core said it (its
    field name is the profile's or the command line's)."""
    known = _sign_in().get(text)
    if known is not None:
        return known
    for pattern, words in _line_patterns():
        match = re.fullmatch(pattern, text)
        if match:
            return words(match)
    field, colon, rule = text.partition(": ")  # a refusal passed on as its line (the drawer's)
    said = _rules().get(rule) if colon and "{" not in rule else None
    if said is not None:
        return f"{_field_names().get(field, field.replace('_', ' ').capitalize())}: {said}"
    return text


def printer_words(status: str) -> str:
    """The printer's status line (``cashier.printing.queue``: the state, then the device's own
    words, ``offline: tcp://...: [Errno 111] Connection refused``) in the window's words."""
    state, _, detail = status.partition(": ")
    words: dict[str, Callable[[], str]] = {
        "ready": lambda: tr("The printer is ready."),
        "paper_low": lambda: tr("The printer's paper is low: change the roll soon."),
        "out_of_paper": lambda: tr("The printer is out of paper: load a roll."),
        "offline": lambda: (tr("The printer does not answer (%s).") % detail if detail
                            else tr("The printer does not answer.")),
        "error": lambda: tr("The printer failed (%s).") % detail,
    }
    said = words.get(state)
    return said() if said is not None else say(status)
