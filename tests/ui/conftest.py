"""pytest-qt + qasync: one QApplication per session (pytest-qt's ``qapp``), one qasync loop per
test. Tests are plain functions that drive the loop with ``ui.run(coro)`` / ``ui.until(...)``, so
pytest-asyncio never puts its own loop in the way."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from qasync import QEventLoop

from ui.loop import make_loop


class UiHarness:
    """Drives the window's loop. Between runs the loop stays the running loop of this thread, as
    in the window, where it never stops: Qt events processed by the test itself or by pytest-qt
    after it (key clicks, its last pass) step the window's tasks with the loop they were made on,
    instead of dying with "no running event loop" (which the crash reporter would see)."""

    def __init__(self, loop: QEventLoop) -> None:
        self.loop = loop
        asyncio.events._set_running_loop(loop)

    def run(self, coro: Awaitable[Any], timeout_s: float = 20.0) -> Any:
        return self._run(asyncio.wait_for(coro, timeout_s))

    def _run(self, coro: Awaitable[Any]) -> Any:
        asyncio.events._set_running_loop(None)  # the loop runs itself now
        try:
            return self.loop.run_until_complete(coro)
        finally:
            asyncio.events._set_running_loop(self.loop)

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


@pytest.fixture
def ui(qapp: Any) -> Iterator[UiHarness]:
    loop = make_loop(qapp)  # the window's own loop
    asyncio.set_event_loop(loop)
    harness = UiHarness(loop)
    try:
        yield harness
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        asyncio.events._set_running_loop(None)
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.close()
        asyncio.set_event_loop(None)


@pytest.fixture
def make_gui(ui: UiHarness, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``gui = make_gui(**profile_overrides)``: a training window started on the embedded sandbox."""
    from cashier.config import load_profile
    from ui.app import build_gui

    made: list[Any] = []

    def make(start: bool = True, pinpad: bool = True, drawer_float: str | None = "100.00",
             **overrides: Any) -> Any:
        """``drawer_float``: the cash drawer is opened with it first through the real drawer
        (cash needs an open drawer session); None leaves the drawer closed."""
        overrides.setdefault("journal_path", tmp_path / f"journal-{len(made)}.sqlite")
        profile = load_profile(None, **overrides)
        gui = build_gui(profile, show_dialogs=False)
        desk = gui.cashdesk
        if drawer_float is not None and desk is not None and desk.drawer.current() is None:
            desk.open(clerk=str(profile.clerk_id), float_amount=drawer_float)
        gui.window.show()
        made.append(gui)
        if start:
            ui.run(gui.start(poll_s=0, pinpad=pinpad))
            assert gui.till.ready, gui.window.start_error
        return gui

    before = live_top_level_widgets()
    yield make
    crashes = [text for gui in made for text in crashes_seen(gui)]
    for gui in made:
        ui.run(gui.stop())
        gui.language.switch("en")
        for widget in gui.windows():
            widget.deleteLater()
    made.clear()
    try:
        check_clean(crashes, before, live_top_level_widgets())
    finally:
        from PySide6.QtWidgets import QApplication

        from ui.theme import apply_theme

        app = QApplication.instance()
        if isinstance(app, QApplication):  # the next test starts in the default look: set now,
            apply_theme(app)  # with the windows gone, it re-polishes nothing


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
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    for _ in range(3):  # a deletion can post another (a window's children, a menu's popup)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()
    return list(QApplication.topLevelWidgets())
