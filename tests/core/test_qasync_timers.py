"""Regression: qasync on CPython 3.11 aborted under timer load (none_dealloc); we need 3.12+."""

import subprocess
import sys
import textwrap


def test_python_is_new_enough() -> None:
    assert sys.version_info >= (3, 12)


def test_timer_load_on_qasync_exits_cleanly() -> None:
    script = textwrap.dedent("""
        import asyncio, os, sys
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication
        from qasync import QEventLoop
        app = QApplication([])
        loop = QEventLoop(app)
        asyncio.set_event_loop(loop)
        ticks = [0]
        async def spin():
            while True:
                await asyncio.sleep(0.001)
                ticks[0] += 1
        async def main():
            tasks = [asyncio.ensure_future(spin()) for _ in range(200)]
            await asyncio.sleep(1)
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        with loop:
            loop.run_until_complete(main())
        print("ticks", ticks[0])
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Fatal Python error" not in proc.stderr
    assert int(proc.stdout.split()[-1]) > 1000  # 200 timers a millisecond apart, a second
