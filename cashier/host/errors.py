"""One error hierarchy for the Host API.

A decline (``responseCode`` D) is a result, not an exception. ``HostTimeout`` means the outcome
is UNKNOWN: the request may have been approved. ``HostUnavailable`` means the request never
left, so it is safe to send again.
"""

from __future__ import annotations

from typing import Any

from cashier.errors import CashierError
from cashier.redact import redact

#: Modern ``error.code`` values that mean the host timed out (40001 "Timed Out").
TIMEOUT_CODES = frozenset({"40001"})


class HostError(CashierError):
    """The host answered with its error envelope."""

    def __init__(self, *, primary_code: int | None = None, secondary_code: int | None = None,
                 code: str | None = None, severity: str | None = None, short_text: str = "",
                 long_text: str = "", http_status: int | None = None) -> None:
        self.primary_code = primary_code
        self.secondary_code = secondary_code
        self.code = code
        self.severity = severity
        # the host may echo what it was sent: the texts are redacted before anyone reads them
        self.short_text = redact(short_text)
        self.long_text = redact(long_text)
        self.http_status = http_status
        pair = f"{primary_code},{secondary_code}" if primary_code is not None else (code or "-")
        super().__init__(
            f"host error {pair} ({http_status}): {self.short_text} {self.long_text}".strip())

    @classmethod
    def from_envelope(cls, error: dict[str, Any], http_status: int | None) -> HostError:
        primary = _int_or_none(error.get("primaryCode"))
        code = None if error.get("code") is None else str(error.get("code"))
        kind: type[HostError] = cls
        if primary == 9951 or code in TIMEOUT_CODES or http_status == 504:
            kind = HostTimeout
        elif primary == 9815 and _int_or_none(error.get("secondaryCode")) == 1:
            kind = DuplicateInvoice  # 9815,1: the invoice exists as another kind of transaction
        elif primary == 9815:
            kind = InvoiceNotFound
        return kind(
            primary_code=primary, secondary_code=_int_or_none(error.get("secondaryCode")),
            code=code,
            severity=error.get("severity"), short_text=str(error.get("shortText") or ""),
            long_text=str(error.get("longText") or ""), http_status=http_status,
        )

    @property
    def retryable(self) -> bool:
        return self.severity == "Error"


class HostTimeout(HostError):
    """HTTP 504, primary code 9951, or no answer after the request was sent: outcome UNKNOWN."""

    @classmethod
    def from_error(cls, error: HostError) -> HostTimeout:
        return cls(primary_code=error.primary_code, secondary_code=error.secondary_code,
                   code=error.code, severity=error.severity, short_text=error.short_text,
                   long_text=error.long_text, http_status=error.http_status)


class InvoiceNotFound(HostError):
    """9815: the invoice is unknown, voided, or batched and settled."""


class DuplicateInvoice(HostError):
    """9815,1: the invoice is already used by another kind of transaction (not "not found")."""


class HostUnavailable(CashierError):
    """The request never reached the host (refused, DNS, connect timeout): safe to retry."""


class HostProtocolError(CashierError):
    """The host answered with something that is not the Host API's shape."""


def _int_or_none(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None
