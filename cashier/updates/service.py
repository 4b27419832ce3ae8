"""Apply a verified version when the till is quiet: no payment or ticket open, the drawer closed.

One place for the rule, used by ``cashier update apply`` and by the window (which runs the slow
steps, ``prepare`` and ``self_check``, off its thread and the journal steps on it). Every switch
and every rollback is journaled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cashier.clerks import Roster
from cashier.drawer import Drawer
from cashier.journal.recorder import JournalRecorder
from cashier.updates.layout import Layout
from cashier.updates.till import UpdateSource, UpdateWaiting, check, download, self_check
from cashier.updates.versions import Published

ACTOR = "system"


def blockers(recorder: JournalRecorder, roster: Roster) -> list[str]:
    """What a switch waits for, in words for the one line the till prints (empty: go ahead)."""
    waits = []
    if recorder.unresolved():
        waits.append("the open payment to finish")
    if recorder.ticket_ids(open_only=True, limit=1):
        waits.append("the open ticket to be closed")
    if Drawer(recorder, roster).current() is not None:
        waits.append("the drawer to be closed")
    return waits


@dataclass(frozen=True)
class UpdateResult:
    applied: str | None
    rolled_back: str | None
    current: str | None

    def as_dict(self) -> dict[str, str | None]:
        return {"applied": self.applied, "rolled_back": self.rolled_back, "current": self.current}


def prepare(source: UpdateSource, layout: Layout) -> Published | None:
    """Check, download, verify and unpack the version this till would take (None: none)."""
    client, found = check(source)
    if found is not None:
        download(source, client, found, layout)
    return found


def switch_when_quiet(found: Published, layout: Layout, recorder: JournalRecorder, roster: Roster) -> Path:
    """Make ``found`` current unless the till is busy (UpdateWaiting); returns the program to
    self-check."""
    waits = blockers(recorder, roster)
    if waits:
        raise UpdateWaiting(found.version, waits)
    before = layout.switch(found.version)
    recorder.note(None, "update_installed", actor=ACTOR, version=found.version, previous=before or "")
    return layout.current_link / "cashier"


def confirm(found: Published, layout: Layout, recorder: JournalRecorder, ok: bool, why: str) -> UpdateResult:
    """After the self-check: keep the new version, or roll back to the previous one (journaled)."""
    if not ok:
        back = layout.roll_back()
        layout.mark_failed(found.version)
        recorder.note(None, "update_rolled_back", actor=ACTOR, version=found.version, back_to=back,
                   reason=why)
        return UpdateResult(applied=None, rolled_back=found.version, current=back)
    layout.prune()
    return UpdateResult(applied=found.version, rolled_back=None, current=found.version)


def apply_update(source: UpdateSource, layout: Layout, recorder: JournalRecorder, roster: Roster, *,
                 checker: Callable[[Path], tuple[bool, str]] = self_check) -> UpdateResult:
    """The whole step, for the command line. Raises UpdateRefused (nothing changed),
    UpdateUnreachable, or UpdateWaiting (a verified version is ready; the till is busy)."""
    found = prepare(source, layout)
    if found is None:
        return UpdateResult(applied=None, rolled_back=None, current=layout.current())
    program = switch_when_quiet(found, layout, recorder, roster)
    ok, why = checker(program)
    return confirm(found, layout, recorder, ok, why)
