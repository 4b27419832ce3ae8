"""The window's screens, in navigation order.

Each is named here with its key and title, and its module imported only when the screen is first
built (``PageEntry.load``): importing the nine screens not shown at the start cost it ~30 ms of
CPU (decision 017, "The window's start, round 2"). A page class takes its ``nav_key`` and
``title`` from its entry (``ui.pages.base.Page``), so each is said once, here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ui.i18n import tr

if TYPE_CHECKING:
    from ui.pages.base import Page


@dataclass(frozen=True)
class PageEntry:
    """A screen's place in the navigation: its class (by module and name), key and title."""

    module: str
    name: str
    nav_key: str
    title: Callable[[], str]

    def load(self) -> type[Page]:
        """The page class (its module imported now, the first time)."""
        cls: type[Page] = getattr(importlib.import_module(self.module), self.name)
        return cls

    def names(self, cls: type) -> bool:
        return cls.__module__ == self.module and cls.__name__ == self.name


# the titles short enough for the navigation column; no "&" (a button would read it as a mnemonic)
PAGES: tuple[PageEntry, ...] = (
    PageEntry("ui.pages.sale.page", "SalePage", "Ctrl+1", lambda: tr("Sale")),
    PageEntry("ui.pages.tabs", "TabsPage", "Ctrl+2", lambda: tr("Open tabs")),
    PageEntry("ui.pages.giftcard", "GiftCardPage", "Ctrl+3", lambda: tr("Gift card")),
    PageEntry("ui.pages.qr", "QrPage", "Ctrl+4", lambda: tr("QR payment")),
    PageEntry("ui.pages.phone_link", "PhoneLinkPage", "Ctrl+8", lambda: tr("Phone/link")),
    PageEntry("ui.pages.journal", "JournalPage", "Ctrl+5", lambda: tr("Journal")),
    PageEntry("ui.pages.manager", "ManagerPage", "Ctrl+6", lambda: tr("Manager")),
    PageEntry("ui.pages.settings", "SettingsPage", "Ctrl+7", lambda: tr("Settings")),
    PageEntry("ui.pages.drawer", "DrawerPage", "Ctrl+9", lambda: tr("Drawer")),
    PageEntry("ui.pages.reports", "ReportsPage", "Ctrl+0", lambda: tr("Reports")),
)


def all_pages() -> tuple[PageEntry, ...]:
    return PAGES


def entry_of(cls: type) -> PageEntry | None:
    """The entry of ``cls`` or of the page class it derives from (None: not a screen)."""
    for klass in cls.__mro__:
        for entry in PAGES:
            if entry.names(klass):
                return entry
    return None
