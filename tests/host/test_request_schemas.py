"""Every body the client builds for cashier and manager work validates against the ONE vendor
variant of its processing option (never the whole ``oneOf``, which is not exclusive)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any

import pytest

from cashier.host.client import HostClient
from cashier.host.models.common import (
    Amount,
    Card,
    Customer,
    NextStep,
    SecurityCode,
    TextValue,
    TipOptions,
    Token,
    Ui,
)
from cashier.host.models.devices import (
    ChargeApiForm,
    ControllerForm,
    FormButton,
    PrintData,
    PrintLine,
    StructuredPrint,
    TermsAndConditions,
)
from tests.support.host_client import Recorder

AMOUNT = Amount(total=Decimal("12.50"), tax=Decimal("0.92"))
KEYED = Card(number="4321000000001119", expiration_date="1230", security_code=SecurityCode(value="333"))
TOKEN_CARD = Card(token=Token(value="8048471746471119"))
GIFT = Card(number="6035710000000001")
TIP = TipOptions(preset_type="percent", preset1=Decimal(15), preset2=Decimal(18), preset3=Decimal(20),
                 header_text="Add a tip?", display_no_tip=True)
VARIANT = {"LG": "utgdevice", "DCP": "comengdevice", "DCC": "comengcloud"}

Call = Callable[[HostClient], Awaitable[Any]]


def _device_cases() -> list[tuple[str, str, Call, str]]:
    cases: list[tuple[str, str, Call, str]] = []
    for opt, suffix in VARIANT.items():
        cases += [
            (f"sale-{opt}", opt, lambda c: c.sale(invoice="2405210001", amount=AMOUNT),
             f"transactions_sale_{suffix}"),
            (f"authorization-{opt}", opt,
             lambda c: c.authorization(invoice="2405210001", amount=AMOUNT),
             f"transactions_authorization_{suffix}"),
            (f"refund-{opt}", opt,
             lambda c: c.refund(invoice="2405210002", amount=AMOUNT, original_invoice="2405210001"),
             f"transactions_refund_{suffix}"),
            (f"manualsale-{opt}", opt,
             lambda c: c.manual_sale(invoice="2405210003", amount=AMOUNT, authorization_code="OK978Z"),
             f"transactions_manualsale_{suffix}"),
            (f"manualauthorization-{opt}", opt,
             lambda c: c.manual_authorization(invoice="2405210003", amount=AMOUNT,
                                              authorization_code="OK978Z"),
             f"transactions_manualauthorization_{suffix}"),
            (f"tokens-add-{opt}", opt, lambda c: c.token_add(), f"tokens_add_{suffix}"),
            (f"promptsignature-{opt}", opt,
             lambda c: c.device_prompt_signature(display_text="Please sign", next_step=NextStep()),
             f"devices_promptsignature_{suffix}"),
            (f"terms-{opt}", opt,
             lambda c: c.device_terms_and_conditions(
                 TermsAndConditions(value="No refunds after 30 days.", header="Terms",
                                    ack_text="I agree")),
             f"devices_termsandconditions_{suffix}"),
            (f"promptinput-{opt}", opt, lambda c: c.device_prompt_input("1"),
             f"devices_promptinput_{suffix}"),
            (f"promptcardread-{opt}", opt, lambda c: c.device_prompt_card_read(timeout_s=30),
             f"devices_promptcardread_{suffix}"),
        ]
    cases += [
        ("sale-DCP-tip-ui", "DCP",
         lambda c: c.sale(invoice="1", amount=Amount(total=Decimal(10), tip_basis=Decimal(10)),
                          tip=TIP, ui=Ui(language="en", mode="dark")), "transactions_sale_comengdevice"),
        ("sale-DCC-tip", "DCC", lambda c: c.sale(invoice="1", amount=AMOUNT, tip=TIP),
         "transactions_sale_comengcloud"),
        ("print-LG", "LG", lambda c: c.device_print([PrintLine(key="1", print_value="Thank you")]),
         "devices_print_utgdevice"),
        ("print-DCP-legacy", "DCP",
         lambda c: c.device_print([PrintLine(key="1", print_value="Thank you")]),
         "devices_print_comengdevice_legacy"),
        ("print-DCC-structured", "DCC",
         lambda c: c.device_print(StructuredPrint(data=[PrintData(value="Qk0=")])),
         "devices_print_comengcloud_structured"),
        ("processform-LG", "LG", lambda c: c.device_process_form(ChargeApiForm(name="survey")),
         "devices_processform_utgdevice"),
        ("processform-DCP", "DCP",
         lambda c: c.device_process_form(ControllerForm(
             type="multiButtonScrollingText", header=TextValue(value="Receipt?"),
             buttons=[FormButton(id="1", text="Email"), FormButton(id="2", text="Print")])),
         "devices_processform_comengdevice"),
        ("processform-DCC-qr", "DCC",
         lambda c: c.device_process_form(ControllerForm(type="qrDisplay",
                                                        qr_code=TextValue(value="https://q"))),
         "devices_processform_comengcloud"),
        ("reset-LG", "LG", lambda c: c.device_reset(), "devices_reset_utgdevice"),
        ("reset-DCP", "DCP", lambda c: c.device_reset(), "devices_reset_comengdevice"),
        ("getstatus-DCP", "DCP", lambda c: c.device_get_status(), "devices_getstatus_comengdevice"),
        ("getstatus-DCC", "DCC", lambda c: c.device_get_status(), "devices_getstatus_comengcloud"),
        ("prompttip-DCP", "DCP",
         lambda c: c.device_prompt_tip(total=Decimal("40.00"), tip_basis=Decimal("40.00"), tip=TIP),
         "devices_prompttip_comengdevice"),
        ("prompttip-DCC", "DCC", lambda c: c.device_prompt_tip(total=Decimal("40.00"), tip=TIP),
         "devices_prompttip_comengcloud"),
        ("cards-verify-LG", "LG", lambda c: c.card_verify(), "cards_verify_utgdevice"),
        ("cards-identify-LG", "LG", lambda c: c.card_identify(), "cards_identify_utgdevice"),
    ]
    for op, call in (
        ("activate", lambda c: c.giftcard_activate(invoice="77", amount=Decimal("25.00"))),
        ("reload", lambda c: c.giftcard_reload(invoice="77", amount=Decimal("10.00"))),
        ("balance", lambda c: c.giftcard_balance(invoice="77", history=True)),
        ("deactivate", lambda c: c.giftcard_deactivate(invoice="77")),
        ("reactivate", lambda c: c.giftcard_reactivate(invoice="77")),
        ("cashout", lambda c: c.giftcard_cashback(invoice="77")),
    ):
        cases.append((f"giftcard-{op}-LG", "LG", call, f"giftcards_{op}_utgdevice"))
    return cases


def _hd_cases() -> list[tuple[str, str, Call, str]]:
    return [
        ("sale-HD-keyed", "HD", lambda c: c.sale(invoice="1", amount=AMOUNT, card=KEYED),
         "transactions_sale_unencryptedcard"),
        ("sale-HD-keyed-customer", "HD",
         lambda c: c.sale(invoice="1", amount=AMOUNT, card=KEYED,
                          customer=Customer(postal_code="65143", address_line1="65 Main St")),
         "transactions_sale_unencryptedcard"),
        ("sale-HD-token", "HD", lambda c: c.sale(invoice="1", amount=AMOUNT, card=TOKEN_CARD),
         "transactions_sale_token_gtv"),
        ("auth-HD-keyed", "HD", lambda c: c.authorization(invoice="1", amount=AMOUNT, card=KEYED),
         "transactions_authorization_unencryptedcard"),
        ("auth-HD-token", "HD",
         lambda c: c.authorization(invoice="1", amount=AMOUNT, card=TOKEN_CARD),
         "transactions_authorization_token_gtv"),
        ("incremental-HD", "HD",
         lambda c: c.incremental_authorization(invoice="1", amount=Amount(total=Decimal(5)),
                                               token="8048471746471119"),
         "transactions_authorization_incremental"),
        ("capture-LG", "LG",
         lambda c: c.capture(invoice="1", amount=Amount(total=Decimal("14.00")),
                             token="8048471746471119"), "transactions_capture_token_gtv"),
        ("refund-HD-token", "HD",
         lambda c: c.refund(invoice="2", amount=AMOUNT, card=TOKEN_CARD, original_invoice="1"),
         "transactions_refund_token_gtv"),
        ("refund-HD-keyed", "HD", lambda c: c.refund(invoice="2", amount=AMOUNT, card=KEYED),
         "transactions_refund_unencryptedcard"),
        ("manualsale-HD-token", "HD",
         lambda c: c.manual_sale(invoice="3", amount=AMOUNT, authorization_code="123456",
                                 card=TOKEN_CARD), "transactions_manualsale_token_gtv"),
        ("tokens-add-HD", "HD", lambda c: c.token_add(card=KEYED), "tokens_add_unencryptedcard"),
        ("cards-verify-HD", "HD",
         lambda c: c.card_verify(card=KEYED, customer=Customer(postal_code="65143")),
         "cards_verify_unencryptedcard"),
        ("cards-verify-HD-token", "HD", lambda c: c.card_verify(card=TOKEN_CARD),
         "cards_verify_token_gtv"),
        ("cards-identify-HD-token", "HD", lambda c: c.card_identify(card=TOKEN_CARD),
         "cards_identify_token_gtv"),
        ("giftcard-activate-HD", "HD",
         lambda c: c.giftcard_activate(invoice="9", amount=Decimal(25), card=GIFT),
         "giftcards_activate_unencryptedcard"),
        ("giftcard-reload-HD-token", "HD",
         lambda c: c.giftcard_reload(invoice="9", amount=Decimal(5), card=TOKEN_CARD),
         "giftcards_reload_token_gtv"),
        ("giftcard-balance-HD", "HD", lambda c: c.giftcard_balance(invoice="9", card=GIFT),
         "giftcards_balance_unencryptedcard"),
        ("giftcard-cancel-HD", "HD",
         lambda c: c.giftcard_cancel(invoice="9", token="8048471746471119"),
         "giftcards_cancel_token_gtv"),
    ]


def _inline(vendor: dict[str, Any], path: str) -> str:
    return f"#/paths/{path.replace('/', '~1')}/post/requestBody/content/application~1json/schema"


INLINE_CASES: list[tuple[str, str, Call, str]] = [
    ("accesstoken", "HD",
     lambda c: c.exchange_access_token(client_guid="4A1B2C3D-0000-4000-8000-00000000AA01",
                                       auth_token="9F8E7D6C-1111-4000-8000-00000000BB02"),
     "/credentials/accesstoken"),
    ("signature", "LG", lambda c: c.upload_signature(invoice="1", data="iVBORw0KGgo="),
     "/transactions/signature"),
    ("tokens-duplicate", "HD", lambda c: c.token_duplicate("8048471746471119"), "/tokens/duplicate"),
    ("tokens-delete", "HD", lambda c: c.token_delete("8048471746471119"), "/tokens/delete"),
    ("tokens-4words", "LG", lambda c: c.token_four_words("8048471746471119"), "/tokens/4words"),
    ("giftcard-allocate", "HD",
     lambda c: c.giftcard_allocate(invoice="5", amount=Decimal(50), program_id="P1"),
     "/giftcards/allocate"),
    ("promptconfirmation", "LG", lambda c: c.device_prompt_confirmation("Is this total right?"),
     "/devices/promptconfirmation"),
    ("lineitems", "LG", lambda c: c.device_line_items(["Coffee 3.50", "Bagel 2.25"], append=True),
     "/devices/lineitems"),
    ("initializereaders", "LG", lambda c: c.device_initialize_readers(), "/devices/initializereaders"),
    ("batch-submit", "HD",
     lambda c: c.batch_submit("2024-05-21", inclusive=True, net_amount=Decimal("12.50"), net_count=1),
     "/batches/submit"),
    ("qr-code", "HD", lambda c: c.qr_get_code(invoice="4", amount=AMOUNT), "/qrpayments/getqrcode"),
    ("qr-details", "HD", lambda c: c.qr_get_details("QR123"), "/qrpayments/getqrdetails"),
    ("qr-status", "LG", lambda c: c.qr_payment_status("QR123"), "/qrpayments/getqrpaymentstatus"),
    ("qr-cancel", "LG", lambda c: c.qr_cancel("QR123"), "/qrpayments/cancelqrpayment"),
    ("mode-offline", "LG", lambda c: c.mode_offline(), "/mode/offline"),
    ("mode-online", "DCP", lambda c: c.mode_online(), "/mode/online"),
]


def _errors(validator: Any, body: dict[str, Any]) -> list[str]:
    return [f"{'.'.join(str(p) for p in e.absolute_path)}: {e.message}"
            for e in validator.iter_errors(body)]


@pytest.mark.parametrize(("option", "call", "schema"),
                         [pytest.param(o, c, s, id=i) for i, o, c, s in _device_cases() + _hd_cases()])
async def test_body_matches_its_variant(option: str, call: Call, schema: str, make_client: Any,
                                        recorder: Recorder, schema_validator: Any) -> None:
    client = make_client(option)
    await call(client)
    body = recorder.body()
    assert _errors(schema_validator(schema), body) == []
    assert body["dateTime"][10] == "T" and body["dateTime"][-6] in "+-"  # ISO 8601 with offset


@pytest.mark.parametrize(("option", "call", "path"),
                         [pytest.param(o, c, p, id=i) for i, o, c, p in INLINE_CASES])
async def test_inline_body_matches(option: str, call: Call, path: str, make_client: Any,
                                   recorder: Recorder, vendor: dict[str, Any],
                                   schema_validator: Any) -> None:
    client = make_client(option)
    await call(client)
    assert recorder.last.url.path == "/api/rest/v1" + path
    assert _errors(schema_validator(_inline(vendor, path)), recorder.body()) == []


async def test_the_variant_check_is_not_vacuous(schema_validator: Any) -> None:
    """A body missing what the LG variant requires must fail, or the tests above prove nothing."""
    bad = {"dateTime": "2024-05-21T09:18:23.283-07:00", "amount": {"total": 1}}
    errors = _errors(schema_validator("transactions_sale_utgdevice"), bad)
    assert any("clerk" in e for e in errors) and any("device" in e for e in errors)
