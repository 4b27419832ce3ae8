"""Training's PIN pad under a real window manager (Xvfb and openbox, what the issue's cashier
used): after a cancelled payment the pad steps back behind the till's window, every time (openbox
ignored the pad's lower() and the till's raise() from the second payment on), and the printer
stepping back after a receipt leaves the pad in front while it asks for the next card; every
window's title bar is on the screen. Offscreen Qt has no
stacking to look at: the outer test starts Xvfb and openbox and runs the inner one on them, with
real key presses; the stacking is what the window manager publishes (_NET_CLIENT_LIST_STACKING)."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

INNER = "CASHIER_UNDER_OPENBOX"
TOOLS = ("Xvfb", "openbox", "xprop")


def _start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """Xvfb on a display it picks itself, once it accepts clients: ``-displayfd`` writes the
    number when the server is ready (the socket file appears earlier, and a window manager
    started then fails to connect)."""
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1024x768x24",
                             "-nolisten", "tcp"], pass_fds=(write_end,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    try:
        number = b""
        deadline = time.monotonic() + 10
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read_end], [], [], max(deadline - time.monotonic(), 0))
            chunk = os.read(read_end, 16) if ready else b""
            assert chunk, "Xvfb did not start"
            number += chunk
    except BaseException:
        xvfb.kill()
        raise
    finally:
        os.close(read_end)
    return xvfb, f":{int(number)}"


@pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                    reason="needs Xvfb, openbox and xprop (scripts/system-deps.sh installs them)")
def test_the_pad_steps_back_behind_the_till_under_openbox(tmp_path: Path) -> None:
    xvfb, display = _start_xvfb()
    wm: subprocess.Popen[bytes] | None = None
    try:
        deadline = time.monotonic() + 10
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", INNER: "1",
               "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
               "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
        said = tmp_path / "openbox.log"
        tries = 0
        with said.open("ab") as log:
            wm = subprocess.Popen(["openbox"], env=env, stdout=log, stderr=log)
            while subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env,
                                 capture_output=True, text=True).stdout.count("window id") == 0:
                if wm.poll() is not None and tries < 2:  # it gave up (a busy machine, seen in CI
                    tries += 1                           # once): start it again, twice at most
                    wm = subprocess.Popen(["openbox"], env=env, stdout=log, stderr=log)
                assert wm.poll() is None and time.monotonic() < deadline, \
                    f"openbox did not start: {said.read_text(errors='replace')[-2000:]}"
                time.sleep(0.05)
        inner = f"{__file__}::test_inner_the_pad_steps_back_after_each_cancel"
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                              "no:xdist", inner], env=env, capture_output=True, text=True, timeout=240)
        assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-4000:] + run.stderr[-2000:]
    finally:
        for process in (wm, xvfb):
            if process is not None:
                process.terminate()
                process.wait(10)


def _stacking(window_ids: dict[int, str]) -> list[str]:
    """The till's windows bottom to top, as openbox stacks them."""
    out = subprocess.run(["xprop", "-root", "_NET_CLIENT_LIST_STACKING"], capture_output=True,
                         text=True).stdout
    ids = [int(x, 16) for x in out.split("#", 1)[1].replace(",", " ").split()] if "#" in out else []
    return [window_ids[i] for i in ids if i in window_ids]


@pytest.mark.skipif(os.environ.get(INNER) != "1", reason="run by the test above, under openbox")
def test_inner_the_pad_steps_back_after_each_cancel(ui: Any, make_gui: Any) -> None:
    from ui.pages.sale import SalePage

    gui = make_gui()
    window, pad = gui.window, gui.pinpad
    # placed by the window itself on the screen's own 1024x768: the pad over the till's edge
    ui.until(lambda: pad.isVisible() and pad.front.overlapping(), what="the pad over the till")
    # each window's title bar on the screen (the pad's was above its top under openbox)
    ui.until(lambda: all(w.frameGeometry().top() >= 0 and w.frameGeometry().height() > w.height()
                         for w in (pad, gui.printer_window)), timeout_s=5, what="the title bars")
    window.activateWindow()
    assert QTest.qWaitForWindowActive(window, 5000)
    ids = {int(window.winId()): "till", int(pad.winId()): "pad"}
    page = window.go(SalePage)
    QTest.keyClicks(page.amount, "1250")
    for payment in range(3):
        QTest.keyClick(page.amount, Qt.Key.Key_F2)
        ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="the card prompt")
        ui.until(lambda: _stacking(ids)[-1:] == ["pad"], what=f"payment {payment}: the pad in front")
        QTest.keyClick(window.focusWidget(), Qt.Key.Key_Escape)
        ui.until(lambda: page.stack.currentWidget() is page.entry_page, what="cancelled")
        ui.until(lambda: _stacking(ids)[-1:] == ["till"], timeout_s=8,
                 what=f"payment {payment}: the pad behind the till")
        assert window.isActiveWindow()  # the keyboard stays with the till
    # a cash sale's receipt brings the printer forward; the next card's prompt brings the pad:
    # the printer stepping back (5 s later) must leave the pad over the till while it asks
    printer = gui.printer_window
    ids[int(printer.winId())] = "printer"
    QTest.keyClick(window.focusWidget(), Qt.Key.Key_F11)  # the 12.50 in cash
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="paid in cash")
    ui.until(lambda: _stacking(ids)[-1:] == ["printer"], what="the receipt in front")
    QTest.keyClick(window.focusWidget(), Qt.Key.Key_Return)  # a new sale, charged by card at once
    QTest.keyClicks(window.focusWidget(), "500")
    QTest.keyClick(window.focusWidget(), Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="the next prompt")
    ui.until(lambda: not printer.front._timer.isActive(), timeout_s=10, what="the printer's step back")
    ui.spin(0.5)
    assert _stacking(ids)[-1:] == ["pad"], _stacking(ids)
