"""How the Sale screen words a tender and the PIN pad's state (shared with the refund dialog and
the status bar), a payment's result and what a tender left open."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui.i18n import format_money, tr
from ui.receipt import TENDER_TITLES as TENDER_TITLES  # the one table of the tender kinds' titles
from ui.receipt import cash_words, reason_text, state_name

if TYPE_CHECKING:
    from cashier.flows.base import FlowResult
    from cashier.flows.ticket import TenderView, Ticket, TicketResult


def tender_text(tender: TenderView, currency: str) -> str:
    """One tender as the ticket panel and the result list it."""
    if tender.is_cash and tender.is_approved and tender.tendered is not None:
        return cash_words(tender.tendered, tender.shown, tender.change, currency)
    what = tr(TENDER_TITLES.get(tender.kind, tender.kind))
    taken = tr("taken") if tender.kind == "cash" else tr("approved")  # cash is taken, not approved
    outcome = {"approved": taken, "partial": tr("PARTIAL"), "declined": tr("declined"),
               "error": tr("not charged"), "unknown": tr("checking"), "voided": tr("voided"),
               "returned": tr("given back")}.get(tender.outcome, tender.outcome)
    card = f"…{tender.card[-4:]}" if tender.card else ""
    return f"{what} {card}".strip() + f"  {format_money(tender.shown, currency)}  {outcome}"


def terminal_state_name(state: str) -> str:
    names = {"idle": tr("idle"), "waiting for card": tr("waiting for the card"),
             "waiting for tip": tr("waiting for the tip"),
             "waiting for signature": tr("waiting for the signature"),
             "waiting for confirmation": tr("waiting for a confirmation"),
             "waiting for terms": tr("waiting for the terms"), "waiting for input": tr("waiting for input"),
             "showing form": tr("showing a form"), "showing line items": tr("showing line items"),
             "showing text": tr("showing text"), "showing wait": tr("showing please wait"),
             "printing": tr("printing")}
    return names.get(state, state)


def result_words(result: FlowResult, ticket: Ticket | None) -> tuple[str, str, str]:
    """A payment's result in the window's language: its title, details and message
    (``ticket``: the paid ticket it closed, else None)."""
    from cashier.entry_rules import is_cancelled, is_checking, reason, took_money

    entry, outcome = result.entry, result.outcome
    cancelled = is_cancelled(entry)
    view = "cancelled" if cancelled else outcome
    # why it ended, in the cashier's words; the host's own text stays in the journal's details
    message = reason_text(reason(entry), entry.currency)
    if not message and took_money(outcome) and ticket is None:
        # the core's own note, e.g. "already approved"; a paid ticket's tenders are listed
        # below it (the cash given and the change said once, not again as the core's note)
        message = result.message or ""
    titles = {"approved": tr("Approved"), "declined": tr("Declined"),
              "error": tr("Not charged"), "unknown": tr("Checking with the host…"),
              "cancelled": tr("Cancelled: not charged"), "voided": tr("Voided"),
              "voiding": tr("Voiding…"), "captured": tr("Captured")}
    title = titles.get(view, state_name(outcome))
    if ticket is not None and ticket.paid_in_cash_only and took_money(outcome):
        title = tr("Paid")  # cash is taken, not approved
    if ticket is not None and ticket.gives_change:
        title = tr("Paid: give the change")
        message = ""  # the change is on screen in large type; the journal keeps the note
    cur = entry.currency
    details = []
    if ticket is not None:
        details.append(f"{tr('Ticket')}: {ticket.id}")
        details += [tender_text(t, cur) for t in ticket.tenders if not t.is_declined]
    else:
        details.append(f"{tr('Invoice')}: {entry.invoice or '-'}")
    if entry.tip or (ticket is not None and ticket.tip):
        details.append(f"{tr('Tip')}: {format_money(ticket.tip if ticket else entry.tip, cur)}")
    if ticket is not None and ticket.tax:
        details.append(f"{tr('Tax')}: {format_money(ticket.tax, cur)}")
    if entry.card and ticket is None:
        details.append(f"{tr('Card')}: {entry.card}")
    if entry.auth_code:
        details.append(f"{tr('Approval code')}: {entry.auth_code}")
    if is_checking(outcome):
        message = tr("The host has not answered yet. Recovery keeps asking; the journal shows "
                     "the outcome when it is known. Do not charge again.")
    return title, "\n".join(details), message


def closed_words(ticket: Ticket) -> tuple[str, str, str]:
    """A ticket closed with nothing to pay (a comp, issue #38: no tender): as ``result_words``."""
    details = [f"{tr('Ticket')}: {ticket.id}"]
    if ticket.tax:
        details.append(f"{tr('Tax')}: {format_money(ticket.tax, ticket.currency)}")
    return tr("Paid"), "\n".join(details), ""


def tender_words(outcome: TicketResult, cur: str) -> str:
    """What came of a tender that left the ticket open, in the window's language."""
    ticket, tender, entry = outcome.ticket, outcome.tender, outcome.entry
    remaining = format_money(ticket.remaining, cur)
    if tender is None:
        return tr("Nothing was charged. Remaining {rest}.").format(rest=remaining)
    if tender.is_partial:
        return tr("PARTIALLY APPROVED: {got} of {asked} on {what}. Remaining balance {rest}: "
                  "choose another tender.").format(
            got=format_money(tender.amount, cur), asked=format_money(tender.requested, cur),
            what=tr(TENDER_TITLES.get(tender.kind, tender.kind)), rest=remaining)
    if tender.is_approved and tender.is_cash:  # cash is taken, not approved
        return tr("Cash taken: {got}. Remaining {rest}.").format(
            got=format_money(tender.amount, cur), rest=remaining)
    if tender.is_approved:
        return tr("{what} approved: {got}. Remaining {rest}.").format(
            what=tr(TENDER_TITLES.get(tender.kind, tender.kind)),
            got=format_money(tender.amount, cur), rest=remaining)
    from cashier.entry_rules import is_cancelled, reason  # loaded with the runtime

    cancelled = entry is not None and is_cancelled(entry)
    title = tr("Cancelled: not charged") if cancelled else {
        "declined": tr("Declined"), "error": tr("Not charged")}.get(tender.outcome,
                                                                   state_name(tender.outcome))
    why = reason_text(reason(entry), cur) if entry is not None and not cancelled else ""
    if why:  # the reason says what happened and what to do: said once, no title, no advice
        return why + " " + tr("The ticket stays open: remaining {rest}.").format(rest=remaining)
    return f"{title}. " + tr("The ticket stays open: remaining {rest}. Try another card or "
                             "tender.").format(rest=remaining)


def cancel_question(ticket: Ticket, cur: str) -> str:
    """F12's first press on a ticket that took money: what goes back, and how to confirm."""
    return tr("Cancel ticket {id}? {paid} already paid goes back (card, gift card and QR tenders "
              "voided, cash given back). Press F12 again to confirm.").format(
        id=ticket.id, paid=format_money(ticket.paid, cur))


def cancelled_words(ticket: Ticket, cur: str) -> str:
    """F12's last word: each thing that went back, named (a card's void, the cash handed back),
    or that nothing had been paid."""
    back = ticket.went_back
    if not back:
        return tr("Ticket {id} cancelled: nothing had been paid.").format(id=ticket.id)
    said = []
    for tender in back:
        amount = format_money(tender.back, cur)
        if tender.is_cash:
            said.append(tr("{amount} cash given back").format(amount=amount))
        else:
            what = tr(TENDER_TITLES.get(tender.kind, tender.kind))
            card = f" …{tender.card[-4:]}" if tender.card else ""
            said.append(tr("{what} {amount} voided").format(what=what + card, amount=amount))
    return tr("Ticket {id} cancelled: {back}.").format(id=ticket.id, back="; ".join(said))


def left_open_words(ticket: Ticket, cur: str) -> str:
    """A ticket a crash left open, back on screen after start-up."""
    return tr("Ticket {id} was left open: remaining {rest}. Finish it or cancel it (F12).").format(
        id=ticket.id, rest=format_money(ticket.remaining, cur))
