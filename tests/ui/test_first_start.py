"""A packaged real till with no access token asks for its credentials once, over a real socket."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from cashier.config import KEYRING_SERVICE, access_token_for, load_profile
from tests.support.memory_keyring import MemoryKeyring

GUID, AUTH = "5A2B9C44-1D2E-4F60-8A9B-0C1D2E3F4A5B", "AUTH-TOKEN-FOR-TEST-0001"


@pytest.fixture
def served_host() -> Iterator[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cashier.cli", "sandbox", "serve", "--port", "0", "--option", "HD",
         "--client-guid", GUID, "--auth-token", AUTH],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("sandbox listening on "), line + (proc.stderr.read() if proc.stderr else "")
    yield line.split()[-1] + "/api/rest/v1"
    proc.terminate()
    proc.wait(timeout=10)


def test_dialog_keeps_the_token_in_the_keyring(ui: Any, qtbot: Any, served_host: str,
                                               memory_keyring: MemoryKeyring) -> None:
    from ui.first_start import CredentialsDialog, ensure_credentials, needs_credentials

    profile = load_profile(None, training=False, host_url=served_host, processing_option="HD",
                           till_id="store7-till2", till_number=7)
    assert needs_credentials(profile)

    async def scenario() -> bool:
        import asyncio

        outcome = asyncio.ensure_future(ensure_credentials(profile))
        dialog = await _wait_for_dialog()
        qtbot.addWidget(dialog)
        dialog.client_guid.setText(GUID)
        dialog.auth_token.setText("WRONG-TOKEN")
        await dialog.exchange()
        assert dialog.isVisible(), "a refused exchange keeps the dialog open"
        assert "Not connected" in dialog.message.text()
        assert "WRONG-TOKEN" not in dialog.message.text()
        dialog.auth_token.setText(AUTH)
        await dialog.exchange()
        return await outcome

    async def _wait_for_dialog() -> CredentialsDialog:
        import asyncio

        from PySide6.QtWidgets import QApplication

        for _ in range(200):
            for widget in QApplication.topLevelWidgets():
                if isinstance(widget, CredentialsDialog) and widget.isVisible():
                    return widget
            await asyncio.sleep(0.01)
        raise AssertionError("the credentials dialog never opened")

    assert ui.run(scenario()) is True
    token = memory_keyring.store[(KEYRING_SERVICE, "store7-till2")]
    assert len(token) == 52
    assert access_token_for(profile) == token
    assert not needs_credentials(profile)


def test_training_till_never_asks(memory_keyring: MemoryKeyring) -> None:
    from ui.first_start import needs_credentials

    assert not needs_credentials(load_profile())
    assert memory_keyring.store == {}
