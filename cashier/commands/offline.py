"""``cashier offline``: store and forward while the host is away (issue 40).

``status`` prints one JSON object: whether the till is offline (and whether by itself), what is
stored (count, amount, the oldest), the profile's limits and the payments declined at the
forward. ``probe`` asks the gateway to come back online when the till went offline by itself
(exit 0 online, 1 still offline). ``manualsale`` takes a voice authorization code with a
manager's PIN (stdin). ``host down|up``: training only, the embedded host's "Host down" switch.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cashier.commands.payments import (
    MANAGER_HELP,
    PAYMENT_EXIT_CODES,
    _amount,
    _card_args,
    _keyed,
    _result,
    print_json,
    read_manager,
    run_with_runtime,
)
from cashier.errors import ValidationError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "offline", help="store and forward: status, probe, manual sale, training's host switch",
        description="While the host cannot be reached an LG or DCP till stores card payments "
                    "within the profile's [offline] limits and forwards them when it is back.")
    sub = parser.add_subparsers(dest="offline_command")
    p = sub.add_parser("status", help="one JSON object: offline, stored, limits, declined at forward")
    p.set_defaults(handler=status_command)
    p = sub.add_parser("probe", help="back online if the host answers (exit 0 online, 1 offline)")
    p.set_defaults(handler=probe_command)
    p = sub.add_parser("manualsale", help="a sale on a voice authorization code (a manager's PIN "
                                          "on stdin)")
    p.add_argument("--amount", required=True, help="the amount the voice authorization approved")
    p.add_argument("--auth-code", required=True, help="the voice authorization code")
    p.add_argument("--manager", metavar="ID", required=True, help=MANAGER_HELP)
    _card_args(p)
    p.set_defaults(handler=manualsale_command)
    p = sub.add_parser("host", help="training: take the embedded host away or bring it back")
    p.add_argument("state", choices=("down", "up"),
                   help="down: the host unreachable behind the gateway; up: back")
    p.set_defaults(handler=host_command)
    parser.set_defaults(handler=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    print("cashier offline: error: choose a command: status, probe, manualsale, host",
          file=sys.stderr)
    return 2


def status_command(args: argparse.Namespace) -> int:
    from cashier.flows.offline import status

    async def body(rt: Any) -> int:
        print_json(await status(rt.ctx))
        return 0

    return run_with_runtime(args, body)


def probe_command(args: argparse.Namespace) -> int:
    from cashier.flows.offline import catch_up, mode

    async def body(rt: Any) -> int:
        await catch_up(rt.ctx)
        now = await mode(rt.ctx)
        print_json({"offline": now.offline, "automatic": now.automatic})
        return 1 if now.offline else 0

    return run_with_runtime(args, body)


def manualsale_command(args: argparse.Namespace) -> int:
    from cashier.flows.payments import manual_sale

    amount = _amount(args.amount, "--amount", args)
    card = _keyed(args)

    async def body(rt: Any) -> int:
        assert amount is not None
        manager = read_manager(rt, args)
        return _result(await manual_sale(rt.ctx, amount, authorization_code=args.auth_code,
                                         card=card, token=args.token, manager=manager),
                       PAYMENT_EXIT_CODES)

    return run_with_runtime(args, body)


def host_command(args: argparse.Namespace) -> int:
    async def body(rt: Any) -> int:
        if rt.sandbox is None:
            raise ValidationError("host", "only a training till has a host to take away")
        rt.sandbox.set_upstream(args.state == "up")
        print_json({"host": args.state})
        return 0

    return run_with_runtime(args, body)
