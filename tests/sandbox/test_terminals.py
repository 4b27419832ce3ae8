"""Virtual PIN pads: the in-process listener API, events, scripts, reset and timeouts."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import httpx
import pytest

from cashier.host.errors import HostError
from cashier.host.models.common import Amount, TipOptions
from cashier.host.models.devices import TermsAndConditions
from cashier.sandbox.terminals import (
    CustomerScript,
    Prompt,
    TerminalCancelled,
    TerminalEvent,
    TerminalHub,
    TerminalTimeout,
    TipRequest,
    terminal_id_for,
)


async def test_listener_chooses_the_tip_and_taps_a_card_in_a_dcp_sale(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("DCP")
    seen: list[Prompt] = []

    def customer(prompt: Prompt) -> None:
        seen.append(prompt)
        if prompt.kind == "tip":
            options = dict(prompt.tip_options())
            assert options == {"preset1": Decimal("3.00"), "preset2": Decimal("4.00"),
                               "preset3": Decimal("5.00"), "notip": Decimal(0)}
            prompt.choose_tip("preset2")
        elif prompt.kind == "card":
            assert prompt.amount == Decimal("24.00")  # the total with the tip chosen
            prompt.present_card("5432000000003332", "T")

    detach = sandbox.state.terminals.attach("1742", customer)
    tip = TipOptions(preset_type="percent", preset1=Decimal(15), preset2=Decimal(20), preset3=Decimal(25))
    result = await client.sale(invoice="501", amount=Amount(total=Decimal("20.00"), tax=Decimal(0)), tip=tip)
    assert [p.kind for p in seen] == ["tip", "card"]
    assert result.response_code == "A"
    assert result.amount is not None and result.amount.tip == Decimal("4.00")
    assert result.amount.total == Decimal("24.00")
    assert result.card is not None and result.card.type == "MC" and result.card.number is not None
    assert result.card.number.endswith("3332") and "543200000000" not in result.card.number
    detach()
    assert sandbox.state.terminals.get("1742").listener is None


async def test_listener_signs_and_declines_terms(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("DCC")

    async def customer(prompt: Prompt) -> None:
        await asyncio.sleep(0.01)  # a person takes a moment
        if prompt.kind == "signature":
            assert prompt.texts["text"] == "Sign for 12.50"
            prompt.sign()
        elif prompt.kind == "terms":
            assert prompt.texts["header"] == "Store policy"
            prompt.decline()

    sandbox.state.terminals.attach("1170301234", customer)
    signed = await client.device_prompt_signature(display_text="Sign for 12.50")
    assert signed.signature is not None and signed.signature.data
    terms = await client.device_terms_and_conditions(TermsAndConditions(value="All sales final.",
                                                                        header="Store policy"))
    assert terms.terms_accepted is False


async def test_events_follow_what_the_customer_sees(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    hub = sandbox.state.terminals
    events: list[TerminalEvent] = []

    async def follow() -> None:
        async for event in hub.events("1742"):
            events.append(event)
            if len(events) >= 5:
                return

    follower = asyncio.create_task(follow())
    await asyncio.sleep(0)
    await client.device_line_items(["Coffee 3.00"])
    await client.device_prompt_confirmation("Email receipt?")
    await client.device_clear_line_items()
    await asyncio.wait_for(follower, 2)
    states = [e.state for e in events]
    assert states == ["idle", "showing line items", "waiting for confirmation", "showing line items", "idle"]
    waiting = events[2]
    assert waiting.prompt is not None and waiting.prompt.kind == "confirmation"
    assert waiting.prompt.line_items == ("Coffee 3.00",)  # the customer still sees the items


async def test_listener_attached_late_sees_the_waiting_prompt_and_reset_cancels(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    hub = sandbox.state.terminals
    hub.set_script("1742", CustomerScript(silent=True))
    waiting = asyncio.create_task(client.device_prompt_signature())
    await asyncio.sleep(0.05)
    shown: list[Prompt] = []
    hub.attach("1742", shown.append)  # a listener that never answers
    assert [p.kind for p in shown] == ["signature"]
    await client.device_reset()
    with pytest.raises(HostError) as cancelled:
        await asyncio.wait_for(waiting, 2)
    assert cancelled.value.secondary_code == 1
    assert shown[0].done and not shown[0].sign()  # too late to answer


async def test_one_shot_script_serves_only_the_next_customer(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as http:
        r = await http.post("/_sandbox/terminals/1742/customer", json={"confirm": False, "once": True})
        assert r.status_code == 200 and r.json()["once"] is True
    assert (await client.device_prompt_confirmation("Join?")).confirmed is False
    assert (await client.device_prompt_confirmation("Join?")).confirmed is True


async def test_answer_control_route_answers_a_waiting_prompt(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("DCP")
    sandbox.state.terminals.set_script("1742", CustomerScript(silent=True))
    waiting = asyncio.create_task(client.device_prompt_input("010"))
    await asyncio.sleep(0.05)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as http:
        view = (await http.get("/_sandbox/terminals/1742")).json()
        assert view["state"] == "waiting for input" and view["prompt"]["texts"] == {"index": "010"}
        r = await http.post("/_sandbox/terminals/1742/answer", json={"input": "ann@example.com"})
        assert r.status_code == 200
    result = await asyncio.wait_for(waiting, 2)
    assert result.input_value == "ann@example.com"


async def test_hub_timeout_busy_and_reset_between_prompts() -> None:
    hub = TerminalHub(default_timeout_s=0.05)
    terminal = hub.get("7")
    hub.set_script("7", CustomerScript(silent=True))
    with pytest.raises(TerminalTimeout):
        await terminal.read_card(amount=Decimal("1.00"))
    assert terminal.state == "idle" and not terminal.busy
    hub.default_timeout_s = 5
    hub.set_script("7", CustomerScript(delay_ms=5000))
    reading = asyncio.create_task(terminal.read_card(amount=Decimal("1.00"), tip={"presetType": "amount",
                                                                              "preset1": 1}))
    await asyncio.sleep(0.02)
    assert terminal.state == "waiting for tip"
    terminal.reset()
    with pytest.raises(TerminalCancelled):
        await reading
    assert terminal.state == "idle"


async def test_default_customer_and_scripted_tip() -> None:
    hub = TerminalHub()
    terminal = hub.get("9")
    read = await terminal.read_card(amount=Decimal("10.00"), tip={"presetType": "percent", "preset1": 10})
    assert read.number == "4321000000001119" and read.tip == 0 and read.tip_option == "notip"
    assert "4321000000001119" not in repr(read)
    gift = await terminal.read_card(amount=Decimal("10.00"), purpose="giftcard balance")
    assert gift.number == "2664654648774"
    hub.set_script("9", CustomerScript(tip=Decimal("1.00"), entry_mode="E"))
    read = await terminal.read_card(amount=Decimal("10.00"), tip={"presetType": "percent", "preset1": 10})
    assert read.tip == Decimal("1.00") and read.tip_option == "preset1" and read.entry_mode == "E"


def test_tip_request_rules() -> None:
    request = TipRequest.from_body({"presetType": "percent", "preset1": 15, "preset2": 18}, Decimal("33.33"))
    assert request.preset_amounts() == (Decimal("5.00"), Decimal("6.00"))
    assert request.resolve("preset2") == ("preset2", Decimal("6.00"))
    assert request.resolve(Decimal("5.00")) == ("preset1", Decimal("5.00"))
    assert request.resolve("none") == ("notip", Decimal(0))
    assert request.resolve(Decimal("2.5")) == ("other", Decimal("2.50"))
    with pytest.raises(ValueError, match="preset3"):
        request.resolve("preset3")
    amounts = TipRequest.from_body({"presetType": "amount", "preset1": 2}, Decimal("10"))
    assert amounts.preset_amounts() == (Decimal("2.00"),)


def test_terminal_id_for_each_option() -> None:
    from cashier.sandbox.core import HostFault

    assert terminal_id_for("LG", {"device": {"terminalId": "12"}}) == "12"
    assert terminal_id_for("DCP", {}) == "DCP"
    assert terminal_id_for("DCC", {"device": {"cloud": True, "serialNumber": "SN9"}}) == "SN9"
    assert terminal_id_for("LG", {}, {"terminalid": "44"}) == "44"
    with pytest.raises(HostFault) as missing:
        terminal_id_for("LG", {"device": {}})
    assert "device.terminalId" in missing.value.long_text
    with pytest.raises(HostFault):
        terminal_id_for("DCC", {"device": {"cloud": True}})
