"""Training: the Mail window, beside the virtual printer, showing each e-mailed receipt as the
customer would see it (who it is from, the subject, the text, the PDF attached). A training till
never sends real mail: its sender hands each message here (``cashier.mail.outbox.VirtualMailbox``)."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from ui import a11y
from ui.i18n import tr

#: lines kept on screen (about a dozen messages)
MAX_LINES = 600


class MailRelay(QObject):
    """Messages arrive on the sender's thread; a queued signal brings them to the window's
    thread (where the Mail window is made with the first one)."""

    message = Signal(object)

    def __init__(self, mailbox: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        mailbox.listen(self.message.emit)


def message_text(raw: bytes) -> str:
    """A message as a mail program shows it: its headers, the text, the attachments' names."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    head = [f"{tr('From')}: {message['From']}", f"{tr('To')}: {message['To']}",
            f"{tr('Subject')}: {message['Subject']}", ""]
    body = message.get_body(("plain",))
    text = body.get_content() if body is not None else ""
    files = [f"[{tr('Attached')}: {part.get_filename()}]" for part in message.iter_attachments()]
    return "\n".join([*head, text.rstrip("\n"), *files, "=" * 40])


class MailWindow(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("MailWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        col = QVBoxLayout(self)
        self.caption = QLabel()
        self.caption.setObjectName("Hint")
        self.caption.setWordWrap(True)
        self.inbox = QPlainTextEdit()
        self.inbox.setReadOnly(True)
        self.inbox.setMaximumBlockCount(MAX_LINES)
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.inbox.setFont(font)
        self.inbox.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        col.addWidget(self.caption)
        col.addWidget(self.inbox, 1)
        self.shown: list[str] = []
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Mail (training)"))
        self.caption.setText(tr("Each e-mailed receipt as the customer would receive it."))
        a11y.name(self.inbox, tr("E-mailed receipts"), self.caption.text())

    def show_message(self, raw: bytes) -> None:
        text = message_text(raw)
        self.shown = [*self.shown[-49:], text]
        self.inbox.appendPlainText(text + "\n")
        bar = self.inbox.verticalScrollBar()
        bar.setValue(bar.maximum())
        if not self.isVisible():
            self.show()
