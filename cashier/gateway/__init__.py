"""Typed async client of the Charge API (form bodies, Basic auth, idempotency, cursor pages).

- ``client.GatewayClient``: a method per endpoint of the spec; ``iterate`` walks a list.
- ``errors``: ``CardError`` (402, ``CardErrorCode``), ``GatewayTimeout`` (outcome unknown)...
- ``journaled.JournaledGateway``: money movements (charge, capture, refund) written to the
  journal, keyed by their idempotency key, before the first send; ``recover`` re-sends.
"""

from cashier.gateway.client import GatewayClient, GatewayList, GatewayObject, new_idempotency_key
from cashier.gateway.errors import (
    AuthenticationError,
    CardError,
    CardErrorCode,
    GatewayError,
    GatewayServerError,
    GatewayTimeout,
    GatewayUnavailable,
    IdempotencyConflictError,
    InvalidRequestError,
    NotFoundError,
    RateLimitError,
)

__all__ = ["AuthenticationError", "CardError", "CardErrorCode", "GatewayClient", "GatewayError",
           "GatewayList", "GatewayObject", "GatewayServerError", "GatewayTimeout", "GatewayUnavailable",
           "IdempotencyConflictError", "InvalidRequestError", "NotFoundError", "RateLimitError",
           "new_idempotency_key"]
