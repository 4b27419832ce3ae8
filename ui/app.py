"""Start the window on the qasync loop (Qt is imported here, never in cashier/)."""

from __future__ import annotations

import sys


def run_gui(profile_path: str | None = None, smoke: bool = False) -> int:
    import asyncio
    import os

    if smoke:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
    from qasync import QEventLoop

    from cashier.config import load_profile

    profile = load_profile(profile_path)
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    loop = QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = QMainWindow()
    window.setWindowTitle(f"Cashier — {profile.till_id}" + (" (TRAINING)" if profile.is_training else ""))
    window.setCentralWidget(QLabel("Cashier — training mode" if profile.is_training else "Cashier"))
    window.resize(1024, 700)
    window.show()
    if smoke:
        print("smoke: window opened")
        return 0
    with loop:
        closed = asyncio.Event()
        app.lastWindowClosed.connect(closed.set)
        loop.run_until_complete(closed.wait())
    return 0
