"""Invoice numbers a replaced journal must not reuse, learned from the host.

A journal that is new, replaced or restored from a backup does not know which numbers the host
still holds: the Host API approves only the difference for an invoice it already has, so a
reused number would amend an earlier customer's charge. Before a process's first invoice the
journal asks here (``Journal.confirm_invoices``): ``GET /transactions/invoice`` on the numbers
just above its own high water; while the host knows them, the search gallops upward and then
halves back to the highest known one. Eight numbers past the first unknown are asked too, so
a gap (numbers consumed but never sent, or sent and never committed by the host) does not hide
the ones after it. If the host cannot be asked, no invoice is issued (nothing is sent): the
cashier tries again, and the next attempt asks again. One exception (issue 40): when the gateway
itself answers that its host cannot be reached (``HostUnreachable``), the journal's own high
water is taken for that invoice (and asked again before the next one): a till restarted during
an outage stores card payments offline. A journal restored from an older backup during an
outage could then reuse a number (docs/decisions/022-store-and-forward.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from cashier.errors import CashierError
from cashier.host.client import HostClient
from cashier.host.errors import (
    HostError,
    HostProtocolError,
    HostTimeout,
    HostUnavailable,
    HostUnreachable,
    InvoiceNotFound,
)
from cashier.journal.recorder import SEQUENCE_DIGITS

log = logging.getLogger(__name__)

#: Numbers asked past the highest known one (a crash between commit and send leaves a gap).
LOOKAHEAD = 8
#: Waits between the attempts to ask one number (a lost answer is asked again).
RETRY_DELAYS_S = (0.0, 0.05, 0.2, 0.5)


class InvoicesUnconfirmed(CashierError):
    """The host could not be asked which invoice numbers it holds: nothing was sent."""


class _HostAway(Exception):
    """The gateway answered that its host cannot be reached (the journal's numbers are taken)."""
Known = Callable[[int], Awaitable[bool]]
TOP: int = int("9" * SEQUENCE_DIGITS)


async def highest_known(known: Known, start: int, *, lookahead: int = LOOKAHEAD) -> int:
    """The highest sequence above ``start`` that ``known`` confirms (``start`` when none)."""
    top = TOP
    high = start
    while True:
        ahead = list(range(high + 1, min(high + 1 + lookahead, top + 1)))
        hits = [seq for seq, held in zip(ahead, await asyncio.gather(*map(known, ahead)),
                                         strict=True) if held]
        if not hits:
            return high
        high = max(hits)
        step = lookahead
        while high + step <= top and await known(high + step):
            high += step
            step *= 2
        low, unknown = high, min(high + step, top + 1)
        while unknown - low > 1:
            middle = (low + unknown) // 2
            if await known(middle):
                low = middle
            else:
                unknown = middle
        high = low


def host_invoice_check(client: HostClient, till_number: int
                       ) -> Callable[[int], Awaitable[int | None]]:
    """The ``Journal.invoice_check`` of a till: asks the host; None when the gateway says its
    host cannot be reached (the journal's own numbers are taken, and asked again next time)."""

    async def known(sequence: int) -> bool:
        invoice = f"{till_number:02d}{sequence:0{SEQUENCE_DIGITS}d}"
        failure: Exception | None = None
        for delay in RETRY_DELAYS_S:
            if delay:
                await asyncio.sleep(delay)
            try:
                await client.invoice_status(invoice)
            except InvoiceNotFound:
                return False
            except HostUnreachable:
                raise _HostAway from None
            except (HostTimeout, HostUnavailable, HostProtocolError, HostError) as exc:
                failure = exc
                continue
            return True
        log.warning("invoice %s could not be asked: %s", invoice, type(failure).__name__)
        raise InvoicesUnconfirmed(
            f"invoice: the host could not be asked which invoice numbers it already holds "
            f"({_why(failure)}); Cashier asks before the first payment of each start, so that a "
            "number is never used twice. Nothing was sent: check the connection to the host, then "
            "try again")

    async def check(high_water: int) -> int | None:
        try:
            return await highest_known(known, high_water)
        except _HostAway:
            log.warning("the host cannot be reached behind the gateway: this invoice follows the "
                        "journal's own numbers (above %s)", high_water)
            return None

    return check


def _why(failure: Exception | None) -> str:
    """The cause in words, for the one line the cashier and the manager read."""
    if isinstance(failure, HostTimeout):
        return "it did not answer in time"
    if isinstance(failure, HostUnavailable):
        return "it cannot be reached"
    if isinstance(failure, HostProtocolError):
        return "its answer could not be read"
    if isinstance(failure, HostError):
        return f"it answered {failure.primary_code or 'an error'}: {failure.short_text}".strip()
    return "no answer"
