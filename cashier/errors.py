"""Errors shared by every part of the core."""

from __future__ import annotations

from decimal import Decimal


class CashierError(Exception):
    """Base of every error the core raises on purpose."""


class ValidationError(CashierError, ValueError):
    """Bad input, caught before anything is sent; names the field and the rule it breaks."""

    def __init__(self, field: str, rule: str, **params: object) -> None:
        """With ``params``, ``rule`` is a template (``"must be at most {limit}"``): the message
        reads it filled in, and a window can say the template in its own language
        (``template``, ``params``)."""
        self.field = field
        self.template = rule
        self.params = params
        self.rule = rule.format(**params) if params else rule
        super().__init__(f"{field}: {self.rule}")


class DrawerRefused(CashierError):
    """The drawer cannot do that now (no open session, a second open, bad amount...)."""


class ManagerNeeded(CashierError):
    """The profile puts this behind a manager and none approved it. ``action`` (an ``Action``
    value) and ``amount`` let a window say it in its own language."""

    def __init__(self, message: str, action: str = "", amount: Decimal | None = None) -> None:
        super().__init__(message)
        self.action = action
        self.amount = amount
