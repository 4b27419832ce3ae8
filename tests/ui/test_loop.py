"""The window's loop releases a cancelled timer at once (qasync alone keeps it until it would fire)."""

from __future__ import annotations

import asyncio
from typing import Any

from qasync import QEventLoop

from ui.loop import TillEventLoop


async def _quick_waits(n: int) -> None:
    """What every PIN pad prompt and host call does: a long timeout around a quick answer."""
    for _ in range(n):
        await asyncio.wait_for(asyncio.sleep(0), timeout=600)
        async with asyncio.timeout(600):
            await asyncio.sleep(0)


def test_cancelled_timeouts_leave_no_timer(ui: Any) -> None:
    loop = ui.loop
    assert isinstance(loop, TillEventLoop)
    before = loop.pending_timers()
    ui.run(_quick_waits(200))
    assert loop.pending_timers() <= before + 1  # not 400 dead timers waiting ten minutes


def test_plain_qasync_would_keep_them(qapp: Any) -> None:
    # the reason for TillEventLoop: if qasync ever releases them itself, this fails and the
    # subclass can go
    loop = QEventLoop(qapp)
    try:
        loop.run_until_complete(_quick_waits(50))
        assert len(loop._timer._SimpleTimer__callbacks) >= 100
    finally:
        loop.close()
        asyncio.set_event_loop(None)


def test_timers_still_fire_and_cancel_by_identity(ui: Any) -> None:
    loop = ui.loop
    fired: list[str] = []

    async def scenario() -> None:
        early = loop.call_later(0.01, fired.append, "early")
        await asyncio.sleep(0.05)  # it fired; its Qt timer id may now be reused
        late = loop.call_later(0.02, fired.append, "late")
        early.cancel()  # must not kill the newer timer that may carry the same id
        dropped = loop.call_later(0.01, fired.append, "dropped")
        dropped.cancel()
        await asyncio.sleep(0.08)
        assert not late.cancelled()

    ui.run(scenario())
    assert fired == ["early", "late"]


def test_a_task_stepped_by_qt_outside_the_loop_still_finds_asyncio(ui: Any, qapp: Any) -> None:
    """Qt can run the loop's callbacks while ``run_forever`` is not on the stack (any
    ``processEvents``); httpx then asks sniffio which library runs it. Without the window loop's
    answer that request failed with AsyncLibraryNotFoundError (a pay-by-link watch died so)."""
    import httpx
    import sniffio
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    app = Starlette(routes=[Route("/", lambda request: PlainTextResponse("ok"))])
    seen: list[str] = []

    async def ask() -> str:
        try:
            seen.append(sniffio.current_async_library())
        except sniffio.AsyncLibraryNotFoundError:
            seen.append("no async library found")
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            return (await c.get("/")).text

    task = ui.loop.create_task(ask())
    for _ in range(50):  # Qt, not run_forever, steps the task
        qapp.processEvents()
        if seen:
            break
    assert seen == ["asyncio"]
    assert ui.run(task) == "ok"
