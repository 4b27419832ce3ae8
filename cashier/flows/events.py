"""Plain events the flows emit, and the tiny bus that carries them (no Qt: the window bridges it)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cashier.journal.model import Entry

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PaymentChanged:
    """An entry moved in the journal (already committed when this is published)."""

    entry: Entry


@dataclass(frozen=True, slots=True)
class DevicePrompt:
    """The PIN pad is waiting for the customer; the window shows ``text`` and a Cancel button."""

    entry_id: int
    text: str


@dataclass(frozen=True, slots=True)
class Progress:
    """A step of a longer job (recovery, batch close) for a progress line."""

    what: str
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class FlowFinished:
    entry: Entry
    outcome: str
    message: str


Subscriber = Callable[[Any], None]


class EventBus:
    """Synchronous fan-out. A subscriber that raises is logged and never breaks a payment."""

    def __init__(self) -> None:
        self._subscribers: list[tuple[type | None, Subscriber]] = []

    def subscribe(self, callback: Subscriber, kind: type | None = None) -> Callable[[], None]:
        item = (kind, callback)
        self._subscribers.append(item)
        return lambda: self._subscribers.remove(item)

    def publish(self, event: Any) -> None:
        for kind, callback in list(self._subscribers):
            if kind is not None and not isinstance(event, kind):
                continue
            try:
                callback(event)
            except Exception:
                log.exception("event subscriber failed on %s", type(event).__name__)
