"""A manager's PIN as the window and the commands ask it: the one way to the till's PIN guard.

Every try goes through the guard (``journal.pin_guard``: five wrong tries in a row lock the PIN,
each try recorded), whose count lives in the till's guard file in its data folder, whatever
journal a command opens; the window never reaches the guard's SQL itself (import-linter refuses
``ui`` -> ``cashier.journal.pin_guard``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from cashier.clerks import Clerk, Roster
from cashier.config import default_data_dir
from cashier.journal.pin_guard import GUARD_FILE, PinGuard


def pin_guard(journal: Path, *, clock: Callable[[], datetime] | None = None) -> PinGuard:
    """The till's PIN guard: its count in the till's data folder (``default_data_dir``: on a
    packaged till ``/var/lib/cashier``), which no journal path or profile copy moves; each try
    also journaled in ``journal``."""
    state = default_data_dir() / GUARD_FILE
    return PinGuard(journal, state) if clock is None else PinGuard(journal, state, clock=clock)


def manager_by_pin(journal: Path, roster: Roster, pin: str, where: str) -> Clerk:
    """The manager whose PIN this is (any manager: the prompt names none), under the till's
    lock; raises ``SignInError`` (wrong, or locked for some seconds)."""
    return pin_guard(journal).check(roster, None, pin, where)


def sign_in(journal: Path, roster: Roster, pin: str, where: str) -> Clerk:
    """The clerk whose PIN this is, under the same lock: a sign-in with a manager's PIN makes a
    manager, so it is never a way round the five tries; raises ``SignInError``."""
    return pin_guard(journal).sign_in(roster, pin, where)


def pin_failures(journal: Path, limit: int = 10) -> list[dict[str, Any]]:
    """The latest wrong and locked manager PIN tries, newest first (at, clerk, command, locked)."""
    return pin_guard(journal).failures(limit)
