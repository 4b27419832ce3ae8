"""The style sheet: the normal theme or high contrast, with every font size scaled by one factor."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QApplication

from cashier.display_settings import TEXT_SIZES

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
FONT_SCALES = TEXT_SIZES  # the core's one list: the saved size is one of them
_FONT = re.compile(r"font-size:\s*(\d+)px")
#: the application's property naming the base style it was given (Qt's own name for a style
#: under a style sheet is empty)
_BASE_STYLE = "cashier_base_style"


def style_sheet(high_contrast: bool = False, font_scale: float = 1.0) -> str:
    text = (RESOURCES / "style.qss").read_text(encoding="utf-8")
    if high_contrast:
        text += "\n" + (RESOURCES / "high-contrast.qss").read_text(encoding="utf-8")
    # images in the style sheets (the high-contrast tick) live beside them
    text = text.replace("@RESOURCES@", RESOURCES.as_posix())
    if font_scale != 1.0:
        text = _FONT.sub(lambda m: f"font-size: {round(int(m.group(1)) * font_scale)}px", text)
    return text


def apply_theme(app: QApplication, high_contrast: bool = False, font_scale: float = 1.0) -> None:
    """Each change re-polishes every widget alive (a text size switch with every screen built
    took two passes of about 0.3 s): the base style is set once, the sheet only when it differs."""
    if app.property(_BASE_STYLE) != "Fusion":
        app.setStyle("Fusion")  # the same look on every platform the tills run on
        app.setProperty(_BASE_STYLE, "Fusion")
    sheet = style_sheet(high_contrast, font_scale)
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)
