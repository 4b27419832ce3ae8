"""``cashier credentials exchange`` in training mode: the token lands in the keyring, unprinted."""

from __future__ import annotations

import pytest

from cashier.cli import main
from cashier.config import KEYRING_SERVICE
from tests.support.memory_keyring import MemoryKeyring

GUID = "4A1B2C3D-0000-4000-8000-00000000AA01"
AUTH = "9F8E7D6C-1111-4000-8000-00000000BB02"


@pytest.fixture(autouse=True)
def _restore_logging(monkeypatch: pytest.MonkeyPatch) -> None:
    """``main`` configures the root logger on a captured stream; leave no trace for others."""
    import logging

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "level", root.level)
    monkeypatch.setattr(root, "_cashier_configured", getattr(root, "_cashier_configured", False),
                        raising=False)


def test_exchange_stores_the_token_and_never_prints_it(memory_keyring: MemoryKeyring,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["credentials", "exchange", "--client-guid", GUID, "--auth-token", AUTH])
    out = capsys.readouterr()
    assert code == 0, out.err
    token = memory_keyring.store[(KEYRING_SERVICE, "training")]
    assert 0 < len(token) <= 52
    assert token not in out.out and token not in out.err
    assert AUTH not in out.out + out.err
    assert "stored in the OS keyring" in out.out


def test_auth_token_from_stdin(memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(AUTH + "\n"))
    assert main(["credentials", "exchange", "--client-guid", GUID, "--auth-token", "-"]) == 0
    assert (KEYRING_SERVICE, "training") in memory_keyring.store


def test_no_keyring_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    # tests/conftest.py installs the failing keyring backend
    code = main(["credentials", "exchange", "--client-guid", GUID, "--auth-token", AUTH])
    err = capsys.readouterr().err
    assert code == 2 and "keyring" in err


def test_empty_guid_is_refused_by_the_host_or_client(memory_keyring: MemoryKeyring,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["credentials", "exchange", "--client-guid", "", "--auth-token", AUTH])
    assert code == 2
    assert "credential.clientGuid" in capsys.readouterr().err
    assert memory_keyring.store == {}
