"""The asynchronous Host API client: one shared ``httpx.AsyncClient``, typed calls, typed errors.

Every body is built here (never in flows or the window), picks the variant the processing
option needs (LG ``*_utgdevice``, DCP ``*_comengdevice``, DCC ``*_comengcloud``, HD card or
token bodies), is validated against our spec's limits before anything is sent, and is written
with amounts as JSON numbers.

One module per family of operations, mirroring ``cashier.host.models``: ``base`` is the wire
and the body helpers they share; ``HostClient`` is all of them together.
"""

from __future__ import annotations

from cashier.config import ProcessingOption
from cashier.host.client.base import REVERSAL_REASONS, Body, HostClientBase, HostSettings, TimeoutClass
from cashier.host.client.batches import BatchOperations
from cashier.host.client.cards import CardOperations
from cashier.host.client.credentials import CredentialsOperations
from cashier.host.client.devices import DeviceOperations
from cashier.host.client.extended import ExtendedOperations
from cashier.host.client.giftcards import GiftCardOperations
from cashier.host.client.qr import QrPaymentOperations
from cashier.host.client.tokens import TokenOperations
from cashier.host.client.transactions import TransactionOperations

__all__ = ["REVERSAL_REASONS", "Body", "HostClient", "HostSettings", "ProcessingOption",
           "TimeoutClass"]


class HostClient(CredentialsOperations, TransactionOperations, TokenOperations,
                 GiftCardOperations, CardOperations, DeviceOperations, BatchOperations,
                 QrPaymentOperations, ExtendedOperations, HostClientBase):
    """Talks to the host (HD) or to an LG, DCP or DCC endpoint; one instance per till."""
