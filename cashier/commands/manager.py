"""``cashier manager-pin``: make the line for a till profile's ``manager_pin_hash``;
``cashier pin-failures --manager ID``: the till's failed manager PINs (newest first), shown to a
manager (the PIN on standard input, under the same guard).

The PIN is asked without echo (or read from standard input with ``--stdin``) and only its salted
hash is printed, so the PIN itself is never written anywhere.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "manager-pin", help="print a manager PIN hash for the till profile",
        description="Asks for a manager PIN (4 to 8 digits) and prints the manager_pin_hash line "
                    "to put in the till profile. The PIN itself is never stored.")
    parser.add_argument("--stdin", action="store_true", help="read the PIN from standard input")
    parser.set_defaults(handler=manager_pin_command)
    failures = subparsers.add_parser(
        "pin-failures", help="the till's failed manager PINs (a manager; PIN on stdin)",
        description="Every wrong manager PIN this till was given: clerk, time, command, and "
                    "whether the clerk was locked. A manager's PIN (standard input) shows them.")
    failures.add_argument("--manager", required=True, help="the manager's id ('-': any manager)")
    failures.add_argument("--limit", type=int, default=50, help="how many (default 50)")
    failures.set_defaults(handler=pin_failures_command)


def pin_failures_command(args: argparse.Namespace) -> int:
    import json

    from cashier.config import load_profile
    from cashier.errors import ValidationError
    from cashier.pin_guard import PinGuard, command_name

    if not 1 <= args.limit <= 1000:
        raise ValidationError("--limit", "must be 1 to 1000")
    profile = load_profile(getattr(args, "profile", None))
    guard = PinGuard(profile.resolved_journal_path)
    manager = guard.check(profile.roster, args.manager, sys.stdin.readline().strip(), command_name(args))
    print(json.dumps({"manager": str(manager.id), "failures": guard.failures(args.limit)},
                     sort_keys=True))
    return 0


def manager_pin_command(args: argparse.Namespace) -> int:
    from cashier.manager_pin import hash_pin

    pin = sys.stdin.readline().strip() if args.stdin else getpass.getpass("Manager PIN (4 to 8 digits): ")
    try:
        line = f'manager_pin_hash = "{hash_pin(pin)}"'
    except ValueError as exc:
        print(f"cashier manager-pin: error: {exc}", file=sys.stderr)
        return 2
    print(line)
    return 0
