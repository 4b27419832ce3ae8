"""The core's typed events and the tiny bus that carries them (no Qt: ``ui/bridge.py`` bridges it).

Who publishes what:

- ``PaymentChanged``: the journal, for every entry a write moved (Host API and Charge API entries
  alike, and the original a refund or capture is mirrored on). ``cashier.runtime`` subscribes the
  bus to the journal once (``EventBus.follow``); flows never publish it by hand.
- ``DevicePrompt``, ``Progress``, ``FlowFinished``, the QR and payment link events: the flows.

A subscriber names the types it wants and, for its own entries, the entry id or entry kinds
(``EventBus.subscribe(..., entry_id=..., entry_kinds=...)``, decided by ``matches``), instead of
sorting every event itself. This module stays light (no journal, no httpx): the window imports it
before the runtime is loaded.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cashier.journal.aio import Journal
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


# ---- QR payments (published by cashier.flows.qr) --------------------------------------------------
@dataclass(frozen=True, slots=True)
class QrShown:
    """Show ``code`` (the text to render as a QR code) for ``amount``; the customer scans it."""

    entry_id: int
    invoice: str
    code: str
    amount: Decimal


@dataclass(frozen=True, slots=True)
class QrStatusChanged:
    """pending, paid, cancelled, reversed, cancelling or unknown."""

    entry_id: int
    invoice: str
    status: str
    message: str = ""


# ---- payment links (published by cashier.flows.card_not_present) ---------------------------------
@dataclass(frozen=True, slots=True)
class LinkCreated:
    link_id: str
    url: str
    amount: Decimal
    currency: str


@dataclass(frozen=True, slots=True)
class LinkChargeSeen:
    """A charge attempt through the link arrived (``entry`` is set once a paid one is journaled)."""

    link_id: str
    charge_id: str
    status: str  # successful, failed, pending
    amount: Decimal
    card: str | None
    failure: str | None = None
    entry: Entry | None = None


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """What the watch is doing: waiting, checking, unreachable (retrying), deactivated..."""

    link_id: str
    status: str
    message: str = ""


# ---- subscribing ----------------------------------------------------------------------------------
Subscriber = Callable[[Any], None]
EventType = type | tuple[type, ...]


def entry_of(event: Any) -> Entry | None:
    """The journal entry an event is about, when it carries one."""
    entry = getattr(event, "entry", None)
    return entry if entry is not None and hasattr(entry, "kind") else None


def entry_id_of(event: Any) -> int | None:
    """The id of the journal entry an event is about (an entry, or just its id), else None."""
    entry = entry_of(event)
    if entry is not None:
        return int(entry.id)
    value = getattr(event, "entry_id", None)
    return value if isinstance(value, int) else None


def matches(event: Any, kind: EventType | None = None, *, entry_id: int | None = None,
            entry_kinds: Collection[str] | None = None) -> bool:
    """Whether a subscription wants ``event``: of ``kind``, about ``entry_id``, about an entry of
    one of ``entry_kinds`` (journal ``Kind`` values; an event without an entry never matches)."""
    if kind is not None and not isinstance(event, kind):
        return False
    if entry_id is not None and entry_id_of(event) != entry_id:
        return False
    if entry_kinds is not None:
        entry = entry_of(event)
        if entry is None or str(entry.kind) not in {str(k) for k in entry_kinds}:
            return False
    return True


@dataclass(frozen=True, slots=True)
class _Subscription:
    callback: Subscriber
    kind: EventType | None
    entry_id: int | None
    entry_kinds: frozenset[str] | None


class EventBus:
    """Synchronous fan-out. A subscriber that raises is logged and never breaks a payment."""

    def __init__(self) -> None:
        self._subscribers: list[_Subscription] = []

    def subscribe(self, callback: Subscriber, kind: EventType | None = None, *,
                  entry_id: int | None = None,
                  entry_kinds: Collection[str] | None = None) -> Callable[[], None]:
        """Call ``callback`` with each event that ``matches``; returns the unsubscribe."""
        item = _Subscription(callback, kind, entry_id,
                             None if entry_kinds is None else frozenset(str(k) for k in entry_kinds))
        self._subscribers.append(item)
        return lambda: self._subscribers.remove(item)

    def follow(self, journal: Journal) -> Callable[[], None]:
        """Publish a ``PaymentChanged`` for every entry the journal writes, and the journal's
        other changes as they come (``TicketChanged``, ``DrawerMoved``, ``ClockMoved``): done once, where the
        runtime opens, so every change reaches the window the same way."""
        entries = journal.subscribe(lambda entry: self.publish(PaymentChanged(entry)))
        changes = journal.subscribe_changes(self.publish)

        def stop() -> None:
            entries()
            changes()

        return stop

    def publish(self, event: Any) -> None:
        for sub in list(self._subscribers):
            if not matches(event, sub.kind, entry_id=sub.entry_id, entry_kinds=sub.entry_kinds):
                continue
            try:
                sub.callback(event)
            except Exception:
                log.exception("event subscriber failed on %s", type(event).__name__)
