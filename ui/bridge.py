"""The one bridge from the core's typed events to Qt signals.

The core publishes on its ``EventBus`` (the journal publishes every entry's change there, the
flows their prompts and progress) and the sandbox's virtual terminals call observers; both happen
on the qasync loop's thread, so each event is re-emitted as a signal and widgets connect to
signals only. A page subscribes to the events it wants with ``on`` (by type, and by entry id or
entry kind through the core's ``matches``) or to its entries with ``on_entries``; it never sorts
events itself. Nothing here decides anything.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection
from typing import Any

from PySide6.QtCore import QObject, Signal

from cashier.flows import events


class _Relay(QObject):
    """One page's subscription: owned by the page, so it ends when the page is deleted."""

    def __init__(self, parent: QObject, slot: Callable[[Any], None], kind: events.EventType,
                 entry_id: int | None, entry_kinds: Collection[str] | None, unwrap: bool) -> None:
        super().__init__(parent)
        self._slot, self._kind, self._unwrap = slot, kind, unwrap
        self._entry_id, self._entry_kinds = entry_id, entry_kinds

    def deliver(self, event: Any) -> None:
        if events.matches(event, self._kind, entry_id=self._entry_id, entry_kinds=self._entry_kinds):
            self._slot(event.entry if self._unwrap else event)


class Bridge(QObject):
    payment_changed = Signal(object)  # cashier.journal.model.Entry
    device_prompt = Signal(object)  # cashier.flows.events.DevicePrompt
    progress = Signal(object)  # cashier.flows.events.Progress
    flow_finished = Signal(object)  # cashier.flows.events.FlowFinished
    terminal_event = Signal(object)  # cashier.sandbox.terminals.TerminalEvent
    other_event = Signal(object)
    core_event = Signal(object)  # every core event, for the subscriptions made with ``on``

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._unsubscribe: list[Callable[[], None]] = []
        self._signals: dict[type, Callable[[Any], None]] = {
            events.PaymentChanged: lambda event: self.payment_changed.emit(event.entry),
            events.DevicePrompt: self.device_prompt.emit,
            events.Progress: self.progress.emit,
            events.FlowFinished: self.flow_finished.emit,
        }

    def connect_bus(self, bus: Any) -> None:
        self._unsubscribe.append(bus.subscribe(self._on_event))

    def observe_terminal(self, hub: Any, terminal_id: str) -> None:
        self._unsubscribe.append(hub.observe(terminal_id, self.terminal_event.emit))

    def on(self, kind: events.EventType, slot: Callable[[Any], None], *, entry_id: int | None = None,
           entry_kinds: Collection[str] | None = None) -> None:
        """Call ``slot`` with each core event of ``kind`` (about ``entry_id`` / ``entry_kinds``
        when given); the subscription lives as long as the slot's widget."""
        self._relay(slot, kind, entry_id, entry_kinds, unwrap=False)

    def on_entries(self, slot: Callable[[Any], None], *, entry_id: int | None = None,
                   kinds: Collection[str] | None = None) -> None:
        """Call ``slot`` with each journal entry that moved (of ``kinds`` / ``entry_id``)."""
        self._relay(slot, events.PaymentChanged, entry_id, kinds, unwrap=True)

    def _relay(self, slot: Callable[[Any], None], kind: events.EventType, entry_id: int | None,
               entry_kinds: Collection[str] | None, *, unwrap: bool) -> None:
        owner = getattr(slot, "__self__", None)
        relay = _Relay(owner if isinstance(owner, QObject) else self, slot, kind, entry_id,
                       entry_kinds, unwrap)
        self.core_event.connect(relay.deliver)

    def _on_event(self, event: Any) -> None:
        self.core_event.emit(event)
        self._signals.get(type(event), self.other_event.emit)(event)

    def disconnect_all(self) -> None:
        while self._unsubscribe:
            with contextlib.suppress(ValueError):  # already removed
                self._unsubscribe.pop()()
