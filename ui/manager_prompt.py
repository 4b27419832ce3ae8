"""The one manager PIN prompt every page uses before an action the profile puts behind a manager
(refund, void, cancelling a ticket, batch close, the drawer's pay-outs, recounts and close).

The rule is the core's (``FlowContext.approval``, ``Roster.approver``): the window only asks it,
and when it wants a manager, asks for a manager's PIN in this one pop-up and hands the approving
manager to the flow. A till without clerks is never asked (the core says no manager is needed);
a manager already signed in on the screen (the clerk signed in, or the manager who unlocked the
Manager screen, until it locks) is not asked again.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

from cashier.clerks import Action, Clerk, Roster, SignInError
from cashier.errors import ManagerNeeded
from ui.core_words import error_words, manager_words
from ui.i18n import tr


@dataclass(frozen=True)
class Approval:
    """``go``: the action may run, with ``manager`` (None when none is needed); else ``why``."""

    go: bool
    manager: Clerk | None = None
    why: str = ""


def ask_manager(parent: QWidget, ctx: Any, action: Action, amount: Decimal = Decimal(0), *,
                known: Clerk | None = None) -> Approval:
    """Ask for a manager's PIN when the core's rule wants one for ``action`` of ``amount``;
    ``known``: the manager who signed in on this screen (not asked again while it is open)."""
    try:
        return Approval(True, ctx.approval(action, amount, known))
    except ManagerNeeded as needed:
        return ask_pin(parent, needed, ctx.roster, ctx.journal.path, f"window {action.value}")


def ask_pin(parent: QWidget, needed: ManagerNeeded, roster: Roster, journal: Path,
            where: str) -> Approval:
    """The prompt itself, for a refusal the core already made (``needed`` names the action and
    the amount): the manager's PIN, checked by the till's PIN guard."""
    question = manager_words(needed, roster.currency)
    pin, ok = QInputDialog.getText(parent, tr("Manager approval"),
                                   question + "\n" + tr("Manager PIN:"), QLineEdit.EchoMode.Password)
    if not ok or not pin:
        return Approval(False, why=tr("Not done: a manager's PIN is needed."))
    from cashier.approvals import manager_by_pin

    try:
        return Approval(True, manager_by_pin(journal, roster, pin, where))
    except SignInError as exc:
        return Approval(False, why=error_words(exc))
