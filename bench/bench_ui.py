"""Window figures, each measured in a fresh process so nothing else shares its memory or loop.

- ``startup_to_window_s``: process start to the first painted window (training, from source,
  bytecode cached by the warm-up run as an installed till has it); the median of 5 runs of the
  real ``cashier`` entry point with a first-paint probe.
- ``ui_loop_lag_p99_ms``: how late a 10 ms Qt timer fires in the window while sales run
  through the Sale screen's own actions (keys, Card button, the automatic virtual customer).
- ``startup_to_first_key_s``: process start to the first digit accepted on the Sale screen (the
  probe posts a "1" after the first paint until the amount shows it); median of the same 5 runs.
- ``key_to_pinpad_prompt_ms_p99``: Return pressed on the Sale screen (an amount typed) to the PIN
  pad's card prompt painted; ``pinpad_answer_to_result_ms_p99``: the customer's card tapped on
  the pad to the till's result page painted (30 sales, the customer answered by the bench).
- ``line_add_ms_p99_200_lines``: a scanner's line (name, amount, +) every 100 ms to the lines
  table painted with it, over a 200-line ticket; ``line_add_ms_ratio_last_to_first`` says
  whether the 200th line is as fast as the first (the mean of the last 20 over the first 20).
- ``rss_mb_after_1000_sales`` and ``rss_growth_mb_per_1000_after_100``: resident memory after
  1000 such sales, and its growth after the first hundred, scaled to a thousand.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GOALS = {"startup_to_window_s": ("<=", 0.6), "startup_to_first_key_s": ("<=", 0.6),
         "key_to_pinpad_prompt_ms_p99": ("<=", 50.0), "pinpad_answer_to_result_ms_p99": ("<=", 50.0),
         "line_add_ms_p99_200_lines": ("<=", 8.0), "ui_loop_lag_p99_ms": ("<=", 16.0),
         "rss_mb_after_1000_sales": ("<=", 120.0), "rss_growth_mb_per_1000_after_100": ("<=", 2.0)}
ROOT = Path(__file__).resolve().parent.parent
SALES = int(os.environ.get("CASHIER_BENCH_UI_SALES", "1000"))


def _env(tmp: str) -> dict[str, str]:
    # Decision: the window's processes may write and use cached bytecode (__pycache__), as an
    # installed till has it (pip and the bundle compile every module): a shell that sets
    # PYTHONDONTWRITEBYTECODE would otherwise time the compiling of ~300 modules at each start.
    env = {k: v for k, v in os.environ.items()
           if (not k.startswith("CASHIER_") or k == "CASHIER_BENCH_UI_SALES")
           and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=f"{tmp}/data", XDG_STATE_HOME=f"{tmp}/state",
               XDG_CACHE_HOME=f"{tmp}/cache", PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
               CASHIER_STARTUP_PROBE="1")
    return env


def startup_once(tmp: str) -> tuple[float, float]:
    """(seconds to the first paint, seconds to the first digit accepted on the Sale screen)."""
    start = time.time()
    painted = float("nan")
    proc = subprocess.Popen([sys.executable, "-c", "from ui.launch import main; main([])"],
                            cwd=ROOT, env=_env(tmp), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("first-paint "):
                painted = float(line.split()[1]) - start
            elif line.startswith("first-key "):
                return painted, float(line.split()[1]) - start
        raise RuntimeError("the window never painted or never took a key")
    finally:
        proc.kill()
        proc.wait()


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class FrameProbe:
    """A 10 ms Qt timer in the window's process: how late each tick fires is the loop's lag
    (judged against one frame, 16 ms). Shared by the window and ticket benches."""

    def __init__(self) -> None:
        from PySide6.QtCore import QElapsedTimer, Qt, QTimer

        self.lateness: list[float] = []
        self._clock = QElapsedTimer()
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(10)
        self._last = 0
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = self._clock.nsecsElapsed()
        if self._last:
            self.lateness.append(max(0.0, (now - self._last) / 1e6 - 10.0))
        self._last = now

    def start(self) -> None:
        self._clock.start()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()


def training_window(tmp: str) -> tuple[Any, Any, Any]:
    """The window's process as ``ui.app.run_gui`` makes it, on a training journal in ``tmp``:
    (the application, which must stay referenced, its loop, the gui)."""
    import asyncio

    from PySide6.QtWidgets import QApplication

    from cashier.config import load_profile
    from ui.app import build_gui
    from ui.loop import make_loop

    app = QApplication(sys.argv[:1])
    loop = make_loop(app)
    asyncio.set_event_loop(loop)
    gui = build_gui(load_profile(None, journal_path=Path(tmp) / "ui.sqlite"), app, show_dialogs=False)
    gui.window.show()
    return app, loop, gui


def child(tmp: str) -> dict[str, float]:
    """Runs in its own process: sales through the window, timer lateness, memory."""
    import asyncio

    import psutil  # type: ignore[import-untyped]

    from ui.pages.sale import SalePage

    _app, loop, gui = training_window(tmp)
    probe = FrameProbe()
    process = psutil.Process()
    rss: dict[int, float] = {}

    async def run() -> None:
        from cashier.sandbox.app import HostSandbox
        from cashier.sandbox.core import SandboxConfig

        # Decision: the embedded host keeps its ledger in memory here (no per-request state file
        # written and fsynced on the loop), so the figure is the window's, not the simulator's disk.
        sandbox = None if os.environ.get("BENCH_UI_SANDBOX_FILE") else HostSandbox(
            SandboxConfig(option=gui.profile.processing_option))
        await gui.start(poll_s=0, sandbox=sandbox)
        assert gui.pinpad is not None
        gui.pinpad.auto.setChecked(True)
        gui.pinpad.auto_delay_ms = 0
        sale: SalePage = gui.window.go(SalePage)
        probe.start()
        for i in range(1, SALES + 1):
            sale.new_sale()
            sale.amount.type_digit("1")
            sale.amount.type_digit("2")
            sale.amount.type_digit("5")
            sale.amount.type_digit("0")
            sale.card_button.click()
            while sale.stack.currentWidget() is not sale.result_page:
                await asyncio.sleep(0.001)
            assert sale.result is not None
            if sale.result.outcome != "approved":
                assert sale.result is not None
                raise RuntimeError(f"sale {i}: {sale.result.outcome}")
            if i in (100, SALES):
                await gui.till.tasks.idle()
                rss[i] = process.memory_info().rss / 2**20
        probe.stop()
        await gui.stop()

    with loop:
        loop.run_until_complete(run())
    growth = (rss[SALES] - rss[100]) / max(SALES - 100, 1) * 1000 if SALES > 100 else float("nan")
    return {"ui_loop_lag_p99_ms": pct(probe.lateness, 0.99), f"rss_mb_after_{SALES}_sales": rss[SALES],
            "rss_growth_mb_per_1000_after_100": growth}


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-ui-") as tmp:
        startup_once(tmp)  # warm the file cache and write the journal once
        startups = [startup_once(tmp) for _ in range(5)]
        feel = subprocess.run([sys.executable, "-m", "bench.bench_ui", "--feel", tmp], cwd=ROOT,
                              env={**_env(tmp), "CASHIER_STARTUP_PROBE": ""}, capture_output=True,
                              text=True, timeout=900)
        if feel.returncode != 0:
            raise RuntimeError(feel.stderr[-2000:])
        proc = subprocess.run([sys.executable, "-m", "bench.bench_ui", "--child", tmp], cwd=ROOT,
                              env={**_env(tmp), "CASHIER_STARTUP_PROBE": ""}, capture_output=True,
                              text=True, timeout=900)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr[-2000:])
        figures: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    figures.update(json.loads(feel.stdout.strip().splitlines()[-1]))
    figures["startup_to_window_s"] = statistics.median(s[0] for s in startups)
    figures["startup_to_first_key_s"] = statistics.median(s[1] for s in startups)
    return {k: float(v) for k, v in figures.items()}


class PaintClock:
    """When each watched widget was last painted (``time.perf_counter``), from its Paint events."""

    def __init__(self, *widgets: Any) -> None:
        from PySide6.QtCore import QEvent, QObject

        clock = self
        self.painted: dict[int, float] = {}

        class Filter(QObject):
            def eventFilter(self, watched: Any, event: Any) -> bool:
                if event.type() == QEvent.Type.Paint:
                    clock.painted[id(watched)] = time.perf_counter()
                return False

        self._filter = Filter()
        for widget in widgets:
            widget.installEventFilter(self._filter)

    async def after(self, widget: Any, since: float, what: str, timeout_s: float = 30.0) -> float:
        """Milliseconds from ``since`` to the first paint of ``widget`` after it."""
        import asyncio

        deadline = time.monotonic() + timeout_s
        while self.painted.get(id(widget), 0.0) < since:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} was never painted")
            await asyncio.sleep(0)
        return (self.painted[id(widget)] - since) * 1000


def feel_child(tmp: str) -> dict[str, float]:
    """Runs in its own process: what the cashier feels, through the window's own keys."""
    import asyncio

    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from ui.pages.sale import SalePage

    _app, loop, gui = training_window(tmp)
    out: dict[str, float] = {}

    async def run() -> None:
        from cashier.sandbox.app import HostSandbox
        from cashier.sandbox.core import SandboxConfig

        await gui.start(poll_s=0, sandbox=HostSandbox(SandboxConfig(option=gui.profile.processing_option)))
        pad = gui.pinpad
        assert pad is not None
        pad.auto.setChecked(False)  # the bench is the customer: it taps when the prompt is drawn
        pad.show()
        sale: SalePage = gui.window.go(SalePage)
        clock = PaintClock(pad.card_page, sale.result_page, sale.lines_list.viewport())
        to_prompt: list[float] = []
        to_result: list[float] = []
        for i in range(32):
            sale.new_sale()
            for digit in "1250":
                QTest.keyClick(sale, getattr(Qt.Key, f"Key_{digit}"))
            await asyncio.sleep(0.02)  # the keys drawn before the clock starts
            t = time.perf_counter()
            QTest.keyClick(sale, Qt.Key.Key_Return)
            prompt_ms = await clock.after(pad.card_page, t, "the PIN pad's card prompt")
            await asyncio.sleep(0.02)
            t = time.perf_counter()
            pad.tap(pad.default_card())
            result_ms = await clock.after(sale.result_page, t, "the till's result page")
            assert sale.result is not None
            if sale.result.outcome != "approved":
                assert sale.result is not None
                raise RuntimeError(f"sale {i}: {sale.result.outcome}")
            if i >= 2:  # the first two warm the caches
                to_prompt.append(prompt_ms)
                to_result.append(result_ms)
        out["key_to_pinpad_prompt_ms_p99"] = pct(to_prompt, 0.99)
        out["pinpad_answer_to_result_ms_p99"] = pct(to_result, 0.99)
        sale.new_sale()
        lines: list[float] = []
        viewport = sale.lines_list.viewport()
        for n in range(200):
            await asyncio.sleep(0.1)  # the scanner's pace
            t = time.perf_counter()
            sale.description.setText(f"Item {n}")
            for digit in "199":
                QTest.keyClick(sale, getattr(Qt.Key, f"Key_{digit}"))
            QTest.keyClick(sale, Qt.Key.Key_Plus)
            while sale.lines_list.rowCount() < n + 1:
                if sale.error_label.text():
                    raise RuntimeError(f"line {n}: {sale.error_label.text()}")
                await asyncio.sleep(0)
            lines.append(await clock.after(viewport, t, f"line {n}"))
        out["line_add_ms_p99_200_lines"] = pct(lines, 0.99)
        out["line_add_ms_ratio_last_to_first"] = statistics.mean(lines[-20:]) / statistics.mean(lines[:20])
        await gui.stop()

    with loop:
        loop.run_until_complete(run())
    return out


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        print(json.dumps(child(sys.argv[2])))
    elif len(sys.argv) > 2 and sys.argv[1] == "--feel":
        print(json.dumps(feel_child(sys.argv[2])))
    else:
        print(json.dumps(run(), indent=1))
