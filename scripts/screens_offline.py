"""Screens of an outage for ``scripts/screens.py`` (issue 40): the status bar while the till is
offline by itself with card payments stored, and the Manager screen's list of stored payments with
one the host declined when the gateway sent it on. A training till on its own throw-away journal:
the PIN pad's "Host down" takes the host away, real sales are stored by the embedded gateway, and
the 19.19 trigger is declined at the forward."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from decimal import Decimal
from typing import Any


async def _until(predicate: Callable[[], Any], timeout_s: float = 15.0) -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while not (value := predicate()):
        if loop.time() > deadline:
            raise TimeoutError("screen state not reached")
        await asyncio.sleep(0.01)
    return value


async def offline_states(shoot: Callable[[Any, str], Any], build: Callable[..., Any]) -> None:
    """``build(**overrides)``: a training till's window, shown and not started
    (``screens.build_training``)."""
    from cashier.flows.payments import sale
    from ui.pages.manager import ManagerPage
    from ui.pages.sale import SalePage

    gui = build(processing_option="LG")
    w = gui.window
    w.resize(1024, 768)
    w.show()
    await gui.start(poll_s=0)
    pad, till = gui.pinpad, gui.till
    pad.auto.setChecked(True)
    w.go(SalePage)
    pad.host_down.setChecked(True)  # the host goes away: the first card finds it, offline by itself
    await sale(till.ctx, Decimal("20.00"))
    await _until(lambda: till.status.offline)
    for amount in ("19.19", "12.40"):  # 19.19: the host will decline it at the forward
        await sale(till.ctx, Decimal(amount))
    await _until(lambda: till.status.stored_count == 2)
    await shoot(w, "offline-status-bar")
    pad.host_down.setChecked(False)  # back: online by itself, the forward settled
    await _until(lambda: not till.status.offline and till.status.declined_on_forward == 1)
    pad.host_down.setChecked(True)  # away again: two more stored
    await sale(till.ctx, Decimal("8.00"))
    await _until(lambda: till.status.offline)
    for amount in ("8.00", "23.75"):
        await sale(till.ctx, Decimal(amount))
    await _until(lambda: till.status.stored_count == 2)
    manager: ManagerPage = w.go(ManagerPage)
    manager.pin.setText("1234")
    manager.unlock()
    await _until(lambda: manager.offline_table.rowCount() == 3)
    manager.scroll_area.ensureWidgetVisible(manager.offline_table)
    await shoot(w, "manager-offline-stored")
    gui.set_language("es")
    manager.refresh()
    head = manager.offline_table.horizontalHeaderItem
    await _until(lambda: manager.offline_table.rowCount() == 3 and (item := head(5)) is not None
                 and item.text() == "Queda / qué hacer")
    manager.scroll_area.ensureWidgetVisible(manager.offline_table)
    await shoot(w, "manager-offline-stored-1024x768-es")
    gui.set_language("en")
    await gui.stop()
