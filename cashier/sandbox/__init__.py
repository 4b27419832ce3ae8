"""The sandbox: the Host API and Charge API simulator a training till talks to (a real ASGI app).

A leaf beside the core, not a floor of it: nothing in ``cashier/`` imports it but the composition
root (``cashier.runtime`` builds the training host, ``cashier sandbox serve`` serves it), and the
window's training parts (the customer's PIN pad, the QR and Phone/link screens' test customer);
they reach it through the names below only, never its modules (import-linter, pyproject.toml).
A training PIN pad talks to a virtual terminal as to a real terminal's controller:
``HostSandbox.terminals.attach(terminal_id, listener)``, the listener answering each prompt.
"""

from cashier.sandbox.app import HostSandbox
from cashier.sandbox.chargeapi.testcards import as_table as charge_api_test_cards
from cashier.sandbox.core import SandboxConfig
from cashier.sandbox.customer import training_customer_pays
from cashier.sandbox.faults import InjectedDisconnect, InjectedReset
from cashier.sandbox.host_giftcards import (
    TRAINING_GIFT_BALANCE,
    TRAINING_GIFT_CARD,
    seed_training_gift_card,
    training_customer_card,
)
from cashier.sandbox.triggers import AMOUNT_TRIGGERS, TEST_CARDS

__all__ = [
    "AMOUNT_TRIGGERS",
    "TEST_CARDS",
    "TRAINING_GIFT_BALANCE",
    "TRAINING_GIFT_CARD",
    "HostSandbox",
    "InjectedDisconnect",
    "InjectedReset",
    "SandboxConfig",
    "charge_api_test_cards",
    "seed_training_gift_card",
    "training_customer_card",
    "training_customer_pays",
]
