"""The theme re-polishes the widgets only when it changes: a settings switch to the same look,
or a window started with the look already applied, costs no pass over every widget."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel

from ui.theme import apply_theme


class _StyleChanges(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.StyleChange:
            self.seen += 1
        return False


def test_the_same_theme_again_polishes_nothing_and_a_new_one_does(qapp: Any) -> None:
    label = QLabel("12.50")
    counter = _StyleChanges()
    label.installEventFilter(counter)
    label.show()
    try:
        apply_theme(qapp, high_contrast=False, font_scale=1.0)
        counter.seen = 0
        apply_theme(qapp, high_contrast=False, font_scale=1.0)
        assert counter.seen == 0
        apply_theme(qapp, high_contrast=False, font_scale=1.25)
        assert counter.seen > 0
        assert "font-size" in qapp.styleSheet() and qapp.style() is not None
    finally:
        apply_theme(qapp, high_contrast=False, font_scale=1.0)
        label.removeEventFilter(counter)
        label.close()
        label.deleteLater()
