"""One error tree for the Host API, one root (``HostError``), grouped by what the caller must do.

::

    HostError                      anything the Host API client raises
    ├── HostNoDecision             the host decided nothing we know of: ask again later
    │   ├── HostRetrySafe          nothing reached the host: send it again as it is
    │   │   ├── HostUnavailable    refused, DNS, connect timeout
    │   │   └── HostUnreachable    the gateway's own answer: its host cannot be reached (65100)
    │   └── HostOutcomeUnknown     it may have been done: ask the host (invoice status)
    │       ├── HostTimeout        HTTP 504, 9951, or no answer after sending
    │       └── HostProtocolError  an answer that is not the Host API's shape
    ├── InvoiceNotFound            9815 (refused)
    └── DuplicateInvoice           9815,1 (refused)

Refused is every ``HostError`` outside ``HostNoDecision`` (``exc.refused``): the host answered
with its error envelope and did not do it. A plain refusal is raised as ``HostError`` itself, so
a flow reads ``except HostRetrySafe`` / ``except HostOutcomeUnknown`` (or ``HostNoDecision``)
first and then ``except HostError`` for the refusals. A decline (``responseCode`` D) is a
result, not an exception.
"""

from __future__ import annotations

from typing import Any

from cashier.errors import CashierError
from cashier.redact import redact
from cashier.text import clean_text

#: Modern ``error.code`` values that mean the host timed out (40001 "Timed Out").
TIMEOUT_CODES = frozenset({"40001"})
#: Modern ``error.code`` 50100 "Transaction failed, invalid status": the transaction's state
#: forbids the request (a void of a sale refunded in part): sending it again changes nothing.
INVALID_STATUS_CODES = frozenset({"50100"})
#: Modern ``error.code`` values by which a gateway says the host (or processor) behind it cannot
#: be reached: 65100 "Unable to connect to host", 52011 "Processor Down". Nothing was done.
UNREACHABLE_CODES = frozenset({"65100", "52011"})


class HostError(CashierError):
    """The root: every Host API failure. Catch a group below it to decide what to do."""

    def __init__(self, message: str | None = None, *, primary_code: int | None = None,
                 secondary_code: int | None = None,
                 code: str | None = None, severity: str | None = None, short_text: str = "",
                 long_text: str = "", http_status: int | None = None) -> None:
        self.primary_code = primary_code
        self.secondary_code = secondary_code
        self.code = code
        self.severity = severity
        # the host may echo what it was sent: the texts are redacted before anyone reads them
        # and cleaned of controls: a host's text is shown, journaled and may be printed
        self.short_text = clean_text(redact(short_text))
        self.long_text = clean_text(redact(long_text or message or ""))
        self.http_status = http_status
        if message is not None:  # a local failure: no envelope, the message says what happened
            super().__init__(message)
            return
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
        elif code in UNREACHABLE_CODES:
            kind = HostUnreachable
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

    @property
    def invalid_status(self) -> bool:
        """Refused for the transaction's state (``INVALID_STATUS_CODES``): final, not retried."""
        return self.code in INVALID_STATUS_CODES

    @property
    def refused(self) -> bool:
        """The host answered with its error envelope: it did not do it (not a lost answer)."""
        return not isinstance(self, HostNoDecision)


class HostNoDecision(HostError):
    """No decision from the host that we know of: the caller may ask again later."""


class HostRetrySafe(HostNoDecision):
    """Nothing reached the host: safe to send the same request again."""


class HostOutcomeUnknown(HostNoDecision):
    """The request may have been carried out: ask the host what happened before anything else."""


class HostTimeout(HostOutcomeUnknown):
    """HTTP 504, primary code 9951, or no answer after the request was sent: outcome UNKNOWN."""

    @classmethod
    def from_error(cls, error: HostError) -> HostTimeout:
        return cls(primary_code=error.primary_code, secondary_code=error.secondary_code,
                   code=error.code, severity=error.severity, short_text=error.short_text,
                   long_text=error.long_text, http_status=error.http_status)


class HostProtocolError(HostOutcomeUnknown):
    """The host answered with something that is not the Host API's shape."""


class InvoiceNotFound(HostError):
    """9815: the invoice is unknown, voided, or batched and settled."""


class DuplicateInvoice(HostError):
    """9815,1: the invoice is already used by another kind of transaction (not "not found")."""


class HostUnavailable(HostRetrySafe):
    """The request never reached the host (refused, DNS, connect timeout): safe to retry."""


class HostUnreachable(HostRetrySafe):
    """The gateway answered that the host behind it cannot be reached (``UNREACHABLE_CODES``):
    nothing was done; an LG or DCP till may store payments offline meanwhile (issue 40)."""


def _int_or_none(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None
