"""The journal's lanes (``journal.aio.Lane``): calls run in order on one thread, an exception
comes back to its caller, and a call whose caller gave up before it began is never run (a write
the flow no longer waits for is not journaled behind its back)."""

from __future__ import annotations

import asyncio
import functools
import threading

import pytest

from cashier.journal.aio import Lane


async def test_calls_run_in_order_on_one_thread_and_errors_come_back() -> None:
    lane = Lane("test-lane")
    try:
        seen: list[tuple[int, str]] = []

        def note(n: int) -> int:
            seen.append((n, threading.current_thread().name))
            return n

        results = await asyncio.gather(*(lane.call(functools.partial(note, n)) for n in range(5)))
        assert results == [0, 1, 2, 3, 4] and [n for n, _ in seen] == [0, 1, 2, 3, 4]
        assert {name for _, name in seen} == {"test-lane"}
        with pytest.raises(ZeroDivisionError):
            await lane.call(lambda: 1 // 0)
        assert lane.submit(lambda: 7).result(timeout=10) == 7  # from another thread's caller
    finally:
        lane.shutdown()


async def test_a_call_cancelled_before_it_began_is_never_run() -> None:
    lane = Lane("test-lane")
    gate = threading.Event()
    ran: list[str] = []
    try:
        busy = asyncio.ensure_future(lane.call(lambda: gate.wait(10)))
        waiting = asyncio.ensure_future(lane.call(lambda: ran.append("late")))
        await asyncio.sleep(0)  # both queued; the first holds the lane
        waiting.cancel()
        gate.set()
        assert await busy is True
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert await lane.call(lambda: "after") == "after" and ran == []
    finally:
        lane.shutdown()


async def test_a_call_runs_on_the_callers_thread_only_when_the_lane_is_idle() -> None:
    """``run_here_if_idle`` keeps the lane's order: while a call is queued or running nothing
    runs on the caller's thread; once idle, a call whose condition holds runs there at once."""
    lane = Lane("test-lane")
    gate = threading.Event()
    ran: list[str] = []
    try:
        busy = asyncio.ensure_future(lane.call(lambda: gate.wait(10)))
        await asyncio.sleep(0.05)  # the lane's thread holds it
        assert lane.run_here_if_idle(lambda: ran.append("early"), lambda: True) == (False, None)
        gate.set()
        assert await busy is True
        assert lane.run_here_if_idle(lambda: ran.append("no"), lambda: False) == (False, None)
        here = threading.current_thread().name
        assert lane.run_here_if_idle(lambda: threading.current_thread().name, lambda: True) == (True, here)
        with pytest.raises(ZeroDivisionError):  # its error is raised to the caller
            lane.run_here_if_idle(lambda: 1 // 0, lambda: True)
        assert ran == [] and await lane.call(lambda: "after") == "after"  # the lane still runs
    finally:
        lane.shutdown()
