"""pytest-qt + qasync: one QApplication per session (pytest-qt's ``qapp``), one qasync loop per
test. Tests are plain functions that drive the loop with ``ui.run(coro)`` / ``ui.until(...)``, so
pytest-asyncio never puts its own loop in the way."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.ui_harness import UiHarness, check_clean, crashes_seen, live_top_level_widgets
from ui.loop import make_loop


@pytest.fixture
def ui(qapp: Any) -> Iterator[UiHarness]:
    loop = make_loop(qapp, already_running=True)  # the window's own loop
    asyncio.set_event_loop(loop)
    harness = UiHarness(loop)
    try:
        yield harness
    finally:
        harness.close()
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
