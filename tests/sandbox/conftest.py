"""Fixtures for the sandbox host tests: keyed HD cards, raw calls, the ledger view."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from cashier.host.models.common import Amount, Card, Customer

VISA = "4321000000001119"


def keyed(number: str = VISA, csc: str = "333") -> Card:
    """A manually keyed card, as an HD till sends it."""
    return Card(number=number, expiration_date=1230, entry_mode="M",
                security_code={"indicator": "1", "value": csc})


def amount(total: str, tax: str = "0") -> Amount:
    return Amount(total=Decimal(total), tax=Decimal(tax))


def customer(postal: str = "94719", street: str | None = None) -> Customer:
    return Customer(postal_code=postal, address_line1=street)


def ledger_of(sandbox: Any) -> dict[str, dict[str, Any]]:
    invoices: dict[str, dict[str, Any]] = sandbox.state.family("transactions").get("invoices", {})
    return invoices


@pytest.fixture
def ledger() -> Callable[[Any], dict[str, dict[str, Any]]]:
    return ledger_of
