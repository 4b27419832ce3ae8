"""Discounts, promotions and cash rounding: THE rules that take money off a ticket (issue #38).

Why one module beside ``money``: the till, the receipt, the reports and a refund must never
disagree by a cent, so every figure a discount touches is worked out here once, from the lines
as sold, and everyone else reads the result (``PricedTicket``). The rules:

- a line discount (percent or amount) comes off its line; a ticket discount (a manual one or a
  spend promotion) is spread over the lines in proportion to what they still cost, the leftover
  cents to the largest lines (``spread``), so each line knows what was paid for it;
- promotions (``Promotion``) are data in the catalog; ``promotion_savings`` decides, as a pure
  function of the lines and the time, which apply: the customer gets the best one, several only
  when a promotion says it stacks;
- tax is worked out after discounts, once per tax class (``money.tax_by_class``), and each
  class's tax is spread over its lines the same way, so refunding every line gives back exactly
  what was paid;
- never a negative line, never a total below zero;
- cash rounding (``cash_rounded``): only a cash tender's due is rounded, to the profile's step.

Pure: no journal, no clock (the time is passed in), no I/O.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Literal

from cashier.errors import ValidationError
from cashier.money import (
    ClassTax,
    parse_amount,
    quantum,
    round_money,
    tax_by_class,
    tax_by_class_added,
)

DiscountKind = Literal["percent", "amount"]
DISCOUNT_KINDS: tuple[DiscountKind, ...] = ("percent", "amount")
#: The reasons a new store starts with (issue #38); the catalog carries the store's list.
DEFAULT_REASONS: tuple[str, ...] = ("staff", "damaged", "loyalty")
#: ``[manager_rules] discount_percent_max`` when the profile names none.
DEFAULT_DISCOUNT_PERCENT_MAX = Decimal(10)
_PERCENT = re.compile(r"^(?P<value>[0-9]+(?:\.[0-9]{1,2})?)%$", re.ASCII)
#: A reason's word (the catalog's rules check a new one by it: ``cashier catalog reason add``).
REASON_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,23}$", re.ASCII)


# ---- a discount as asked -------------------------------------------------------------------------
@dataclass(frozen=True)
class Discount:
    """A discount the cashier gives: on line ``line`` (0-based; None: the whole ticket), by
    ``kind`` (a percent of what the line or ticket costs, or an amount off), for ``reason``."""

    kind: DiscountKind
    value: Decimal
    line: int | None = None
    reason: str = ""

    def __post_init__(self) -> None:
        if self.kind not in DISCOUNT_KINDS:
            raise ValidationError("discount", "must be a percent (10%) or an amount (2.00)")
        if self.kind == "percent" and not 0 < self.value <= 100:
            raise ValidationError("discount", "a percent must be more than 0 and at most 100")
        if self.kind == "amount" and self.value <= 0:
            raise ValidationError("discount", "an amount must be more than zero")

    def off(self, base: Decimal, currency: str = "USD") -> Decimal:
        """What this discount takes off ``base``: a percent rounded half-up to the currency's
        unit, never more than ``base`` (never a negative line, never a total below zero)."""
        cut = round_money(base * self.value / 100, currency) if self.kind == "percent" else self.value
        return max(min(cut, base), Decimal(0)).quantize(quantum(currency))

    def percent_of(self, base: Decimal) -> Decimal:
        """The discount as a percent of ``base`` (what the manager rule measures: 2.00 off 5.00
        is 40 %)."""
        if self.kind == "percent":
            return self.value
        return Decimal(100) if base <= 0 else self.value * 100 / base


def parse_discount(text: str, currency: str = "USD", *, line: int | None = None,
                   reason: str = "", field_name: str = "--discount") -> Discount:
    """``10%`` or ``2.00``: the command line's and the Sale screen's discount."""
    raw = text.strip()
    match = _PERCENT.fullmatch(raw)
    try:
        if match is not None:
            return Discount("percent", Decimal(match["value"]), line, reason)
        if raw.endswith("%"):
            raise ValidationError(field_name, "a percent is digits with at most 2 decimals: 10%")
        return Discount("amount", parse_amount(raw, currency, field_name), line, reason)
    except ValidationError as exc:
        raise ValidationError(field_name, exc.rule) from None


def check_reason(reason: str, reasons: Sequence[str], field_name: str = "--reason") -> str:
    """A discount's or an override's reason: one of the store's list (the catalog's ``reasons``)."""
    word = reason.strip().lower()
    if not REASON_PATTERN.fullmatch(word) or word not in reasons:
        raise ValidationError(field_name, "must be one of the store's reasons: {reasons}",
                              reasons=", ".join(reasons))
    return word


# ---- promotions ----------------------------------------------------------------------------------
PromotionKind = Literal["quantity_price", "buy_x_get_y", "category_percent", "spend_discount"]
PROMOTION_KINDS: tuple[PromotionKind, ...] = ("quantity_price", "buy_x_get_y", "category_percent",
                                              "spend_discount")


@dataclass(frozen=True)
class Promotion:
    """One promotion of the catalog (data: the store's manager keeps them with the products).

    - ``quantity_price``: ``quantity`` of ``skus`` for ``price`` (3 for 5.00), as often as it fits;
    - ``buy_x_get_y``: of every ``buy`` + ``get`` units of ``skus`` (or ``category``), the ``get``
      cheapest are free;
    - ``category_percent``: ``percent`` off the lines of ``category`` (or ``skus``), within the
      time window (``days``, 0 Monday .. 6 Sunday, from ``start`` to before ``end``);
    - ``spend_discount``: a ticket discount of ``percent`` or ``amount`` once the lines come to
      ``threshold`` or more (after the line promotions).

    Any kind may carry a time window. ``stacks``: it applies on top of the others; otherwise,
    when several apply to a line (or the ticket), the customer gets the best one.
    """

    name: str
    kind: PromotionKind
    skus: tuple[str, ...] = ()
    category: str | None = None
    quantity: int = 0
    price: Decimal = Decimal(0)
    buy: int = 0
    get: int = 0
    percent: Decimal = Decimal(0)
    amount: Decimal = Decimal(0)
    threshold: Decimal = Decimal(0)
    days: tuple[int, ...] = ()
    start: time | None = None
    end: time | None = None
    stacks: bool = False

    def __post_init__(self) -> None:
        if self.kind not in PROMOTION_KINDS:
            raise ValidationError("promotion", "kind must be one of {kinds}",
                                  kinds=", ".join(PROMOTION_KINDS))
        if not self.name.strip() or len(self.name) > 40:
            raise ValidationError("promotion", "a name of 1 to 40 characters")
        if self.kind == "quantity_price" and (self.quantity < 2 or self.price < 0):
            raise ValidationError("promotion", "a quantity price needs a quantity of 2 or more")
        if self.kind == "buy_x_get_y" and (self.buy < 1 or self.get < 1):
            raise ValidationError("promotion", "buy X get Y needs X and Y of 1 or more")
        if self.kind in ("category_percent", "spend_discount") and not (
                0 < self.percent <= 100 or (self.kind == "spend_discount" and self.amount > 0)):
            raise ValidationError("promotion", "a percent more than 0 and at most 100")
        if any(not 0 <= d <= 6 for d in self.days):
            raise ValidationError("promotion", "days are 0 (Monday) to 6 (Sunday)")

    def active_at(self, at: datetime | None) -> bool:
        """Within its time window at ``at`` (a promotion without one always is; ``at`` None:
        only those without a window)."""
        if not self.days and self.start is None and self.end is None:
            return True
        if at is None:
            return False
        if self.days and at.weekday() not in self.days:
            return False
        now = at.time()
        if self.start is not None and now < self.start:
            return False
        return not (self.end is not None and now >= self.end)

    def covers(self, line: PriceLine) -> bool:
        if line.sku is None:
            return False  # a typed line is no product: no promotion knows it
        if self.skus and line.sku in self.skus:
            return True
        return self.category is not None and line.category == self.category


def happy_hour(category: str, percent: Decimal = Decimal(20), *, name: str = "Happy hour",
               start: time = time(16), end: time = time(18),
               days: tuple[int, ...] = (0, 1, 2, 3, 4)) -> Promotion:
    """A category's percentage in a time window (16:00 to 18:00 on weekdays by default): what the
    training catalog gets (``Catalog.promotions``)."""
    return Promotion(name, "category_percent", category=category, percent=percent, days=days,
                     start=start, end=end)


# ---- the lines as priced -------------------------------------------------------------------------
@dataclass(frozen=True)
class PriceLine:
    """A ticket line as the pricing reads it: its unit price and quantity as sold, its sku and
    category (None: a typed line), its tax class and rate."""

    unit_price: Decimal
    quantity: int = 1
    tax_class: str = "standard"
    rate: Decimal = Decimal(0)
    sku: str | None = None
    category: str | None = None

    @property
    def amount(self) -> Decimal:
        return self.unit_price * self.quantity


@dataclass(frozen=True)
class Saving:
    """One cut off the ticket: by a promotion (``promotion`` its name) or a cashier's discount
    (``discount`` its index in the ticket's discounts), on ``line`` (None: the ticket's, spread
    over the lines as ``parts``, line index -> amount)."""

    amount: Decimal
    line: int | None = None
    promotion: str | None = None
    discount: int | None = None
    parts: tuple[tuple[int, Decimal], ...] = ()


def spread(amount: Decimal, weights: Sequence[Decimal], currency: str = "USD") -> list[Decimal]:
    """``amount`` shared over ``weights`` in proportion, each share rounded down to the currency's
    unit and the leftover units one each to the largest weights (ties: the earlier one), never a
    share above its weight. The shares add up to ``amount`` exactly (``amount`` at most the sum)."""
    unit = quantum(currency)
    total = sum(weights, Decimal(0))
    if total <= 0 or amount <= 0:
        return [Decimal(0).quantize(unit) for _ in weights]
    amount = min(amount, total)
    shares = [(amount * w / total).quantize(unit, rounding=ROUND_DOWN) if w > 0 else Decimal(0)
              for w in weights]
    left = int((amount - sum(shares, Decimal(0))) / unit)
    order = sorted(range(len(weights)), key=lambda i: (-weights[i], i))
    while left > 0:
        moved = False
        for i in order:
            if left <= 0:
                break
            if shares[i] + unit <= weights[i]:
                shares[i] += unit
                left -= 1
                moved = True
        if not moved:  # pragma: no cover - amount <= total leaves room somewhere
            break
    return [s.quantize(unit) for s in shares]


def _units(lines: Sequence[PriceLine], idx: Iterable[int]) -> list[tuple[Decimal, int]]:
    """Each unit of the lines ``idx`` as (unit price, line index), dearest first."""
    units = [(lines[i].unit_price, i) for i in idx for _ in range(lines[i].quantity)]
    units.sort(key=lambda u: (-u[0], u[1]))
    return units


def _line_promotion(promo: Promotion, lines: Sequence[PriceLine], idx: list[int],
                    currency: str) -> dict[int, Decimal]:
    """What ``promo`` saves on each of the lines ``idx`` (those it covers, not yet taken)."""
    covered = [i for i in idx if promo.covers(lines[i]) and lines[i].amount > 0]
    save: dict[int, Decimal] = {}
    if not covered:
        return save
    if promo.kind == "category_percent":
        for i in covered:
            save[i] = round_money(lines[i].amount * promo.percent / 100, currency)
    elif promo.kind == "buy_x_get_y":
        units = _units(lines, covered)
        group = promo.buy + promo.get
        for start in range(0, len(units) - group + 1, group):  # the dearest grouped together
            for price, i in units[start + promo.buy:start + group]:  # the cheapest of each: free
                save[i] = save.get(i, Decimal(0)) + price
    elif promo.kind == "quantity_price":
        by_sku: dict[str | None, list[int]] = {}
        for i in covered:
            by_sku.setdefault(lines[i].sku, []).append(i)
        for group_idx in by_sku.values():
            units = _units(lines, group_idx)
            sets = len(units) // promo.quantity
            if not sets:
                continue
            priced = units[:sets * promo.quantity]
            full = sum((u[0] for u in priced), Decimal(0))
            cut = full - promo.price * sets
            if cut <= 0:
                continue
            # the cut shared over the units sold at the set price, in proportion to their price
            per_line: dict[int, Decimal] = {}
            for price, i in priced:
                per_line[i] = per_line.get(i, Decimal(0)) + price
            keys = sorted(per_line)
            for i, part in zip(keys, spread(cut, [per_line[k] for k in keys], currency), strict=True):
                save[i] = save.get(i, Decimal(0)) + part
    return {i: v for i, v in save.items() if v > 0}


def promotion_savings(lines: Sequence[PriceLine], promotions: Sequence[Promotion],
                      at: datetime | None, currency: str = "USD") -> list[Saving]:
    """THE promotions rule: which of ``promotions`` apply to ``lines`` at ``at``, line by line.

    The promotions that do not stack are taken best first (the one saving the most on the lines
    still free; ties by name), each on the lines no earlier one took: a line gets one of them,
    the best for the customer. Those that stack then apply to every line they cover. A line's
    savings never pass its amount. Spend promotions are the ticket's (``price_ticket``)."""
    live = [p for p in promotions if p.kind != "spend_discount" and p.active_at(at)]
    free = list(range(len(lines)))
    room = {i: lines[i].amount for i in free}
    out: list[Saving] = []
    pending = [p for p in live if not p.stacks]
    while pending:
        best: tuple[Decimal, str, Promotion, dict[int, Decimal]] | None = None
        for promo in pending:
            save = _line_promotion(promo, lines, free, currency)
            total = sum(save.values(), Decimal(0))
            if total > 0 and (best is None or total > best[0]
                              or (total == best[0] and promo.name < best[1])):
                best = (total, promo.name, promo, save)
        if best is None:
            break
        _total, _name, promo, save = best
        pending.remove(promo)
        for i, amount in sorted(save.items()):
            cut = min(amount, room[i])
            if cut > 0:
                out.append(Saving(cut, i, promotion=promo.name))
                room[i] -= cut
        free = [i for i in free if i not in save]
    for promo in sorted((p for p in live if p.stacks), key=lambda p: p.name):
        for i, amount in sorted(_line_promotion(promo, lines, list(range(len(lines))),
                                                currency).items()):
            cut = min(amount, room[i])
            if cut > 0:
                out.append(Saving(cut, i, promotion=promo.name))
                room[i] -= cut
    return out


def best_spend_promotions(promotions: Sequence[Promotion], spent: Decimal, at: datetime | None,
                          currency: str = "USD") -> list[tuple[Promotion, Decimal]]:
    """The spend promotions that apply to a ticket whose lines come to ``spent``: the best of
    those that do not stack, and every one that does, each with what it takes off."""
    live = [p for p in promotions if p.kind == "spend_discount" and p.active_at(at)
            and spent >= p.threshold and spent > 0]

    def off(p: Promotion) -> Decimal:
        kind: DiscountKind = "percent" if p.percent > 0 else "amount"
        return Discount(kind, p.percent if p.percent > 0 else p.amount).off(spent, currency)

    alone = sorted((p for p in live if not p.stacks), key=lambda p: (-off(p), p.name))
    chosen = alone[:1] + sorted((p for p in live if p.stacks), key=lambda p: p.name)
    return [(p, off(p)) for p in chosen]


# ---- the ticket priced ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PricedLine:
    """A line after its savings: ``gross`` as sold, ``saved`` (its own and its share of the
    ticket's), ``net`` (what it costs), its share of its class's ``tax`` and ``paid``: what the
    customer paid for it (net, with the tax when prices are without it); a refund of the line
    gives back exactly that."""

    gross: Decimal
    saved: Decimal
    net: Decimal
    tax: Decimal
    paid: Decimal
    promotions: tuple[str, ...] = ()


@dataclass(frozen=True)
class PricedTicket:
    """Every figure a discount touches, worked out once: ``subtotal`` (the lines as sold) less
    ``discounts`` (every saving) is ``net``; ``tax`` by class on the net amounts; ``total`` is
    ``net + tax`` (``net`` when prices include the tax) and never below zero. Each line's share
    of its class's tax (``lines``) is worked out when first asked: a change of a long ticket
    needs its figures, not every line's share again (docs/decisions/017, stop 50)."""

    savings: tuple[Saving, ...]
    subtotal: Decimal
    discounts: Decimal
    net: Decimal
    taxes: tuple[ClassTax, ...]
    tax: Decimal
    total: Decimal
    included: bool
    #: what each cashier's discount took off, by its index in the discounts asked
    discount_amounts: tuple[Decimal, ...] = field(default=())
    #: what it was priced from (``price_added`` prices one more line from them): the lines as
    #: sold, the cashier's discounts asked, the promotions, the time and the currency
    sold: tuple[PriceLine, ...] = field(default=(), repr=False, compare=False)
    asked: tuple[Discount, ...] = field(default=(), repr=False, compare=False)
    in_force: tuple[Promotion, ...] = field(default=(), repr=False, compare=False)
    at: datetime | None = field(default=None, repr=False, compare=False)
    currency: str = field(default="USD", repr=False, compare=False)
    #: each line's net as worked out (not yet rounded to the unit), the sums of the lines as
    #: sold and of their nets (likewise), and each line's promotions by name (line index ->
    #: names, in the order they applied; a line none touched is not there)
    nets: tuple[Decimal, ...] = field(default=(), repr=False, compare=False)
    sums: tuple[Decimal, Decimal] = field(default=(Decimal(0), Decimal(0)), repr=False,
                                          compare=False)
    named: dict[int, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)

    def saved_by(self, promotion: str) -> Decimal:
        return sum((s.amount for s in self.savings if s.promotion == promotion), Decimal(0))

    @property
    def promotions(self) -> dict[str, Decimal]:
        """What each promotion took off (receipt and reports by name)."""
        out: dict[str, Decimal] = {}
        for s in self.savings:
            if s.promotion is not None:
                out[s.promotion] = out.get(s.promotion, Decimal(0)) + s.amount
        return out

    def line_net(self, index: int) -> Decimal:
        """What line ``index`` costs after its savings (``lines[index].net``, without working
        out every line's tax share)."""
        return self.nets[index].quantize(quantum(self.currency))

    def line_promotions(self, index: int) -> tuple[str, ...]:
        """The promotions that took something off line ``index``, by name (``lines[index]``'s)."""
        return self.named.get(index, ())

    @functools.cached_property
    def lines(self) -> tuple[PricedLine, ...]:
        """Each line priced: its savings, its net, its share of its class's tax (each class's tax
        spread over its lines) and what was paid for it."""
        unit = quantum(self.currency)
        net = self.nets
        line_tax = [Decimal(0)] * len(self.sold)
        classes: dict[tuple[str, Decimal], list[int]] = {}
        for i, line in enumerate(self.sold):
            classes.setdefault((line.tax_class, line.rate), []).append(i)
        for t in self.taxes:
            members = classes.get((t.tax_class, t.rate), [])
            for i, part in zip(members, spread(t.tax, [net[i] for i in members], self.currency),
                               strict=True):
                line_tax[i] = part
        return tuple(PricedLine(line.amount.quantize(unit), (line.amount - net[i]).quantize(unit),
                                net[i].quantize(unit), line_tax[i],
                                (net[i] if self.included else net[i] + line_tax[i]).quantize(unit),
                                self.named.get(i, ()))
                     for i, line in enumerate(self.sold))


def price_ticket(lines: Sequence[PriceLine], discounts: Sequence[Discount] = (),
                 promotions: Sequence[Promotion] = (), *, at: datetime | None = None,
                 included: bool = False, currency: str = "USD") -> PricedTicket:
    """THE ticket pricing: line promotions, then the cashier's line discounts (on what the line
    still costs), then the ticket's discounts (a spend promotion on the lines' net, then the
    cashier's ticket discounts in the order given), each spread over the lines in proportion to
    what they still cost; then tax by class on the net amounts, each class's tax spread over its
    lines. Refuses a discount naming a line the ticket has not."""
    unit = quantum(currency)
    net = [line.amount for line in lines]
    savings: list[Saving] = []
    for s in promotion_savings(lines, promotions, at, currency):
        assert s.line is not None
        net[s.line] -= s.amount
        savings.append(s)
    amounts: list[Decimal] = [Decimal(0)] * len(discounts)
    for n, d in enumerate(discounts):
        if d.line is None:
            continue
        if not 0 <= d.line < len(lines):
            raise ValidationError("--line", "the ticket has no line {line}", line=d.line + 1)
        cut = d.off(net[d.line], currency)
        if cut > 0:
            net[d.line] -= cut
            savings.append(Saving(cut, d.line, discount=n))
            amounts[n] = cut

    def ticket_cut(cut: Decimal, **who: str | int | None) -> Decimal:
        cut = min(cut, sum(net, Decimal(0)))
        if cut <= 0:
            return Decimal(0).quantize(unit)
        parts = spread(cut, net, currency)
        for i, part in enumerate(parts):
            net[i] -= part
        savings.append(Saving(cut, None, parts=tuple((i, p) for i, p in enumerate(parts) if p),
                              **who))  # type: ignore[arg-type]
        return cut

    for promo, cut in best_spend_promotions(promotions, sum(net, Decimal(0)), at, currency):
        ticket_cut(cut, promotion=promo.name)
    for n, d in enumerate(discounts):
        if d.line is None:
            amounts[n] = ticket_cut(d.off(sum(net, Decimal(0)), currency), discount=n)
    taxes = tax_by_class(((line.tax_class, line.rate, net[i]) for i, line in enumerate(lines)),
                         included, currency)
    named: dict[int, dict[str, None]] = {}
    for s in savings:  # each line's promotions by name, in the order they applied
        if s.promotion is not None:
            for i in ([s.line] if s.line is not None else [k for k, _ in s.parts]):
                named.setdefault(i, {})[s.promotion] = None
    gross = sum((line.amount for line in lines), Decimal(0))
    net_sum = sum(net, Decimal(0))
    return _priced(savings=tuple(savings), gross=gross, net_sum=net_sum, taxes=taxes,
                   included=included, amounts=tuple(a.quantize(unit) for a in amounts),
                   sold=tuple(lines), asked=tuple(discounts), in_force=tuple(promotions), at=at,
                   currency=currency, nets=tuple(net),
                   named={i: tuple(names) for i, names in named.items()})


def _priced(*, savings: tuple[Saving, ...], gross: Decimal, net_sum: Decimal,
            taxes: tuple[ClassTax, ...], included: bool, amounts: tuple[Decimal, ...],
            sold: tuple[PriceLine, ...], asked: tuple[Discount, ...],
            in_force: tuple[Promotion, ...], at: datetime | None, currency: str,
            nets: tuple[Decimal, ...], named: dict[int, tuple[str, ...]]) -> PricedTicket:
    """The ticket's figures from the sums of its lines as sold (``gross``) and as they now cost
    (``net_sum``) and its tax by class: one place for ``price_ticket`` and ``price_added``."""
    unit = quantum(currency)
    subtotal = gross.quantize(unit)
    net_total = net_sum.quantize(unit)
    tax = sum((t.tax for t in taxes), Decimal(0)).quantize(unit)
    return PricedTicket(savings, subtotal, (subtotal - net_total).quantize(unit), net_total, taxes,
                        tax, net_total if included else net_total + tax, included, amounts,
                        sold=sold, asked=asked, in_force=in_force, at=at, currency=currency,
                        nets=nets, sums=(gross, net_sum), named=named)


def price_added(before: PricedTicket, line: PriceLine, discounts: Sequence[Discount] = (),
                promotions: Sequence[Promotion] = (), *, at: datetime | None = None,
                included: bool = False, currency: str = "USD") -> PricedTicket | None:
    """``price_ticket`` of ``before``'s lines and ``line`` after them, worked out from ``before``
    for the cost of one line, when adding the line can change nothing already taken off: priced
    with the same discounts, promotions, time, tax rule and currency as ``before``; no line
    promotion covers the line; no ticket discount, and no spend promotion that the new amount
    reaches (their cuts are spread over every line). Then every earlier line keeps its savings,
    the line costs its amount, and only its tax class is taxed again (``tax_by_class_added``):
    the same figures as pricing the whole ticket (a seeded test checks it). None: it could
    change something, price the ticket whole (``price_ticket``)."""
    if (tuple(discounts) != before.asked or tuple(promotions) != before.in_force
            or at != before.at or included != before.included or currency != before.currency):
        return None
    if any(d.line is None for d in discounts) or any(s.line is None for s in before.savings):
        return None
    amount = line.amount
    if amount > 0 and any(p.covers(line) for p in promotions
                          if p.kind != "spend_discount" and p.active_at(at)):
        return None
    gross, net_sum = before.sums
    if best_spend_promotions(promotions, net_sum + amount, at, currency):
        return None
    return _priced(savings=before.savings, gross=gross + amount, net_sum=net_sum + amount,
                   taxes=tax_by_class_added(before.taxes, line.tax_class, line.rate, amount,
                                            included, currency),
                   included=included, amounts=before.discount_amounts, sold=(*before.sold, line),
                   asked=before.asked, in_force=before.in_force, at=at, currency=currency,
                   nets=(*before.nets, amount), named=before.named)


# ---- cash rounding -------------------------------------------------------------------------------
def cash_rounded(due: Decimal, step: Decimal | None, currency: str = "USD") -> Decimal:
    """What a cash tender is asked for ``due``: rounded half-up to the profile's ``cash_rounding``
    step (0.05: 12.32 is 12.30, 12.33 is 12.35); no step (or 0): ``due`` itself. Only cash: a
    card, gift card or QR tender pays ``due`` to the cent."""
    if not step or step <= 0 or due <= 0:
        return due
    steps = (due / step).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return (steps * step).quantize(quantum(currency))


def check_cash_rounding(step: Decimal | None, currency: str = "USD") -> Decimal | None:
    """The profile's ``cash_rounding``: a positive amount in the currency's unit, at most 1.00."""
    if step is None or step == 0:
        return None
    value = parse_amount(step, currency, "cash_rounding")
    if value > 1:
        raise ValidationError("cash_rounding", "must be at most 1.00 (e.g. 0.05)")
    return value


def promotion_data(promo: Promotion) -> dict[str, object]:
    """A promotion as the journal keeps it on a ticket (text for every amount and time)."""
    out: dict[str, object] = {"name": promo.name, "kind": promo.kind}
    for key in ("skus", "days"):
        if getattr(promo, key):
            out[key] = list(getattr(promo, key))
    for key in ("quantity", "buy", "get"):
        if getattr(promo, key):
            out[key] = getattr(promo, key)
    for key in ("price", "percent", "amount", "threshold"):
        if getattr(promo, key):
            out[key] = str(getattr(promo, key))
    for key in ("start", "end"):
        if getattr(promo, key) is not None:
            out[key] = getattr(promo, key).isoformat(timespec="minutes")
    if promo.category is not None:
        out["category"] = promo.category
    if promo.stacks:
        out["stacks"] = True
    return out


def promotion_of(data: dict[str, object]) -> Promotion:
    """``promotion_data`` read back."""
    def text(key: str) -> str | None:
        value = data.get(key)
        return None if value is None else str(value)

    def number(key: str) -> int:
        value = data.get(key, 0)
        return int(value) if isinstance(value, int | str) else 0

    def listed(key: str) -> list[object]:
        value = data.get(key, [])
        return list(value) if isinstance(value, list | tuple) else []

    start, end = text("start"), text("end")
    return Promotion(
        name=str(data["name"]), kind=str(data["kind"]),  # type: ignore[arg-type]
        skus=tuple(str(s) for s in listed("skus")), category=text("category"),
        quantity=number("quantity"), price=Decimal(text("price") or 0), buy=number("buy"),
        get=number("get"), percent=Decimal(text("percent") or 0),
        amount=Decimal(text("amount") or 0), threshold=Decimal(text("threshold") or 0),
        days=tuple(int(str(d)) for d in listed("days")),
        start=None if start is None else time.fromisoformat(start),
        end=None if end is None else time.fromisoformat(end), stacks=bool(data.get("stacks")))


def in_force(promotions: Sequence[Promotion], at: datetime) -> tuple[Promotion, ...]:
    """The promotions in force at ``at`` (a ticket's start), their time window judged once: a
    ticket started within happy hour keeps it to its end (docs/decisions/005-money-rules.md)."""
    return tuple(dataclasses.replace(p, days=(), start=None, end=None)
                 for p in promotions if p.active_at(at))
