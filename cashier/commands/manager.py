"""``cashier manager-pin``: make the line for a till profile's ``manager_pin_hash``.

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
