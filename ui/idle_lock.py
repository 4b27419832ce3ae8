"""Lock a screen after a while unused: any key or click inside it starts the time again."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

_ACTIVITY = frozenset({QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.Wheel})


class IdleLock(QObject):
    """Calls ``lock`` once ``seconds`` pass with no key press or click inside ``screen``."""

    def __init__(self, screen: QWidget, lock: Callable[[], None], seconds: float) -> None:
        super().__init__(screen)
        self.screen = screen
        self.lock = lock
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(int(seconds * 1000))
        self.timer.timeout.connect(self._expired)
        self._watching = False

    def _watch(self, on: bool) -> None:
        """Watch the application's events only while unlocked: a filter sees every event."""
        app = QApplication.instance()
        if app is None or on == self._watching:
            return
        if on:
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
        self._watching = on

    def start(self) -> None:
        self._watch(True)
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        self._watch(False)

    def _expired(self) -> None:
        self._watch(False)
        self.lock()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (self.timer.isActive() and event.type() in _ACTIVITY and isinstance(watched, QWidget)
                and (watched is self.screen or self.screen.isAncestorOf(watched))):
            self.timer.start()
        return False
