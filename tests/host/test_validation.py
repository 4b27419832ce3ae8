"""Our spec's limits are refused before anything is sent, naming the field and the rule."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cashier.errors import ValidationError
from cashier.host.models.common import Amount, Card, Customer, TextValue, TipOptions, Token
from cashier.host.models.devices import ControllerForm, TermsAndConditions
from cashier.host.validation import validate_body, validate_invoice, validate_request
from tests.support.host_client import Recorder

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
D = "2024-05-21T09:18:23.283-07:00"


def _refused(path: str, body: dict[str, Any], field: str) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        validate_request(path, {"dateTime": D, **body})
    assert info.value.field == field, str(info.value)
    assert info.value.rule
    return info.value


# ---- boundaries, with hypothesis ----------------------------------------------------------
@SETTINGS
@given(st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", min_size=1, max_size=12))
def test_postal_code_1_to_9_alphanumerics(postal: str) -> None:
    body = {"customer": {"postalCode": postal}}
    if len(postal) <= 9:
        validate_body("/transactions/sale", body)
    else:
        _refused("/transactions/sale", body, "customer.postalCode")


@pytest.mark.parametrize("postal", ["", "947-19", "94 719", "9471é"])
def test_postal_code_refuses_specials(postal: str) -> None:
    _refused("/transactions/sale", {"customer": {"postalCode": postal}}, "customer.postalCode")


@SETTINGS
@given(st.lists(st.text(alphabet="abc ", min_size=1, max_size=42), min_size=1, max_size=6))
def test_product_descriptors_at_most_4_of_40(descriptors: list[str]) -> None:
    body = {"transaction": {"purchaseCard": {"productDescriptors": descriptors}}}
    ok = len(descriptors) <= 4 and all(len(d) <= 40 for d in descriptors)
    if ok:
        validate_body("/transactions/sale", body)
    else:
        with pytest.raises(ValidationError) as info:
            validate_body("/transactions/sale", body)
        assert info.value.field.startswith("transaction.purchaseCard.productDescriptors")


@SETTINGS
@given(st.integers(min_value=0, max_value=15))
def test_line_items_at_most_10(count: int) -> None:
    body = {"device": {"terminalId": "1", "lineItems": [f"item {i}" for i in range(count)]}}
    if count <= 10:
        validate_body("/devices/lineitems", body)
    else:
        _refused("/devices/lineitems", body, "device.lineItems")


@pytest.mark.parametrize(("path", "field", "limit"), [
    ("/devices/promptsignature", "device.displayText", 72),
    ("/devices/promptcardread", "device.displayText", 72),
    ("/transactions/sale", "tip.headerText", 100),
    ("/devices/prompttip", "tip.headerText", 100),
    ("/devices/processform", "form.header.value", 100),
    ("/devices/processform", "form.subHeader.value", 100),
    ("/devices/termsandconditions", "device.promptTermsAndConditions.header", 100),
    ("/devices/termsandconditions", "device.promptTermsAndConditions.ackText", 100),
    ("/risk/assess", "risk.sessionId", 32),
    ("/risk/assess", "customer.region", 3),
    ("/transactions/sale", "statementSuffix", 15),
    ("/credentials/accesstoken", "credential.accessToken", 52),
])
def test_text_limits_exact_boundary(path: str, field: str, limit: int) -> None:
    def body(n: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        node = out
        parts = field.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = "x" * n
        return out

    validate_body(path, body(limit))
    err = _refused(path, body(limit + 1), field)
    assert str(limit) in err.rule


def test_region_limit_only_on_risk_assess() -> None:
    validate_body("/transactions/sale", {"customer": {"region": "US-CA"}})
    _refused("/risk/assess", {"customer": {"region": "US-CA"}}, "customer.region")


@SETTINGS
@given(st.integers(min_value=0, max_value=150))
def test_receipt_columns_two_characters(width: int) -> None:
    if 1 <= width <= 99:
        validate_body("/transactions/sale", {"receiptColumns": width})
    else:
        _refused("/transactions/sale", {"receiptColumns": width}, "receiptColumns")


@SETTINGS
@given(st.decimals(min_value=Decimal("-5"), max_value=Decimal("99999"), places=2, allow_nan=False))
def test_amount_total_zero_only_on_capture(total: Decimal) -> None:
    body = {"amount": {"total": total}}
    if total < 0:
        _refused("/transactions/sale", body, "amount.total")
    elif total == 0:
        _refused("/transactions/sale", body, "amount.total")
        validate_body("/transactions/capture", body)
    else:
        validate_body("/transactions/sale", body)


def test_amount_must_be_a_number_not_text_or_float() -> None:
    _refused("/transactions/sale", {"amount": {"total": "12.50"}}, "amount.total")
    _refused("/transactions/sale", {"amount": {"total": Decimal("1.2345")}}, "amount.total")


@SETTINGS
@given(st.text(alphabet="0123456789a", min_size=0, max_size=12))
def test_invoice_is_1_to_10_digits(invoice: str) -> None:
    if invoice.isdigit() and 1 <= len(invoice) <= 10:
        assert validate_invoice(invoice) == invoice
    else:
        with pytest.raises(ValidationError, match=r"transaction\.invoice"):
            validate_invoice(invoice)


def test_cross_field_facts() -> None:
    _refused("/3dsecure/standalone", {"customer": {"phoneNumber": "5551234"}}, "customer.phoneCountry")
    validate_body("/3dsecure/standalone", {"customer": {"phoneNumber": "5551234", "phoneCountry": "1"}})
    validate_body("/transactions/sale", {"customer": {"phoneNumber": "5551234"}})
    _refused("/batches/submit", {"transaction": {"businessDate": "2024-05-21"}}, "batch.inclusive")
    _refused("/batches/submit", {"batch": {"inclusive": "X"}}, "batch.inclusive")
    _refused("/ach/refund", {"transaction": {"invoice": "1"}}, "transaction.originalInvoice")
    _refused("/transactions/sale", {"transaction": {"source": "8"}}, "mPos")
    validate_body("/transactions/sale", {"transaction": {"source": "8"}, "mPos": {"type": "01"}})
    _refused("/risk/rulestatus", {"riskRules": {"parameter": "card", "status": "A"}}, "riskRules.status")
    validate_body("/risk/rulestatus", {"riskRules": {"parameter": "email", "status": "A"}})
    _refused("/transactions/capture", {"transaction": {"cardOnFile": {"type": "U01"}}},
             "transaction.cardOnFile.type")
    _refused("/transactions/sale", {"threeDSecure": {"cryptogram": "AAA"}}, "threeDSecure.ecommIndicator")
    _refused("/transactions/sale", {"risk": {"tranId": "1", "assessment": "A"}},
             "transaction.gatewayRiskId")
    _refused("/transactions/sale", {"transaction": {"gatewayRiskId": "G1"}}, "risk.tranId")
    _refused("/transactions/sale", {"card": {"securityCode": {"value": "12"}}}, "card.securityCode.value")
    _refused("/transactions/sale", {"card": {"expirationDate": 12345}}, "card.expirationDate")


def test_host_answered_facts_are_left_to_the_host() -> None:
    """The sandbox shares validate_body; these the host answers itself (result E, ACH shape)."""
    validate_body("/risk/ruleupdate", {"riskRules": {"parameter": "card", "status": "A"}})
    validate_body("/ach/refund", {"transaction": {"invoice": "2"}})


def test_error_text_never_echoes_the_value() -> None:
    pan = "4321000000001119x"
    with pytest.raises(ValidationError) as info:
        validate_body("/transactions/sale", {"card": {"number": pan}})
    assert "4321" not in str(info.value) and info.value.field == "card.number"


# ---- through the client: refused before a byte is sent -----------------------------------
async def test_client_refuses_before_sending(make_client: Any, recorder: Recorder) -> None:
    lg = make_client("LG")
    dcp = make_client("DCP")
    attempts = [
        lg.sale(invoice="1", amount=Amount(total=Decimal(0))),
        lg.sale(invoice="12345678901", amount=Amount(total=Decimal(1))),
        lg.sale(invoice="1", amount=Amount(total=Decimal(1)), customer=Customer(postal_code="947-19")),
        lg.device_line_items([str(i) for i in range(11)]),
        dcp.device_prompt_signature(display_text="x" * 73),
        dcp.device_terms_and_conditions(TermsAndConditions(value="t", header="h" * 100,
                                                           ack_text="a" * 100).model_copy(
            update={"ack_text": "a" * 101})),
        dcp.device_process_form(ControllerForm(type="message", header=TextValue(value="h" * 101))),
        dcp.device_prompt_tip(total=Decimal(10), tip=TipOptions(header_text="ok").model_copy(
            update={"header_text": "t" * 101})),
        lg.batch_submit("21/05/2024"),
        lg.batch_totals("2024-02-30"),
        lg.void("1", reversal_reason="10"),
        make_client("HD").sale(invoice="1", amount=Amount(total=Decimal(1))),
        lg.risk_assess({"customer": {"region": "US-CA"}, "amount": {"total": Decimal(1)}}),
        lg.ach_refund({"transaction": {"invoice": "2"}, "amount": {"total": Decimal(1)}}),
        lg.three_d_secure_standalone({"customer": {"phoneNumber": "5551234"}}),
        lg.capture(invoice="1", amount=Amount(total=Decimal(1)), token="x" * 17),
        lg.refund(invoice="1", amount=Amount(total=Decimal(1)),
                  card=Card(token=Token(value="1"), expiration_date="12345")),
    ]
    for attempt in attempts:
        with pytest.raises(ValidationError) as info:
            await attempt
        assert info.value.field and info.value.rule
    assert recorder.requests == []


async def test_capture_of_zero_is_sent(make_client: Any, recorder: Recorder) -> None:
    await make_client("LG").capture(invoice="1", amount=Amount(total=Decimal(0)), token="8048471746471119")
    assert recorder.body()["amount"]["total"] == 0
