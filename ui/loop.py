"""The window's asyncio loop: qasync's, with cancelled timers released at once.

qasync (0.28) runs every ``call_later`` on a Qt timer and keeps the handle, and the Qt timer,
until the delay has passed, even when the handle was cancelled. Every ``asyncio.wait_for`` and
``asyncio.timeout`` cancels its timeout handle when the awaited thing finishes first, so a till
ringing sales with long PIN pad and host timeouts (minutes) kept two or three dead timers per
sale alive until they would have fired. Here a cancelled handle kills its Qt timer and drops out
of the table, as asyncio's own loops drop cancelled timers.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QTimerEvent
from PySide6.QtCore import QEventLoop as QtEventLoop
from qasync import QEventLoop, _SimpleTimer


class _Timers(_SimpleTimer):  # type: ignore[misc]
    """qasync's timer table, plus ``forget`` for a handle cancelled before it fired."""

    def add_callback(self, handle: asyncio.Handle, delay: float = 0) -> asyncio.Handle:
        timer_id = self.startTimer(int(max(0, delay) * 1000))
        self.table[timer_id] = handle
        if isinstance(handle, _TimerHandle):
            handle.timer, handle.timer_id = self, timer_id
        return handle

    @property
    def table(self) -> dict[int, asyncio.Handle]:
        table: dict[int, asyncio.Handle] = self._SimpleTimer__callbacks
        return table

    def forget(self, timer_id: int, handle: asyncio.Handle) -> None:
        # identity check: once a timer fired its id may belong to a newer timer
        if self.table.get(timer_id) is handle:
            del self.table[timer_id]
            self.killTimer(timer_id)

    def timerEvent(self, event: QTimerEvent) -> None:
        """qasync's, made safe for a timer whose handle is no longer in the table. qasync deletes
        the entry after running the callback, and raised KeyError (seen by the crash reporter)
        when it was gone: a timer event Qt still delivered after its handle was cancelled and
        the timer killed, or a handle cancelled while its own callback ran. The entry leaves the
        table before the callback runs; a cancel after that has nothing to forget."""
        timer_id = event.timerId()
        self.killTimer(timer_id)
        handle = self.table.pop(timer_id, None)
        if handle is None or handle.cancelled() or self._stopped:
            return
        if isinstance(handle, _TimerHandle):
            handle.timer = None
        handle._run()

    def pending(self) -> int:
        """Timers still registered (tests and the memory bench)."""
        return len(self.table)


class _TimerHandle(asyncio.Handle):
    __slots__ = ("timer", "timer_id")

    def __init__(self, callback: Callable[..., object], args: tuple[Any, ...],
                 loop: asyncio.AbstractEventLoop, context: contextvars.Context | None = None) -> None:
        super().__init__(callback, args, loop, context=context)
        self.timer: _Timers | None = None
        self.timer_id = 0

    def cancel(self) -> None:
        super().cancel()
        if self.timer is not None:
            self.timer.forget(self.timer_id, self)
            self.timer = None


class TillEventLoop(QEventLoop):  # type: ignore[misc]
    def __init__(self, app: QCoreApplication | None = None, *, already_running: bool = False) -> None:
        super().__init__(app, already_running=already_running)
        self._timer = _Timers()

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any,
                   context: contextvars.Context | None = None) -> asyncio.Handle:
        if asyncio.iscoroutinefunction(callback) or asyncio.iscoroutine(callback):
            raise TypeError("coroutines cannot be used with call_later")
        if not callable(callback):
            raise TypeError(f"callback must be callable: {type(callback).__name__}")
        handle = _TimerHandle(callback, args, self, context=context)
        result: asyncio.Handle = self._add_callback(handle, delay)
        return result

    def run_until_complete(self, future: Any) -> Any:
        """qasync's, except for its last pass over Qt's events once ``run_forever`` returned:
        qasync makes it with no running loop set, so a task stepped in that pass found none
        (``asyncio.timeout`` raised "no running event loop", httpx's sniffio check failed) and
        died. The pass stays (paints and queued calls are delivered) with this loop running."""
        if self.is_running():
            raise RuntimeError("Event loop already running")
        task = asyncio.ensure_future(future, loop=self)

        def stop(_: asyncio.Future[Any]) -> None:
            self.stop()

        task.add_done_callback(stop)
        try:
            self.run_forever()
        finally:
            task.remove_done_callback(stop)
        asyncio.events._set_running_loop(self)
        try:
            dispatcher = QCoreApplication.eventDispatcher()
            if dispatcher is not None:
                dispatcher.processEvents(QtEventLoop.ProcessEventsFlag.AllEvents)
        finally:
            asyncio.events._set_running_loop(None)
        if not task.done():
            raise RuntimeError("Event loop stopped before Future completed.")
        return task.result()

    def pending_timers(self) -> int:
        timers: _Timers = self._timer
        return timers.pending()


def make_loop(app: QCoreApplication | None = None, *, already_running: bool = False) -> TillEventLoop:
    """The loop every window process runs on (the app, ``make screens``, tests, the bench).
    ``already_running``: qasync's own option for a loop whose Qt events someone else processes
    from the start (the window tests: the loop runs for the whole test, as in the window)."""
    return TillEventLoop(app, already_running=already_running)
