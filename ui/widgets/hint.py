"""The small grey line under a field or a table (one style: ``Hint`` in the style sheets)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel


def hint(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName("Hint")
    label.setWordWrap(True)
    return label
