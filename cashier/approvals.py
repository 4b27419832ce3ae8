"""A manager's PIN as the window asks it: the one way in for a screen that needs a manager.

Every try goes through the journal's guard (``journal.pin_guard``: a wrong PIN journaled, five
in a row lock the prompt), so the window never reaches the guard's SQL itself; import-linter
refuses ``ui`` -> ``cashier.journal.pin_guard``. The command line checks through the same guard.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cashier.clerks import Clerk, Roster
from cashier.journal.pin_guard import PinGuard


def manager_by_pin(journal: Path, roster: Roster, pin: str, where: str) -> Clerk:
    """The manager whose PIN this is (any manager: the prompt names none), under the journal's
    lock; raises ``SignInError`` (wrong, or locked for some seconds)."""
    return PinGuard(journal).check(roster, None, pin, where)


def pin_failures(journal: Path, limit: int = 10) -> list[dict[str, Any]]:
    """The latest wrong and locked manager PIN tries, newest first (at, clerk, command, locked)."""
    return PinGuard(journal).failures(limit)
