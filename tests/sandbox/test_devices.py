"""``/devices/*`` through the real HostClient against the in-process sandbox, answers checked
against the vendor's response schemas."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

import httpx
import pytest

from cashier.host.errors import HostError
from cashier.host.models.common import TipOptions
from cashier.host.models.devices import ChargeApiForm, ControllerForm, PrintData, PrintLine, StructuredPrint
from tests.support.host_requests import host_call
from tests.support.vendor_schema import check_all, record_answers

GIFT = "2664654648774"


async def control(sandbox: Any, method: str, path: str, body: Any = None) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as http:
        return await http.request(method, path, json=body)


async def test_lg_prompts_answer_from_the_script(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    seen = record_answers(client)
    signed = await client.device_prompt_signature()
    assert signed.signature is not None and signed.signature.format == "P"
    assert signed.signature.data and signed.signature.data.startswith("iVBOR")  # a PNG
    assert (await client.device_prompt_confirmation("Join our rewards?")).confirmed is True
    assert (await client.device_terms_and_conditions("No refunds.")).terms_accepted is True
    typed = await client.device_prompt_input("003")
    assert typed.input_value == "65144"
    form = await client.device_process_form(ChargeApiForm(name="PF2"))
    assert form.device is not None and form.device.form is not None and form.device.form.name == "PF2"
    assert form.device.form.result
    # the script changes the answers
    r = await control(sandbox, "POST", "/_sandbox/terminals/1742/customer",
                      {"confirm": False, "input": "90210", "signature": False})
    assert r.status_code == 200
    assert (await client.device_prompt_confirmation("Join our rewards?")).confirmed is False
    assert (await client.device_terms_and_conditions("No refunds.")).terms_accepted is False
    assert (await client.device_prompt_input("003")).input_value == "90210"
    with pytest.raises(HostError) as refused:
        await client.device_prompt_signature()
    assert refused.value.primary_code == 9960 and refused.value.secondary_code == 2
    check_all(seen)
    assert sandbox.state.terminals.get("1742").state == "idle"


async def test_line_items_append_limit_and_clear(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    seen = record_answers(client)
    await client.device_line_items(["Coffee", "Bagel"])
    await client.device_line_items(["Juice"], append=True)
    terminal = sandbox.state.terminals.get("1742")
    assert terminal.line_items == ["Coffee", "Bagel", "Juice"]
    assert terminal.state == "showing line items"
    view = (await control(sandbox, "GET", "/_sandbox/terminals/1742")).json()
    assert view["lineItems"] == ["Coffee", "Bagel", "Juice"] and view["state"] == "showing line items"
    await client.device_line_items(["Tea"])  # without APPENDLINEITEM: replaces
    assert terminal.line_items == ["Tea"]
    with pytest.raises(HostError) as too_many:
        await client.device_line_items([f"item {i}" for i in range(10)], append=True)
    assert "device.lineItems" in (too_many.value.long_text or "")
    await client.device_clear_line_items()
    assert terminal.line_items == [] and terminal.state == "idle"
    check_all(seen)
    # DELETE needs the TerminalID header
    status, envelope = await host_call(sandbox.asgi, "DELETE", "/devices/lineitems")
    assert status == 400 and "TerminalID" in envelope["result"][0]["error"]["longText"]


async def test_print_keeps_the_last_receipt(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    seen = record_answers(client)
    await client.device_print([PrintLine(key="print", print_value="THANK YOU"),
                               PrintLine(key="print", print_value="Total 12.50")])
    view = (await control(sandbox, "GET", "/_sandbox/terminals/1742")).json()
    assert view["lastReceipt"] == {"lines": ["THANK YOU", "Total 12.50"], "images": 0}
    check_all(seen)
    dcp_sandbox, dcp = make_sandbox("DCP")
    await dcp.device_print(StructuredPrint(data=[PrintData(value="Qk1+BgAA")]))
    assert dcp_sandbox.state.terminals.get("1742").last_receipt == {"lines": [], "images": 1}


async def test_reset_from_a_second_request_cancels_the_waiting_prompt(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    await control(sandbox, "POST", "/_sandbox/terminals/1742/customer", {"delay_ms": 30000})
    waiting = asyncio.create_task(client.device_prompt_signature())
    terminal = sandbox.state.terminals.get("1742")
    for _ in range(100):
        if terminal.state == "waiting for signature":
            break
        await asyncio.sleep(0.01)
    assert terminal.state == "waiting for signature"
    view = (await control(sandbox, "GET", "/_sandbox/terminals/1742")).json()
    assert view["prompt"]["kind"] == "signature"
    # a second prompt meanwhile is refused: the pad is busy
    with pytest.raises(HostError) as busy:
        await client.device_prompt_input("003")
    assert busy.value.primary_code == 9960 and busy.value.secondary_code == 4
    reset = await client.device_reset()
    assert reset.device is not None and reset.device.terminal_id == "1742"
    with pytest.raises(HostError) as cancelled:
        await asyncio.wait_for(waiting, 2)
    assert cancelled.value.primary_code == 9960 and cancelled.value.secondary_code == 1
    assert cancelled.value.http_status == 400
    assert terminal.state == "idle" and terminal.prompt is None


async def test_dcp_card_read_timeout_zero_waits_until_reset_and_reads_masked(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("DCP")
    seen = record_answers(client)
    read = await client.device_prompt_card_read(display_text="Swipe your card")
    assert read.card is not None and read.card.number == "XXXXXXXXXXXX1119" and read.card.type == "VS"
    assert read.p2pe is not None and "1119" not in (read.p2pe.data or "")
    await control(sandbox, "POST", "/_sandbox/terminals/1742/customer", {"card": GIFT, "entry_mode": "swipe"})
    gift = await client.device_prompt_card_read()
    assert gift.card is not None and gift.card.number == "XXXXXXXXX8774" and gift.p2pe is None
    check_all(seen)
    await control(sandbox, "POST", "/_sandbox/terminals/1742/customer", {"silent": True})
    waiting = asyncio.create_task(client.device_prompt_card_read(timeout_s=0))
    await asyncio.sleep(0.05)
    assert sandbox.state.terminals.get("1742").state == "waiting for card"
    await client.device_reset()
    with pytest.raises(HostError) as cancelled:
        await asyncio.wait_for(waiting, 2)
    assert cancelled.value.secondary_code == 1


async def test_dcp_prompt_timeout_answers_the_timeout_error(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("DCP")
    await control(sandbox, "POST", "/_sandbox/terminals/1742/customer", {"silent": True})
    with pytest.raises(HostError) as late:
        await client.device_prompt_card_read(timeout_s=1)
    assert late.value.primary_code == 9960 and late.value.secondary_code == 3
    assert sandbox.state.terminals.get("1742").state == "idle"


async def test_prompt_tip_on_the_controllers(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    for option in ("DCP", "DCC"):
        sandbox, client = make_sandbox(option)
        seen = record_answers(client)
        tid = "1170301234" if option == "DCC" else "1742"
        presets = TipOptions(preset_type="percent", preset1=Decimal(15), preset2=Decimal(20),
                             preset3=Decimal(25))
        none = await client.device_prompt_tip(total=Decimal("40.00"), tip=presets)
        assert none.tip is not None and none.tip.selected_option == "notip" and none.tip_amount == 0
        await control(sandbox, "POST", f"/_sandbox/terminals/{tid}/customer", {"tip": "8.00"})
        chosen = await client.device_prompt_tip(total=Decimal("40.00"), tip=presets)
        assert chosen.tip is not None and chosen.tip.selected_option == "preset2"
        assert chosen.tip_amount == Decimal("8.00")
        assert chosen.amount is not None and chosen.amount.total == Decimal("48.00")
        await control(sandbox, "POST", f"/_sandbox/terminals/{tid}/customer", {"tip": "3.33"})
        other = await client.device_prompt_tip(total=Decimal("40.00"), tip=presets,
                                               tip_basis=Decimal("30.00"))
        assert other.tip is not None and other.tip.selected_option == "other"
        assert other.tip_amount == Decimal("3.33")
        check_all(seen)


async def test_option_refusals(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _sandbox, lg = make_sandbox("LG")
    with pytest.raises(HostError) as refused:
        await lg.device_prompt_tip(total=Decimal("10.00"), tip=TipOptions(preset_type="amount",
                                                                         preset1=Decimal(1)))
    assert refused.value.http_status == 400 and "LG" in (refused.value.long_text or "")
    with pytest.raises(HostError):
        await lg.device_get_status()
    _sandbox, dcc = make_sandbox("DCC")
    with pytest.raises(HostError):
        await dcc.device_reset()  # LG DCP only
    with pytest.raises(HostError):
        await dcc.device_line_items(["x"])  # LG only
    hd_sandbox, _hd = make_sandbox("HD")
    status, envelope = await host_call(hd_sandbox.asgi, "POST", "/devices/promptsignature",
                                       {"device": {"terminalId": "1"}})
    assert status == 400 and envelope["result"][0]["error"]["shortText"] == "NOT SUPPORTED"


async def test_status_and_info(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _sandbox, dcp = make_sandbox("DCP")
    seen = record_answers(dcp)
    status = await dcp.device_get_status()
    assert (status.cloud_registered, status.cloud_connected, status.offline_mode) == ("Y", "Y", "N")
    await dcp.mode_offline()
    assert (await dcp.device_get_status()).offline_mode == "Y"
    info = await dcp.device_info()
    assert info.ui is not None and info.ui.language == "en" and "fr" in (info.ui.supported_languages or [])
    assert info.device is not None and info.device.terminal_id == "1742"
    check_all(seen)
    lg_sandbox, lg = make_sandbox("LG")
    seen = record_answers(lg)
    details = await lg.device_info()
    assert details.device is not None and details.device.info is not None
    assert "TERMINAL_STATE=idle" in details.device.info
    assert any(str(line).startswith("INJECTED_KEYS=") for line in details.device.info)
    check_all(seen)
    status_code, envelope = await host_call(lg_sandbox.asgi, "GET", "/devices/info")
    assert status_code == 400 and "TerminalID" in envelope["result"][0]["error"]["longText"]
    dcc_sandbox, dcc = make_sandbox("DCC")
    r = await control(dcc_sandbox, "POST", "/_sandbox/terminals/1170301234", {"connected": False})
    assert r.status_code == 200 and r.json()["connected"] is False
    down = await dcc.device_get_status()
    assert (down.cloud_connected, down.offline_mode) == ("N", "U")
    with pytest.raises(HostError) as no_pad:
        await dcc.device_prompt_signature()
    assert no_pad.value.primary_code == 9956 and no_pad.value.short_text == "TID NO PINPAD"


async def test_controller_forms_and_qr_display(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("DCC")
    seen = record_answers(client)
    qr = ControllerForm.model_validate({"type": "qrDisplay", "qrCode": {"value": "https://pay.example/A1"},
                                        "header": {"value": "Scan to pay"}})
    await client.device_process_form(qr)
    terminal = sandbox.state.terminals.get("1170301234")
    assert terminal.state == "showing form"
    assert terminal.display["form"]["qrCode"] == "https://pay.example/A1"
    buttons = ControllerForm.model_validate({"type": "multiButtonScrollingText",
                                             "text": {"value": "Receipt?"},
                                             "buttons": [{"id": "1", "text": "Email"},
                                                         {"id": "2", "text": "None"}]})
    await control(sandbox, "POST", "/_sandbox/terminals/1170301234/customer", {"button": "2"})
    pressed = await client.device_process_form(buttons)
    assert pressed.form is not None and pressed.form.button_selected is not None
    assert (pressed.form.button_selected.id, pressed.form.button_selected.text) == ("2", "None")
    check_all(seen)


async def test_initialize_readers_then_the_sale_uses_the_pad(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    await client.device_initialize_readers()
    terminal = sandbox.state.terminals.get("1742")
    assert terminal.state == "waiting for card" and terminal.readers_armed
    read = await terminal.read_card(amount=Decimal("5.00"))
    assert read.number == "4321000000001119" and read.entry_mode == "C"
    assert not terminal.readers_armed and terminal.state == "idle"


async def test_bad_device_input_is_named(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _client = make_sandbox("LG")
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("/devices/promptinput", {"device": {"terminalId": "1", "promptInput": {"index": "99"}}},
         "device.promptInput.index"),
        ("/devices/termsandconditions", {"device": {"terminalId": "1"}},
         "device.promptTermsAndConditions.value"),
        ("/devices/promptsignature", {"device": {}}, "device.terminalId"),
        ("/devices/print", {"device": {"terminalId": "1"}, "receipt": [{"key": "k"}]},
         "receipt[0].printValue"),
        ("/devices/promptsignature", {"device": {"terminalId": "1", "displayText": "x" * 73}},
         "device.displayText"),
    ]
    for path, body, field in cases:
        status, envelope = await host_call(sandbox.asgi, "POST", path, body)
        assert status == 400, path
        assert field in envelope["result"][0]["error"]["longText"], (path, envelope)


async def test_customer_control_refuses_bad_scripts(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _client = make_sandbox("LG")
    for body, field in [({"tip": "abc"}, "tip"), ({"card": "12"}, "card"),
                        ({"delay_ms": -1}, "delay_ms"), ({"signature": "yes"}, "signature"),
                        ({"entry_mode": "wave"}, "entry_mode"), ({"colour": "red"}, "colour")]:
        r = await control(sandbox, "POST", "/_sandbox/terminals/1742/customer", body)
        assert r.status_code == 400 and r.json()["error"].startswith(field), (body, r.text)
    r = await control(sandbox, "POST", "/_sandbox/terminals/1742/customer", [1])
    assert r.status_code == 400
    r = await control(sandbox, "POST", "/_sandbox/terminals/1742/answer", {})
    assert r.status_code == 409 and "no prompt" in r.json()["error"]


@pytest.mark.socket
async def test_over_a_socket_reset_cancels_a_prompt_and_scripts_steer_the_pad() -> None:
    from tests.support.sandbox_server import start

    served = start("--option", "DCP")
    try:
        client = served.client("DCP")
        async with httpx.AsyncClient(base_url=served.url) as http:
            r = await http.post("/_sandbox/terminals/1742/customer", json={"tip": "preset1", "once": True})
            assert r.status_code == 200
            tip = await client.device_prompt_tip(total=Decimal("20.00"),
                                                 tip=TipOptions(preset_type="amount", preset1=Decimal(2)))
            assert tip.tip is not None and tip.tip.selected_option == "preset1" and tip.tip_amount == 2
            await http.post("/_sandbox/terminals/1742/customer", json={"silent": True})
            waiting = asyncio.create_task(client.device_prompt_signature())
            for _ in range(200):
                if (await http.get("/_sandbox/terminals/1742")).json()["state"] == "waiting for signature":
                    break
                await asyncio.sleep(0.02)
            other = served.client("DCP")  # a second connection, as the cashier's cancel button
            await other.device_reset()
            with pytest.raises(HostError) as cancelled:
                await asyncio.wait_for(waiting, 5)
            assert cancelled.value.secondary_code == 1
            assert (await http.get("/_sandbox/terminals/1742")).json()["state"] == "idle"
            await other.aclose()
        await client.aclose()
    finally:
        served.stop()
