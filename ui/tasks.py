"""Keep every coroutine the window starts referenced, and make its failure visible.

asyncio keeps only weak references to tasks: a task nobody holds may be collected mid-payment.
Every task the window starts goes through ``Tasks.spawn``; an exception that escapes one is
logged (redacted by the logging filter) and handed to the crash dialog, and the window stays up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger("ui.tasks")


class Tasks:
    def __init__(self) -> None:
        self.running: set[asyncio.Task[Any]] = set()
        self.on_error: Callable[[BaseException], None] | None = None

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str = "", *,
              eager: bool = False) -> asyncio.Task[Any]:
        """``eager``: the coroutine runs at once, up to its first wait, inside the key's own event
        (a line written without a hop shows before the next paint); else from the next pass of
        the loop. Eager only while the loop runs: otherwise it starts as any other task."""
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if eager and loop is not None and loop.is_running():
            task = asyncio.eager_task_factory(loop, coro, name=name or None)
        else:
            task = asyncio.ensure_future(coro)
        if name:
            task.set_name(name)
        self.running.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.running.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is None:
            return
        log.error("task %s failed", task.get_name(), exc_info=exc)
        if self.on_error is not None:
            self.on_error(exc)

    async def cancel_all(self) -> None:
        tasks = list(self.running)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def idle(self, timeout_s: float = 10.0) -> None:
        """Wait until every task started so far has finished (tests, smoke run)."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        while self.running:
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"{len(self.running)} task(s) still running")
            await asyncio.wait(list(self.running), timeout=0.05)
