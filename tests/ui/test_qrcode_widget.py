"""The QR code is drawn from segno's matrix: the pixels must match the modules."""

from __future__ import annotations

from typing import Any

import segno
from PySide6.QtGui import QColor

from ui.widgets.qrcode import QUIET_ZONE, QrView, qr_image


def test_pixels_follow_the_matrix() -> None:
    text = "https://pay.sandbox.invalid/ABC1234"
    matrix = [list(r) for r in segno.make(text, error="m", micro=False).matrix]
    image = qr_image(text, module_px=3)
    assert image.width() == (len(matrix) + 2 * QUIET_ZONE) * 3
    for y in (0, len(matrix) // 2, len(matrix) - 1):
        for x in range(len(matrix)):
            pixel = image.pixelColor((x + QUIET_ZONE) * 3 + 1, (y + QUIET_ZONE) * 3 + 1)
            assert (pixel == QColor("black")) == bool(matrix[y][x])
    assert image.pixelColor(0, 0) == QColor("white")  # quiet zone


def test_view_shows_and_clears(qtbot: Any) -> None:
    view = QrView()
    qtbot.addWidget(view)
    view.show_code("hello")
    assert not view.pixmap().isNull()
    view.show_code("")
    assert view.pixmap().isNull()
