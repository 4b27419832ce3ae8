"""The bridge: a page subscribes to its own core events by type and entry, for as long as it lives."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject

from cashier.flows.events import DevicePrompt, EventBus, PaymentChanged, QrShown
from ui.bridge import Bridge


class Receiver(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.got: list[Any] = []

    def take(self, item: Any) -> None:
        self.got.append(item)


class FakeEntry:
    def __init__(self, id_: int, kind: str) -> None:
        self.id, self.kind = id_, kind


def test_on_delivers_only_the_pages_events_until_the_page_is_gone(qtbot: Any) -> None:
    bus, bridge = EventBus(), Bridge()
    bridge.connect_bus(bus)
    qr, tabs = Receiver(), Receiver()
    bridge.on(QrShown, qr.take, entry_id=5)
    bridge.on_entries(tabs.take, kinds={"authorization"})
    shown = QrShown(5, "0100000005", "code", Decimal(1))
    auth, sale = FakeEntry(1, "authorization"), FakeEntry(2, "sale")
    for event in (QrShown(6, "0100000006", "x", Decimal(1)), shown, DevicePrompt(5, "card"),
                  PaymentChanged(sale), PaymentChanged(auth)):  # type: ignore[arg-type]
        bus.publish(event)
    assert qr.got == [shown] and tabs.got == [auth]
    qr.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    bus.publish(shown)  # the page is gone: its subscription went with it
    assert qr.got == [shown] and tabs.got == [auth]
    bridge.disconnect_all()
