"""What the counter shows of a ticket before anything more is journaled (``Figures``) and the
quick cash keys (``cash_offers``). Light on purpose (only ``cashier.money``): the Sale screen
draws its figures while the window is built, before the flows and the journal are loaded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from cashier.money import quantum

if TYPE_CHECKING:
    from cashier.journal.ticket_model import Ticket


# ---- what the counter shows ----------------------------------------------------------------------
@dataclass(frozen=True)
class Figures:
    """What the counter shows of a ticket before anything more is journaled: the ticket (or, with
    no line yet, the amount typed) plus a tip keyed but not yet taken. Remaining is what a tender
    for "all that remains" charges, so the screen and the charge agree."""

    subtotal: Decimal
    tax: Decimal
    tip: Decimal
    total: Decimal
    paid: Decimal
    remaining: Decimal
    #: nothing remains, yet the open ticket waits to be closed as paid (``Ticket.only_closing_left``:
    #: a comp, its lines discounted to 0.00): a tender key closes it, charging nothing
    closes: bool = False

    @classmethod
    def of(cls, ticket: Ticket | None, *, typed: Decimal = Decimal(0),
           keyed_tip: Decimal = Decimal(0)) -> Figures:
        zero = Decimal(0)
        tip = zero if ticket is not None and ticket.tip_asked else keyed_tip
        if ticket is None or not ticket.lines:
            return cls(typed, zero, tip, typed + tip, zero, typed + tip)
        # the subtotal after discounts (issue #38): subtotal + tax (+ tip) is the total shown
        return cls(ticket.subtotal - ticket.discounts, ticket.tax, ticket.tip + tip,
                   ticket.total + tip, ticket.paid, ticket.remaining + tip,
                   closes=not tip and ticket.only_closing_left)

    @property
    def due(self) -> bool:
        """Something remains to pay: the tenders are ready."""
        return self.remaining > 0

    @property
    def ready(self) -> bool:
        """A tender key does something: it charges what is due, or, with nothing due, it closes
        the ticket as paid (issue #38: a comped ticket is finished like any other)."""
        return self.due or self.closes

    def is_remaining(self, amount: Decimal) -> bool:
        """``amount`` is exactly what remains (the entry still holds the pre-filled figure)."""
        return amount == self.remaining


def cash_offers(remaining: Decimal, notes: Sequence[Decimal], currency: str,
                count: int = 3) -> list[Decimal]:
    """The quick cash amounts after "Exact": for each note, the fewest of it that cover what
    remains, above what remains (20, 50, 100 for 18.35 with notes 5 to 100), smallest first."""
    if remaining <= 0:
        return []
    offers: set[Decimal] = set()
    for note in notes:
        covered = (remaining / note).to_integral_value(rounding="ROUND_CEILING") * note
        if covered > remaining:
            offers.add(covered.quantize(quantum(currency)))
    return sorted(offers)[:count]
