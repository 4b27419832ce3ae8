"""How the Sale screen words a tender and the PIN pad's state (shared with the refund dialog and
the status bar)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ui.i18n import format_money, tr
from ui.receipt import TENDER_TITLES as TENDER_TITLES  # the one table of the tender kinds' titles


def tender_text(tender: Any, currency: str) -> str:
    """One tender as the ticket panel and the result list it."""
    what = tr(TENDER_TITLES.get(tender.kind, tender.kind))
    taken = tr("taken") if tender.kind == "cash" else tr("approved")  # cash is taken, not approved
    outcome = {"approved": taken, "partial": tr("PARTIAL"), "declined": tr("declined"),
               "error": tr("not charged"), "unknown": tr("checking"), "voided": tr("voided"),
               "returned": tr("given back")}.get(tender.outcome, tender.outcome)
    card = f"…{tender.card[-4:]}" if tender.card else ""
    text = f"{what} {card}".strip() + f"  {format_money(tender.amount, currency)}  {outcome}"
    if tender.kind == "cash" and tender.tendered is not None:
        text += "  " + tr("tendered {t}, change {c}").format(
            t=format_money(tender.tendered, currency),
            c=format_money(tender.change if tender.change is not None else Decimal(0), currency))
    return text


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
