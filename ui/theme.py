"""The style sheet: the normal theme or high contrast, with every font size scaled by one factor."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QApplication

from cashier.display_settings import TEXT_SIZES

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
FONT_SCALES = TEXT_SIZES  # the core's one list: the saved size is one of them
_FONT = re.compile(r"font-size:\s*(\d+)px")


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
    app.setStyle("Fusion")  # the same look on every platform the tills run on
    app.setStyleSheet(style_sheet(high_contrast, font_scale))
