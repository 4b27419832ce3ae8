"""A QR code drawn from its text with segno straight into a QImage (no file, no PNG round trip).

segno (~2 MB resident) is imported with the first code, not when a screen that may show one is
built at start-up.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

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


class ScanCode(QWidget):
    """The code as large as the space allows, in whole pixels per module (a scaled, blurred code
    scans badly), black on white with a white margin in every theme (the quiet zone is in the
    image; the white around it only adds to it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text_value = ""
        self._image: QImage | None = None
        self.setMinimumSize(300, 300)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def show_code(self, text: str) -> None:
        self.text_value = text
        self._image = None
        if text:
            self._image = qr_image(text, module_px=1)
        self.update()

    @property
    def modules(self) -> int:
        """Modules across, quiet zone included (0 without a code)."""
        return self._image.width() if self._image is not None else 0

    @property
    def module_px(self) -> int:
        """Screen pixels per module at the current size."""
        if self._image is None:
            return 0
        return max(1, min(self.width(), self.height()) // self._image.width())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("white"))
        if self._image is not None:
            side = self.module_px * self._image.width()
            target = QRect((self.width() - side) // 2, (self.height() - side) // 2, side, side)
            painter.drawImage(target, self._image)  # nearest neighbour: whole modules stay sharp
        painter.end()
