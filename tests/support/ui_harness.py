"""The window tests' harness: the window's own loop driven from a plain test function, and the
checks every window test ends with (no crash seen, no top-level widget left alive)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QEventLoop as QtEventLoop
from qasync import QEventLoop


class UiHarness:
    """Drives the window's loop. The loop runs for the whole test, as in the window, where it
    never stops: it is made with qasync's ``already_running``, so Qt events processed by the test
    itself or by pytest-qt after it (key clicks, its last pass) step the window's tasks with the
    loop they were made on, instead of dying with "no running event loop" (which the crash
    reporter would see). ``run`` processes Qt's events (a Qt event loop of its own, nested as a
    dialog's is) until the coroutine is done, then makes one more pass, as the window's
    ``run_until_complete`` does (paints and queued calls delivered)."""

    def __init__(self, loop: QEventLoop) -> None:
        self.loop = loop

    def run(self, coro: Awaitable[Any], timeout_s: float = 20.0) -> Any:
        return self._run(asyncio.wait_for(coro, timeout_s))

    def _run(self, coro: Awaitable[Any]) -> Any:
        task = asyncio.ensure_future(coro, loop=self.loop)
        spin = QtEventLoop()
        task.add_done_callback(lambda _: spin.quit())
        while not task.done():
            spin.exec()
        QCoreApplication.processEvents()
        return task.result()

    def until(self, predicate: Callable[[], Any], timeout_s: float = 15.0, what: str = "") -> Any:
        """Spin the loop (Qt events and asyncio) until ``predicate()`` is truthy."""
        async def wait() -> Any:
            deadline = time.monotonic() + timeout_s
            while True:
                value = predicate()
                if value:
                    return value
                if time.monotonic() > deadline:
                    raise AssertionError(f"timed out waiting for {what or predicate}")
                await asyncio.sleep(0.01)
        return self._run(wait())

    def spin(self, seconds: float = 0.05) -> None:
        self._run(asyncio.sleep(seconds))

    def close(self) -> None:
        """Cancel what the test left running, then stop and close the loop. Its last run (a
        plain ``run_until_complete``, once qasync counts it stopped) leaves no running loop
        behind for the next test's own."""
        pending = [t for t in asyncio.all_tasks(self.loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            self._run(asyncio.gather(*pending, return_exceptions=True))
        self.loop.stop()
        self.loop.run_until_complete(asyncio.sleep(0))
        self.loop.close()


def crashes_seen(gui: Any) -> list[str]:
    """What the window's crash reporter saw (an exception in a window task or callback): in a
    test there is no dialog to see, so the test fails on it instead (``check_clean``)."""
    return list(gui.reporter.seen) if gui.reporter is not None else []


def check_clean(crashes: list[str], before: list[Any], after: list[Any]) -> None:
    """A UI test ends with no exception seen by the crash reporter and no top-level widget left
    alive that was not there before it (compared by identity: one closed and one leaked do not
    cancel out)."""
    assert not crashes, f"the window hit {len(crashes)} unexpected error(s): {crashes}"
    leaked = [w for w in after if not any(w is b for b in before)]
    assert not leaked, ("the test left top-level widgets alive (close and delete them): "
                        + ", ".join(f"{type(w).__name__} {w.windowTitle()!r}" for w in leaked))


def live_top_level_widgets() -> list[Any]:
    """The top-level widgets Qt still holds once every pending deletion has run."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    for _ in range(3):  # a deletion can post another (a window's children, a menu's popup)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()
    return list(QApplication.topLevelWidgets())
