"""Starting Cashier again on a till that runs it brings the running window to the front (the
cashier double-clicked the icon again), instead of a second window or an error box."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def test_a_knock_restores_and_raises_the_minimised_window(make_gui: Callable[..., Any], ui: Any,
                                                         tmp_path: Path) -> None:
    from cashier.till_lock import knock
    from ui.app import open_door

    gui = make_gui(start=False)
    journal = gui.profile.resolved_journal_path
    door = open_door(gui, journal)
    try:
        gui.window.showMinimized()
        ui.until(lambda: gui.window.isMinimized(), what="minimised")
        assert knock(journal)
        ui.until(lambda: not gui.window.isMinimized() and gui.window.isVisible(),
                 what="the window back in front")
    finally:
        door.close()


def test_a_second_cashier_process_brings_the_first_forward_and_exits_0(tmp_path: Path) -> None:
    profile = tmp_path / "till.toml"
    profile.write_text(f'training = true\njournal_path = "{tmp_path / "journal.sqlite"}"\n'
                       f'log_dir = "{tmp_path / "logs"}"\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env.update(CASHIER_PROFILE=str(profile), CASHIER_STARTUP_PROBE="1", QT_QPA_PLATFORM="offscreen",
               XDG_DATA_HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path))
    errors = tmp_path / "first.err"  # a file, not a pipe nobody reads that could fill and stall it
    with errors.open("w") as err:
        first = subprocess.Popen([sys.executable, "-m", "ui.launch"], cwd=ROOT, env=env,
                                 stdout=subprocess.PIPE, stderr=err, text=True)
    try:
        assert first.stdout is not None
        line = first.stdout.readline()  # the first paint: the window is up, its door open
        assert line.startswith("first-paint"), (line, errors.read_text())
        second = subprocess.run([sys.executable, "-m", "ui.launch"], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 0, second.stderr
        assert f"already running on this till (process {first.pid})" in second.stderr
        assert "brought to the front" in second.stderr
        assert first.poll() is None  # the first window still runs
    finally:
        first.kill()
        first.wait(10)
