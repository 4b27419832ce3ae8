"""The cash desk from a command: a ticket's receipt (and the drawer kick for cash) and a cash
back slip, printed as the window prints them, by whichever command ended the ticket (``ticket
new|pay|cancel|refund``, ``recover`` when it settled a ticket's last tender)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def at_desk(rt: Any, what: str, print_jobs: Callable[[Any], Any]) -> None:
    """Run ``print_jobs(desk)`` on the till's cash desk and wait up to the printer's timeout; a
    receipt not printed is said on stderr (the ticket stands all the same, and ``cashier receipt
    print TICKET`` prints it again)."""
    from cashier.cashdesk import CashDesk, open_recorder

    desk = CashDesk(rt.profile, open_recorder(rt.profile))
    try:
        jobs = print_jobs(desk)
        if jobs and desk.printer is not None:
            desk.printer.wait_idle(desk.profile.printer.timeout_s + 1.0)
            if not all(r.printed for r in desk.printer.results[-len(jobs):]):
                print(f"cashier: {what} not printed ({desk.printer_status}): "
                      f"reprint with cashier receipt print", file=sys.stderr)
    finally:
        desk.close()
        desk.recorder.close()


def ticket_receipt(rt: Any, ticket: Any) -> None:
    """A ticket this command paid: its one receipt (the drawer kicked for cash)."""
    if ticket.state == "paid":
        at_desk(rt, f"receipt of ticket {ticket.id}", lambda desk: desk.ticket_done(ticket.id))


def cash_back_slips(rt: Any, ticket: Any, before: set[int]) -> None:
    """A cancel or refund that gave cash back: its slip, and the drawer opens (as in the window)."""
    new = [e for e in ticket.refunds if e.id not in before]
    if new:
        at_desk(rt, f"cash back of ticket {ticket.id}",
                lambda desk: [job for e in new for job in desk.payment_done(e)])
