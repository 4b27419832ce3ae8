"""The customer types the address on the PIN pad (issue #41): the device prompt with input on
LG, DCP and DCC through the sandbox's terminal, checked by the one address rule; HD has no pad
prompt; a bad address is refused with the rule and nothing of what was typed is journaled."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.mail.pad import address_on_pad
from cashier.sandbox.terminals import CustomerScript

PAD = {"LG": "1742", "DCP": "1742", "DCC": "1170301234"}


def script(till: Any, option: str, **kw: Any) -> None:
    till.sandbox.state.terminals.set_script(PAD[option], CustomerScript(**kw), once=True)


@pytest.mark.parametrize("option", ["LG", "DCP", "DCC"])
async def test_the_customer_types_it_on_the_pad(make_till: Any, option: str) -> None:
    till = await make_till(option)
    script(till, option, input=" jane.doe@example.com ")
    assert await address_on_pad(till.ctx, "010") == "jane.doe@example.com"
    script(till, option, input="jane.doe@example.com\r\nBcc: eve@example.com")
    with pytest.raises(ValidationError, match=r"^to: must not contain"):
        await address_on_pad(till.ctx, "010")
    assert not till.ctx.pinpad.busy  # the pad is free for the next ask
    events = await till.ctx.journal.events()
    asked = [e.data["_note"]["answer"] for e in events if e.type == "email_asked"]
    assert asked == ["typed", "refused"]  # that it was asked: never what was typed
    assert "jane" not in json.dumps([e.data for e in events])


async def test_hd_has_no_pad_prompt(make_till: Any) -> None:
    till = await make_till("HD")
    with pytest.raises(ValidationError, match="processing_option"):
        await address_on_pad(till.ctx, "010")
