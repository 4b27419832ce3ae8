"""``cashier qr pay --amount A [--wait S]`` and ``cashier qr status|cancel --invoice N``.

One JSON object on stdout. ``pay`` exits 0 paid, 1 not paid (the code was cancelled, or reversed),
2 error, 3 unknown; while it waits, the code to scan is printed on stderr (one line) for the
person at the till. ``status`` and ``cancel`` exit 0 when the payment is settled (paid or
cancelled), 2 on error, 3 while it is still open or unknown.
"""

from __future__ import annotations

import argparse
import sys
from decimal import Decimal
from typing import Any

from cashier.commands.payments import _amount, _invoice, print_json, run_with_runtime
from cashier.errors import ValidationError

PAY_EXIT = {"approved": 0, "voided": 1, "declined": 1, "error": 2, "unknown": 3}
SETTLED_EXIT = {"approved": 0, "voided": 0, "declined": 0, "error": 2, "unknown": 3}
MAX_WAIT_S = 3600.0


def qr_command(args: argparse.Namespace) -> int:
    from cashier.flows import qr

    op = args.qr_command
    if op is None:
        print("cashier qr: error: choose pay, status or cancel", file=sys.stderr)
        return 2
    if op == "pay":
        amount = _amount(args.amount, "--amount", args)
        tax = _amount(args.tax, "--tax", args, allow_zero=True)
        if not 0 < args.wait <= MAX_WAIT_S:
            raise ValidationError("--wait", f"must be more than 0 and at most {MAX_WAIT_S:.0f} seconds")
        polling = qr.QrPolling(wait_s=args.wait)

        def show(event: Any) -> None:
            print(f"QR code for {event.amount} (invoice {event.invoice}): {event.code}",
                  file=sys.stderr, flush=True)

        async def pay(rt: Any) -> int:
            assert amount is not None
            rt.ctx.bus.subscribe(show, qr.QrShown)
            out = await qr.pay(rt.ctx, amount, tax=tax if tax is not None else Decimal(0), polling=polling,
                               pad_form=None if args.no_pad else qr.DEFAULT_PAD_FORM)
            print_json(out.as_dict())
            return PAY_EXIT.get(out.outcome, 2)

        return run_with_runtime(args, pay)
    invoice = _invoice(args.invoice, "--invoice")

    async def other(rt: Any) -> int:
        assert invoice is not None
        out = await (qr.status(rt.ctx, invoice) if op == "status" else qr.cancel(rt.ctx, invoice))
        print_json(out.as_dict())
        if out.entry.unresolved:
            return 3
        return SETTLED_EXIT.get(out.outcome, 2)

    return run_with_runtime(args, other)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("qr", help="QR code payments: pay, status, cancel",
                              description="pay: exit 0 paid, 1 not paid, 2 error, 3 unknown.")
    sub = p.add_subparsers(dest="qr_command", parser_class=type(p))
    q = sub.add_parser("pay", help="show a QR code for --amount and wait for the customer to pay")
    q.add_argument("--amount", required=True, help="amount in major units, e.g. 12.34")
    q.add_argument("--tax", help="tax included in the amount")
    q.add_argument("--wait", type=float, default=120.0,
                   help="seconds to wait for the payment before the code is cancelled (default 120)")
    q.add_argument("--no-pad", action="store_true", help="do not show the code on the PIN pad (LG)")
    for name, text in (("status", "what became of a QR payment (unfinished ones are settled)"),
                       ("cancel", "cancel a QR payment: an unpaid code dies, a paid one is reversed")):
        q = sub.add_parser(name, help=text)
        q.add_argument("--invoice", required=True, help="the QR payment's invoice number")
    p.set_defaults(handler=qr_command)
