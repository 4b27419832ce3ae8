"""First start of a real till with no access token: ask store IT for the client GUID and auth
token once, run the exchange, and keep the access token in the OS keyring (never in a file)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from cashier.config import TillProfile


def needs_credentials(profile: TillProfile) -> bool:
    """A training till needs none; a real till needs an access token from env or keyring."""
    from cashier.config import access_token_for

    return not profile.is_training and not access_token_for(profile)


class CredentialsDialog(QDialog):
    """The one time a person types the till's credentials; the auth token is never echoed."""

    def __init__(self, profile: TillProfile, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profile = profile
        self.setWindowTitle(self.tr("Connect this till"))
        self.setMinimumWidth(520)
        intro = QLabel(self.tr(
            "Till {till} has no access token yet. Enter the client GUID and auth token your "
            "payment provider gave you. The access token is kept in this computer's keyring."
        ).format(till=profile.till_id))
        intro.setWordWrap(True)
        self.client_guid = QLineEdit()
        self.client_guid.setObjectName("clientGuid")
        self.auth_token = QLineEdit()
        self.auth_token.setObjectName("authToken")
        self.auth_token.setEchoMode(QLineEdit.EchoMode.Password)
        for edit in (self.client_guid, self.auth_token):
            edit.setMinimumHeight(44)
        form = QFormLayout()
        form.addRow(self.tr("Client GUID"), self.client_guid)
        form.addRow(self.tr("Auth token"), self.auth_token)
        self.message = QLabel()
        self.message.setObjectName("credentialsMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(self.tr("Connect"))
        ok.setMinimumHeight(44)
        self.buttons.accepted.connect(self._connect)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self._task: asyncio.Task[None] | None = None

    def _connect(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self._task = asyncio.ensure_future(self.exchange())

    async def exchange(self) -> None:
        """Run the exchange; stay open with the reason when it fails."""
        from cashier.credentials import exchange_and_store
        from cashier.errors import CashierError
        from cashier.redact import redact

        self.buttons.setEnabled(False)
        self.message.setText(self.tr("Connecting to the host…"))
        try:
            await exchange_and_store(self.profile, self.client_guid.text(), self.auth_token.text())
        except CashierError as exc:
            self.message.setText(self.tr("Not connected: {reason}").format(reason=redact(str(exc))))
            self.buttons.setEnabled(True)
            return
        self.auth_token.clear()
        self.accept()


async def ensure_credentials(profile: TillProfile, parent: QWidget | None = None) -> bool:
    """Ask once when needed; True when the till can talk to its host."""
    if not needs_credentials(profile):
        return True
    dialog = CredentialsDialog(profile, parent)
    done: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def finished(code: int) -> None:
        if not done.done():
            done.set_result(code)

    dialog.finished.connect(finished)
    dialog.open()  # not exec(): a nested event loop would stall qasync
    return await done == QDialog.DialogCode.Accepted
