"""Language, contrast and text size are the till's settings: chosen with keys on the Settings
screen, they are there again at the next start (a file beside the journal, owner-only)."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from cashier.display_settings import DisplaySettings, load_display, save_display, settings_path


def test_the_settings_chosen_are_there_at_the_next_start(ui: Any, make_gui: Any, tmp_path: Path) -> None:
    from ui.pages.settings import SettingsPage

    journal = tmp_path / "journal-shop.sqlite"
    gui = make_gui(start=False, journal_path=journal)
    window = gui.window
    window.activateWindow()
    assert QTest.qWaitForWindowActive(window, 2000)
    QTest.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)
    page = window.page(SettingsPage)
    assert window.stack.currentWidget() is page
    page.language.setFocus()
    QTest.keyClick(page.language, Qt.Key.Key_Down)  # English -> Español
    page.contrast.setFocus()
    QTest.keyClick(page.contrast, Qt.Key.Key_Space)
    page.font_size.setFocus()
    for _ in range(2):
        QTest.keyClick(page.font_size, Qt.Key.Key_Down)  # 100 % -> 115 % -> 125 %
    assert gui.language.code == "es" and page.contrast.isChecked()
    assert page.font_size.currentData() == 1.25
    saved = settings_path(journal)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert json.loads(saved.read_text()) == {"language": "es", "high_contrast": True, "text_size": 1.25}

    again = make_gui(start=False, journal_path=journal)
    assert again.language.code == "es" and again.window.page(SettingsPage).heading.text() == "Ajustes"
    shown = again.window.page(SettingsPage)
    assert shown.contrast.isChecked() and shown.font_size.currentData() == 1.25
    assert shown.language.currentData() == "es"
    assert "font-size: 20px" in again.app.styleSheet()  # 16 px at 125 %


def test_a_missing_or_damaged_file_means_the_defaults(tmp_path: Path) -> None:
    journal = tmp_path / "journal-t.sqlite"
    assert load_display(journal) == DisplaySettings()
    for text in ("{not json", "[1, 2]", '{"language": "../etc", "high_contrast": "yes", "text_size": 9}'):
        settings_path(journal).write_text(text)
        assert load_display(journal) == DisplaySettings()
    save_display(journal, DisplaySettings("es", True, 1.5))
    assert load_display(journal) == DisplaySettings("es", True, 1.5)
