"""Fixtures for the sandbox host tests (the request parts are in tests/support/host_requests.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.host_requests import ledger_of


@pytest.fixture
def ledger() -> Callable[[Any], dict[str, dict[str, Any]]]:
    return ledger_of
