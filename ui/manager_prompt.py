"""The one manager PIN prompt every page uses before an action the profile puts behind a manager.

The rule is the core's (``FlowContext.approval``): the window only asks it, and when it wants a
manager, asks for a manager's PIN and hands the approving manager to the flow. A till without
clerks is never asked (the core says no manager is needed).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

from cashier.clerks import Action, Clerk, SignInError
from cashier.errors import ManagerNeeded
from ui.core_words import error_words, manager_words
from ui.i18n import tr


@dataclass(frozen=True)
class Approval:
    """``go``: the action may run, with ``manager`` (None when none is needed); else ``why``."""

    go: bool
    manager: Clerk | None = None
    why: str = ""


def ask_manager(parent: QWidget, ctx: Any, action: Action, amount: Decimal = Decimal(0)) -> Approval:
    """Ask for a manager's PIN when the core's rule wants one for ``action`` of ``amount``."""
    try:
        ctx.approval(action, amount, None)
        return Approval(True)
    except ManagerNeeded as needed:
        question = manager_words(needed, getattr(ctx.roster, "currency", "USD"))
    pin, ok = QInputDialog.getText(parent, tr("Manager approval"),
                                   question + "\n" + tr("Manager PIN:"), QLineEdit.EchoMode.Password)
    if not ok or not pin:
        return Approval(False, why=tr("Not done: a manager's PIN is needed."))
    from cashier.approvals import manager_by_pin

    try:
        return Approval(True, manager_by_pin(ctx.journal.path, ctx.roster, pin, f"window {action.value}"))
    except SignInError as exc:
        return Approval(False, why=error_words(exc))
