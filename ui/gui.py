"""The one handle on a window's parts (the till, the main window, the PIN pad, the cash desk),
below the pages that read it: they and ``ui.cash`` import this, never ``ui.app``, which builds
and starts it (``TillGui``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication, QStackedWidget, QStatusBar, QWidget

    from cashier.config import TillProfile
    from ui.pinpad import PinPadWindow
    from ui.till import Till

log = logging.getLogger("ui.gui")


class Shell(Protocol):
    """What the pages and the cash desk ask of the main window (``ui.window.MainWindow``)."""

    @property
    def pages(self) -> Sequence[QWidget]: ...

    @property
    def status(self) -> QStatusBar: ...

    @property
    def stack(self) -> QStackedWidget: ...

    @property
    def closed(self) -> Any: ...

    def go(self, cls: type[Any]) -> Any: ...

    def page(self, cls: type[Any]) -> Any: ...

    def retranslate(self) -> None: ...


@dataclass
class Gui:
    """Everything one window needs, kept together so tests and tools build the same thing."""

    app: QApplication
    profile: TillProfile
    till: Till
    window: Shell
    language: Any
    prefs: dict[str, Any] = field(default_factory=dict)
    pinpad: PinPadWindow | None = None
    reporter: Any = None
    #: the drawer, receipt printer and reports (ui.cash); None when the journal would not open
    cashdesk: Any = None
    printer_window: Any = None
    #: e-mailed receipts (cashier.mail.outbox.MailDesk) and training's Mail window (ui.cash)
    mail: Any = None
    mail_window: Any = None
    printer_pill: Any = None
    printer_timer: Any = None
    #: says the printer's state on its pill now (else the next poll does, up to a second later)
    printer_refresh: Any = None
    sign_in: Any = None
    sign_out_button: Any = None
    #: signed updates (ui.updates); None when the profile names no update repository
    updates: Any = None

    def set_language(self, code: str) -> bool:
        ok = bool(self.language.switch(code))
        self.prefs["language"] = self.language.code
        self._save_prefs()
        # retranslate now rather than on Qt's posted LanguageChange: the switch is visible at once
        self.window.retranslate()
        if self.cashdesk is not None:  # the receipts speak the window's language from now on
            self.cashdesk.language = self.language.code
        if self.pinpad is not None:
            self.pinpad.retranslate()
        if self.printer_window is not None:
            self.printer_window.retranslate()
        if self.mail_window is not None:
            self.mail_window.retranslate()
        if self.printer_refresh is not None:  # the status bar's printer pill, in the new words
            self.printer_refresh()
        return ok

    def set_theme(self, high_contrast: bool | None = None, font_scale: float | None = None) -> None:
        from ui.theme import apply_theme

        if high_contrast is not None:
            self.prefs["high_contrast"] = high_contrast
        if font_scale is not None:
            self.prefs["font_scale"] = font_scale
        apply_theme(self.app, bool(self.prefs.get("high_contrast", False)),
                    float(self.prefs.get("font_scale", 1.0)))
        self._save_prefs()

    def _save_prefs(self) -> None:
        """The till's display settings, kept for the next start (beside the journal)."""
        from cashier.display_settings import DisplaySettings, save_display

        try:
            save_display(self.profile.resolved_journal_path, DisplaySettings(
                language=str(self.prefs.get("language", "")),
                high_contrast=bool(self.prefs.get("high_contrast", False)),
                text_size=float(self.prefs.get("font_scale", 1.0))))
        except OSError:  # the look still changes; only the next start will not remember it
            log.exception("display settings not saved")
