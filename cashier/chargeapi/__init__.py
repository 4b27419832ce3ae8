"""Typed async client of the Charge API (form bodies, Basic auth, idempotency, cursor pages).

- ``client.ChargeApiClient``: a method per endpoint of the spec, one module per resource
  (``client.charges``, ``client.refunds``, ``client.customers``...); ``iterate`` walks a list.
- ``models``: typed views (pydantic) of what the till reads: ``Charge``, ``Refund``, ``Customer``,
  ``Card``, ``PaymentLink``; a ``Record`` from the client gives its view as ``.model``.
- ``errors``: one root ``ChargeApiError``, grouped as ``ChargeApiRetrySafe``,
  ``ChargeApiOutcomeUnknown`` (re-send with the key) and ``ChargeApiRefused`` (``CardError``...).
- ``journaled.JournaledChargeApi``: money movements (charge, capture, refund) written to the
  journal, keyed by their idempotency key, before the first send; ``recover`` re-sends.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cashier.chargeapi.client import (
        ChargeApiClient,
        ChargeApiList,
        ChargeApiObject,
        Record,
        RecordList,
        new_idempotency_key,
    )
    from cashier.chargeapi.errors import (
        AuthenticationError,
        CardError,
        CardErrorCode,
        ChargeApiError,
        ChargeApiNoDecision,
        ChargeApiOutcomeUnknown,
        ChargeApiRefused,
        ChargeApiRetrySafe,
        ChargeApiServerError,
        ChargeApiTimeout,
        ChargeApiUnavailable,
        IdempotencyConflictError,
        InvalidRequestError,
        NotFoundError,
        RateLimitError,
    )

#: Where each public name lives. Loaded on first use: the ``cashier`` command imports this
#: package to register its sub-commands, and httpx must not slow the window's start for it.
_HOMES = {
    "ChargeApiClient": "client", "ChargeApiList": "client", "ChargeApiObject": "client",
    "new_idempotency_key": "client", "Record": "client", "RecordList": "client",
    **{name: "errors" for name in (
        "AuthenticationError", "CardError", "CardErrorCode", "ChargeApiError", "ChargeApiNoDecision",
        "ChargeApiOutcomeUnknown", "ChargeApiRefused", "ChargeApiRetrySafe", "ChargeApiServerError",
        "ChargeApiTimeout", "ChargeApiUnavailable", "IdempotencyConflictError", "InvalidRequestError",
        "NotFoundError", "RateLimitError")},
}

__all__ = [
    "AuthenticationError",
    "CardError",
    "CardErrorCode",
    "ChargeApiClient",
    "ChargeApiError",
    "ChargeApiList",
    "ChargeApiNoDecision",
    "ChargeApiObject",
    "ChargeApiOutcomeUnknown",
    "ChargeApiRefused",
    "ChargeApiRetrySafe",
    "ChargeApiServerError",
    "ChargeApiTimeout",
    "ChargeApiUnavailable",
    "IdempotencyConflictError",
    "InvalidRequestError",
    "NotFoundError",
    "RateLimitError",
    "Record",
    "RecordList",
    "new_idempotency_key",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'cashier.chargeapi' has no attribute {name!r}")
    return getattr(import_module(f"cashier.chargeapi.{home}"), name)
