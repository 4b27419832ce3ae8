"""Our spec's limits and field facts, checked before a byte is sent.

The sandbox enforces the same table (it imports this module), so a body the client refuses is
exactly a body the sandbox would answer with a 400.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
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
    return _walk(body, dotted.split("."))


def _walk(body: Mapping[str, Any], parts: list[str] | tuple[str, ...]) -> Any:
    node: Any = body
    for part in parts:
        if type(node) is not dict and not isinstance(node, Mapping):
            return None
        node = node.get(part)
        if node is None:
            return None
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


def _digits(low: int, high: int, what: str) -> Callable[[str, Any], None]:
    def check(field: str, value: Any) -> None:
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        if not isinstance(text, str) or not text.isdigit() or not low <= len(text) <= high:
            raise ValidationError(field, f"must be {what}")
    return check


def _one_of(*allowed: str) -> Callable[[str, Any], None]:
    def check(field: str, value: Any) -> None:
        if value not in allowed:
            raise ValidationError(field, f"must be one of {', '.join(allowed)}")
    return check


def _security_code(field: str, value: Any) -> None:
    # an empty value goes with indicator 0 ("not provided") on the unencrypted-card bodies
    if value != "" and (not isinstance(value, str) or not value.isdigit() or not 3 <= len(value) <= 4):
        raise ValidationError(field, "must be 3 or 4 digits")


def _currency(field: str, value: Any) -> None:
    if not isinstance(value, str) or len(value) != 3 or not value.isalpha():
        raise ValidationError(field, "must be an ISO 4217 code of 3 letters")


def _api_options(field: str, value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValidationError(field, "must be a list of option names")


Rule = tuple[str, Callable[[str, Any], object]]

#: (dotted field, check) applied to every POST body that carries the field.
COMMON_RULES: tuple[Rule, ...] = (
    ("amount.total", _amount), ("amount.tax", _amount), ("amount.tip", _amount),
    ("amount.cashback", _amount), ("amount.surcharge", _amount), ("amount.checkTotal", _amount),
    ("amount.tipBasis", _amount),
    ("customer.postalCode", _postal),
    ("customer.firstName", _max_len(30)), ("customer.lastName", _max_len(30)),
    ("customer.middleName", _max_len(30)), ("customer.addressLine1", _max_len(30)),
    ("customer.emailAddress", _max_len(80)), ("customer.ipAddress", _max_len(20)),
    ("transaction.purchaseCard.productDescriptors", _descriptors),
    ("transaction.purchaseCard.customerReference", _max_len(25)),
    ("transaction.purchaseCard.destinationPostalCode", _postal),
    ("productDescriptors", _descriptors),
    ("receiptColumns", _receipt_columns),
    ("device.lineItems", _line_items),
    ("lineItems", _line_items),
    ("tip.headerText", _max_len(100)),
    ("tip.presetDefault", _one_of("1", "2", "3", "none")),
    ("form.header.value", _max_len(100)), ("form.subHeader.value", _max_len(100)),
    ("form.footer.value", _max_len(100)),
    ("device.nextStep.header.value", _max_len(100)),
    ("device.nextStep.subHeader.value", _max_len(100)),
    ("device.promptTermsAndConditions.header", _max_len(100)),
    ("device.promptTermsAndConditions.ackText", _max_len(100)),
    ("risk.sessionId", _max_len(32)),
    ("clerk.numericId", _clerk),
    ("transaction.expirationDate", _expiration),
    ("card.expirationDate", _expiration),
    ("card.number", _digits(12, 19, "12 to 19 digits")),
    ("card.securityCode.value", _security_code),
    ("card.token.value", _max_len(16)),
    ("card.present", _yes_no),
    ("statementSuffix", _max_len(15)),
    ("currencyCode", _currency),
    ("apiOptions", _api_options),
    ("transaction.notes", _max_len(4096)),
    ("transaction.vendorReference", _max_len(50)),
    ("transaction.authorizationCode", _authorization_code),
    ("transaction.source", _one_of("3", "6", "8")),
    ("transaction.cardOnFile.usageIndicator", _one_of("01", "02")),
    ("transaction.cardOnFile.scheduledIndicator", _one_of("01", "02")),
    ("device.terminalId", _max_len(32)),
    ("device.serialNumber", _max_len(64)),
    ("credential.accessToken", _max_len(52)),
    ("credential.clientGuid", _max_len(51)), ("credential.authToken", _max_len(51)),
    ("batch.inclusive", _yes_no),
    ("transaction.invoice", lambda field, value: validate_invoice(value, field)),
    ("transaction.originalInvoice", lambda field, value: validate_invoice(value, field)),
)

#: Rules that hold on one path only.
PATH_RULES: dict[str, tuple[Rule, ...]] = {
    "/risk/assess": (("customer.region", _max_len(3)),),
    # our spec states 72 for the device controllers; LG bodies have no displayText at all
    "/devices/promptsignature": (("device.displayText", _max_len(72)),),
    "/devices/promptcardread": (("device.displayText", _max_len(72)),),
    "/transactions/capture": (("transaction.cardOnFile.type", _one_of("U08")),),
}

def _index(rules: tuple[Rule, ...]) -> dict[str, tuple[Callable[[str, Any], object], ...]]:
    out: dict[str, list[Callable[[str, Any], object]]] = {}
    for field, check in rules:
        out.setdefault(field, []).append(check)
    return {k: tuple(v) for k, v in out.items()}


def _prefixes(fields: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for field in fields:
        parts = field.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return frozenset(out)


# One walk over the body finds every field a rule names (faster than one lookup per rule).
_COMMON = _index(COMMON_RULES)
_PATH = {path: _index(COMMON_RULES + rules) for path, rules in PATH_RULES.items()}
_COMMON_PREFIXES = _prefixes(_COMMON)
_PATH_PREFIXES = {path: _prefixes(index) for path, index in _PATH.items()}

#: Paths whose ``amount.total`` may be 0 (a capture of 0 voids the authorization).
ZERO_TOTAL_ALLOWED = frozenset({"/transactions/capture"})
_PAYMENTS = frozenset({"/transactions/sale", "/transactions/authorization"})
#: Decision: ``programProtocol`` is for the United States only, so it is not required here.
_THREE_DS_REQUIRED = ("cryptogram", "ecommIndicator", "securityLevelIndicator",
                      "directoryServerTranId", "authenticationSource")
_RISK_LINK = ("risk.tranId", "risk.assessment", "transaction.gatewayRiskId")


def validate_body(path: str, body: Mapping[str, Any]) -> None:
    """Raise ``ValidationError`` naming the first field that breaks a rule of our spec."""
    path = path.split("?", 1)[0]
    if path.startswith("/api/rest/v1"):
        path = path[len("/api/rest/v1"):]
    index = _PATH.get(path, _COMMON)
    _check_tree(body, "", index, _PATH_PREFIXES.get(path, _COMMON_PREFIXES))
    total = _get(body, "amount.total")
    if total is not None and Decimal(total) == 0 and path not in ZERO_TOTAL_ALLOWED:
        raise ValidationError("amount.total", "cannot be zero (only a capture of 0, which voids)")
    if (path == "/3dsecure/standalone" and _get(body, "customer.phoneNumber")
            and not _get(body, "customer.phoneCountry")):
        raise ValidationError("customer.phoneCountry",
                              "is required when customer.phoneNumber is sent")
    if path == "/batches/submit" and _get(body, "batch.inclusive") is None:
        raise ValidationError("batch.inclusive", "is required on /batches/submit")


def _check_tree(node: Mapping[str, Any], prefix: str,
                index: Mapping[str, tuple[Callable[[str, Any], object], ...]],
                prefixes: frozenset[str]) -> None:
    for key, value in node.items():
        if value is None:
            continue
        field = f"{prefix}{key}"
        checks = index.get(field)
        if checks is not None:
            for check in checks:
                check(field, value)
        if field in prefixes and (type(value) is dict or isinstance(value, Mapping)):
            _check_tree(value, field + ".", index, prefixes)


def validate_request(path: str, body: Mapping[str, Any]) -> None:
    """What the client checks before sending: ``validate_body`` plus the cross-field facts the
    host answers in its own way (risk rule result E, the ACH error shape), which the sandbox
    must therefore answer itself rather than refuse up front."""
    validate_body(path, body)
    path = path.split("?", 1)[0].removeprefix("/api/rest/v1")
    _cross_field(path, body)


def _cross_field(path: str, body: Mapping[str, Any]) -> None:
    """Facts of our spec that tie one field to another."""
    if path == "/ach/refund" and _get(body, "transaction.originalInvoice") is None:
        raise ValidationError("transaction.originalInvoice", "is required on /ach/refund")
    transaction = body.get("transaction")
    if (type(transaction) is dict and transaction.get("source") == "8"
            and not isinstance(body.get("mPos"), Mapping)):
        raise ValidationError("mPos", "is required when transaction.source is 8 (mPos)")
    rules = body.get("riskRules")
    for i, rule in ([] if rules is None else enumerate(rules if isinstance(rules, list) else [rules])):
        if isinstance(rule, Mapping) and rule.get("status") == "A" and \
                rule.get("parameter") in ("card", "token"):
            where = "riskRules" if not isinstance(rules, list) else f"riskRules[{i}]"
            raise ValidationError(f"{where}.status", "cannot be A when the parameter is card or token")
    if path in _PAYMENTS:
        three_ds = body.get("threeDSecure")
        if isinstance(three_ds, Mapping):
            for name in _THREE_DS_REQUIRED:
                if three_ds.get(name) in (None, ""):
                    raise ValidationError(f"threeDSecure.{name}",
                                          "is required on a sale or authorization with 3-D Secure data")
        linked = "risk" in body or (type(transaction) is dict and "gatewayRiskId" in transaction)
        sent = [f for f in _RISK_LINK if _get(body, f) is not None] if linked else []
        if sent and len(sent) != len(_RISK_LINK):
            missing = next(f for f in _RISK_LINK if f not in sent)
            raise ValidationError(missing, "is required with the other risk assessment fields "
                                           "(risk.tranId, risk.assessment, transaction.gatewayRiskId)")
