"""The window's screens, in navigation order."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ui.pages.base import Page


def all_pages() -> list[type[Page]]:
    from ui.pages.drawer import DrawerPage
    from ui.pages.giftcard import GiftCardPage
    from ui.pages.journal import JournalPage
    from ui.pages.manager import ManagerPage
    from ui.pages.phone_link import PhoneLinkPage
    from ui.pages.qr import QrPage
    from ui.pages.reports import ReportsPage
    from ui.pages.sale import SalePage
    from ui.pages.settings import SettingsPage
    from ui.pages.tabs import TabsPage

    return [SalePage, TabsPage, GiftCardPage, QrPage, PhoneLinkPage, JournalPage, ManagerPage, SettingsPage,
            DrawerPage, ReportsPage]
