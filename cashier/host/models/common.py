"""Objects shared by many Host API bodies (vendor schemas named in each docstring)."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import Field

from cashier.host.models.base import HostModel

ResponseCode = str  # tolerant: A C D e f P R X S I J E and blank all occur


class Amount(HostModel):
    """``Amount``: major units; ``total`` includes tax, tip, cashback and surcharge."""

    total: Decimal
    tax: Decimal | None = None
    tip: Decimal | None = None
    cashback: Decimal | None = None
    surcharge: Decimal | None = None
    tax_indicator: Literal["Y", "N"] | None = None
    check_total: Decimal | None = Field(None, alias="checkTotal")
    tip_basis: Decimal | None = None


class Clerk(HostModel):
    numeric_id: int = Field(ge=1, le=99999)


class PurchaseCard(HostModel):
    customer_reference: str = Field(max_length=25)
    destination_postal_code: str = Field(max_length=9)
    product_descriptors: list[str] = Field(min_length=1, max_length=4)


class SecurityCode(HostModel):
    indicator: str | None = None
    value: str | None = None
    result: str | None = None
    valid: str | None = None


class Token(HostModel):
    value: str
    type: str | None = None


class CardBalance(HostModel):
    amount: Decimal | None = None


class Card(HostModel):
    """``CardResponse`` and the card part of requests; the number is masked in responses."""

    number: str | None = None
    expiration_date: str | int | None = None
    entry_mode: str | None = None
    present: str | None = None
    type: str | None = None
    security_code: SecurityCode | None = None
    token: Token | None = None
    balance: CardBalance | None = None
    debit_type: str | None = None
    bin: str | None = None


class Customer(HostModel):
    first_name: str | None = Field(None, max_length=30)
    last_name: str | None = Field(None, max_length=30)
    address_line1: str | None = Field(None, alias="addressLine1")
    postal_code: str | None = None
    region: str | None = None
    email_address: str | None = None
    phone_number: str | None = None
    phone_country: str | None = None
    ip_address: str | None = None


class Device(HostModel):
    """Union of the LG, DCP and DCC device objects; the client fills what the option needs."""

    terminal_id: str | None = Field(None, max_length=32)
    cloud: bool | None = None
    manufacturer: str | None = None
    serial_number: str | None = Field(None, max_length=64)
    prompt_postal_code: Literal["Y", "N"] | None = None
    prompt_card_security_code: Literal["Y", "N"] | None = None
    prompt_street_number: Literal["Y", "N"] | None = None


class Merchant(HostModel):
    mid: int | None = None
    name: str | None = None
    serial_number: str | None = None


class Server(HostModel):
    name: str | None = None


class ReceiptLine(HostModel):
    key: str | None = None
    print_name: str | None = None
    print_value: str | None = None


class HostResponse(HostModel):
    reason_code: str | None = None
    reason_description: str | None = None


class Avs(HostModel):
    result: str | None = None
    valid: str | None = None
    street_verified: str | None = None
    postal_code_verified: str | None = None


class TipOptions(HostModel):
    """``TipObject`` on the device controllers (the vendor types the two flags as booleans)."""

    preset_type: Literal["none", "percent", "amount"] = "percent"
    preset1: Decimal | None = None
    preset2: Decimal | None = None
    preset3: Decimal | None = None
    preset_default: Literal["1", "2", "3", "none"] | None = None
    display_no_tip: bool | None = None
    header_text: str | None = Field(None, max_length=100)
    basis_notification: bool | None = None
    selected_option: str | None = None


class Ui(HostModel):
    """``ui`` on device controller bodies: language and look of the PIN pad screens."""

    language: str | None = None
    mode: Literal["light", "dark"] | None = None
    suppress_all: bool | None = None
    suppress_final_result: bool | None = None
    supported_languages: list[str] | None = None


class TextValue(HostModel):
    value: str | None = None


class NextStep(HostModel):
    """``device.nextStep``: what the pad shows after a prompt (idle, wait screen, text)."""

    type: Literal["idle", "none", "displayWait", "displayText"] = "idle"
    header: TextValue | None = None
    sub_header: TextValue | None = None
    text: TextValue | None = None


class UniversalToken(HostModel):
    value: str | None = None


class Error(HostModel):
    primary_code: int | None = None
    secondary_code: int | None = None
    code: int | str | None = None
    short_text: str | None = None
    long_text: str | None = None
    severity: str | None = None
