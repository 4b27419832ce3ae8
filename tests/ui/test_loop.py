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



def test_every_step_runs_with_the_loop_running(ui: Any) -> None:
    """qasync's run_until_complete made a last pass over Qt's events with no running loop set:
    a task stepped then had no loop (``asyncio.timeout`` and httpx's sniffio check failed, and a
    pay-by-link watch died in the window tests under load). Every ``ui.run`` ends with that pass."""
    errors: list[str] = []
    steps = 0

    async def ticker() -> None:
        nonlocal steps
        while True:
            try:
                asyncio.get_running_loop()
                steps += 1
            except RuntimeError as exc:
                errors.append(str(exc))
            await asyncio.sleep(0)

    task = ui.loop.create_task(ticker())
    for _ in range(200):
        ui.run(asyncio.sleep(0))
    task.cancel()
    ui.run(asyncio.gather(task, return_exceptions=True))
    assert steps > 200 and errors == []


def test_a_timer_cancelled_by_its_own_callback_is_no_error(ui: Any) -> None:
    # qasync deleted the timer's entry after the callback ran: the callback's own cancel had
    # already dropped it, and the KeyError reached the crash reporter (seen in a real race)
    loop = ui.loop
    ran: list[str] = []
    handles: list[asyncio.Handle] = []

    def callback() -> None:
        ran.append("ran")
        handles[0].cancel()

    handles.append(loop.call_later(0, callback))
    later = loop.call_later(0.01, ran.append, "later")
    ui.spin(0.05)
    assert ran == ["ran", "later"]
    assert not later.cancelled()
    assert loop.pending_timers() == 0


def test_a_flow_cancelled_before_it_began_leaves_no_coroutine_unawaited(ui: Any, make_gui: Any) -> None:
    """The window closing or a screen left cancels flows not yet begun: each is closed, so Python
    never warns "coroutine ... was never awaited" (the accessibility walk printed four)."""
    import gc
    import warnings

    gui = make_gui()
    began: list[bool] = []

    async def flow() -> None:
        began.append(True)

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        task = gui.till.run(flow(), "never begun")
        task.cancel()
        ui.spin(0.05)
        cancelled = task.cancelled()
        del task  # the flow's coroutine goes with it
        gc.collect()
    assert cancelled and not began
    assert [str(w.message) for w in seen if "never awaited" in str(w.message)] == []
