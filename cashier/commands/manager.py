"""``cashier manager-pin``: make the profile line for a PIN: the till's ``manager_pin_hash`` or
a clerk's ``pin_hash`` (one hashing scheme for both, so one command makes either);
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

from cashier.commands import arguments


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "manager-pin", help="print a PIN hash for the till profile (manager or clerk)",
        description="Asks for a PIN (4 to 8 digits) and prints its salted hash as the two lines it "
                    "can go in the till profile: manager_pin_hash (the till's manager PIN) or "
                    "pin_hash (in a [[clerks]] table). The PIN itself is never stored.")
    parser.add_argument("--stdin", action="store_true", help="read the PIN from standard input")
    parser.set_defaults(handler=manager_pin_command)
    failures = subparsers.add_parser(
        "pin-failures", help="the till's failed manager PINs (a manager; PIN on stdin)",
        description="Every wrong manager PIN this till was given: clerk, time, command, and "
                    "whether the clerk was locked. A manager's PIN (standard input) shows them.")
    failures.add_argument("--manager", required=True, help="the manager's id ('-': any manager)")
    failures.add_argument("--limit", type=arguments.number(1, 1000), default=50,
                          help="how many (default 50, at most 1000)")
    failures.set_defaults(handler=pin_failures_command)


def pin_failures_command(args: argparse.Namespace) -> int:
    import json

    from cashier.approvals import pin_guard
    from cashier.config import command_profile
    from cashier.journal.pin_guard import command_name

    profile = command_profile(args)
    guard = pin_guard(profile.resolved_journal_path)
    manager = guard.check(profile.roster, args.manager, sys.stdin.readline().strip(), command_name(args))
    print(json.dumps({"manager": str(manager.id), "failures": guard.failures(args.limit)},
                     sort_keys=True))
    return 0


def manager_pin_command(args: argparse.Namespace) -> int:
    from cashier.manager_pin import hash_pin

    pin = sys.stdin.readline().strip() if args.stdin else getpass.getpass("Manager PIN (4 to 8 digits): ")
    try:
        hashed = hash_pin(pin)
    except ValueError as exc:
        print(f"cashier manager-pin: error: {exc}", file=sys.stderr)
        return 2
    # valid TOML as printed: the comments say which line goes where
    print("# The till's manager PIN: this line at the top of the profile (or under [till]):")
    print(f'manager_pin_hash = "{hashed}"')
    print("# Or a clerk's PIN: this line in that clerk's [[clerks]] table instead:")
    print(f'pin_hash = "{hashed}"')
    return 0
