"""The one bridge from the core's plain events to Qt signals.

The core publishes on its ``EventBus`` and the sandbox's virtual terminals call observers; both
happen on the qasync loop's thread, so each event is re-emitted as a signal and widgets connect
to signals only. Nothing here decides anything.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal


class Bridge(QObject):
    payment_changed = Signal(object)  # cashier.journal.model.Entry
    device_prompt = Signal(object)  # cashier.flows.events.DevicePrompt
    progress = Signal(object)  # cashier.flows.events.Progress
    flow_finished = Signal(object)  # cashier.flows.events.FlowFinished
    terminal_event = Signal(object)  # cashier.sandbox.terminals.TerminalEvent
    other_event = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._unsubscribe: list[Callable[[], None]] = []

    def connect_bus(self, bus: Any) -> None:
        self._unsubscribe.append(bus.subscribe(self._on_event))

    def observe_terminal(self, hub: Any, terminal_id: str) -> None:
        self._unsubscribe.append(hub.observe(terminal_id, self.terminal_event.emit))

    def _on_event(self, event: Any) -> None:
        from cashier.flows import events

        if isinstance(event, events.PaymentChanged):
            self.payment_changed.emit(event.entry)
        elif isinstance(event, events.DevicePrompt):
            self.device_prompt.emit(event)
        elif isinstance(event, events.Progress):
            self.progress.emit(event)
        elif isinstance(event, events.FlowFinished):
            self.flow_finished.emit(event)
        else:
            self.other_event.emit(event)

    def disconnect_all(self) -> None:
        while self._unsubscribe:
            with contextlib.suppress(ValueError):  # already removed
                self._unsubscribe.pop()()
