"""The window's handle on the core: opens the runtime after the first paint, runs flows as
referenced tasks, and keeps the status the status bar shows. No business rule lives here: each
method starts one flow from ``cashier.flows`` and returns its task.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from ui.bridge import Bridge
from ui.tasks import Tasks

if TYPE_CHECKING:
    from cashier.config import TillProfile
    from cashier.runtime import Runtime

log = logging.getLogger("ui.till")
#: What opening the runtime and the counter's first sale import (loaded off the window's thread).
RUNTIME_MODULES = ("cashier.runtime", "cashier.flows.ticket", "cashier.flows.recovery")
#: ...and what a training till's embedded host adds.
TRAINING_MODULES = ("cashier.sandbox",)


def _load_modules(names: tuple[str, ...]) -> None:
    for name in names:
        importlib.import_module(name)


@dataclass
class TillStatus:
    """What the status bar shows; refreshed after every payment change and on a timer."""

    started: bool = False
    host_reachable: bool | None = None
    terminal_state: str = ""
    #: Entries recovery must finish (no answer, a void waiting): the cashier is told.
    unresolved: int = 0
    #: Payments under way right now (journaled, not answered yet): normal, no alarm.
    in_progress: int = 0
    offline: bool = False
    #: Store and forward (the core's ``flows.offline.status``): the till went offline by itself,
    #: what is stored, whether the oldest is near ``max_hours``, and the payments the host
    #: declined at the forward (the manager collects them).
    offline_automatic: bool = False
    stored_count: int = 0
    stored_amount: str = "0.00"
    stored_hours_left: str | None = None
    stored_near_limit: bool = False
    declined_on_forward: int = 0
    training: bool = True
    recovered: list[Any] = field(default_factory=list)
    still_open: list[Any] = field(default_factory=list)


class Till(QObject):
    started = Signal()
    start_failed = Signal(str)
    status_changed = Signal()
    recovery_finished = Signal(object)  # cashier.flows.recovery.RecoveryReport

    def __init__(self, profile: TillProfile, tasks: Tasks | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.profile = profile
        self.tasks = tasks or Tasks()
        self.bridge = Bridge(self)
        self.runtime: Runtime | None = None
        self.status = TillStatus(training=profile.is_training)
        self.bridge.payment_changed.connect(self._payment_changed)
        self.bridge.terminal_event.connect(self._terminal_event)
        self._poller: asyncio.Task[Any] | None = None
        #: while offline by itself: probes the host every ``[offline] probe_s``
        self._prober: asyncio.Task[Any] | None = None
        self._refreshing: asyncio.Task[Any] | None = None
        self._refresh_again = False

    # ---- life cycle ------------------------------------------------------------------------
    async def start(self, *, transport: Any = None, sandbox: Any = None, recover: bool = True,
                    poll_s: float = 15.0) -> None:
        """Open journal, client (and sandbox in training), then run start-up recovery."""
        # the runtime's modules load on a thread of their own: the window keeps taking keys
        # meanwhile (the first digit typed is not held up by a second of imports on its loop)
        await asyncio.to_thread(_load_modules, RUNTIME_MODULES + (
            TRAINING_MODULES if self.profile.is_training and sandbox is None else ()))
        from cashier.runtime import open_runtime

        try:
            self.runtime = await open_runtime(self.profile, transport=transport, sandbox=sandbox)
        except Exception as exc:
            from cashier.redact import redact

            log.exception("the till could not start")
            self.start_failed.emit(redact(str(exc)))
            return
        self.bridge.connect_bus(self.runtime.bus)
        self.runtime.start_store_push()  # a thread of its own: never waits on the counter's loop
        if self.runtime.sandbox is not None:
            self.bridge.observe_terminal(self.hub, self.terminal_id)
            self.status.terminal_state = self.hub.get(self.terminal_id).state
        self.status.started = True
        self.started.emit()
        if recover:
            from cashier.flows.recovery import recover as run_recovery

            report = await run_recovery(self.ctx)
            self.status.recovered = list(report.resolved)
            self.status.still_open = list(report.still_open)
            self.recovery_finished.emit(report)
        await self.refresh_status()
        if poll_s > 0:
            self._poller = self.tasks.spawn(self._poll(poll_s), "status poll")

    async def stop(self) -> None:
        for task in (self._poller, self._prober):
            if task is not None:
                task.cancel()
        self.bridge.disconnect_all()
        if self.runtime is not None:
            await self.runtime.close()
            self.runtime = None

    # ---- what pages use --------------------------------------------------------------------
    @property
    def ctx(self) -> Any:
        if self.runtime is None:
            raise RuntimeError("the till is still starting")
        return self.runtime.ctx

    @property
    def ready(self) -> bool:
        return self.runtime is not None

    @property
    def currency(self) -> str:
        return self.profile.currency

    @property
    def hub(self) -> Any:
        """The embedded sandbox's PIN pads (training only)."""
        assert self.runtime is not None and self.runtime.sandbox is not None
        return self.runtime.sandbox.terminals

    @property
    def terminal_id(self) -> str:
        if self.runtime is not None:
            s = self.runtime.client.settings
            if s.processing_option == "DCC":
                return str(s.device_serial_number or s.terminal_id or "1")
            return str(s.terminal_id or "1")
        return self.profile.effective_terminal_id

    def run(self, coro: Coroutine[Any, Any, Any], name: str = "",
            done: Callable[[Any], None] | None = None,
            failed: Callable[[BaseException], None] | None = None, *,
            eager: bool = False) -> asyncio.Task[Any]:
        """Start a flow as a referenced task; ``done``/``failed`` run on the loop when it ends
        (``eager``: see ``Tasks.spawn``).

        A ``failed`` handler takes expected errors (bad input, a refused batch); anything it
        does not take goes to the crash dialog through the task keeper.
        """
        async def wrapped() -> Any:
            try:
                result = await coro
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if failed is None:
                    raise
                failed(exc)
                return None
            if done is not None:
                done(result)
            return result
        task = self.tasks.spawn(wrapped(), name, eager=eager)
        # cancelled before it began (the window closing, a screen left), the flow never ran:
        # closed, not left for Python to warn "coroutine ... was never awaited" about
        task.add_done_callback(lambda t: coro.close() if t.cancelled() else None)
        return task

    async def refresh_status(self) -> None:
        if self.runtime is None:
            return
        self._refresh_again = False
        from cashier.entry_rules import needs_recovery  # the runtime (and journal) are loaded now

        try:
            open_entries = await self.runtime.journal.unresolved()
            self.status.unresolved = sum(1 for e in open_entries if needs_recovery(e))
            self.status.in_progress = len(open_entries) - self.status.unresolved
        except Exception:
            log.exception("could not count unresolved entries")
        connected = await self._connected()
        await self._read_offline()
        from cashier.flows.offline import host_reachable

        s = self.status
        s.host_reachable = host_reachable(connected, s.offline and s.offline_automatic,
                                          self.runtime.ctx.watch)
        self.status_changed.emit()
        if self._refresh_again:
            self._refresh_again = False
            await self.refresh_status()

    async def _read_offline(self) -> None:
        assert self.runtime is not None
        from cashier.flows.offline import status

        try:
            now = await status(self.runtime.ctx)
        except Exception:
            log.exception("could not read the offline status")
            return
        s, stored = self.status, now["stored"]
        s.offline, s.offline_automatic = bool(now["offline"]), bool(now["automatic"])
        s.stored_count, s.stored_amount = int(stored["count"]), str(stored["amount"])
        s.stored_hours_left, s.stored_near_limit = stored["hours_left"], bool(stored["near_limit"])
        s.declined_on_forward = len(now["declined_on_forward"])
        if s.offline and s.offline_automatic and (self._prober is None or self._prober.done()):
            self._prober = self.tasks.spawn(self._probe_every(self.runtime.ctx.offline.probe_s),
                                            "offline probe")

    async def _probe_every(self, every_s: float) -> None:
        """Offline by itself: probe every ``probe_s`` (not only on the status poll), until the
        till is online or a manager's switch holds it."""
        while self.status.offline and self.status.offline_automatic:
            await asyncio.sleep(every_s)
            await self.probe_host()

    async def probe_host(self) -> None:
        """While offline by itself: the core probes the host and comes back online (settling
        what the gateway forwarded) once it answers."""
        if self.runtime is None or not (self.status.offline and self.status.offline_automatic):
            return
        from cashier.flows.offline import probe

        try:
            await probe(self.runtime.ctx)
        except Exception:
            log.exception("the offline probe failed")
        await self.refresh_status()

    def set_host_down(self, down: bool) -> None:
        """Training: the embedded host behind the gateway goes away or comes back (the sandbox's
        ``POST /_sandbox/upstream``), to rehearse an outage."""
        if self.runtime is None or self.runtime.sandbox is None:
            return
        self.runtime.sandbox.set_upstream(not down)
        self.tasks.spawn(self._host_switched(), "host switch")

    async def _host_switched(self) -> None:
        """The till asks the host at once (the status bar said "reachable" with the host down
        until the next card payment, issue #39), then comes back online if it went offline."""
        if self.runtime is None:
            return
        from cashier.flows.offline import check_host

        try:
            await check_host(self.runtime.ctx)
        except Exception:
            log.exception("could not ask the host")
        await self.probe_host()
        await self.refresh_status()

    async def _connected(self) -> bool:
        """Whether the connection to the gateway answers (what the host says: ``host_reachable``)."""
        assert self.runtime is not None
        if self.runtime.sandbox is not None:
            return True  # in-process: the gateway is this process
        try:
            return bool(await self.runtime.client.warm_up())
        except Exception:
            return False

    async def _poll(self, every_s: float) -> None:
        while True:
            await asyncio.sleep(every_s)
            await self.refresh_status()
            await self.probe_host()

    def _payment_changed(self, entry: Any) -> None:
        # one refresh at a time: a payment moves through several states in a few milliseconds
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = self.tasks.spawn(self.refresh_status(), "status refresh")
        else:
            self._refresh_again = True

    def _terminal_event(self, event: Any) -> None:
        self.status.terminal_state = str(event.state)
        self.status_changed.emit()
