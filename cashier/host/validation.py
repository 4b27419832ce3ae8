"""Our spec's limits and field facts, checked before a byte is sent.

The sandbox enforces the same table (it imports this module), so a body the client refuses is
exactly a body the sandbox would answer with a 400.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from cashier.errors import ValidationError

_INVOICE = re.compile(r"^\d{1,10}$")
_POSTAL = re.compile(r"^[A-Za-z0-9]{1,9}$")
_MAX_AMOUNT_CHARS = 14


def validate_invoice(invoice: Any, field: str = "transaction.invoice") -> str:
    """An invoice is a string of 1 to 10 digits (US and Canadian merchants: digits only)."""
    if not isinstance(invoice, str) or not _INVOICE.match(invoice):
        raise ValidationError(field, "must be a string of 1 to 10 digits")
    return invoice


def _get(body: Mapping[str, Any], dotted: str) -> Any:
    node: Any = body
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _max_len(limit: int) -> Callable[[str, Any], None]:
    def check(field: str, value: Any) -> None:
        if not isinstance(value, str):
            raise ValidationError(field, "must be text")
        if len(value) > limit:
            raise ValidationError(field, f"must be at most {limit} characters")
    return check


def _amount(field: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise ValidationError(field, "must be a number in major units, such as 12.50")
    d = Decimal(value)
    if not d.is_finite() or d < 0:
        raise ValidationError(field, "must be a finite number, not negative")
    exponent = d.as_tuple().exponent
    if isinstance(exponent, int) and exponent < -3:
        raise ValidationError(field, "must have at most 3 decimals")
    if len(format(d, "f")) > _MAX_AMOUNT_CHARS:
        raise ValidationError(field, f"must be at most {_MAX_AMOUNT_CHARS} characters long")


def _postal(field: str, value: Any) -> None:
    if not isinstance(value, str) or not _POSTAL.match(value):
        raise ValidationError(field, "must be 1 to 9 letters or digits, no spaces or dashes")


def _descriptors(field: str, value: Any) -> None:
    if not isinstance(value, list) or not value:
        raise ValidationError(field, "must be a list of 1 to 4 texts")
    if len(value) > 4:
        raise ValidationError(field, "must have at most 4 elements")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item or len(item) > 40:
            raise ValidationError(f"{field}[{i}]", "must be 1 to 40 characters")


def _receipt_columns(field: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | str) or not 1 <= len(str(value)) <= 2:
        raise ValidationError(field, "must be at most 2 characters (a width from 1 to 99)")
    if not str(value).isdigit() or int(value) < 1:
        raise ValidationError(field, "must be a width from 1 to 99")


def _line_items(field: str, value: Any) -> None:
    if not isinstance(value, list):
        raise ValidationError(field, "must be a list")
    if len(value) > 10:
        raise ValidationError(field, "must have at most 10 items")


def _clerk(field: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 99999:
        raise ValidationError(field, "must be a whole number of 1 to 5 digits, not 0")


def _expiration(field: str, value: Any) -> None:
    text = str(value)
    if not text.isdigit() or not 3 <= len(text) <= 4:
        raise ValidationError(field, "must be 3 to 4 digits, MMYY")


def _yes_no(field: str, value: Any) -> None:
    if value not in ("Y", "N"):
        raise ValidationError(field, "must be Y or N")


def _authorization_code(field: str, value: Any) -> None:
    if not isinstance(value, str) or not 1 <= len(value) <= 6 or not value.isalnum():
        raise ValidationError(field, "must be 1 to 6 letters or digits")


#: (dotted field, check) applied to every POST body that carries the field.
COMMON_RULES: tuple[tuple[str, Callable[[str, Any], object]], ...] = (
    ("amount.total", _amount), ("amount.tax", _amount), ("amount.tip", _amount),
    ("amount.cashback", _amount), ("amount.surcharge", _amount), ("amount.checkTotal", _amount),
    ("amount.tipBasis", _amount),
    ("customer.postalCode", _postal),
    ("customer.firstName", _max_len(30)), ("customer.lastName", _max_len(30)),
    ("transaction.purchaseCard.productDescriptors", _descriptors),
    ("transaction.purchaseCard.customerReference", _max_len(25)),
    ("transaction.purchaseCard.destinationPostalCode", _postal),
    ("productDescriptors", _descriptors),
    ("receiptColumns", _receipt_columns),
    ("device.lineItems", _line_items),
    ("lineItems", _line_items),
    ("tip.headerText", _max_len(100)),
    ("form.header.value", _max_len(100)), ("form.subHeader.value", _max_len(100)),
    ("device.promptTermsAndConditions.header", _max_len(100)),
    ("device.promptTermsAndConditions.ackText", _max_len(100)),
    ("risk.sessionId", _max_len(32)),
    ("clerk.numericId", _clerk),
    ("transaction.expirationDate", _expiration),
    ("card.present", _yes_no),
    ("statementSuffix", _max_len(15)),
    ("transaction.notes", _max_len(4096)),
    ("transaction.vendorReference", _max_len(50)),
    ("transaction.authorizationCode", _authorization_code),
    ("device.terminalId", _max_len(32)),
    ("device.serialNumber", _max_len(64)),
    ("transaction.invoice", lambda field, value: validate_invoice(value, field)),
    ("transaction.originalInvoice", lambda field, value: validate_invoice(value, field)),
)

#: Rules that hold on one path only.
PATH_RULES: dict[str, tuple[tuple[str, Callable[[str, Any], object]], ...]] = {
    "/risk/assess": (("customer.region", _max_len(3)),),
    "/devices/promptsignature": (("device.displayText", _max_len(72)),),
}

#: Paths whose ``amount.total`` may be 0 (a capture of 0 voids the authorization).
ZERO_TOTAL_ALLOWED = frozenset({"/transactions/capture"})


def validate_body(path: str, body: Mapping[str, Any]) -> None:
    """Raise ``ValidationError`` naming the first field that breaks a rule of our spec."""
    path = path.split("?", 1)[0]
    if path.startswith("/api/rest/v1"):
        path = path[len("/api/rest/v1"):]
    for field, check in COMMON_RULES + PATH_RULES.get(path, ()):
        value = _get(body, field)
        if value is not None:
            check(field, value)
    total = _get(body, "amount.total")
    if total is not None and Decimal(total) == 0 and path not in ZERO_TOTAL_ALLOWED:
        raise ValidationError("amount.total", "cannot be zero (only a capture of 0, which voids)")
    if (path == "/3dsecure/standalone" and _get(body, "customer.phoneNumber")
            and not _get(body, "customer.phoneCountry")):
        raise ValidationError("customer.phoneCountry",
                                  "is required when customer.phoneNumber is sent")
    if path == "/batches/submit" and _get(body, "batch.inclusive") is None:
        raise ValidationError("batch.inclusive", "is required on /batches/submit")
