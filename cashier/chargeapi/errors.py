"""Typed errors of the Charge API client, from ``{"error": {"type", "code", "message"}}`` and status.

One root, grouped by what the caller must do (as the Host API's tree in ``cashier.host.errors``)::

    ChargeApiError                        anything the Charge API client raises
    ├── ChargeApiNoDecision               the server decided nothing we know of: ask again
    │   ├── ChargeApiRetrySafe            not carried out: send again (same idempotency key)
    │   │   ├── ChargeApiUnavailable      nothing reached the server
    │   │   ├── RateLimitError            429
    │   │   └── IdempotencyConflictError  409: the same key is still running
    │   └── ChargeApiOutcomeUnknown       it may have been carried out: re-send with the same key
    │       ├── ChargeApiTimeout          no answer after sending
    │       └── ChargeApiServerError      5xx
    └── ChargeApiRefused                  the server refused: it did not do it
        ├── InvalidRequestError           400 (and any other 4xx)
        ├── AuthenticationError           401
        ├── CardError                     402: declined or failed verification
        └── NotFoundError                 404

``ChargeApiOutcomeUnknown`` is the one that matters at the till: its ``idempotency_key`` is
what recovery re-sends to learn the real outcome (a replay).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from cashier.errors import CashierError
from cashier.redact import redact


class CardErrorCode(StrEnum):
    """Every card error code of the spec."""

    INVALID_NUMBER = "invalid_number"
    INVALID_EXPIRY_MONTH = "invalid_expiry_month"
    INVALID_EXPIRY_YEAR = "invalid_expiry_year"
    INVALID_CVC = "invalid_cvc"
    INCORRECT_CVC = "incorrect_cvc"
    INCORRECT_ZIP = "incorrect_zip"
    CARD_DECLINED = "card_declined"
    EXPIRED_CARD = "expired_card"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    LOST_OR_STOLEN = "lost_or_stolen"
    SUSPECTED_FRAUD = "suspected_fraud"
    PROCESSING_ERROR = "processing_error"
    BLACKLISTED = "blacklisted"
    EXPIRED_TOKEN = "expired_token"
    LIMIT_EXCEEDED = "limit_exceeded"
    AUTHENTICATION_REQUIRED = "authentication_required"
    DO_NOT_HONOR = "do_not_honor"
    DO_NOT_TRY_AGAIN = "do_not_try_again"


class ErrorType(StrEnum):
    INVALID_REQUEST = "invalid_request"
    CARD_ERROR = "card_error"
    GATEWAY_ERROR = "gateway_error"  # the spec's and the vendor's name for an internal error


class ChargeApiError(CashierError):
    """An answer that is not a success, or no answer."""

    def __init__(self, message: str, *, status: int | None = None, type_: str | None = None,
                 code: str | None = None, charge_id: str | None = None,
                 blacklist_rule_id: str | None = None, idempotency_key: str | None = None,
                 retry_after_s: float | None = None) -> None:
        self.status = status
        self.type = type_
        self.code = code
        self.message = redact(message)
        self.charge_id = charge_id
        self.blacklist_rule_id = blacklist_rule_id
        self.idempotency_key = idempotency_key
        self.retry_after_s = retry_after_s
        label = f"{status} {type_}/{code}" if status else type(self).__name__
        super().__init__(f"Charge API {label}: {self.message}")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "type": self.type, "code": self.code,
                               "message": self.message}
        if self.charge_id:
            out["chargeId"] = self.charge_id
        if self.blacklist_rule_id:
            out["blacklistRuleId"] = self.blacklist_rule_id
        return {k: v for k, v in out.items() if v is not None}


class ChargeApiNoDecision(ChargeApiError):
    """No decision from the server that we know of: the caller may ask again later."""


class ChargeApiRetrySafe(ChargeApiNoDecision):
    """The request was not carried out: safe to send again with the same idempotency key."""


class ChargeApiOutcomeUnknown(ChargeApiNoDecision):
    """The request may have been carried out: re-send with the same idempotency key to know."""


class ChargeApiRefused(ChargeApiError):
    """The server refused the request: it was not carried out."""


class InvalidRequestError(ChargeApiRefused):
    """400: malformed request or missing parameters (also a reused idempotency key)."""


class AuthenticationError(ChargeApiRefused):
    """401: no valid API key."""


class CardError(ChargeApiRefused):
    """402: declined or failed verification; ``card_code`` is one of the spec's codes."""

    @property
    def card_code(self) -> CardErrorCode | None:
        try:
            return CardErrorCode(self.code or "")
        except ValueError:
            return None


class NotFoundError(ChargeApiRefused):
    """404: no such object (or endpoint)."""


class IdempotencyConflictError(ChargeApiRetrySafe):
    """409: a request with the same idempotency key is still running on the server."""


class RateLimitError(ChargeApiRetrySafe):
    """429: too many requests."""


class ChargeApiServerError(ChargeApiOutcomeUnknown):
    """500 and other 5xx: internal error."""


class ChargeApiUnavailable(ChargeApiRetrySafe):
    """Nothing reached the server (connection refused, connect timeout): safe to try again."""


class ChargeApiTimeout(ChargeApiOutcomeUnknown):
    """The request may have been carried out; re-send with the same idempotency key to know."""


_BY_STATUS: dict[int, type[ChargeApiError]] = {
    400: InvalidRequestError, 401: AuthenticationError, 402: CardError, 404: NotFoundError,
    409: IdempotencyConflictError, 429: RateLimitError,
}


def error_from_response(status: int, body: Any, *, idempotency_key: str | None = None,
                        retry_after_s: float | None = None) -> ChargeApiError:
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        error = {"type": ErrorType.GATEWAY_ERROR.value if status >= 500 else "invalid_request",
                 "message": f"HTTP {status} without an error body"}
    cls = _BY_STATUS.get(status, ChargeApiServerError if status >= 500 else InvalidRequestError)
    return cls(str(error.get("message") or f"HTTP {status}"), status=status,
               type_=_text(error.get("type")), code=_text(error.get("code")),
               charge_id=_text(error.get("chargeId") or error.get("charge_id")),
               blacklist_rule_id=_text(error.get("blacklistRuleId") or error.get("blacklist_rule_id")),
               idempotency_key=idempotency_key, retry_after_s=retry_after_s)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)
