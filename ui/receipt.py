"""The customer receipt, rendered from a journal entry with ``resources/receipt.txt``.

Only presentation: the entry already holds the masked card and the amounts the host approved.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from ui.i18n import format_money, format_time, tr

TEMPLATE = Path(__file__).resolve().parents[1] / "resources" / "receipt.txt"
WIDTH = 32


def receipt_lines(entry: Any, company: str, till: str) -> list[str]:
    def money(value: Decimal) -> str:
        return format_money(value, entry.currency)

    total = entry.approved if entry.approved else entry.requested
    base = total - (entry.tip or 0)
    tax_line = f"  {tr('Tax')}{money(entry.tax):>{WIDTH - 2 - len(tr('Tax'))}}\n" if entry.tax else ""
    tip_line = f"{tr('Tip')}{money(entry.tip):>{WIDTH - len(tr('Tip'))}}\n" if entry.tip else ""
    text = TEMPLATE.read_text(encoding="utf-8").format(
        training=("*** " + tr("TRAINING") + " ***\n") if entry.training else "",
        company=company, till=till, time=format_time(entry.updated_at),
        kind=kind_name(str(entry.kind)).upper()[:20], amount=money(base),
        tax_line=tax_line, tip_line=tip_line, total=money(total),
        card=entry.card or (f"XXXX{entry.card_last4}" if entry.card_last4 else "-"),
        invoice=entry.invoice or "-", auth_code=entry.auth_code or "-",
        result=state_name(str(entry.state)).upper())
    return [line for line in text.rstrip("\n").split("\n")]


def kind_name(kind: str) -> str:
    names = {"sale": tr("Sale"), "authorization": tr("Tab (authorization)"), "refund": tr("Refund"),
             "manual_sale": tr("Manual sale"), "manual_authorization": tr("Manual authorization"),
             "giftcard_activate": tr("Gift card activation"), "giftcard_reload": tr("Gift card reload"),
             "giftcard_allocate": tr("Gift card allocation"), "giftcard_cashback": tr("Gift card cash-out"),
             "giftcard_deactivate": tr("Gift card deactivation"),
             "giftcard_reactivate": tr("Gift card reactivation"), "giftcard_sale": tr("Gift card sale"),
             "qr": tr("QR payment"), "charge": tr("Card-not-present charge")}
    return names.get(kind, kind)


def state_name(state: str) -> str:
    """Every journal state in words a cashier understands (UNKNOWN is never 'failed')."""
    names = {"intent": tr("Starting"), "sent": tr("Sent, waiting for the host"),
             "approved": tr("Approved"), "declined": tr("Declined"),
             "error": tr("Not charged (error)"), "unknown": tr("Checking with the host"),
             "voiding": tr("Voiding"), "voided": tr("Voided"), "captured": tr("Captured")}
    return names.get(state, state)
