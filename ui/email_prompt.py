"""E-mail the receipt (issue #41): after a payment, a refund or a whole ticket (the result's
button), or again from the Journal.

The customer types the address on the PIN pad (LG, DCP, DCC: the core's ``address_on_pad``), so
the cashier never has to hear it; or the cashier types it (HD, or when the customer prefers).
A bad address is one line (the core's rule, ``cashier.email_address``) and is asked again. The
address is handed to the core's mail queue and never shown again (masked in the outbox).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from cashier.email_address import check_address
from cashier.errors import CashierError, ValidationError
from cashier.mail.pad import address_on_pad, pad_asks
from ui import a11y
from ui.core_words import error_words
from ui.i18n import tr

#: Bad addresses typed on the pad before the cashier is asked to type it instead.
PAD_TRIES = 3


class EmailDialog(QDialog):
    """Where the address comes from, and the one-line refusal of a bad one. ``queue(address)``
    is the core's queue (raises its ``ValidationError``); ``ask_pad`` starts the pad's prompt."""

    def __init__(self, till: Any, queue: Callable[[str], str], parent: QWidget | None = None, *,
                 pad_first: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("EmailReceipt")
        self.till = till
        self._queue = queue
        self.queued: str | None = None
        self.pad_tries = 0
        self.task: Any = None
        col = QVBoxLayout(self)
        self.how = QLabel()
        self.how.setWordWrap(True)
        col.addWidget(self.how)
        self.pad_button = QPushButton()
        self.pad_button.clicked.connect(lambda _=False: self.ask_pad())
        self.pad_can_ask = pad_asks(till.profile.processing_option)
        self.pad_button.setVisible(self.pad_can_ask)
        col.addWidget(self.pad_button)
        row = QHBoxLayout()
        self.address = QLineEdit()
        self.address.setMaxLength(254)
        self.address.returnPressed.connect(self.typed)
        self.send_button = QPushButton()
        self.send_button.clicked.connect(self.typed)
        row.addWidget(self.address, 1)
        row.addWidget(self.send_button)
        col.addLayout(row)
        self.message = QLabel()
        self.message.setObjectName("Hint")
        self.message.setWordWrap(True)
        a11y.live(self.message)
        col.addWidget(self.message)
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.reject)
        col.addWidget(self.cancel_button)
        for button in (self.pad_button, self.send_button, self.cancel_button):
            button.setAutoDefault(False)  # Return in the address sends it, never asks the pad
        self.address.setFocus()
        self.retranslate()
        if pad_first and self.pad_can_ask:
            self.ask_pad()

    def retranslate(self) -> None:
        self.setWindowTitle(tr("E-mail the receipt"))
        self.how.setText(tr("The customer types the address on the PIN pad, or you type it here."))
        self.pad_button.setText(tr("Ask on the PIN pad"))
        self.send_button.setText(tr("Send"))
        self.cancel_button.setText(tr("Cancel") + " [Esc]")
        a11y.name(self.address, tr("The customer's e-mail address"), self.how.text())

    def changeEvent(self, event: QEvent) -> None:
        """The window's language changed while the prompt is open: it says itself in the new one."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()

    def say(self, text: str) -> None:
        self.message.setText(text)
        a11y.announce(self.message, text)

    def typed(self) -> None:
        self._take(self.address.text())

    def _take(self, address: str) -> None:
        try:
            self.queued = self._queue(check_address(address))
        except CashierError as exc:
            self.say(error_words(exc, self.till.currency))
            return
        self.address.clear()
        self.accept()

    def ask_pad(self, refusal: str = "") -> None:
        """The pad's prompt; ``refusal``: the line that said why the last address was refused
        (kept in sight while the customer types again)."""
        if self.task is not None and not self.task.done():
            return
        settings = self.till.profile.email
        self.pad_button.setEnabled(False)
        asked = tr("The customer is typing the address on the PIN pad…")
        self.say(f"{refusal} {asked}" if refusal else asked)

        def done(address: str | None) -> None:
            self.task = None
            self.pad_button.setEnabled(True)
            if address is None:
                self.say(tr("The customer cancelled on the PIN pad: type the address here, or ask again."))
                return
            self._take(address)

        def failed(exc: BaseException) -> None:
            self.task = None
            self.pad_button.setEnabled(True)
            said = error_words(exc, self.till.currency)
            self.say(said)
            if isinstance(exc, ValidationError) and self.pad_tries < PAD_TRIES:
                self.pad_tries += 1
                self.ask_pad(said)  # a bad address: said in one line, and asked again

        self.task = self.till.run(address_on_pad(self.till.ctx, settings.pad_prompt), "e-mail on pad",
                                  done=done, failed=failed)

    def reject(self) -> None:
        if self.task is not None and not self.task.done():
            from cashier.flows.pinpad import cancel_prompt

            self.till.run(cancel_prompt(self.till.ctx), "cancel e-mail prompt", failed=lambda _e: None)
        super().reject()


def email_receipt(gui: Any, parent: QWidget, *, entry_id: int | None = None,
                  ticket_id: int | None = None, reprint: bool = False, pad_first: bool = False,
                  said: Callable[[str], None] | None = None) -> EmailDialog | None:
    """Ask for the address and queue the receipt of ``entry_id`` (its ticket's when it has one)
    or of the paid ticket ``ticket_id``. ``said``: the page's line for what happened."""
    mail = getattr(gui, "mail", None) if gui is not None else None
    if mail is None or not mail.sends:
        if said is not None:
            said(tr("This till sends no e-mail: its profile has no [email] host."))
        return None
    clerk = str(gui.till.profile.clerk_id)
    if gui.sign_in is not None and getattr(gui.sign_in, "clerk", None) is not None:
        clerk = str(gui.sign_in.clerk.id)

    def queue(address: str) -> str:
        if ticket_id is not None:
            return str(mail.queue_ticket(ticket_id, address, clerk=clerk))
        assert entry_id is not None
        return str(mail.queue_entry(entry_id, address, clerk=clerk, reprint=reprint))

    dialog = EmailDialog(gui.till, queue, parent, pad_first=pad_first)

    def finished(_code: int) -> None:
        if dialog.queued is not None and said is not None:
            said(tr("Receipt {receipt} queued for e-mail.").format(receipt=dialog.queued))
    dialog.finished.connect(finished)
    dialog.open()
    return dialog
