"""Signed updates in the window: check at start and after each drawer close, say so in the
status bar ("update X.Y.Z ready" while the till is busy, "installed" once switched).

The rules (what verifies, when the till is quiet, rollback) are the core's
(``cashier.updates.service``); the slow steps run off the window's thread, the journal steps on it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from cashier.errors import CashierError
from cashier.updates.layout import Layout
from cashier.updates.service import confirm, prepare, switch_when_quiet
from cashier.updates.till import UpdateSource, UpdateWaiting, check, self_check, source_for_profile
from ui.i18n import tr
from ui.window import Pill

if TYPE_CHECKING:
    from ui.gui import Gui

log = logging.getLogger("cashier.updates")


class UpdateWatcher:
    def __init__(self, gui: Gui, source: UpdateSource | None = None,
                 layout: Layout | None = None) -> None:
        """``source`` and ``layout`` default to this till's (its profile, its install folder)."""
        self.gui = gui
        self.source = source or source_for_profile(gui.profile)
        self.layout = layout or Layout.of_running_program()
        self.pill = Pill()
        self.pill.setVisible(False)
        gui.window.status.addPermanentWidget(self.pill)
        self.running: asyncio.Task[Any] | None = None

    def check_soon(self) -> None:
        if self.running is None or self.running.done():
            self.running = self.gui.till.tasks.spawn(self.run(), "update-check")

    def show(self, text: str, level: str = "ok") -> None:
        self.pill.set(text, level)
        self.pill.setVisible(True)

    async def run(self) -> None:
        try:
            if self.layout is None:  # not installed side by side: say what is there, no more
                _client, found = await asyncio.to_thread(check, self.source)
                if found is not None:
                    self.show(tr("update {0} available").format(found.version), "warn")
                return
            found = await asyncio.to_thread(prepare, self.source, self.layout)
            if found is None:
                return
            desk = self.gui.cashdesk
            try:
                program = switch_when_quiet(found, self.layout, desk.recorder, self.gui.profile.roster)
            except UpdateWaiting:
                self.show(tr("update {0} ready").format(found.version), "warn")
                return
            ok, why = await asyncio.to_thread(self_check, program)
            outcome = confirm(found, self.layout, desk.recorder, ok, why)
            if outcome.applied:
                self.show(tr("update {0} installed").format(outcome.applied), "ok")
            else:
                self.show(tr("update {0} failed its self-check").format(found.version), "bad")
        except CashierError as exc:  # refused or unreachable: the till goes on as it is
            log.warning("update check: %s", exc)


def watch_updates(gui: Gui, source: UpdateSource | None = None,
                  layout: Layout | None = None) -> UpdateWatcher | None:
    """Start watching when the profile names an update repository (and the journal is open)."""
    if not gui.profile.update_url or gui.cashdesk is None:
        return None
    watcher = UpdateWatcher(gui, source, layout)
    gui.cashdesk.drawer_closed.append(watcher.check_soon)
    watcher.check_soon()
    return watcher
