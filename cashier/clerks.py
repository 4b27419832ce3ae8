"""Clerks and the manager rules: who may sign in at this till and what needs a manager.

A clerk's PIN is kept only as a salted scrypt hash (the same scheme as the manager PIN, from
``cashier.manager_pin``). A till without clerks keeps the behaviour from before clerks: the
manager PIN unlocks the manager screen and nothing else asks for a manager.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from cashier.errors import CashierError, ManagerNeeded
from cashier.manager_pin import verify_pin
from cashier.money import format_amount
from cashier.text import profile_text

#: The clerk number a till without clerks approves as, with the profile's manager PIN.
MANAGER_PIN_CLERK = 99999


class Role(StrEnum):
    CASHIER = "cashier"
    MANAGER = "manager"


class Clerk(BaseModel):
    """One ``[[clerks]]`` entry of the profile."""

    model_config = {"extra": "forbid", "frozen": True}

    #: the clerk number: sent to the host as the transaction's clerk and written on every entry
    id: int = Field(ge=1, le=99999)
    name: str = Field(min_length=1, max_length=40)
    pin_hash: str = Field(min_length=1)
    role: Literal["cashier", "manager"] = "cashier"

    @field_validator("name")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        return profile_text(value)  # printed on receipts, shown, journaled

    @field_validator("pin_hash")
    @classmethod
    def _is_hash(cls, value: str) -> str:
        if not value.startswith("scrypt$") or value.count("$") != 5:
            raise ValueError("must be a hash from `cashier manager-pin` (scrypt$...), never a PIN")
        return value

    @property
    def is_manager(self) -> bool:
        return self.role == Role.MANAGER.value


class Action(StrEnum):
    """Things the profile can put behind a manager."""

    REFUND = "refund"
    VOID = "void"
    CANCEL_TICKET = "cancel_ticket"
    PAY_IN = "pay_in"
    PAY_OUT = "pay_out"
    CLOSE_DRAWER = "close_drawer"
    CLOSE_BATCH = "close_batch"
    OVER_SHORT = "over_short"
    #: the X report: the open drawer's expected cash, which the blind count keeps from the clerk
    X_REPORT = "x_report"
    #: a discount above ``discount_percent_max`` of what it is on (issue #38); the amount is the
    #: percent
    DISCOUNT = "discount"
    #: a price typed over a catalog line's price (issue #38): always a manager's
    PRICE_OVERRIDE = "price_override"
    #: a card sale on a voice authorization code while the host cannot be reached (issue 40)
    MANUAL_SALE = "manual_sale"


class ManagerRules(BaseModel):
    """``[manager_rules]``: the defaults are the safe side (a manager is asked)."""

    model_config = {"extra": "forbid"}

    #: refunds above this amount need a manager (0: every refund).
    refund_above: Decimal = Field(Decimal("0"), ge=0)
    voids: bool = True
    cancel_ticket_with_tenders: bool = True
    pay_ins: bool = False
    pay_outs: bool = True
    close_drawer: bool = True
    close_batch: bool = True
    #: an over/short larger than this (either way) needs a manager's approval.
    over_short_tolerance: Decimal = Field(Decimal("5.00"), ge=0)
    #: the manager screen locks itself after this many seconds unused.
    lock_after_s: int = Field(60, ge=10, le=3600)
    #: a discount of more than this percent of what it is on needs a manager (issue #38)
    discount_percent_max: Decimal = Field(Decimal("10"), ge=0, le=100)

    def needs_manager(self, action: Action, amount: Decimal = Decimal(0)) -> bool:
        """The one place that says whether ``action`` (of ``amount``) needs a manager."""
        match action:
            case Action.REFUND:
                return amount > self.refund_above
            case Action.VOID:
                return self.voids
            case Action.CANCEL_TICKET:
                return self.cancel_ticket_with_tenders
            case Action.PAY_IN:
                return self.pay_ins
            case Action.PAY_OUT:
                return self.pay_outs
            case Action.CLOSE_DRAWER:
                return self.close_drawer
            case Action.CLOSE_BATCH:
                return self.close_batch
            case Action.OVER_SHORT:
                return abs(amount) > self.over_short_tolerance
            case Action.X_REPORT:
                return True  # never a rule of the profile: the blind count stays blind
            case Action.DISCOUNT:
                return amount > self.discount_percent_max
            case Action.PRICE_OVERRIDE:
                return True
            case Action.MANUAL_SALE:
                return True  # never a rule of the profile: no processor approved it
        return True  # pragma: no cover - every action is matched above


class SignInError(CashierError):
    """No clerk of this till has that PIN."""


class PinLocked(SignInError):
    """The PIN prompt is locked after wrong PINs: the refusal says for how long (the window shows
    it as it is, not as a wrong PIN)."""


class PinBusy(SignInError):
    """The PIN guard's file stayed locked by other PIN checks longer than the guard waits: the
    PIN was not accepted (a try begun is counted), and the cashier tries again."""


#: Each action as the sentence that refuses it names it ("cancel ticket" read as a typo).
ACTION_WORDS: dict[Action, str] = {
    Action.REFUND: "a refund", Action.VOID: "a void", Action.CANCEL_TICKET: "cancelling a ticket",
    Action.PAY_IN: "a pay-in", Action.PAY_OUT: "a pay-out", Action.CLOSE_DRAWER: "closing the drawer",
    Action.CLOSE_BATCH: "closing the batch", Action.OVER_SHORT: "an over/short",
    Action.X_REPORT: "an X report", Action.DISCOUNT: "a discount",
    Action.PRICE_OVERRIDE: "a price override", Action.MANUAL_SALE: "a manual sale",
}


def manager_needed(action: Action, amount: Decimal, currency: str = "USD") -> ManagerNeeded:
    """The one refusal for an action a manager must approve: the field, then the rule in words
    with the amount in its currency ("manager: cancelling a ticket of $5.00 needs ...")."""
    of = f" of {amount.normalize():f} %" if action is Action.DISCOUNT and amount else \
        f" of {format_amount(amount, currency)}" if amount else ""
    return ManagerNeeded(f"manager: {ACTION_WORDS[action]}{of} needs a manager's approval "
                         "(a manager's PIN)", action=action.value, amount=amount or None)


class Roster:
    """The till's clerks and rules; ``enabled`` is False for a till without clerks."""

    def __init__(self, clerks: list[Clerk], rules: ManagerRules,
                 manager_pin_hash: str | None = None, currency: str = "USD") -> None:
        ids = [c.id for c in clerks]
        if len(set(ids)) != len(ids):
            raise ValueError("clerks: every clerk id must be unique")
        # clerk ids are numbers; the journal and the command line name a clerk by its number as text
        self.clerks = list(clerks)
        self.rules = rules
        self.manager_pin_hash = manager_pin_hash
        self.currency = currency  # the amounts its refusals name

    @property
    def enabled(self) -> bool:
        return bool(self.clerks)

    def get(self, clerk_id: str | int) -> Clerk:
        for clerk in self.clerks:
            if str(clerk.id) == str(clerk_id).strip():
                return clerk
        raise SignInError(f"clerk: no clerk {clerk_id!r} at this till")

    def sign_in(self, pin: str) -> Clerk:
        """The clerk whose PIN this is (PINs are unique per till by decision)."""
        for clerk in self.clerks:
            if verify_pin(pin, clerk.pin_hash):
                return clerk
        raise SignInError("pin: no clerk of this till has that PIN")

    def manager(self, clerk_id: str | int | None, pin: str) -> Clerk:
        """A manager's approval: the manager's own id and PIN (a till without clerks: the
        profile's manager PIN, approving as ``manager``)."""
        if not self.enabled:
            if verify_pin(pin, self.manager_pin_hash):
                return Clerk(id=MANAGER_PIN_CLERK, name="Manager", pin_hash=str(self.manager_pin_hash),
                             role="manager")
            raise SignInError("pin: wrong manager PIN")
        if clerk_id is None:
            for candidate in self.clerks:
                if candidate.is_manager and verify_pin(pin, candidate.pin_hash):
                    return candidate
            raise SignInError("pin: no manager of this till has that PIN")
        clerk = self.get(clerk_id)
        if not clerk.is_manager:
            raise SignInError(f"manager: {clerk_id} is not a manager")
        if not verify_pin(pin, clerk.pin_hash):
            raise SignInError("pin: wrong manager PIN")
        return clerk

    def needs_manager(self, action: Action, amount: Decimal = Decimal(0)) -> bool:
        """A till without clerks asks no manager (today's behaviour), except for an over/short
        beyond the tolerance: money missing from a drawer is always a manager's call."""
        if action is Action.OVER_SHORT:
            return self.rules.needs_manager(action, amount)
        return self.enabled and self.rules.needs_manager(action, amount)

    def approver(self, action: Action, amount: Decimal, manager: Clerk | None,
                 signed_in: Clerk | None = None) -> Clerk | None:
        """The manager who approves ``action`` (None when none is needed), checked before anything
        is journaled or sent: ``manager`` (a PIN just checked), else the clerk ``signed_in`` with
        their own PIN when that clerk is a manager. A clerk number alone (``--clerk``,
        ``CASHIER_CLERK_ID``) never approves: only a PIN makes a manager. Raises
        ``ManagerNeeded`` naming the action and amount."""
        if not self.needs_manager(action, amount):
            return None
        if manager is not None and manager.is_manager:
            return manager
        if signed_in is not None and signed_in.is_manager and signed_in in self.clerks:
            return signed_in
        raise manager_needed(action, amount, self.currency)
