"""Small PIN pad and mode operations the window needs: cancel a waiting prompt, print a receipt,
read the terminal's status, switch offline/online. Each is journaled with who did it (as a note:
none of them moves money), then sent.

Decision: cancelling a prompt is ``/devices/reset`` (the spec's "pending request is cancelled");
the payment waiting on the pad then ends with the host's cancelled answer through its own flow.
"""

from __future__ import annotations

from typing import Any

from cashier.errors import ValidationError
from cashier.flows.base import FlowContext
from cashier.flows.offline import settle_forwarded
from cashier.host.models.devices import PrintLine
from cashier.text import clean_text

#: Longest receipt a PIN pad printer takes in one request (decision: our spec gives no limit).
MAX_RECEIPT_LINES = 80


async def cancel_prompt(ctx: FlowContext, *, actor: str | None = None) -> None:
    """Reset the PIN pad so the payment waiting on the customer ends (not charged)."""
    await ctx.journal.note(None, "device_reset", actor=actor or ctx.actor)
    await ctx.client.cancel_device_prompt()


async def print_receipt(ctx: FlowContext, lines: list[str]) -> None:
    """Print already-rendered (masked) receipt lines on the PIN pad's printer."""
    if not lines:
        raise ValidationError("receipt", "must have at least one line")
    if len(lines) > MAX_RECEIPT_LINES:
        raise ValidationError("receipt", f"must have at most {MAX_RECEIPT_LINES} lines")
    await ctx.client.device_print([PrintLine(key=f"line{i + 1}", print_value=clean_text(text) or " ")
                                   for i, text in enumerate(lines)])


async def terminal_info(ctx: FlowContext) -> dict[str, Any]:
    """What the manager screen shows about the PIN pad (status and info where the option has them)."""
    out: dict[str, Any] = {"option": ctx.client.option}
    if ctx.client.option in ("DCP", "DCC"):
        status = await ctx.client.device_get_status()
        out["status"] = status.model_dump(exclude_none=True)
    if ctx.client.option in ("LG", "DCP"):
        info = await ctx.client.device_info()
        out["info"] = info.model_dump(exclude_none=True)
    return out


async def set_offline(ctx: FlowContext, offline: bool, *, manager_id: str) -> dict[str, Any]:
    """Put the gateway/controller offline or back online (LG, DCP); journaled with the manager."""
    if not manager_id:
        raise ValidationError("manager", "switching offline mode needs the manager's id")
    if ctx.client.option not in ("LG", "DCP"):
        raise ValidationError("mode", f"offline mode exists on LG and DCP only, not {ctx.client.option}")
    if offline:
        await ctx.journal.note(None, "mode_offline", actor=manager_id)
        return (await ctx.client.mode_offline()).model_dump(exclude_none=True)
    # online only once the gateway is (it refuses while its host is away: the till stays
    # offline and keeps to the limits)
    result = await ctx.client.mode_online()
    await ctx.journal.note(None, "mode_online", actor=manager_id)
    out = result.model_dump(exclude_none=True)
    # the gateway forwards what it stored: each settled as the host says
    out["settled"] = await settle_forwarded(ctx)
    return out
