"""The Phone/link screen's state, without Qt: the amount typed (a ``CentsBuffer`` the screen's
display shows), the payment link on screen with the charges seen on it and how its watch ended,
the customers found, and the last charge's result. ``link_event`` tells which core events are
about the link on screen; the window only draws and runs what these say.

Light on purpose, as ``sale_entry``: the screen is built before the flows are loaded.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from cashier.flows.events import LinkChargeSeen, LinkStatus
from cashier.money import CentsBuffer

if TYPE_CHECKING:
    from cashier.flows.card_not_present import CardNotPresentResult, Customer, LinkResult, PaymentLink


class LinkNews(StrEnum):
    """What a core event says about the link on screen."""

    CHARGE = "charge"  # a charge attempt arrived (kept in ``seen``)
    UNREACHABLE = "unreachable"  # the Charge API is not answering; the watch goes on


class PhoneLinkEntry:
    """One Phone/link screen's state. ``amount`` is the buffer the screen's display shows."""

    def __init__(self, amount: CentsBuffer | None = None) -> None:
        self.amount = amount if amount is not None else CentsBuffer()
        self.link: PaymentLink | None = None
        self.outcome: LinkResult | None = None  # how the link's watch ended
        self.seen: list[LinkChargeSeen] = []  # the charges seen on the link, newest last
        self.customers: list[Customer] = []
        self.result: CardNotPresentResult | None = None  # the last charge's

    # ---- the link ----------------------------------------------------------------------------
    def new_link(self) -> None:
        """A new link is asked for: the last one's end and charges no longer show."""
        self.outcome = None
        self.seen = []

    def link_created(self, link: PaymentLink) -> None:
        self.link = link

    def link_event(self, event: object) -> LinkNews | None:
        """What a core event says about the link on screen (None: nothing, or another link's)."""
        link = self.link
        if link is None or not isinstance(event, LinkChargeSeen | LinkStatus) or event.link_id != link.id:
            return None
        if isinstance(event, LinkChargeSeen):
            self.seen.append(event)
            return LinkNews.CHARGE
        return LinkNews.UNREACHABLE if event.status == "unreachable" else None

    def link_done(self, outcome: LinkResult) -> None:
        """The watch ended (paid, deactivated, out of time): the link as it ended."""
        self.outcome = outcome
        self.link = outcome.link

    def link_deactivated(self, link: PaymentLink) -> None:
        self.link = link

    @property
    def link_active(self) -> bool:
        """The link on screen may still be paid (it is shown, and the cashier may deactivate it)."""
        return self.link is not None and self.link.active

    # ---- customers ---------------------------------------------------------------------------
    def customers_found(self, customers: list[Customer]) -> None:
        self.customers = list(customers)

    def replace_customer(self, customer: Customer) -> None:
        """A customer read again (a card added): in its place in the list."""
        self.customers = [customer if c.id == customer.id else c for c in self.customers]

    def customer(self, row: int) -> Customer | None:
        return self.customers[row] if 0 <= row < len(self.customers) else None

    def can_charge(self, row: int) -> bool:
        """The customer on ``row`` has a default card to charge."""
        chosen = self.customer(row)
        return chosen is not None and chosen.default_card_id is not None
