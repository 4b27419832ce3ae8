"""The window builds its Sale screen at start-up and every other screen the first time it is shown
or asked for. Built late, a screen comes up in the language and text size of the moment, and opens
no window of its own on the way (a widget shown before it has a parent is a window of its own: it
took the keyboard from the till)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


def test_only_the_sale_screen_is_built_at_start_and_a_late_screen_takes_the_look_of_the_moment(
        ui: Any, make_gui: Any) -> None:
    from ui.pages.sale import SalePage
    from ui.pages.settings import SettingsPage
    from ui.pages.tabs import TabsPage

    gui = make_gui(start=False)
    window = gui.window
    assert [type(p) for p in window.built_pages()] == [SalePage]
    early: TabsPage = window.page(TabsPage)  # asked for: built, not shown
    assert window.stack.currentWidget() is window.page(SalePage)
    size_before = early.heading.font().pixelSize()
    gui.set_language("es")
    gui.set_theme(font_scale=1.5)
    late: SettingsPage = window.go(SettingsPage)
    ui.spin(0.02)
    assert window.stack.currentWidget() is late and window.nav_buttons[window.stack.indexOf(late)].isChecked()
    assert late.heading.text() == SettingsPage.title() != "Settings"  # Spanish
    assert window.nav_buttons[window.stack.indexOf(late)].text().startswith(SettingsPage.title())
    assert late.heading.font().pixelSize() == early.heading.font().pixelSize() > size_before


def test_building_a_screen_after_the_window_is_shown_opens_no_window(ui: Any, make_gui: Any) -> None:
    gui = make_gui(start=False)
    ui.spin(0.02)
    shown: list[str] = []

    class Watch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Show and isinstance(watched, QWidget) and watched.isWindow():
                shown.append(type(watched).__name__)
            return False

    watch = Watch()
    gui.app.installEventFilter(watch)
    try:
        pages = gui.window.pages  # every screen not built yet is built now
    finally:
        gui.app.removeEventFilter(watch)
    assert len(pages) == len(gui.window.nav_buttons) == 10
    assert not shown, f"windows shown while building the screens: {shown}"
