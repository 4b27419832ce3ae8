"""Invoice numbers a replaced journal must not reuse, learned from the host.

A journal that is new, replaced or restored from a backup does not know which numbers the host
still holds: the Host API approves only the difference for an invoice it already has, so a
reused number would amend an earlier customer's charge. Before a process's first invoice the
journal asks here (``Journal.confirm_invoices``): ``GET /transactions/invoice`` on the numbers
just above its own high water; while the host knows them, the search gallops upward and then
halves back to the highest known one. A few numbers past the first unknown are asked too, so
a gap (a number consumed but never sent) does not hide the ones after it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from cashier.host.client import HostClient
from cashier.host.errors import InvoiceNotFound
from cashier.journal.store import SEQUENCE_DIGITS

log = logging.getLogger(__name__)

#: Numbers asked past the highest known one (a crash between commit and send leaves a gap).
LOOKAHEAD = 3
#: When the host cannot be asked, the journal skips this far past its own high water so the
#: numbers most likely still open (the latest) are not reused; asked again by the next process.
UNCONFIRMED_SKIP = 1_000
Known = Callable[[int], Awaitable[bool]]
TOP: int = int("9" * SEQUENCE_DIGITS)


async def highest_known(known: Known, start: int, *, lookahead: int = LOOKAHEAD) -> int:
    """The highest sequence above ``start`` that ``known`` confirms (``start`` when none)."""
    top = TOP
    high = start
    while True:
        hits = [seq for seq in range(high + 1, min(high + 1 + lookahead, top + 1))
                if await known(seq)]
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


def host_invoice_check(client: HostClient, till_number: int) -> Callable[[int], Awaitable[int]]:
    """The ``Journal.invoice_check`` of a till: asks the host, never raises."""

    async def known(sequence: int) -> bool:
        try:
            await client.invoice_status(f"{till_number:02d}{sequence:0{SEQUENCE_DIGITS}d}")
        except InvoiceNotFound:
            return False
        return True

    async def check(high_water: int) -> int:
        try:
            return await highest_known(known, high_water)
        except Exception as exc:  # host unreachable or odd: never block the sale on this
            log.warning("invoice numbers not confirmed with the host (%s): skipping %d numbers",
                        type(exc).__name__, UNCONFIRMED_SKIP)
            return min(high_water + UNCONFIRMED_SKIP, TOP)

    return check
