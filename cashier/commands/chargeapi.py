"""Headless card-not-present commands on the Charge API: ``cashier charge|link|customer ...``.

Each prints ONE JSON object. Money movements (charge, capture, refund) go through the journal
first and exit like ``cashier sale``: 0 approved, 1 declined (card error), 2 error, 3 unknown.
Training (no ``charge_api_url`` in the profile): the embedded sandbox in-process with a test key,
its state kept next to the journal. Otherwise the secret key comes from the environment
(``CASHIER_CHARGE_API_SECRET_KEY``) or the OS keyring (service ``cashier-charge-api``), never a file.
A phone order reads the card from stdin, only to make a token; the number is never printed,
logged or kept.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import re
import sys
from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any

from cashier.chargeapi.connect import (  # noqa: F401  (re-exported: the command's names)
    KEYRING_SERVICE,
    PUBLIC_ENV,
    SECRET_ENV,
    TRAINING_PUBLIC,
    TRAINING_SECRET,
    charge_api_client,
    secret_key_for,
)
from cashier.commands import arguments
from cashier.errors import ValidationError

#: A payment link's --max-charges and --max-failed: what the Charge API takes (1 to 1,000,000).
LINK_COUNT_MAX = 1_000_000
EXIT_CODES = {"approved": 0, "captured": 0, "declined": 1, "error": 2, "unknown": 3, "sent": 3,
              "intent": 3}


def print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, sort_keys=True, default=str), flush=True)


def register(subparsers: Any) -> None:
    charge = subparsers.add_parser("charge", help="card-not-present charges on the Charge API")
    csub = charge.add_subparsers(dest="charge_command")
    p = csub.add_parser("create", help="charge a card token or a customer's saved card")
    _money_args(p)
    p.add_argument("--card-token", help="a token (tok_...) made by POST /tokens")
    p.add_argument("--customer", help="a customer (cust_...): charges its default card")
    p.add_argument("--card", help="with --customer: one of its saved cards (card_...)")
    p.add_argument("--authorize", action="store_true", help="authorize only (capture later)")
    p.add_argument("--pre", action="store_true", help="with --authorize: allow incremental authorization")
    p.add_argument("--description", help="a note kept with the charge")
    p.add_argument("--link", help="charge made through this payment link (pl_...)")
    p.set_defaults(handler=lambda a: _run(a, _charge_create))
    p = csub.add_parser("phone-order", help="card data from stdin -> token -> charge (never stored)")
    _money_args(p)
    p.add_argument("--authorize", action="store_true", help="authorize only (capture later)")
    p.add_argument("--description", help="a note kept with the charge")
    p.add_argument("--link", help="pay this payment link (pl_...) over the phone")
    p.set_defaults(handler=lambda a: _run(a, _phone_order))
    p = csub.add_parser("capture", help="capture an authorization (within 5 days)")
    p.add_argument("charge_id", help="the authorized charge (char_...)")
    p.set_defaults(handler=lambda a: _run(a, _capture))
    p = csub.add_parser("refund", help="refund a charge, in full or in part")
    p.add_argument("charge_id", help="the charge to refund (char_...)")
    p.add_argument("--amount", help="partial amount such as 2.50 (captured charges only)")
    p.add_argument("--reason", help="why: duplicate, fraudulent or requested_by_customer")
    p.set_defaults(handler=lambda a: _run(a, _refund))
    p = csub.add_parser("show", help="print a charge")
    p.add_argument("charge_id", help="the charge (char_...)")
    p.set_defaults(handler=lambda a: _run(a, _charge_show))
    p = csub.add_parser("recover", help="re-send unfinished Charge API movements with their keys")
    p.set_defaults(handler=lambda a: _run(a, _recover))
    charge.set_defaults(handler=lambda a: _usage(charge, "create, phone-order, capture, refund, show, "
                                                         "recover"))

    link = subparsers.add_parser("link", help="pay-by-link on the Charge API")
    lsub = link.add_subparsers(dest="link_command")
    p = lsub.add_parser("create", help="create a payment link (active at once)")
    _money_args(p)
    p.add_argument("--name", help="what the customer sees on the link's page")
    p.add_argument("--max-charges", type=arguments.number(1, LINK_COUNT_MAX),
                   help="deactivate after this many successful charges")
    p.add_argument("--max-failed", type=arguments.number(1, LINK_COUNT_MAX),
                   help="deactivate after this many failed attempts")
    p.set_defaults(handler=lambda a: _run(a, _link_create))
    for name, fn in (("deactivate", _link_deactivate), ("reactivate", _link_reactivate),
                     ("show", _link_show)):
        p = lsub.add_parser(name, help=f"{name} a payment link")
        p.add_argument("link_id", help="the payment link (pl_...)")
        p.set_defaults(handler=lambda a, fn=fn: _run(a, fn))
    link.set_defaults(handler=lambda a: _usage(link, "create, deactivate, reactivate, show"))

    customer = subparsers.add_parser("customer", help="customers with saved cards on the Charge API")
    usub = customer.add_subparsers(dest="customer_command")
    p = usub.add_parser("find", help="customers by e-mail")
    p.add_argument("--email", required=True, help="the customer's e-mail address")
    p.set_defaults(handler=lambda a: _run(a, _customer_find))
    p = usub.add_parser("create", help="create a customer")
    p.add_argument("--email", required=True, help="the customer's e-mail address")
    p.add_argument("--description", help="a note kept with the customer")
    p.set_defaults(handler=lambda a: _run(a, _customer_create))
    p = usub.add_parser("add-card", help="save a card: a token, or card data from stdin")
    p.add_argument("customer_id", help="the customer (cust_...)")
    p.add_argument("--card-token", help="a token (tok_...) made by POST /tokens")
    p.add_argument("--stdin", action="store_true", help="read card data from stdin (phone)")
    p.add_argument("--default", action="store_true", help="make it the default card")
    p.set_defaults(handler=lambda a: _run(a, _customer_add_card))
    customer.set_defaults(handler=lambda a: _usage(customer, "find, create, add-card"))


def _money_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--amount", required=True, help="amount in major units, such as 12.34")
    p.add_argument("--currency", help="ISO code (default: the profile's currency)")


def _usage(parser: argparse.ArgumentParser, choices: str) -> int:
    parser.print_usage(sys.stderr)
    print(f"cashier: error: choose a command: {choices}", file=sys.stderr)
    return 2


# ---- plumbing ------------------------------------------------------------------------------------
class Context:
    def __init__(self, runtime: Any, client: Any, currency: str) -> None:
        from cashier.chargeapi.journaled import JournaledChargeApi

        self.runtime = runtime
        self.client = client
        self.currency = currency
        self.charge_api = JournaledChargeApi(client, runtime.journal, actor=str(runtime.profile.clerk_id))


#: The options that take free text (``cashier.text.free_text``).
_FREE_TEXT = ("name", "email", "description", "reason")


def _run(args: argparse.Namespace, body: Callable[[argparse.Namespace, Context], Awaitable[int]]) -> int:
    from cashier.config import command_profile
    from cashier.runtime import open_runtime
    from cashier.text import free_text

    for name in _FREE_TEXT:  # a customer's name, a description: cleaned, never a card number
        if isinstance(getattr(args, name, None), str):
            setattr(args, name, free_text(f"--{name}", getattr(args, name)))
    profile = command_profile(args)

    async def main() -> int:
        runtime = await open_runtime(profile)
        try:
            client = charge_api_client(profile, runtime.sandbox)
            async with client:
                return await body(args, Context(runtime, client, profile.currency))
        finally:
            await runtime.close()
            from cashier.commands.payments import push_after_command

            await push_after_command(profile)

    return asyncio.run(main())


def _currency(args: argparse.Namespace, ctx: Context) -> str:
    currency = (args.currency or ctx.currency).upper()
    if not re.fullmatch(r"[A-Z]{3}", currency):
        raise ValidationError("--currency", "must be a 3-letter ISO code such as USD")
    return currency


def _amount(text: str, currency: str, field: str = "--amount") -> Decimal:
    from cashier.money import CHARGE_API_MAX_MINOR, from_minor, parse_amount

    return parse_amount(text, currency, field=field,
                        maximum=from_minor(CHARGE_API_MAX_MINOR, currency))


def _movement(outcome: Any) -> int:
    from cashier.chargeapi.journaled import MovementResult

    assert isinstance(outcome, MovementResult)
    entry = outcome.entry
    state = str(entry.state)
    data: dict[str, Any] = {"outcome": state, "entryId": entry.id, "idempotencyKey": entry.idempotency_key,
                            "operation": str(entry.op), "amount": str(entry.requested),
                            "currency": entry.currency}
    if entry.card:
        data["card"] = entry.card
    if outcome.result is not None:
        data["object"] = dict(outcome.result)
        data["replayed"] = outcome.result.replayed
    if outcome.error is not None:
        data["error"] = outcome.error.as_dict()
    print_json(data)
    return EXIT_CODES.get(state, 2)


def _object(obj: dict[str, Any]) -> int:
    print_json({"outcome": "ok", "object": dict(obj)})
    return 0


async def _guard(call: Awaitable[Any]) -> Any:
    """Non-money calls: a Charge API error becomes the one JSON object and an exit code."""
    from cashier.chargeapi.errors import CardError, ChargeApiError

    try:
        return await call
    except ChargeApiError as exc:
        print_json({"outcome": "declined" if isinstance(exc, CardError) else "error",
                    "error": exc.as_dict()})
        raise _Exit(1 if isinstance(exc, CardError) else 3 if exc.status is None else 2) from None


class _Exit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def _read_card(stream: Any = None) -> tuple[str, str, str, str | None]:
    """Card number, month, year, CVC from stdin (one per line) or prompts that do not echo."""
    stream = stream or sys.stdin
    if stream.isatty():
        number = getpass.getpass("Card number: ")
        expiry = getpass.getpass("Expiry (MM/YY): ")
        cvc = getpass.getpass("CVC (optional): ") or None
    else:
        lines = [line.strip() for line in stream.read().splitlines() if line.strip()]
        if len(lines) < 2:
            raise ValidationError("stdin", "give the card number and the expiry (MM/YY), one per line, "
                                           "then the CVC")
        number, expiry = lines[0], lines[1]
        cvc = lines[2] if len(lines) > 2 else None
    number = re.sub(r"[ -]", "", number)
    if not number.isdigit() or not 12 <= len(number) <= 19:
        raise ValidationError("card number", "must be 12 to 19 digits")
    match = re.fullmatch(r"(\d{1,2})\s*/\s*(\d{2}|\d{4})", expiry)
    if not match:
        raise ValidationError("expiry", "must be MM/YY or MM/YYYY")
    if cvc is not None and not re.fullmatch(r"\d{3,4}", cvc):
        raise ValidationError("cvc", "must be 3 or 4 digits")
    return number, match.group(1).zfill(2), match.group(2), cvc


async def _tokenize(ctx: Context) -> str:
    number, month, year, cvc = _read_card()
    try:
        token = await _guard(ctx.client.create_token(number, month, year, cvc=cvc))
    finally:
        del number, cvc  # nothing keeps the card data beyond this call
    return str(token.id)


# ---- handlers ------------------------------------------------------------------------------------
async def _charge_create(args: argparse.Namespace, ctx: Context) -> int:
    currency = _currency(args, ctx)
    amount = _amount(args.amount, currency)
    if bool(args.card_token) == bool(args.customer):
        raise ValidationError("--card-token", "give exactly one of --card-token and --customer")
    if args.card and not args.customer:
        raise ValidationError("--card", "only with --customer")
    if args.pre and not args.authorize:
        raise ValidationError("--pre", "only with --authorize")
    outcome = await ctx.charge_api.charge(amount, currency, card=args.card_token or args.card,
                                       customer_id=args.customer, captured=not args.authorize,
                                       authorization_type="pre" if args.pre else None,
                                       description=args.description, payment_link_id=args.link)
    return _movement(outcome)


async def _phone_order(args: argparse.Namespace, ctx: Context) -> int:
    currency = _currency(args, ctx)
    amount = _amount(args.amount, currency)
    try:
        token = await _tokenize(ctx)
    except _Exit as done:
        return done.code
    outcome = await ctx.charge_api.charge(amount, currency, card=token, captured=not args.authorize,
                                       description=args.description, payment_link_id=args.link)
    return _movement(outcome)


async def _capture(args: argparse.Namespace, ctx: Context) -> int:
    try:
        return _movement(await _guard(ctx.charge_api.capture(args.charge_id)))
    except _Exit as done:
        return done.code


async def _refund(args: argparse.Namespace, ctx: Context) -> int:
    try:
        charge = await _guard(ctx.client.get_charge(args.charge_id))
    except _Exit as done:
        return done.code
    currency = str(charge["currency"])
    amount = _amount(args.amount, currency) if args.amount else None
    return _movement(await ctx.charge_api.refund(args.charge_id, amount, currency=currency,
                                                 reason=args.reason))


async def _charge_show(args: argparse.Namespace, ctx: Context) -> int:
    return await _simple(ctx.client.get_charge(args.charge_id))


async def _recover(args: argparse.Namespace, ctx: Context) -> int:
    outcomes = await ctx.charge_api.recover()
    states = [str(o.entry.state) for o in outcomes]
    print_json({"outcome": "recovered", "entries": [
        {"entryId": o.entry.id, "state": str(o.entry.state), "idempotencyKey": o.entry.idempotency_key,
         "replayed": bool(o.result is not None and o.result.replayed)} for o in outcomes]})
    return 3 if "unknown" in states else 0


async def _simple(call: Awaitable[Any]) -> int:
    try:
        return _object(await _guard(call))
    except _Exit as done:
        return done.code


async def _link_create(args: argparse.Namespace, ctx: Context) -> int:
    from cashier.money import to_minor

    currency = _currency(args, ctx)
    minor = to_minor(_amount(args.amount, currency), currency)
    return await _simple(ctx.client.create_payment_link(minor, currency, name=args.name,
                                                        max_successful_charges=args.max_charges,
                                                        max_failed_attempts=args.max_failed))


async def _link_deactivate(args: argparse.Namespace, ctx: Context) -> int:
    return await _simple(ctx.client.deactivate_payment_link(args.link_id))


async def _link_reactivate(args: argparse.Namespace, ctx: Context) -> int:
    return await _simple(ctx.client.reactivate_payment_link(args.link_id))


async def _link_show(args: argparse.Namespace, ctx: Context) -> int:
    try:
        link = await _guard(ctx.client.get_payment_link(args.link_id))
        charges = await _guard(ctx.client.list_payment_link_charges(args.link_id, limit=100))
    except _Exit as done:
        return done.code
    print_json({"outcome": "ok", "object": dict(link), "charges": charges.get("list", [])})
    return 0


async def _customer_find(args: argparse.Namespace, ctx: Context) -> int:
    try:
        page = await _guard(ctx.client.list_customers(email=args.email, limit=100))
    except _Exit as done:
        return done.code
    print_json({"outcome": "ok", "customers": page.get("list", [])})
    return 0


async def _customer_create(args: argparse.Namespace, ctx: Context) -> int:
    return await _simple(ctx.client.create_customer(args.email, description=args.description))


async def _customer_add_card(args: argparse.Namespace, ctx: Context) -> int:
    if bool(args.card_token) == bool(args.stdin):
        raise ValidationError("--card-token", "give exactly one of --card-token and --stdin")
    try:
        token = args.card_token or await _tokenize(ctx)
        card = await _guard(ctx.client.create_card(args.customer_id, token=token))
        if args.default:
            await _guard(ctx.client.update_customer(args.customer_id, default_card_id=card.id))
    except _Exit as done:
        return done.code
    return _object(card)
