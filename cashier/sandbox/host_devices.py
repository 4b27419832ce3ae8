"""``/devices/*``: the PIN pad operations of LG, DCP and DCC, played by the virtual terminals.

Each prompt waits for the virtual customer (listener or script, see ``terminals``); a
``/devices/reset`` from another request cancels it and the waiter answers the sandbox's
"prompt cancelled" error (9960,1). Response shapes follow the vendor's response schemas.
"""

from __future__ import annotations

import secrets
import zlib
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cashier.sandbox.control import _json, control_error, read_json
from cashier.sandbox.core import Family, HostCall, HostFault, invalid_field, missing_field
from cashier.sandbox.host_mode import is_offline
from cashier.sandbox.shared import card_type, get, is_gift_card, masked, now_text, terminal_of
from cashier.sandbox.terminals import (
    DEFAULT_CARD,
    ENTRY_MODES,
    SUPPORTED_LANGUAGES,
    CustomerAnswer,
    Prompt,
    TerminalBusy,
    TerminalCancelled,
    TerminalTimeout,
    TerminalUnavailable,
    VirtualTerminal,
    no_pinpad,
    prompt_fault,
    script_from_json,
    signature_png,
    terminal_id_for,
)

FAMILY = Family("devices")

#: Vendor-style key material names reported by /devices/info (LG); values are not real keys.
INJECTED_KEYS = ("DUKPT0", "ADE0")


def _text(body: Mapping[str, Any], dotted: str, max_len: int, *, required: bool = False) -> str | None:
    value = get(body, dotted)
    if value is None:
        if required:
            raise missing_field(dotted)
        return None
    if not isinstance(value, str):
        raise invalid_field(dotted, "must be text")
    if len(value) > max_len:
        raise invalid_field(dotted, f"must be at most {max_len} characters")
    return value


def _device_part(terminal: VirtualTerminal) -> dict[str, Any]:
    return {"terminalId": terminal.terminal_id}


def _base(call: HostCall, terminal: VirtualTerminal) -> dict[str, Any]:
    return {"dateTime": now_text(call), "device": _device_part(terminal)}


def _timeout(call: HostCall, dotted: str = "timeout") -> float | None:
    """Seconds the pad waits; 0 waits until reset; absent means the hub's default (-1)."""
    value = get(call.body, dotted)
    if value is None:
        return -1.0
    if isinstance(value, bool) or not isinstance(value, int | Decimal) or value < 0:
        raise invalid_field(dotted, "must be a number of seconds, 0 or more (0 waits until reset)")
    return None if value == 0 else float(value)


async def _ask(call: HostCall, terminal: VirtualTerminal, kind: str, texts: dict[str, str], *,
               form: dict[str, Any] | None = None, timeout_s: float | None = -1.0) -> CustomerAnswer:
    try:
        answer = await terminal.prompt_simple(kind, texts, form=form, timeout_s=timeout_s)
    except (TerminalCancelled, TerminalTimeout, TerminalBusy, TerminalUnavailable) as exc:
        raise prompt_fault(exc, terminal.terminal_id) from None
    terminal.show_next_step(get(call.body, "device.nextStep"))
    return answer


# ---- prompts --------------------------------------------------------------------------------
@FAMILY.route("POST", "/devices/promptsignature", "LG DCP DCC")
async def prompt_signature(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    text = _text(call.body, "device.displayText", 72) or "Please sign"
    answer = await _ask(call, terminal, "signature", {"text": text})
    if answer.signature is False:
        raise HostFault(9960, "CUSTOMER CANCEL", f"Terminal({terminal.terminal_id}) the customer "
                        "declined to sign", secondary_code=2, severity="Error", code=50101)
    item = _base(call, terminal)
    item["signature"] = {"data": signature_png(secrets.randbelow(1000)), "format": "P"}
    return item


@FAMILY.route("POST", "/devices/promptconfirmation", "LG")
async def prompt_confirmation(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    question = _text(call.body, "device.promptConfirmation.question", 64)
    value = _text(call.body, "device.promptConfirmation.value", 4096)
    if not question and not value:
        raise missing_field("device.promptConfirmation.value")
    texts = {k: v for k, v in (("question", question), ("text", value)) if v}
    answer = await _ask(call, terminal, "confirmation", texts)
    item = _base(call, terminal)
    item["device"]["promptConfirmation"] = {"result": "Y" if answer.accepted else "N"}
    return item


@FAMILY.route("POST", "/devices/termsandconditions", "LG DCP DCC")
async def terms_and_conditions(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    value = _text(call.body, "device.promptTermsAndConditions.value", 4096, required=True)
    assert value is not None
    texts = {"text": value}
    for key in ("header", "ackText"):
        extra = _text(call.body, f"device.promptTermsAndConditions.{key}", 100)
        if extra:
            texts[key] = extra
    answer = await _ask(call, terminal, "terms", texts)
    item = _base(call, terminal)
    item["device"]["promptTermsAndConditions"] = {"result": "A" if answer.accepted else "D",
                                                  "value": value}
    return item


@FAMILY.route("POST", "/devices/promptinput", "LG DCP DCC")
async def prompt_input(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    index = _text(call.body, "device.promptInput.index", 3, required=True)
    assert index is not None
    if not index.isdigit() or not 1 <= int(index) <= 12:
        raise invalid_field("device.promptInput.index", "must be a prompt number 001 to 012")
    answer = await _ask(call, terminal, "input", {"index": index.zfill(3)})
    item = _base(call, terminal)
    item["device"]["promptInput"] = {"index": index, "result": (answer.text or "")[:4096]}
    return item


@FAMILY.route("POST", "/devices/prompttip", "DCP DCC")
async def prompt_tip(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    total = get(call.body, "amount.total")
    if total is None:
        raise missing_field("amount.total")
    tip = get(call.body, "tip")
    if not isinstance(tip, Mapping) or tip.get("presetType") is None:
        raise missing_field("tip.presetType")
    if tip["presetType"] not in ("none", "percent", "amount"):
        raise invalid_field("tip.presetType", "must be none, percent or amount")
    default = tip.get("presetDefault")
    if default is not None and default not in ("1", "2", "3", "none"):
        raise invalid_field("tip.presetDefault", "must be 1, 2, 3 or none")
    for key in ("preset1", "preset2", "preset3"):
        preset = tip.get(key)
        if preset is not None and (isinstance(preset, bool) or not isinstance(preset, int | Decimal)
                                   or preset < 0):
            raise invalid_field(f"tip.{key}", "must be a number, 0 or more")
    basis = get(call.body, "amount.tipBasis")
    try:
        option, amount = await terminal.prompt_tip(amount=Decimal(total), tip=tip,
                                                   tip_basis=None if basis is None else Decimal(basis))
    except (TerminalCancelled, TerminalTimeout, TerminalBusy, TerminalUnavailable) as exc:
        raise prompt_fault(exc, terminal.terminal_id) from None
    terminal.show_next_step(get(call.body, "device.nextStep"))
    return {"dateTime": now_text(call), "amount": {"tip": amount, "total": Decimal(total) + amount},
            "tip": {"selectedOption": option}}


@FAMILY.route("POST", "/devices/promptcardread", "LG DCP DCC")
async def prompt_card_read(call: HostCall) -> dict[str, Any]:
    """Pass-through read: returned masked, card-brand data as simulated P2PE (never real)."""
    terminal = terminal_of(call)
    text = _text(call.body, "device.displayText", 72) or "Swipe card"
    timeout_s = _timeout(call) if call.option == "DCP" else -1.0
    try:
        with terminal.session() as generation:
            answer = await terminal.ask(Prompt(terminal.terminal_id, "card", purpose="cardread",
                                               texts={"text": text}),
                                        generation=generation, timeout_s=timeout_s)
    except (TerminalCancelled, TerminalTimeout, TerminalBusy, TerminalUnavailable) as exc:
        raise prompt_fault(exc, terminal.terminal_id) from None
    terminal.show_next_step(get(call.body, "device.nextStep"))
    number = answer.card or DEFAULT_CARD
    mode = ENTRY_MODES.get((answer.entry_mode or "S").upper(), "2")
    track_mode = mode if mode in ("1", "2") else "2"  # a pass-through read reports track modes
    item: dict[str, Any] = {"dateTime": now_text(call)}
    if is_gift_card(number):
        item["card"] = {"entryMode": track_mode, "number": masked(number), "expirationDate": 1230}
    else:
        item["card"] = {"entryMode": track_mode, "number": masked(number), "type": card_type(number)}
        item["p2pe"] = {"data": secrets.token_hex(48).upper(), "format": "01",
                        "ksn": "FFFF" + secrets.token_hex(8).upper()}
    item["device"] = _device_part(terminal)
    return item


@FAMILY.route("POST", "/devices/processform", "LG DCP DCC")
async def process_form(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    if call.option == "LG":
        name = _text(call.body, "device.form.name", 12, required=True)
        assert name is not None
        items = get(call.body, "device.form.items") or []
        if not isinstance(items, list):
            raise invalid_field("device.form.items", "must be a list of {key, value}")
        stored = {"name": name, "items": items}
        answer = await _ask(call, terminal, "form", {"header": name}, form=stored)
        item = _base(call, terminal)
        item["device"]["form"] = {"name": name, "result": (answer.button_id or answer.text or "1")[:5]}
        return item
    form = get(call.body, "form")
    if not isinstance(form, Mapping):
        raise missing_field("form")
    kind = form.get("type")
    if kind not in ("message", "multiButtonScrollingText", "qrDisplay"):
        raise invalid_field("form.type", "must be message, multiButtonScrollingText or qrDisplay")
    texts = {k: str(node.get("value")) for k in ("header", "subHeader", "text", "footer")
             if isinstance(node := form.get(k), Mapping)}
    for key, value in texts.items():
        limit = 4096 if key == "text" else 100
        if len(value) > limit:
            raise invalid_field(f"form.{key}.value", f"must be at most {limit} characters")
    if kind == "qrDisplay":
        qr = _text(call.body, "form.qrCode.value", 1024, required=True)
        if not qr:
            raise invalid_field("form.qrCode.value", "must be 1 to 1024 characters")
        terminal.show_form({"type": kind, "texts": texts, "qrCode": qr})
        return {"dateTime": now_text(call)}
    if kind == "message":
        terminal.show_form({"type": kind, "texts": texts})
        return {"dateTime": now_text(call)}
    buttons = form.get("buttons")
    if not isinstance(buttons, list) or not 1 <= len(buttons) <= 4:
        raise invalid_field("form.buttons", "must be a list of 1 to 4 buttons")
    for i, button in enumerate(buttons):
        if not isinstance(button, Mapping) or not isinstance(button.get("id"), str) \
                or not isinstance(button.get("text"), str) or len(button["text"]) > 114:
            raise invalid_field(f"form.buttons[{i}]", "must be {id, text} with text of at most 114 "
                                                      "characters")
    shown = {"type": kind, "texts": texts, "buttons": [dict(b) for b in buttons]}
    answer = await _ask(call, terminal, "form", texts, form=shown, timeout_s=_timeout(call, "form.timeout"))
    chosen = next((b for b in buttons if b["id"] == answer.button_id), buttons[0])
    return {"dateTime": now_text(call), "form": {"buttonSelected": {"id": chosen["id"],
                                                                    "text": chosen["text"]}}}


# ---- displays and housekeeping -------------------------------------------------------------------
@FAMILY.route("POST", "/devices/lineitems", "LG")
async def line_items(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    items = get(call.body, "device.lineItems")
    if items is None:
        raise missing_field("device.lineItems")
    if not isinstance(items, list) or not items or not all(isinstance(i, str) for i in items):
        raise invalid_field("device.lineItems", "must be a list of 1 to 10 texts")
    options = call.body.get("apiOptions") or []
    try:
        terminal.show_line_items(items, append="APPENDLINEITEM" in options)
    except ValueError as exc:
        raise invalid_field("device.lineItems", str(exc).split(": ", 1)[-1]) from None
    return _base(call, terminal)


@FAMILY.route("DELETE", "/devices/lineitems", "LG")
async def clear_line_items(call: HostCall) -> dict[str, Any]:
    if not call.header("TerminalID"):
        raise missing_field("TerminalID header")
    terminal = terminal_of(call)
    terminal.clear_line_items()
    return _base(call, terminal)


@FAMILY.route("POST", "/devices/print", "LG DCP DCC")
async def print_receipt(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    receipt = call.body.get("receipt")
    structured = call.body.get("print")
    lines: list[str] = []
    images = 0
    if receipt is not None:
        if not isinstance(receipt, list) or not receipt:
            raise invalid_field("receipt", "must be a list of {key, printValue}")
        for i, line in enumerate(receipt):
            if not isinstance(line, Mapping) or not isinstance(line.get("printValue"), str):
                raise invalid_field(f"receipt[{i}].printValue", "is required text")
            if not isinstance(line.get("key"), str) or len(line["key"]) > 100:
                raise invalid_field(f"receipt[{i}].key", "is required text of at most 100 characters")
            lines.append(line["printValue"])
    elif structured is not None and call.option != "LG":
        if not isinstance(structured, Mapping) or structured.get("format") != "structured" \
                or structured.get("version") != "1.0":
            raise invalid_field("print", "must be {format: structured, version: 1.0, data: [...]}")
        data = structured.get("data")
        if not isinstance(data, list) or not data:
            raise invalid_field("print.data", "must be a list of images")
        for i, part in enumerate(data):
            if not isinstance(part, Mapping) or part.get("type") != "bmp" \
                    or part.get("alignment") not in ("center", "left", "right") \
                    or not isinstance(part.get("value"), str):
                raise invalid_field(f"print.data[{i}]", "must be {type: bmp, alignment, value}")
        images = len(data)
    else:
        raise missing_field("receipt")
    try:
        terminal.print_receipt(lines, images=images)
    except TerminalUnavailable:
        raise no_pinpad(terminal.terminal_id) from None
    return _base(call, terminal)


@FAMILY.route("POST", "/devices/initializereaders", "LG")
async def initialize_readers(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    terminal.arm_readers()
    return _base(call, terminal)


@FAMILY.route("POST", "/devices/reset", "LG DCP")
async def reset(call: HostCall) -> dict[str, Any]:
    terminal = terminal_of(call)
    terminal.reset()
    return _base(call, terminal)


@FAMILY.route("GET", "/devices/info", "LG DCP")
async def info(call: HostCall) -> dict[str, Any]:
    if call.option == "LG" and not call.header("TerminalID"):
        raise missing_field("TerminalID header")
    terminal = terminal_of(call)
    if call.option == "LG":
        details = [f"TERMINAL_STATE={terminal.state}", "TERMINAL_NAME=SandboxPad",
                   f"UNIT_SERIAL_NUMBER=SBX{zlib.crc32(terminal.terminal_id.encode()) % 10**8:08d}",
                   "APPLICATION_VERSION=3080", f"LANGUAGE={terminal.language}",
                   f"SUPPORTED_LANGUAGES={','.join(SUPPORTED_LANGUAGES)}",
                   "SECURE_PACKETS=aes", f"INJECTED_KEYS={','.join(INJECTED_KEYS)}"]
        details += [f"{name}=FFFF{i:016d}" for i, name in enumerate(INJECTED_KEYS)]
        return {"dateTime": now_text(call), "device": {"info": details,
                                                       "terminalId": terminal.terminal_id}}
    # Decision: ``device.status`` (our terminal state) is a sandbox addition to the DCP shape.
    return {"dateTime": now_text(call),
            "device": {"terminalId": terminal.terminal_id, "serialNumber": "1170301234",
                       "manufacturer": "PAX", "model": "A800", "status": terminal.state},
            "firmware": {"firmwareVersion": "Sandbox_1.0"},
            "security": {"p2peVersion": "2.0.6", "injectedKeys": list(INJECTED_KEYS)},
            "applications": [{"name": "Device Controller", "packageName": "sandbox.devicecontroller",
                              "versionName": "2.14.0", "versionCode": 2140000}],
            "ui": {"language": terminal.language, "supportedLanguages": list(SUPPORTED_LANGUAGES)}}


@FAMILY.route("POST", "/devices/getstatus", "DCP DCC")
async def get_status(call: HostCall) -> dict[str, Any]:
    tid = terminal_id_for(call.option, call.body)
    terminal: VirtualTerminal = call.state.terminals.get(tid)
    if terminal.connected:
        offline = "Y" if call.option == "DCP" and is_offline(call.state) else "N"
        connected = "Y"
    else:  # a pad that cannot be reached: its offline state is unknown
        offline, connected = "U", "N"
    # Decision: ``device`` (id and our terminal state) is a sandbox addition to the shape.
    return {"dateTime": now_text(call), "cloudRegistered": "Y", "cloudConnected": connected,
            "offlineMode": offline, "device": {"terminalId": tid, "status": terminal.state}}


# ---- controls: /_sandbox/terminals/{terminalId} ----------------------------------------------------
async def _terminal_control(request: Request) -> Response:
    """GET: state, current prompt, line items, last receipt. POST: ``{"connected": bool}``."""
    sandbox = request.app.state.sandbox
    tid = request.path_params["terminalId"]
    if not 1 <= len(tid) <= 64:
        return control_error("terminalId: must be 1 to 64 characters")
    terminal: VirtualTerminal = sandbox.state.terminals.get(tid)
    if request.method == "POST":
        try:
            data = await read_json(request)
        except ValueError as exc:
            return control_error(str(exc))
        if not isinstance(data, dict) or set(data) != {"connected"} \
                or not isinstance(data["connected"], bool):
            return control_error('send {"connected": true} or {"connected": false}')
        terminal.connected = data["connected"]
        if not terminal.connected:
            terminal.reset()
    return _json(terminal.describe())


async def _customer_control(request: Request) -> Response:
    """The script of the next customer(s): card, tip, signature, confirm, input, delay_ms, ..."""
    sandbox = request.app.state.sandbox
    tid = request.path_params["terminalId"]
    if not 1 <= len(tid) <= 64:
        return control_error("terminalId: must be 1 to 64 characters")
    try:
        data = await read_json(request)
    except ValueError as exc:
        return control_error(str(exc))
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return control_error("the body must be a JSON object such as "
                             '{"card": "4321000000001119", "tip": "2.00"}')
    try:
        script = script_from_json(data)
    except ValueError as exc:
        return control_error(str(exc))
    hub = sandbox.state.terminals
    hub.set_script(tid, script, once=bool(data.get("once", False)))
    return _json({"terminalId": tid, "once": bool(data.get("once", False)),
                  "script": script.describe()})


async def _answer_control(request: Request) -> Response:
    """Answer the prompt waiting now, as the customer (trainer over a socket, tests)."""
    sandbox = request.app.state.sandbox
    terminal: VirtualTerminal = sandbox.state.terminals.get(request.path_params["terminalId"])
    try:
        data = await read_json(request) or {}
    except ValueError as exc:
        return control_error(str(exc))
    if not isinstance(data, dict):
        return control_error("the body must be a JSON object")
    prompt = terminal.prompt
    if prompt is None or prompt.done:
        return control_error(f"terminal {terminal.terminal_id} has no prompt waiting", 409)
    cancel = data.pop("cancel", False)
    if not isinstance(cancel, bool):
        return control_error("cancel: must be true or false")
    try:
        script = script_from_json(data)
    except ValueError as exc:
        return control_error(str(exc))
    answer = script.answer_for(prompt)
    answer.cancelled = cancel
    if prompt.kind == "tip" and "tip" not in data:
        answer.tip = None
    prompt.answer(answer)
    return _json({"terminalId": terminal.terminal_id, "answered": prompt.kind, "prompt": prompt.id})


FAMILY.controls.extend([
    Route("/_sandbox/terminals/{terminalId}", _terminal_control, methods=["GET", "POST"]),
    Route("/_sandbox/terminals/{terminalId}/customer", _customer_control, methods=["POST"]),
    Route("/_sandbox/terminals/{terminalId}/answer", _answer_control, methods=["POST"]),
])
