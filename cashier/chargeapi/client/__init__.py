"""Async client of the Charge API: Basic auth with the secret key, form bodies, idempotency.

Every POST carries an ``Idempotency-Key``, made once per logical operation and reused on
every retry, so a retry after a lost answer can never move money twice; a replayed answer is
flagged (``result.replayed``). Retries (with backoff) happen only where safe: nothing sent,
429, 409 (same key still running) and 5xx, always with the same key. A read timeout that
outlives the retries raises ``ChargeApiTimeout`` carrying the key, for recovery to re-send.

One module per resource, as the vendor's SDKs have one class per resource: ``base`` is the wire
they share; ``ChargeApiClient`` is all of them together. What the till reads (charges, refunds,
customers, cards, payment links) comes back as a ``Record`` whose ``model`` is its typed view
(``cashier.chargeapi.models``); the rest is the wire's JSON.
"""

from __future__ import annotations

import uuid  # noqa: F401  (tests draw the idempotency keys through it)

from cashier.chargeapi.client.base import (
    ChargeApiClientBase,
    ChargeApiList,
    ChargeApiObject,
    Record,
    RecordList,
    check_amount,
    check_currency,
    check_metadata,
    check_url,
    new_idempotency_key,
)
from cashier.chargeapi.client.blacklist import BlacklistOperations
from cashier.chargeapi.client.cards import CardOperations
from cashier.chargeapi.client.charges import ChargeOperations
from cashier.chargeapi.client.checkout_sessions import CheckoutSessionOperations
from cashier.chargeapi.client.credits import CreditOperations
from cashier.chargeapi.client.customers import CustomerOperations
from cashier.chargeapi.client.disputes import DisputeOperations
from cashier.chargeapi.client.events import EventOperations
from cashier.chargeapi.client.files import FileOperations
from cashier.chargeapi.client.payment_links import PaymentLinkOperations
from cashier.chargeapi.client.payment_methods import PaymentMethodOperations
from cashier.chargeapi.client.payouts import PayoutOperations
from cashier.chargeapi.client.refunds import RefundOperations
from cashier.chargeapi.client.subscriptions import SubscriptionOperations
from cashier.chargeapi.client.tokens import TokenOperations

__all__ = ["ChargeApiClient", "ChargeApiList", "ChargeApiObject", "Record", "RecordList", "check_amount",
           "check_currency", "check_metadata", "check_url", "new_idempotency_key"]


class ChargeApiClient(ChargeOperations, RefundOperations, CustomerOperations, CardOperations,
                      TokenOperations, PaymentMethodOperations, SubscriptionOperations, EventOperations,
                      BlacklistOperations, CreditOperations, DisputeOperations, FileOperations,
                      PayoutOperations, CheckoutSessionOperations, PaymentLinkOperations,
                      ChargeApiClientBase):
    """One client per secret key; share it (it keeps connections alive)."""
