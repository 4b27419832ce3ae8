"""Training: the virtual receipt printer, a window beside the PIN pad showing each receipt as it
would come out of the printer (the same text, width and cut the real printer gets)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from cashier.printing.layout import PrintJob
from ui import a11y
from ui.front import FrontWhileNeeded
from ui.i18n import tr

#: the paper kept on screen: about the last dozen receipts. A trainee looks at the receipt just
#: printed; 3,000 lines held several MB more of text layout for nothing (bench: RSS growth 6.7 MB
#: per 1,000 sales with 3,000 lines, 1.3 MB with 300).
MAX_LINES = 300
#: over the till's window (a small screen): how long a receipt just printed stays in front (ms)
RECEIPT_SHOWN_MS = 5000


class _Relay(QObject):
    """Jobs arrive on the printer thread; a queued signal brings them to the window's thread."""

    job = Signal(object)


class VirtualPrinterWindow(QWidget):
    def __init__(self, virtual: Any, width: int, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("VirtualPrinter")
        # it shows what the printer does; the keyboard stays with the cashier's window
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        col = QVBoxLayout(self)
        self.caption = QLabel()
        self.caption.setObjectName("Hint")
        self.caption.setWordWrap(True)  # the paper sets the width: at large text the words wrap
        self.paper = QPlainTextEdit()
        self.paper.setReadOnly(True)
        self.paper.setMaximumBlockCount(MAX_LINES)  # a till runs all day: keep the recent paper
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setPointSize(10)
        self.paper.setFont(font)
        # its own size (the window's text size setting is for the till's screens, not the paper):
        # 12 px keeps a 42-column receipt in a column beside the till's window at 1280 wide
        self.paper.setStyleSheet('background: #fffdf5; color: #111; font-size: 12px; '
                                 'font-family: "DejaVu Sans Mono", monospace;')
        self.paper.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # the paper's width, as printed
        self.paper.ensurePolished()  # the theme's style sheet may change the font: measure after it
        # the paper's width and a scroll bar: narrow enough for a column beside the till's window
        self.paper.setMinimumWidth(self.paper.fontMetrics().horizontalAdvance("M" * (width + 1))
                                   + self.paper.verticalScrollBar().sizeHint().width() + 12)
        col.addWidget(self.caption)
        col.addWidget(self.paper, 1)
        self.jobs: list[PrintJob] = []
        self.front = FrontWhileNeeded(self, RECEIPT_SHOWN_MS)
        self._relay = _Relay()
        self._relay.job.connect(self.show_job, Qt.ConnectionType.QueuedConnection)
        virtual.listen(self._relay.job.emit)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Receipt printer (training)"))
        self.caption.setText(tr("Each receipt as the printer would print it."))
        a11y.name(self.paper, tr("Printed receipts"), self.caption.text())

    def show_job(self, job: PrintJob) -> None:
        self.jobs = [*self.jobs[-49:], job]
        self.paper.appendPlainText(job.text + "\n")
        bar = self.paper.verticalScrollBar()
        bar.setValue(bar.maximum())
        self.front.come_forward(linger=True)
