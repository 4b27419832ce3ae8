"""``cashier ticket new|pay|cancel|show|list``: the ticket from a script, the same flows as the window.

Each prints one JSON object. Exit 0 when the ticket is paid (or cancelled cleanly), 1 when it
stays open (a decline, a partial approval, tenders short), 2 bad input (nothing sent), 3 when a
tender's outcome is still being checked with the host.
"""

from __future__ import annotations

import argparse
import sys
from decimal import Decimal
from typing import Any

from cashier.commands.arguments import number_text, whole_number
from cashier.commands.desk import cash_back_slips, ticket_receipt
from cashier.commands.payments import (
    CARD_STDIN_HELP,
    GIFT_CARD_STDIN_HELP,
    MANAGER_HELP,
    _amount,
    _keyed,
    card_number,
    print_json,
    read_manager,
    run_with_runtime,
)
from cashier.errors import ValidationError

#: ``ticket refund --line N``: what the number must be (read by the one integer rule).
LINE_RULE = "must be a line number from 1, as on the receipt"


def _exit_code(ticket: Any) -> int:
    if ticket.checking:
        return 3
    return 0 if ticket.state in ("paid", "cancelled") else 1


def _ticket_id(text: str) -> int:
    return whole_number(text, "TICKET", low=0, rule="must be a ticket number, e.g. 12")


def _tenders(args: argparse.Namespace, currency: str) -> list[Any]:
    """Parse every tender first: bad input is refused before anything is journaled or sent."""
    from dataclasses import replace

    from cashier.flows.giftcards import GiftCard
    from cashier.flows.ticket import parse_tender

    card = _keyed(args)
    token = getattr(args, "token", None)
    gift_number = getattr(args, "gift_card", None)
    gift = GiftCard(card_number(gift_number, "--gift-card")) if gift_number else None
    out = []
    for text in args.pay or []:
        tender = parse_tender(text, currency)
        if tender.kind == "card" and (card is not None or token is not None):
            tender = replace(tender, card=card, token=token)
        elif tender.kind == "giftcard" and gift is not None:
            tender = replace(tender, giftcard=gift)
        out.append(tender)
    if (card is not None or token is not None) and not any(t.kind == "card" for t in out):
        raise ValidationError("--card", "goes with a card tender (--pay card)")
    if gift is not None and not any(t.kind == "giftcard" for t in out):
        raise ValidationError("--gift-card", "goes with a giftcard tender (--pay giftcard)")
    return out


def _say_refused(exc: ValidationError) -> None:
    print(f"cashier: {exc}", file=sys.stderr)


class _InOrder(argparse.Action):
    """``--item``, ``--sku`` and ``--barcode`` kept in the order typed (the ticket's lines'),
    each also under its own name."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or []), values])
        lines = getattr(namespace, "lines", None) or []
        namespace.lines = [*lines, (self.dest, values)]


def _catalog_lines(rt: Any, typed: list[tuple[str, Any]]) -> list[Any]:
    """Each line as the ticket will take it: a typed ``(name, price, quantity)``, or a catalog
    ``(Found, quantity)`` found in the catalog sold from now; an unknown sku or barcode is one
    line naming the option and the rule, before anything is journaled."""
    from cashier.catalog.scan import Found, by_sku, find_barcode

    catalog = rt.ctx.catalog.current()
    out: list[Any] = []
    for option, value in typed:
        if option == "sku":
            sku, quantity = value
            out.append((Found(by_sku(catalog, sku)), quantity))
        elif option == "barcode":
            out.append((find_barcode(catalog, value, rt.profile.price_embedded_prefixes,
                                     rt.profile.currency), 1))
        else:
            out.append(value)
    return out


def _is_found(line: Any) -> bool:
    from cashier.catalog.scan import Found

    return isinstance(line[0], Found)


def _planned(rt: Any, lines: list[Any], prices: dict[str, Decimal],
             discounts: list[Any]) -> Any:
    """The new ticket priced by THE rule (``discounts.price_ticket``: promotions, discounts, tax
    by class), before anything is journaled: a cash tender's largest-note check and the
    discount's percent (the manager rule) read it; a discount naming no line is refused here."""
    from datetime import datetime

    from cashier.discounts import PriceLine, in_force, price_ticket
    from cashier.money import DEFAULT_TAX_CLASS

    catalog = rt.ctx.catalog.current()
    included = rt.profile.prices_include_tax if catalog.prices_include_tax is None \
        else catalog.prices_include_tax
    priced: list[PriceLine] = []
    for line in lines:
        if _is_found(line):
            found, quantity = line
            product = found.product
            price = prices.get(product.sku, product.price if found.price is None else found.price)
            priced.append(PriceLine(price, quantity, product.tax_class,
                                    catalog.tax_rate(product.tax_class), product.sku,
                                    product.category))
        else:
            _name, price, quantity = line
            priced.append(PriceLine(price, quantity, DEFAULT_TAX_CLASS, rt.profile.tax_rate))
    return price_ticket(priced, discounts, in_force(catalog.promotions, datetime.now()),
                        included=included, currency=rt.profile.currency)


def _price_overrides(texts: list[str], currency: str) -> dict[str, Decimal]:
    """``--price SKU=PRICE``: a price typed over the catalog's for that sku's lines."""
    from cashier.catalog.model import check_sku
    from cashier.money import parse_amount

    out: dict[str, Decimal] = {}
    for text in texts:
        sku, sep, price = text.partition("=")
        if not sep:
            raise ValidationError("--price", "must be SKU=PRICE, e.g. COFFEE=2.50")
        out[check_sku(sku.strip(), "--price")] = parse_amount(price.strip(), currency, "--price",
                                                              allow_zero=True)
    return out


def _discount(args: argparse.Namespace, currency: str) -> Any:
    """``--discount 10%|2.00 [--line N]``: refused before anything is journaled."""
    from cashier.discounts import parse_discount

    if args.discount is None:
        if args.discount_line is not None:
            raise ValidationError("--line", "goes with a --discount")
        return None
    line = None if args.discount_line is None else int(args.discount_line) - 1
    return parse_discount(args.discount, currency, line=line)


def new_command(args: argparse.Namespace) -> int:
    from cashier.catalog.scan import parse_sku_item
    from cashier.config import command_profile
    from cashier.flows.ticket import TicketSession, TicketSettings, check_tenders, parse_item

    currency = command_profile(args).currency
    typed: list[tuple[str, Any]] = []
    for option, text in getattr(args, "lines", None) or []:  # each refused here by its own rule
        if option == "item":
            typed.append((option, parse_item(text, currency)))
        elif option == "sku":
            typed.append((option, parse_sku_item(text)))
        else:
            typed.append((option, text))
    amount = _amount(args.amount, "--amount", args)
    if amount is not None:
        typed.append(("item", ("Amount", amount, 1)))
    if not typed:
        raise ValidationError("--item", "give at least one --item NAME=PRICE, --sku SKU, --barcode "
                                        "CODE or an --amount")
    tip = _amount(args.tip, "--tip", args, allow_zero=True)
    tenders = _tenders(args, currency)
    prices = _price_overrides(args.price or [], currency)
    discount = _discount(args, currency)
    if (discount is not None or prices) and not args.reason:
        raise ValidationError("--reason", "give the reason for the discount or the price (e.g. "
                                          "staff, damaged, loyalty)")

    async def body(rt: Any) -> int:
        from cashier.clerks import Action
        from cashier.discounts import check_reason
        from cashier.flows.ticket import PriceOverride

        lines = _catalog_lines(rt, typed)  # an unknown sku or barcode: nothing journaled
        sold = {line[0].product.sku for line in lines if _is_found(line)}
        for sku in prices:
            if sku not in sold:
                raise ValidationError("--price", "{sku} is not a --sku or --barcode line of this "
                                                 "ticket", sku=sku)
        reason = check_reason(args.reason, rt.ctx.catalog.current().reasons) if args.reason \
            else ""
        planned = _planned(rt, lines, prices, [] if discount is None else [discount])
        manager = read_manager(rt, args)
        # every approval asked before anything is journaled (ManagerNeeded: exit 2, one line)
        for _sku in prices:
            rt.ctx.approval(Action.PRICE_OVERRIDE, Decimal(0), manager)
        if discount is not None:
            base = planned.net + planned.discount_amounts[0] if discount.line is None else \
                planned.lines[discount.line].net + planned.discount_amounts[0]
            rt.ctx.approval(Action.DISCOUNT, discount.percent_of(base).quantize(Decimal("0.01")),
                            manager)
        total = planned.total + (tip or Decimal(0))
        # cash without an open drawer, an amount past the till's bounds: nothing journaled
        await check_tenders(rt.ctx, tenders, total)
        session = await TicketSession.start(rt.ctx, TicketSettings.of(rt.profile), tenders)
        for line in lines:  # in the order typed
            if _is_found(line):
                found, quantity = line
                sku = found.product.sku
                override = PriceOverride(prices[sku], reason, manager) if sku in prices else None
                await session.add_product(found.product, quantity=quantity, price=found.price,
                                          override=override)
            else:
                await session.add_line(*line)
        if discount is not None:
            from dataclasses import replace

            await session.add_discount(replace(discount, reason=reason), manager)
        ticket = (await session.quick_pay(tenders, tip=tip, refused=_say_refused,
                                          first_refusal_raises=True)).ticket
        ticket_receipt(rt, ticket)
        print_json(ticket.as_dict())
        return _exit_code(ticket)

    return run_with_runtime(args, body)


def pay_command(args: argparse.Namespace) -> int:
    from cashier.config import command_profile
    from cashier.flows.ticket import TicketSession, TicketSettings, check_tenders

    ticket_id = _ticket_id(args.ticket)
    tenders = _tenders(args, command_profile(args).currency)
    if not tenders:
        raise ValidationError("--pay", "give at least one tender: card, giftcard, qr or cash=AMOUNT")

    async def body(rt: Any) -> int:
        await check_tenders(rt.ctx, tenders)
        session = await TicketSession.resume(rt.ctx, ticket_id, TicketSettings.of(rt.profile))
        if session.ticket is not None and session.ticket.state != "open":
            raise ValidationError("TICKET", f"ticket {ticket_id} is {session.ticket.state}, not open")
        ticket = (await session.quick_pay(tenders, refused=_say_refused,
                                          first_refusal_raises=True)).ticket
        ticket_receipt(rt, ticket)
        print_json(ticket.as_dict())
        return _exit_code(ticket)

    return run_with_runtime(args, body)


def cancel_command(args: argparse.Namespace) -> int:
    from cashier.flows.ticket import TicketSession, TicketSettings

    ticket_id = _ticket_id(args.ticket)

    async def body(rt: Any) -> int:
        session = await TicketSession.resume(rt.ctx, ticket_id, TicketSettings.of(rt.profile))
        before = {e.id for e in session.ticket.refunds} if session.ticket is not None else set()
        ticket = await session.cancel(manager=read_manager(rt, args))
        cash_back_slips(rt, ticket, before)
        print_json(ticket.as_dict())
        return _exit_code(ticket)

    return run_with_runtime(args, body)


def refund_command(args: argparse.Namespace) -> int:
    """Money back from a paid ticket: all of it, ``--amount``, or ``--line`` (numbered from 1 as
    on the receipt), back to the tenders it was paid with (``flows.ticket.refund_ticket``)."""
    from cashier.flows.ticket import refund_ticket

    ticket_id = _ticket_id(args.ticket)
    amount = _amount(args.amount, "--amount", args)
    lines = None
    if args.line:
        if any(not n.isdigit() or len(n) > 4 for n in args.line):
            raise ValidationError("--line", "must be a line number from 1, as on the receipt")
        lines = [int(n) - 1 for n in args.line]

    async def body(rt: Any) -> int:
        from cashier.flows.ticket import load

        before = {e.id for e in (await load(rt.ctx, ticket_id)).refunds}
        try:
            ticket = await refund_ticket(rt.ctx, ticket_id, amount=amount, lines=lines,
                                         manager=read_manager(rt, args))
        except ValidationError as exc:  # the ticket's line rule, named as typed here
            if exc.field != "line":
                raise
            raise ValidationError("--line", exc.template, **exc.params) from None
        cash_back_slips(rt, ticket, before)
        out = ticket.as_dict()
        new = [e for e in ticket.refunds if e.id not in before]
        out["refunded"] = [{"kind": str(e.kind), "amount": str(e.approved or e.requested),
                            "state": str(e.state), "invoice": e.invoice} for e in new]
        print_json(out)
        states = {str(e.state) for e in new}
        if states & {"intent", "sent", "unknown"}:
            return 3
        return 0 if new and states <= {"approved"} else 1

    return run_with_runtime(args, body)


def show_command(args: argparse.Namespace) -> int:
    from cashier.flows.ticket import load

    ticket_id = _ticket_id(args.ticket)

    async def body(rt: Any) -> int:
        ticket = await load(rt.ctx, ticket_id)
        print_json(ticket.as_dict())
        return _exit_code(ticket)

    return run_with_runtime(args, body)


def list_command(args: argparse.Namespace) -> int:
    from cashier.flows.ticket import load

    async def body(rt: Any) -> int:
        ids = await rt.journal.ticket_ids(open_only=args.open)
        tickets = [(await load(rt.ctx, tid)).as_dict() for tid in ids]
        print_json({"tickets": tickets})
        return 0

    return run_with_runtime(args, body)


def _tender_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pay", action="append", metavar="TENDER",
                   help="card[=AMOUNT] | giftcard[=AMOUNT] | qr[=AMOUNT] | cash=TENDERED; repeat, "
                        "applied in order; without an amount a tender takes what remains (gift: "
                        "the old spelling of giftcard, still taken)")
    p.add_argument("--card", help="keyed card number for the card tender (never stored); "
                                  + CARD_STDIN_HELP)
    p.add_argument("--exp", help="its expiry, MMYY")
    p.add_argument("--token", help="a card token for the card tender")
    p.add_argument("--gift-card", help="gift card number for the giftcard tender (else the PIN pad "
                                       "reads it); " + GIFT_CARD_STDIN_HELP)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("ticket", help="a ticket: lines, tip and as many tenders as it takes",
                              description="Exit 0 paid or cancelled, 1 still open, 2 bad input, "
                                          "3 a tender is still being checked with the host.")
    sub = p.add_subparsers(dest="ticket_command", required=True)
    n = sub.add_parser("new", help="open a ticket, add lines, and pay it")
    n.add_argument("--item", action=_InOrder, metavar="NAME=PRICE[xQTY]", help="a typed line; repeat")
    n.add_argument("--sku", action=_InOrder, metavar="SKU[xQTY]",
                   help="a line of the catalog's product of that sku; repeat")
    n.add_argument("--barcode", action=_InOrder, metavar="CODE",
                   help="a line of the product of that barcode, or a price-embedded EAN-13 "
                        "(the profile's price_embedded_prefixes); repeat")
    n.add_argument("--amount", help="an open-amount line")
    n.add_argument("--tip", help="a keyed tip (the PIN pad then never asks)")
    n.add_argument("--discount", metavar="10%|2.00",
                   help="a discount by percent or amount: on the whole ticket, or on --line N")
    n.add_argument("--line", dest="discount_line", metavar="N", type=number_text(rule=LINE_RULE),
                   help="the line (from 1, in the order typed) the --discount is on")
    n.add_argument("--price", action="append", metavar="SKU=PRICE",
                   help="a price typed over the catalog's for that sku's lines (a manager "
                        "approves); repeat")
    n.add_argument("--reason", metavar="WORD",
                   help="the reason for the discount or price, one of the store's list (a new "
                        "store's: staff, damaged, loyalty)")
    n.add_argument("--manager", metavar="ID", help=MANAGER_HELP)
    _tender_args(n)
    n.set_defaults(handler=new_command)
    pay = sub.add_parser("pay", help="apply tenders to an open ticket")
    pay.add_argument("ticket", metavar="TICKET", help="the ticket's number")
    _tender_args(pay)
    pay.set_defaults(handler=pay_command)
    c = sub.add_parser("cancel", help="cancel an open ticket: approved tenders voided, cash given back")
    c.add_argument("ticket", metavar="TICKET", help="the ticket's number")
    c.add_argument("--manager", metavar="ID", help=MANAGER_HELP)
    c.set_defaults(handler=cancel_command)
    r = sub.add_parser("refund", help="money back from a paid ticket, to the tenders it was paid with",
                       description="Exit 0 refunded, 1 a refund was refused, 2 bad input, 3 still "
                                   "being checked with the host.")
    r.add_argument("ticket", metavar="TICKET", help="the ticket's number")
    r.add_argument("--amount", help="refund this much (default: all that is left)")
    r.add_argument("--line", action="append", metavar="N", type=number_text(rule=LINE_RULE),
                   help="refund line N (from 1, as on the receipt) with its tax; repeat")
    r.add_argument("--manager", metavar="ID", help=MANAGER_HELP)
    r.set_defaults(handler=refund_command)
    s = sub.add_parser("show", help="one ticket")
    s.add_argument("ticket", metavar="TICKET", help="the ticket's number")
    s.set_defaults(handler=show_command)
    ls = sub.add_parser("list", help="the latest tickets")
    ls.add_argument("--open", action="store_true", help="only open tickets")
    ls.set_defaults(handler=list_command)


__all__ = ["register"]
