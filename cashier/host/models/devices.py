"""PIN pad operations (``/devices/*``) through LG, DCP or DCC, request parts and results."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from pydantic import Field

from cashier.host.models.base import HostModel
from cashier.host.models.common import Merchant, NextStep, Server, TextValue, TipOptions, Ui
from cashier.host.models.transactions import Signature


# ---- request parts -------------------------------------------------------------------------
class TermsAndConditions(HostModel):
    """``device.promptTermsAndConditions``; header, ackText and the check box are DCP/DCC only."""

    value: str = Field(max_length=4096)
    header: str | None = Field(None, max_length=100)
    ack_text: str | None = Field(None, max_length=100)
    ack_check_box: bool | None = None
    result: Literal["A", "D"] | None = None


class PromptInput(HostModel):
    """``device.promptInput``: the index of a prompt configured on the pad; one value per call."""

    index: str = Field(max_length=3)
    result: str | None = None


class PromptConfirmation(HostModel):
    question: str | None = Field(None, max_length=64)
    result: Literal["Y", "N"] | None = None
    value: str | None = None


class FormButton(HostModel):
    id: str
    text: str = Field(max_length=114)


class ControllerForm(HostModel):
    """Root ``form`` of ``/devices/processform`` on DCP/DCC: message, buttons or a QR display."""

    type: Literal["message", "multiButtonScrollingText", "qrDisplay"]
    header: TextValue | None = None
    sub_header: TextValue | None = None
    text: TextValue | None = None
    footer: TextValue | None = None
    buttons: list[FormButton] | None = Field(None, max_length=4)
    qr_code: TextValue | None = None
    timeout: int | None = None


class FormItem(HostModel):
    key: str | None = Field(None, max_length=5)
    value: str | None = Field(None, max_length=200)


class ChargeApiForm(HostModel):
    """``device.form`` of ``/devices/processform`` on LG: a form stored on the pad, by name."""

    name: str = Field(max_length=12)
    items: list[FormItem] | None = None


class PrintLine(HostModel):
    """One ``receipt[]`` line for ``/devices/print``."""

    key: str = Field(max_length=100)
    print_value: str


class PrintData(HostModel):
    type: Literal["bmp"] = "bmp"
    alignment: Literal["center", "left", "right"] = "center"
    value: str


class StructuredPrint(HostModel):
    """``print`` for structured printing on the device controllers."""

    format: Literal["structured"] = "structured"
    version: Literal["1.0"] = "1.0"
    data: list[PrintData]


# ---- results -------------------------------------------------------------------------------
class FormResult(HostModel):
    name: str | None = None
    result: str | None = None


class DeviceState(HostModel):
    """``device`` in device answers: the terminal and whatever the prompt returned."""

    terminal_id: str | None = None
    serial_number: str | None = None
    manufacturer: str | None = None
    model: str | None = None
    prompt_confirmation: PromptConfirmation | None = None
    prompt_terms_and_conditions: TermsAndConditions | None = None
    prompt_input: PromptInput | None = None
    form: FormResult | None = None
    info: list[Any] | None = None


class ButtonSelected(HostModel):
    id: str | None = None
    text: str | None = None


class FormAnswer(HostModel):
    button_selected: ButtonSelected | None = None


class DeviceResult(HostModel):
    """``result[0]`` of the prompt, display, print and reset operations."""

    date_time: str | None = None
    device: DeviceState | None = None
    signature: Signature | None = None
    form: FormAnswer | None = None
    merchant: Merchant | None = None
    server: Server | None = None

    @property
    def terms_accepted(self) -> bool | None:
        terms = self.device.prompt_terms_and_conditions if self.device else None
        return None if terms is None or terms.result is None else terms.result == "A"

    @property
    def confirmed(self) -> bool | None:
        conf = self.device.prompt_confirmation if self.device else None
        return None if conf is None or conf.result is None else conf.result == "Y"

    @property
    def input_value(self) -> str | None:
        return self.device.prompt_input.result if self.device and self.device.prompt_input else None


class P2pe(HostModel):
    data: str | None = None
    format: str | None = None
    ksn: str | None = None


class CardRead(HostModel):
    """A pass-through read. ``number`` and ``track_data`` may be in the clear (gift, loyalty or
    employee cards): never log them, mask before showing (``cashier.redact.mask_pan``)."""

    number: str | None = Field(None, repr=False)
    track_data: str | None = Field(None, repr=False)
    entry_mode: str | None = None
    expiration_date: int | str | None = None
    type: str | None = None


class CardReadResult(HostModel):
    date_time: str | None = None
    card: CardRead | None = None
    p2pe: P2pe | None = Field(None, repr=False)
    device: DeviceState | None = None
    server: Server | None = None


class DeviceStatus(HostModel):
    """``/devices/getstatus`` (DCP, DCC)."""

    date_time: str | None = None
    cloud_registered: Literal["Y", "N"] | None = None
    cloud_connected: Literal["Y", "N"] | None = None
    offline_mode: Literal["Y", "N", "U"] | None = None
    server: Server | None = None


class Hardware(HostModel):
    cpu: str | None = None
    ram_mb: str | None = None
    battery_level: str | None = None


class Firmware(HostModel):
    firmware_version: str | None = None
    emv_kernel_version: str | None = None


class Application(HostModel):
    name: str | None = None
    package_name: str | None = None
    version_name: str | None = None
    version_code: Decimal | int | None = None


class DeviceInfo(HostModel):
    """``GET /devices/info``: the DCP shape is detailed, LG's is a list in ``device.info``."""

    date_time: str | None = None
    device: DeviceState | None = None
    hardware: Hardware | None = None
    firmware: Firmware | None = None
    security: dict[str, Any] | None = None
    applications: list[Application] | None = None
    connectivity: dict[str, Any] | None = None
    ui: Ui | None = None
    server: Server | None = None


class TipAmount(HostModel):
    """``AmountPromptTip``: the request's ``total`` and ``tipBasis``, the answer's ``tip``."""

    total: Decimal
    tip_basis: Decimal | None = None
    tip: Decimal | None = None


class TipResult(HostModel):
    """``/devices/prompttip``: ``tip.selectedOption`` preset1..3, other or notip."""

    date_time: str | None = None
    amount: TipAmount | None = None
    tip: TipOptions | None = None
    server: Server | None = None

    @property
    def tip_amount(self) -> Decimal:
        return self.amount.tip if self.amount and self.amount.tip is not None else Decimal(0)


__all__ = ["NextStep", "Ui"]
