"""The window's screens, in navigation order."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ui.pages.base import Page


def all_pages() -> list[type[Page]]:
    from ui.pages.sale import SalePage

    pages: list[type[Page]] = [SalePage]
    return pages
