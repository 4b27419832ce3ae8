"""Last line of defence: anything that escapes becomes a readable dialog and a redacted log line.

``sys.excepthook`` catches errors raised in Qt slots and callbacks; the asyncio loop's exception
handler catches errors in callbacks and unretrieved task failures. The window is never closed by
an error: the cashier reads what happened and carries on.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import traceback
from collections.abc import Callable
from types import TracebackType
from typing import Any

from PySide6.QtWidgets import QMessageBox, QWidget

from ui.i18n import tr

log = logging.getLogger("ui.errors")


def _redact(text: str) -> str:
    from cashier.redact import redact

    return redact(text)


class CrashReporter:
    """Shows one dialog at a time; later errors while it is open are only logged."""

    def __init__(self, parent: QWidget | None = None, *, show_dialog: bool = True) -> None:
        self.parent = parent
        self.show_dialog = show_dialog
        self.seen: list[str] = []
        self._open = False
        self._previous_hook: Callable[..., Any] | None = None

    def report(self, exc: BaseException, where: str = "") -> None:
        text = _redact(f"{type(exc).__name__}: {exc}")
        details = _redact("".join(traceback.format_exception(exc)))
        log.error("unexpected error%s: %s\n%s", f" in {where}" if where else "", text, details)
        self.seen.append(text)
        if not self.show_dialog or self._open:
            return
        self._open = True
        try:
            box = QMessageBox(self.parent)
            box.setIcon(QMessageBox.Icon.Warning)
            box.setWindowTitle(tr("Something went wrong"))
            box.setText(tr("The till hit an unexpected error. Nothing was charged twice; "
                           "check the journal before retrying a payment."))
            box.setInformativeText(text)
            box.setDetailedText(details)
            box.setStandardButtons(QMessageBox.StandardButton.Ok)
            box.open()  # not exec(): a nested loop would stall the payments running now
            box.finished.connect(self._closed)
        except Exception:  # the dialog itself must never take the window down
            log.exception("could not show the error dialog")
            self._open = False

    def _closed(self, _result: int = 0) -> None:
        self._open = False

    def _excepthook(self, kind: type[BaseException], exc: BaseException,
                    tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            if self._previous_hook is not None:
                self._previous_hook(kind, exc, tb)
            return
        self.report(exc.with_traceback(tb), "a window callback")

    def _loop_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, BaseException):
            self.report(exc, str(context.get("message", "")))
        else:
            log.error("event loop: %s", _redact(str(context.get("message", context))))

    def install(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._previous_hook = sys.excepthook
        sys.excepthook = self._excepthook
        if loop is not None:
            loop.set_exception_handler(self._loop_handler)

    def uninstall(self) -> None:
        if self._previous_hook is not None:
            sys.excepthook = self._previous_hook
            self._previous_hook = None
