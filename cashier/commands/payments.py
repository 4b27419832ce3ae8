"""Headless payment commands: sale, refund, void, auth, capture, recover, batch totals|close.

Each prints ONE JSON object on stdout. ``sale`` (and auth, capture, refund, void) exit 0 when
approved (or voided/captured), 1 declined, 2 error, 3 unknown. Bad arguments get one line on
stderr naming the field and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any

from cashier.errors import ValidationError
from cashier.money import parse_amount

EXIT_CODES = {"approved": 0, "captured": 0, "voided": 0, "declined": 1, "error": 2, "unknown": 3,
              "voiding": 3}
#: A sale or a tab voided by the till itself (a tip chosen on the PIN pad past the tip rules) is
#: not paid: 2, as an error; still being voided: 3.
PAYMENT_EXIT_CODES = {**EXIT_CODES, "voided": 2}


def _amount(text: str | None, field: str, args: argparse.Namespace, *,
            allow_zero: bool = False) -> Decimal | None:
    """The one amount rule (``cashier.money.parse_amount``) in the till's currency."""
    if text is None:
        return None
    from cashier.config import command_profile

    currency = command_profile(args).currency
    return parse_amount(text, currency, field=field, allow_zero=allow_zero)


def _invoice(text: str | None, field: str) -> str | None:
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or not 1 <= len(text) <= 10:
        raise ValidationError(field, "must be 1 to 10 digits")
    return text


def print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, sort_keys=True, default=str), flush=True)


async def push_after_command(profile: Any) -> None:
    """A money command is done and journaled: push to the store within ~1 s, else leave it
    pending (the window's pusher or the next command takes it)."""
    if profile.store_url:
        from cashier.store.outbox import push_pending

        await asyncio.to_thread(push_pending, profile, 1.0)


def run_with_runtime(args: argparse.Namespace,
                     body: Callable[[Any], Awaitable[int]]) -> int:
    """Open the till's runtime (profile from --profile or CASHIER_PROFILE; none: training)."""
    from cashier.config import command_profile
    from cashier.runtime import open_runtime

    profile = command_profile(args)
    policy = None
    grace = getattr(args, "grace", None)
    if grace is not None:
        from cashier.flows.base import RecoveryPolicy

        if not 0 <= grace <= 600:
            raise ValidationError("--grace", "must be 0 to 600 seconds")
        policy = RecoveryPolicy(grace_s=grace, delays_s=(0.0, 0.2, 0.5, 1.0, 2.0, 3.0))

    async def main() -> int:
        runtime = await open_runtime(profile, policy=policy)
        try:
            code = await body(runtime)
        except BaseException:
            # the body's failure is the one to tell: a close failing after it (the same full
            # disk, committing held lines) must not replace it
            with contextlib.suppress(Exception):
                await runtime.close()
            with contextlib.suppress(Exception):
                await push_after_command(profile)
            raise
        await runtime.close()
        await push_after_command(profile)
        return code

    return asyncio.run(main())


def read_manager(rt: Any, args: argparse.Namespace) -> Any:
    """``--manager ID`` (``-``: any manager) approves with that manager's PIN, read from standard
    input as ``cashier drawer pay-out`` does; None without ``--manager`` (the flow then refuses
    with ``ManagerNeeded`` when the profile wants one: exit 2, one line)."""
    manager_id = getattr(args, "manager", None)
    if not manager_id:
        return None
    from cashier.approvals import pin_guard
    from cashier.journal.pin_guard import command_name

    pin = sys.stdin.readline().strip()
    return pin_guard(rt.ctx.journal.path).check(rt.profile.roster, manager_id, pin, command_name(args))


CARD_STDIN_HELP = "- reads it from standard input (scripts: other users see arguments in ps)"
GIFT_CARD_STDIN_HELP = ("- reads it from standard input, after a card number read there "
                        "(scripts: other users see arguments in ps)")
MANAGER_HELP = "a manager approves (the PIN on stdin) when the till's manager rules want one"


def _result(result: Any, codes: dict[str, int] = EXIT_CODES) -> int:
    print_json(result.as_dict())
    return codes.get(result.outcome, 2)


# ---- handlers -----------------------------------------------------------------------------------
def _keyed(args: argparse.Namespace) -> Any:
    from cashier.flows.payments import KeyedCard

    if args.card is None:
        if args.exp is not None:
            raise ValidationError("--exp", "goes with --card")
        return None
    if args.exp is None:
        raise ValidationError("--exp", "is required with --card (MMYY)")
    return KeyedCard(card_number(args.card, "--card"), args.exp, getattr(args, "cvv", None))


def card_number(given: str, field: str) -> str:
    """THE rule for a card number given on the command line (a payment card's ``--card``, a gift
    card's ``--card`` and ``--gift-card``): ``-`` reads it from the next line of standard input,
    so it never shows in ``ps`` or a shell's history. Lines are read in the order the command
    takes them: a payment card, then a gift card, then a manager's PIN when one is asked for."""
    if given != "-":
        return given
    number = sys.stdin.readline().strip()
    if not number:
        raise ValidationError(field, "-: standard input gave no card number (one line)")
    return number


def sale_command(args: argparse.Namespace) -> int:
    from cashier.flows.payments import sale

    amount = _amount(args.amount, "--amount", args)
    tip = _amount(args.tip, "--tip", args, allow_zero=True)
    invoice = _invoice(args.invoice, "--invoice")
    card = _keyed(args)

    async def body(rt: Any) -> int:
        assert amount is not None
        return _result(await sale(rt.ctx, amount, tip=tip, card=card, token=args.token,
                                  invoice=invoice, prompt_tip=args.prompt_tip), PAYMENT_EXIT_CODES)

    return run_with_runtime(args, body)


def auth_command(args: argparse.Namespace) -> int:
    from cashier.flows.payments import authorize

    amount = _amount(args.amount, "--amount", args)
    card = _keyed(args)

    async def body(rt: Any) -> int:
        assert amount is not None
        return _result(await authorize(rt.ctx, amount, card=card, token=args.token,
                                       invoice=_invoice(args.invoice, "--invoice")), PAYMENT_EXIT_CODES)

    return run_with_runtime(args, body)


def capture_command(args: argparse.Namespace) -> int:
    from cashier.flows.payments import capture

    invoice = _invoice(args.invoice, "--invoice")
    amount = _amount(args.amount, "--amount", args)
    tip = _amount(args.tip, "--tip", args, allow_zero=True) or Decimal(0)

    async def body(rt: Any) -> int:
        assert invoice is not None
        return _result(await capture(rt.ctx, invoice, amount, tip=tip))

    return run_with_runtime(args, body)


def refund_command(args: argparse.Namespace) -> int:
    from cashier.flows.payments import refund

    amount = _amount(args.amount, "--amount", args)
    original = _invoice(args.original_invoice, "--original-invoice")
    card = _keyed(args)

    async def body(rt: Any) -> int:
        assert amount is not None
        return _result(await refund(rt.ctx, amount, original_invoice=original, card=card,
                                    token=args.token, manager=read_manager(rt, args)))

    return run_with_runtime(args, body)


def void_command(args: argparse.Namespace) -> int:
    from cashier.flows.recovery import void

    invoice = _invoice(args.invoice, "--invoice")
    if args.reason is not None and args.reason not in {f"0{i}" for i in range(1, 10)}:
        raise ValidationError("--reason", "must be a reversal reason 01 to 09")

    async def body(rt: Any) -> int:
        assert invoice is not None
        result = await void(rt.ctx, invoice, reason=args.reason, manager=read_manager(rt, args))
        code = _result(result)
        return 1 if result.outcome in ("approved", "captured") else code  # the host refused it

    return run_with_runtime(args, body)


def recover_command(args: argparse.Namespace) -> int:
    from cashier.flows.recovery import recover

    async def body(rt: Any) -> int:
        from cashier.commands.desk import ticket_receipt
        from cashier.flows.ticket import load

        report = await recover(rt.ctx, patient=bool(getattr(args, "wait", False)))
        for ticket_id in report.tickets_paid:  # its last tender settled: paid, its receipt
            ticket_receipt(rt, await load(rt.ctx, ticket_id))
        print_json(report.as_dict())
        return 3 if report.still_open or report.in_flight else 0

    return run_with_runtime(args, body)


def batch_command(args: argparse.Namespace) -> int:
    from cashier.flows.batch import close_batch, reconcile

    if args.batch_command is None:
        print("cashier batch: error: choose totals or close", file=sys.stderr)
        return 2
    if args.batch_command == "close" and args.override and not args.manager:
        raise ValidationError("--manager", "is required with --override (who authorises it)")

    async def body(rt: Any) -> int:
        if args.batch_command == "totals":
            rec = await reconcile(rt.ctx)
            print_json(rec.as_dict())
            return 0 if rec.matches and not rec.unresolved else 1
        from cashier.clerks import Action

        # a till whose rules want a manager for the close: --manager's PIN on stdin approves it
        needs = rt.profile.roster.needs_manager(Action.CLOSE_BATCH)
        manager = read_manager(rt, args) if needs else None
        batch_no, rec = await close_batch(rt.ctx, override=args.override, manager_id=args.manager,
                                          manager=manager, carry_over=args.carry_over)
        print_json({"batch_no": batch_no, "override": args.override,
                    "carried_over": [t.invoice for t in rec.open_tabs], **rec.as_dict()})
        return 0

    return run_with_runtime(args, body)


# ---- registration -------------------------------------------------------------------------------
def _card_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--card", metavar="NUMBER",
                        help=f"keyed card number (never stored); {CARD_STDIN_HELP}")
    parser.add_argument("--exp", metavar="MMYY", help="expiry of the keyed card")
    parser.add_argument("--cvv", help=argparse.SUPPRESS)
    parser.add_argument("--token", help="a card token instead of a card")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("sale", help="one card sale; prints a JSON result",
                              description="Exit 0 approved, 1 declined, 2 error (or voided: a tip "
                                          "chosen on the PIN pad past the tip rules), 3 unknown.")
    p.add_argument("--amount", required=True, help="amount in major units, e.g. 12.34")
    p.add_argument("--tip", help="tip added to the amount")
    p.add_argument("--invoice", help="retry this journal invoice: the same payment (amount, card) "
                                     "only, never one already settled")
    p.add_argument("--prompt-tip", action="store_true", help="let the PIN pad ask for a tip (DCP/DCC)")
    _card_args(p)
    p.set_defaults(handler=sale_command)

    p = subparsers.add_parser("auth", help="open a tab (authorization without capture)")
    p.add_argument("--amount", required=True, help="the amount to authorize, such as 40.00")
    p.add_argument("--invoice", help="retry this journal invoice: the same payment (amount, card) "
                                     "only")
    _card_args(p)
    p.set_defaults(handler=auth_command)

    p = subparsers.add_parser("capture", help="close a tab, with a tip")
    p.add_argument("--invoice", required=True, help="the tab's invoice number")
    p.add_argument("--amount", help="amount before tip (default: the authorized amount)")
    p.add_argument("--tip", help="tip to add")
    p.set_defaults(handler=capture_command)

    p = subparsers.add_parser("refund", help="refund, linked to an invoice or not")
    p.add_argument("--amount", required=True, help="the amount to give back, such as 5.00")
    p.add_argument("--original-invoice", help="the sale's invoice (linked refund)")
    p.add_argument("--manager", metavar="ID", help=MANAGER_HELP)
    _card_args(p)
    p.set_defaults(handler=refund_command)

    p = subparsers.add_parser("void", help="void an approved or unknown payment (retried until done)")
    p.add_argument("--invoice", required=True, help="the payment's invoice number")
    p.add_argument("--reason", help="reversal reason 01-09 (default 03, or 01 for an unknown one)")
    p.add_argument("--manager", metavar="ID", help=MANAGER_HELP)
    p.set_defaults(handler=void_command)

    p = subparsers.add_parser("recover", help="resolve every unfinished payment and pending void")
    p.add_argument("--grace", type=float, help=argparse.SUPPRESS)
    p.add_argument("--wait", action="store_true",
                   help="keep asking while the host may still be working on a payment (up to its "
                        "longest processing time plus this till's timeouts)")
    p.set_defaults(handler=recover_command)

    p = subparsers.add_parser("batch", help="batch totals (reconciliation) and close")
    sub = p.add_subparsers(dest="batch_command")
    sub.add_parser("totals", help="journal vs host totals")
    close = sub.add_parser("close", help="close the batch after reconciliation")
    close.add_argument("--carry-over", action="store_true",
                       help="close with the open tabs left open: each stays in the next batch, where "
                            "the host books its capture (without it, open tabs refuse the close)")
    close.add_argument("--override", action="store_true",
                       help="close despite unresolved entries or a difference")
    close.add_argument("--manager", help="the manager's id (required with --override); on a till "
                                         "whose rules want a manager, the PIN on stdin")
    p.set_defaults(handler=batch_command)
