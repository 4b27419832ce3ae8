"""The tip before the sale: on the pad (DCP, DCC, /devices/prompttip) or keyed (LG, HD); the tip
then goes into the sale and the journal entry holds it."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows.payments import KeyedCard
from cashier.flows.tip import keyed_tip, prompt_tip, sale_with_tip, tip_then_sale
from cashier.sandbox.terminals import CustomerScript

PAD = {"DCP": "1742", "DCC": "1170301234", "LG": "1742"}


def script(till: Any, option: str, **kw: Any) -> None:
    till.sandbox.state.terminals.set_script(PAD[option], CustomerScript(**kw), once=True)


@pytest.mark.parametrize("option", ["DCP", "DCC"])
@pytest.mark.parametrize("choice,tip,selected", [
    ("preset2", D("9.00"), "preset2"), (D("3.33"), D("3.33"), "other"), ("none", D("0.00"), "notip"),
])
async def test_prompted_tip_goes_into_the_sale(make_till: Any, option: str, choice: Any, tip: D,
                                               selected: str) -> None:
    till = await make_till(option)
    script(till, option, tip=choice)
    chosen = await prompt_tip(till.ctx, D("50.00"))
    assert (chosen.tip, chosen.option, chosen.total) == (tip, selected, D("50.00") + tip)
    result = await sale_with_tip(till.ctx, chosen)
    assert result.outcome == "approved"
    assert (result.entry.tip, result.entry.approved) == (tip, D("50.00") + tip)
    host = (await till.ledger())[str(result.entry.invoice)]
    assert D(host["approvedAmount"]) == D("50.00") + tip
    notes = [e.data["_note"] for e in await till.journal.events() if e.type == "tip_prompt"]
    assert notes == [{"amount": "50.00", "tip": str(tip), "option": selected}]


async def test_amount_presets_on_the_pad(make_till: Any) -> None:
    till = await make_till("DCP")
    seen: list[Any] = []
    till.sandbox.state.terminals.observe("1742", lambda ev: seen.append(ev.prompt.tip_options())
                                         if ev.prompt is not None and ev.prompt.kind == "tip" else None)
    script(till, "DCP", tip="preset3")
    chosen = await prompt_tip(till.ctx, D("20.00"), presets=(D("1.00"), D("2.00"), D("5.00")),
                              percent=False, header="Thank you!")
    assert (chosen.tip, chosen.option) == (D("5.00"), "preset3")
    assert [amount for _, amount in seen[0]] == [D("1.00"), D("2.00"), D("5.00"), D(0)]


@pytest.mark.parametrize("option", ["LG", "HD"])
async def test_lg_and_hd_key_the_tip_at_the_counter(make_till: Any, option: str) -> None:
    till = await make_till(option)
    with pytest.raises(ValidationError, match="keyed_tip"):
        await prompt_tip(till.ctx, D("20.00"))
    card = KeyedCard("4321000000001119", "1228") if option == "HD" else None
    chosen, result = await tip_then_sale(till.ctx, D("20.00"), keyed=D("3.00"), card=card)
    assert (chosen.option, result.outcome, result.entry.tip, result.entry.approved) == \
        ("keyed", "approved", D("3.00"), D("23.00"))
    with pytest.raises(ValidationError, match="key the tip"):
        await tip_then_sale(till.ctx, D("20.00"), card=card)
    assert len(await till.journal.search()) == 1


async def test_keyed_percent_rounds_half_up(make_till: Any) -> None:
    till = await make_till("LG")
    chosen = keyed_tip(till.ctx, D("10.10"), percent=D("15"))
    assert chosen.tip == D("1.52")  # 1.515 rounded half up
    assert keyed_tip(till.ctx, D("10.00"), D("0")).option == "notip"


@pytest.mark.parametrize("kwargs,field", [
    ({"amount": D("10.00")}, "tip"), ({"amount": D("10.00"), "tip": D("1"), "percent": D("5")}, "tip"),
    ({"amount": D("10.00"), "tip": D("-1")}, "tip"), ({"amount": D("10.00"), "tip": D("1.001")}, "tip"),
    ({"amount": D("10.00"), "percent": D("101")}, "percent"), ({"amount": D("0"), "tip": D("1")}, "amount"),
])
async def test_bad_tips_name_the_field(make_till: Any, kwargs: dict[str, Any], field: str) -> None:
    till = await make_till("LG")
    with pytest.raises(ValidationError) as err:
        keyed_tip(till.ctx, **kwargs)
    assert err.value.field == field


async def test_bad_prompt_settings_are_refused_before_the_pad(make_till: Any) -> None:
    till = await make_till("DCP")
    with pytest.raises(ValidationError, match="presets"):
        await prompt_tip(till.ctx, D("10.00"), presets=())
    with pytest.raises(ValidationError, match="header"):
        await prompt_tip(till.ctx, D("10.00"), header="x" * 101)
    assert till.sandbox.state.terminals.get("1742").state == "idle"
