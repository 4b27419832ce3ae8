"""A QR code drawn from its text with segno straight into a QImage (no file, no PNG round trip).

segno (~2 MB resident) is imported with the first code, not when a screen that may show one is
built at start-up.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import QLabel, QWidget

QUIET_ZONE = 4  # modules of white border the scanners need


def qr_image(text: str, module_px: int = 8) -> QImage:
    """Black modules on white, ``module_px`` pixels each, with the standard quiet zone."""
    import segno

    code = segno.make(text, error="m", micro=False)
    matrix = [list(row) for row in code.matrix]
    size = (len(matrix) + 2 * QUIET_ZONE) * module_px
    image = QImage(size, size, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    black = QColor("black")
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                painter.fillRect((x + QUIET_ZONE) * module_px, (y + QUIET_ZONE) * module_px,
                                 module_px, module_px, black)
    painter.end()
    return image


class QrView(QLabel):
    """Shows one code large; empty text clears it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setMinimumSize(280, 280)
        self.text_value = ""

    def show_code(self, text: str) -> None:
        self.text_value = text
        if not text:
            self.clear()
            return
        self.setPixmap(QPixmap.fromImage(qr_image(text)))
