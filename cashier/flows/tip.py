"""The tip, asked before the sale: on the PIN pad with ``/devices/prompttip`` (DCP, DCC), or keyed
at the counter (LG and HD have no tip prompt outside a payment). Either way the tip then goes into
the sale's amount (``sale_with_tip``), so one journal entry holds amount and tip.

Asking is not a money movement: the prompt's answer is a journal note; the money is journaled by
the sale.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from cashier.errors import ValidationError
from cashier.flows.base import FlowContext, FlowResult
from cashier.flows.giftcards import require
from cashier.flows.payments import KeyedCard, sale
from cashier.host.models.common import TipOptions
from cashier.money import check_tip, max_amount, parse_amount, quantum

DEFAULT_PERCENTS = (Decimal(15), Decimal(18), Decimal(20))


@dataclass(frozen=True)
class TipChoice:
    """The amount before tip, the tip, and how it was chosen (preset1..3, other, notip, keyed)."""

    amount: Decimal
    tip: Decimal
    option: str

    @property
    def total(self) -> Decimal:
        return self.amount + self.tip

    def as_dict(self) -> dict[str, Any]:
        return {"amount": str(self.amount), "tip": str(self.tip), "total": str(self.total),
                "option": self.option}


def _money(ctx: FlowContext, value: Decimal, name: str, *, allow_zero: bool = False) -> Decimal:
    return parse_amount(value, ctx.journal.currency, name, allow_zero=allow_zero)


async def prompt_tip(ctx: FlowContext, amount: Decimal, *,
                     presets: tuple[Decimal, ...] = DEFAULT_PERCENTS, percent: bool = True,
                     header: str | None = None, default: str | None = None) -> TipChoice:
    """Ask the customer on the pad (DCP, DCC). ``presets`` are percentages of ``amount`` (or
    amounts when ``percent`` is False); the customer may also pick another tip or none."""
    if ctx.client.option in ("LG", "HD"):
        raise ValidationError("processing_option", f"{ctx.client.option} has no tip prompt outside a "
                                                   "payment: key the tip at the counter (keyed_tip)")
    require(ctx, "device_prompt_tip")
    amount = _money(ctx, amount, "amount")
    if not 1 <= len(presets) <= 3 or any(not isinstance(p, Decimal) or p < 0 for p in presets):
        raise ValidationError("presets", "must be 1 to 3 Decimal values, 0 or more")
    if header is not None and len(header) > 100:
        raise ValidationError("header", "must be at most 100 characters")
    if default is not None and default not in ("1", "2", "3", "none"):
        raise ValidationError("default", "must be 1, 2, 3 or none")
    options = TipOptions(preset_type="percent" if percent else "amount",
                         preset1=presets[0], preset2=presets[1] if len(presets) > 1 else None,
                         preset3=presets[2] if len(presets) > 2 else None, display_no_tip=True,
                         header_text=header, preset_default=default)
    answer = await ctx.client.device_prompt_tip(total=amount, tip=options)
    tip = answer.tip_amount
    if not tip.is_finite() or tip < 0 or tip > max_amount(ctx.journal.currency):
        raise ValidationError("tip", f"the pad answered an impossible tip ({tip})")
    tip = tip.quantize(quantum(ctx.journal.currency), rounding=ROUND_HALF_UP)
    check_tip(amount, tip, ctx.journal.currency)
    option = (answer.tip.selected_option if answer.tip else None) or ("notip" if tip == 0 else "other")
    await ctx.journal.note(None, "tip_prompt", actor=ctx.actor, amount=str(amount), tip=str(tip),
                           option=option)
    return TipChoice(amount, tip, option)


def keyed_tip(ctx: FlowContext, amount: Decimal, tip: Decimal | None = None, *,
              percent: Decimal | None = None) -> TipChoice:
    """The cashier keys the tip (an amount, or a percentage of ``amount`` rounded half up)."""
    amount = _money(ctx, amount, "amount")
    if (tip is None) == (percent is None):
        raise ValidationError("tip", "give a tip amount or a percentage, one of them")
    if percent is not None:
        if not isinstance(percent, Decimal) or not percent.is_finite() or not 0 <= percent <= 100:
            raise ValidationError("percent", "must be a Decimal from 0 to 100")
        tip = (amount * percent / 100).quantize(quantum(ctx.journal.currency), rounding=ROUND_HALF_UP)
    assert tip is not None
    tip = check_tip(amount, _money(ctx, tip, "tip", allow_zero=True), ctx.journal.currency)
    return TipChoice(amount, tip, "keyed" if tip else "notip")


async def sale_with_tip(ctx: FlowContext, choice: TipChoice, *, tax: Decimal = Decimal(0),
                        card: KeyedCard | None = None, token: str | None = None) -> FlowResult:
    """The sale of ``choice.total``, the tip journaled as the entry's tip."""
    return await sale(ctx, choice.amount, tip=choice.tip if choice.tip else None, tax=tax, card=card,
                      token=token)


async def tip_then_sale(ctx: FlowContext, amount: Decimal, *, keyed: Decimal | None = None,
                        tax: Decimal = Decimal(0), card: KeyedCard | None = None,
                        token: str | None = None) -> tuple[TipChoice, FlowResult]:
    """The counter's one call: the pad asks (DCP, DCC) unless a tip was keyed; LG and HD need
    the keyed tip (0 for none)."""
    if keyed is not None:
        choice = keyed_tip(ctx, amount, keyed)
    elif ctx.client.option in ("DCP", "DCC"):
        choice = await prompt_tip(ctx, amount)
    else:
        raise ValidationError("tip", f"{ctx.client.option}: key the tip at the counter (0 for none)")
    return choice, await sale_with_tip(ctx, choice, tax=tax, card=card, token=token)
