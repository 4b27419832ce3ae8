"""Shared test set-up: headless Qt, no real keyring, no stray profile from the environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in list(os.environ):
        if key.startswith("CASHIER_") and key not in {"CASHIER_FUZZ_EXAMPLES", "CASHIER_CHAOS_SALES"}:
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.exists():
        pytest.fail(f"../shared is missing (looked at {SHARED}); clone the project beside it")
    return SHARED


@pytest.fixture
def make_sandbox():  # type: ignore[no-untyped-def]
    """Factory: ``sandbox, client = make_sandbox("LG")``, in-process, closed after the test."""
    import httpx

    from cashier.host.client import HostClient, HostSettings
    from cashier.sandbox.app import HostSandbox
    from cashier.sandbox.core import SandboxConfig

    def make(option: str = "LG", access_token: str = "SANDBOX-TOKEN", **config: object):  # type: ignore[no-untyped-def]
        sandbox = HostSandbox(SandboxConfig(option=option, access_token=access_token, **config))  # type: ignore[arg-type]
        settings = HostSettings(base_url="http://sandbox/api/rest/v1", processing_option=option,  # type: ignore[arg-type]
                                terminal_id="1742" if option != "DCC" else None,
                                device_serial_number="1170301234" if option == "DCC" else None)
        client = HostClient(settings, access_token=access_token,
                            transport=httpx.ASGITransport(app=sandbox.asgi))
        return sandbox, client

    # in-process clients hold no sockets: nothing to close
    yield make


@pytest.fixture
def memory_keyring():  # type: ignore[no-untyped-def]
    """The OS keyring replaced by one in memory for the test (``.store`` holds what was kept)."""
    import keyring

    from tests.keyrings import MemoryKeyring

    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    yield ring
    keyring.set_keyring(previous)
