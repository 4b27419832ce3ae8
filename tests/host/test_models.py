"""Every response model round-trips: parse a vendor example, dump, parse again: equal.

Where the vendor gives no example for an operation, one is built from the response schema's
own field examples (``example`` of each property), so every model meets the vendor's shape.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from cashier.host import codec
from cashier.host.endpoints import ENDPOINTS, RULE_VERIFY_FALLBACK
from cashier.host.models.base import HostModel
from cashier.host.models.batches import BatchResult, ModeResult
from cashier.host.models.cards import CardIdentifyResult, CardVerifyResult
from cashier.host.models.credentials import AccessTokenResult
from cashier.host.models.devices import CardReadResult, DeviceInfo, DeviceResult, DeviceStatus, TipResult
from cashier.host.models.extended import (
    AchResult,
    BankAggregatorResult,
    DccRateResult,
    OctResult,
    RiskAssessResult,
    RuleVerifyResult,
    WalletResult,
)
from cashier.host.models.giftcards import GiftCardResult
from cashier.host.models.qr import QrCancelResult, QrCodeResult, QrDetailsResult, QrStatusResult
from cashier.host.models.tokens import MerchantResult, TokenResult
from cashier.host.models.transactions import SignatureResult, TransactionResult, VoidResult

#: vendor path (vendor spelling) -> model the client parses it into
MODELS: dict[tuple[str, str], type[HostModel]] = {
    ("post", "/credentials/accesstoken"): AccessTokenResult,
    ("post", "/transactions/authorization"): TransactionResult,
    ("post", "/transactions/sale"): TransactionResult,
    ("post", "/transactions/capture"): TransactionResult,
    ("post", "/transactions/refund"): TransactionResult,
    ("post", "/transactions/manualsale"): TransactionResult,
    ("post", "/transactions/manualauthorization"): TransactionResult,
    ("get", "/transactions/invoice"): TransactionResult,
    ("delete", "/transactions/invoice"): VoidResult,
    ("post", "/transactions/signature"): SignatureResult,
    ("post", "/tokens/add"): TokenResult,
    ("post", "/tokens/duplicate"): TokenResult,
    ("post", "/tokens/delete"): TokenResult,
    ("get", "/tokens/universaltoken"): TokenResult,
    ("post", "/tokens/4words"): TokenResult,
    ("get", "/merchants/merchant"): MerchantResult,
    **{("post", f"/giftcards/{op}"): GiftCardResult for op in
       ("activate", "allocate", "deactivate", "cashout", "cashback", "reactivate", "reload",
        "balance", "cancel")},
    ("post", "/cards/verify"): CardVerifyResult,
    ("post", "/cards/identify"): CardIdentifyResult,
    **{("post", f"/devices/{op}"): DeviceResult for op in
       ("promptsignature", "promptconfirmation", "termsandconditions", "lineitems",
        "initializereaders", "reset", "promptinput", "processform", "print")},
    ("delete", "/devices/lineitems"): DeviceResult,
    ("get", "/devices/info"): DeviceInfo,
    ("post", "/devices/promptcardread"): CardReadResult,
    ("post", "/devices/getstatus"): DeviceStatus,
    ("post", "/devices/prompttip"): TipResult,
    ("get", "/reports/batchtotals"): BatchResult,
    ("post", "/batches/submit"): BatchResult,
    ("post", "/qrpayments/getqrcode"): QrCodeResult,
    ("post", "/qrpayments/getqrdetails"): QrDetailsResult,
    ("post", "/qrpayments/getqrpaymentstatus"): QrStatusResult,
    ("post", "/qrpayments/cancelqrpayment"): QrCancelResult,
    ("post", "/mode/offline"): ModeResult,
    ("post", "/mode/online"): ModeResult,
    ("post", "/risk/assess"): RiskAssessResult,
    ("post", "/paypal/sale"): WalletResult,
    ("post", "/paypal/refund"): WalletResult,
    ("post", "/oct/payout"): OctResult,
    ("post", "/ach/verify"): AchResult,
    ("post", "/ach/sale"): AchResult,
    ("post", "/ach/refund"): AchResult,
    ("post", "/ach/plaid/link_token/create"): BankAggregatorResult,
    ("post", "/ach/plaid/public_token/exchange"): BankAggregatorResult,
    ("post", "/dcc/ratelookup"): DccRateResult,
    ("post", RULE_VERIFY_FALLBACK): RuleVerifyResult,
}


def _resolve(vendor: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = vendor
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part.replace("~1", "/")]
        node = target
    return node


def _from_schema(vendor: dict[str, Any], schema: Any, depth: int = 0) -> Any:
    """An instance built from the schema's own examples (first branch of any oneOf)."""
    schema = _resolve(vendor, schema)
    if depth > 8 or not isinstance(schema, dict):
        return None
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return _from_schema(vendor, schema[key][0], depth + 1)
    if "allOf" in schema:
        out: dict[str, Any] = {}
        for part in schema["allOf"]:
            value = _from_schema(vendor, part, depth + 1)
            if isinstance(value, dict):
                out.update(value)
        return out
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        obj = {}
        for name, sub in schema.get("properties", {}).items():
            value = _from_schema(vendor, sub, depth + 1)
            if value is not None:
                obj[name] = value
        return obj
    if kind == "array":
        item = _from_schema(vendor, schema.get("items", {}), depth + 1)
        return [] if item is None else [item]
    if "example" in schema:
        return schema["example"]
    if "enum" in schema:
        return schema["enum"][0]
    return {"string": "x", "integer": 1, "number": 1, "boolean": True}.get(str(kind))


def _examples(vendor: dict[str, Any]) -> list[Any]:
    cases = []
    for (method, path), model in MODELS.items():
        op = vendor["paths"][path][method]
        content = op["responses"]["200"].get("content", {}).get("application/json", {})
        found: list[Any] = []
        if isinstance(content.get("example"), dict):
            found.append(content["example"])
        for ex in (content.get("examples") or {}).values():
            ex = _resolve(vendor, ex)
            if isinstance(ex.get("value"), dict):
                found.append(ex["value"])
        if isinstance(content.get("schema", {}).get("example"), dict):
            found.append(content["schema"]["example"])
        kind = "vendor"
        if not found:
            kind = "schema"
            found.append(_from_schema(vendor, content["schema"]))
        for i, ex in enumerate(found):
            cases.append(pytest.param(model, ex, id=f"{method}{path}#{i}-{kind}"))
    return cases


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "example" in metafunc.fixturenames:
        from tests.support.vendor_file import vendor_openapi

        metafunc.parametrize(("model", "example"), _examples(vendor_openapi()))


def test_round_trip(model: type[HostModel], example: dict[str, Any]) -> None:
    wire = codec.loads(codec.dumps(_json_ready(example)))  # numbers as Decimal, as the client reads
    items = wire.get("result") if isinstance(wire, dict) else None
    item = items[0] if isinstance(items, list) and items else wire
    first = model.model_validate(item)
    dumped = first.model_dump(mode="python", by_alias=True)
    second = model.model_validate(dumped)
    assert second == first
    assert second.model_dump(mode="python", by_alias=True) == dumped


def _json_ready(value: Any) -> Any:
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_ready(v) for v in value]
    return value


def test_every_operation_has_a_model_checked() -> None:
    """Each table row whose vendor path exists is covered above (spelling aside)."""
    vendor_spelling = {"/wallet/sale": "/paypal/sale", "/wallet/refund": "/paypal/refund",
                       "/rules/verify": RULE_VERIFY_FALLBACK,
                       "/ach/bankaggregator/link_token/create": "/ach/plaid/link_token/create",
                       "/ach/bankaggregator/public_token/exchange": "/ach/plaid/public_token/exchange"}
    covered = {p for _, p in MODELS}
    cashier_ops = [e for e in ENDPOINTS if e.path.split("/")[1] in
                   ("credentials", "transactions", "tokens", "merchants", "giftcards", "cards",
                    "devices", "reports", "batches", "qrpayments", "mode")]
    for entry in cashier_ops:
        assert vendor_spelling.get(entry.path, entry.path) in covered, entry.path


def test_giftcard_history_and_balance() -> None:
    result = GiftCardResult.model_validate({
        "card": {"balance": {"amount": Decimal("43.34")}, "token": {"value": "T1"}},
        "transaction": {"invoice": "5", "responseCode": "A"},
        "history": [{"dateTime": "2024-05-21T09:18:25.104-07:00", "amount": {"total": Decimal(10)},
                     "transactionType": "Reload"}]})
    assert result.balance == Decimal("43.34") and result.approved and result.token == "T1"
    assert result.history is not None and result.history[0].transaction_type == "Reload"


ACCESS = "EA79FB05-3AA7-4500-AF9A-73F986FF2C1D"


def test_secrets_in_answers_are_not_kept_or_shown() -> None:
    details = QrDetailsResult.model_validate({"credential": {"accessToken": ACCESS},
                                              "qrPayConfig": {"tipEnabled": "Y"}})
    assert details.credential is None and "EA79FB05" not in repr(details)
    assert "credential" not in details.model_dump(by_alias=True)
    read = CardReadResult.model_validate({"card": {"number": "6035710000000001234",
                                                   "trackData": ";6035710000000001234=2512?"}})
    assert "6035710000000001234" not in repr(read) and "6035710000000001234" not in str(read)
    token = AccessTokenResult.model_validate({"credential": {"accessToken": ACCESS}})
    assert token.access_token and "EA79FB05" not in repr(token)
