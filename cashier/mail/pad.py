"""The customer types the address on the PIN pad (LG, DCP, DCC: the device prompt with input),
so the cashier never has to hear it. HD has no pad prompt: the cashier types it."""

from __future__ import annotations

from cashier.config import TillProfile
from cashier.email_address import check_address
from cashier.entry_rules import took_money
from cashier.errors import ValidationError
from cashier.flows.base import FlowContext, FlowResult
from cashier.flows.giftcards import require
from cashier.host.errors import HostError
from cashier.journal.model import Kind

#: The processing options whose PIN pad takes an address.
PAD_OPTIONS = ("LG", "DCP", "DCC")
#: The card payments after which ``offer_on_pad`` asks (a sale on the pad, keyed or not).
CARD_KINDS = frozenset({Kind.SALE, Kind.MANUAL_SALE, Kind.GIFTCARD_SALE})


def pad_asks(option: str) -> bool:
    """Whether this till's PIN pad can ask the customer for the address."""
    return option in PAD_OPTIONS


async def address_on_pad(ctx: FlowContext, prompt: str) -> str | None:
    """The address the customer typed on the pad's input prompt ``prompt`` (``[email]
    pad_prompt``), checked; None when the customer cancelled or never answered. A bad address
    raises the rule's ``ValidationError`` (the window says it in one line and asks again).
    Only that it was asked is journaled, never what was typed."""
    require(ctx, "device_prompt_input")
    with ctx.pinpad.reserve("the customer's e-mail address"):
        try:
            answer = await ctx.client.device_prompt_input(prompt)
        except HostError as exc:
            if exc.primary_code != 9960:  # 9960: cancelled, or no answer
                raise
            await ctx.journal.note(None, "email_asked", actor=ctx.actor, answer="cancelled")
            return None
    typed = answer.input_value or ""
    try:
        address = check_address(typed)
    except ValidationError:
        await ctx.journal.note(None, "email_asked", actor=ctx.actor, answer="refused")
        raise
    await ctx.journal.note(None, "email_asked", actor=ctx.actor, answer="typed")
    return address


def offers_after(profile: TillProfile, result: FlowResult) -> bool:
    """``[email] offer_on_pad``: the pad offers the e-mailed receipt after a card payment that
    took money, on a till whose pad can ask and that sends e-mail."""
    entry = result.entry
    return (profile.email.offer_on_pad and pad_asks(profile.processing_option)
            and (profile.is_training or bool(profile.email.host))
            and took_money(result.outcome) and bool(entry.card_last4 or entry.card)
            and entry.kind in CARD_KINDS)
