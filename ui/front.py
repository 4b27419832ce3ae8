"""Training's PIN pad and printer windows on a screen too small to set them beside the till's
window: they lie over its right edge, and come to the front only while they have something to
show (a prompt for the customer, a result, a receipt), then step back behind the till's window
so its screen is whole again. Nothing here takes the keyboard: raising a window never activates it."""

from __future__ import annotations

import weakref

from PySide6.QtCore import QSize, QTimer
from PySide6.QtWidgets import QWidget

#: the windows in front with news now: one stepping back must not bury another (the printer's
#: step back after a cash sale's receipt raised the till over the pad asking for the next card)
_IN_FRONT: weakref.WeakSet[FrontWhileNeeded] = weakref.WeakSet()


class FrontWhileNeeded:
    """``window`` comes to the front over ``covers`` (the till's window it lies over, set by the
    placement; None beside it) and steps back ``linger_ms`` after its last news."""

    def __init__(self, window: QWidget, linger_ms: int) -> None:
        self.window = window
        self.covers: QWidget | None = None
        #: the size the placement gave the window: a page that needs more (the pad's tip page)
        #: grows it for its time, and the window goes back to this size once the page is gone
        self.placed: QSize | None = None
        #: where the placement put the window's frame (x, y)
        self.placed_at: tuple[int, int] = (0, 0)
        self.linger_ms = linger_ms
        self._timer = QTimer(window)  # goes with its window
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.step_back)
        window.destroyed.connect(lambda: _IN_FRONT.discard(self))  # a closed window has no news

    def overlapping(self) -> bool:
        covers = self.covers
        return (covers is not None and self.window.isVisible() and covers.isVisible()
                and self.window.frameGeometry().intersects(covers.frameGeometry()))

    def come_forward(self, *, linger: bool) -> None:
        """News for whoever looks: in front of the till's window (for ``linger_ms`` when
        ``linger``, else until ``step_back_later``)."""
        self._timer.stop()
        if self.overlapping():
            self.window.raise_()
            _IN_FRONT.add(self)
            if linger:
                self._timer.start(self.linger_ms)

    def back_to_placed_size(self) -> None:
        """The window as placed again (after the layout has let go of a larger page)."""
        placed = self.placed
        if placed is not None:
            QTimer.singleShot(0, lambda: self.window.resize(placed))

    def step_back_later(self) -> None:
        self._timer.start(self.linger_ms)

    def stay(self) -> None:
        """Something new is on its way: no stepping back now."""
        self._timer.stop()

    def step_back(self) -> None:
        _IN_FRONT.discard(self)
        # a window the trainer chose to look at (active) stays where it is
        if self.overlapping() and not self.window.isActiveWindow():
            self.window.lower()
            if self.covers is not None and self.covers.isActiveWindow():
                # openbox let the pad stay over the till after a cancelled payment (its second
                # one, every time): it ignored both restack requests. Asking it to activate the
                # window that has the keyboard already is what it obeys: it raises the till (and
                # the keyboard stays where it was)
                self.covers.raise_()
                self.covers.activateWindow()
                for other in list(_IN_FRONT):  # another with news stays over the till
                    if other is not self and other.covers is self.covers and other.overlapping():
                        other.window.raise_()
