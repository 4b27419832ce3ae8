"""``cashier credentials exchange``: trade a client GUID and auth token for the access token.

The token goes straight into the OS keyring (``cashier.config.store_access_token``) and is
never printed. In training mode the exchange runs against the in-process sandbox.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
from typing import Any

from cashier.errors import CashierError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("credentials", help="host credentials of this till",
                                   description="Manage the till's Host API credentials.")
    sub = parser.add_subparsers(dest="credentials_command")
    exchange = sub.add_parser(
        "exchange", help="exchange a client GUID and auth token for an access token",
        description="Runs /credentials/accesstoken against the profile's host (the embedded "
                    "sandbox in training mode) and stores the access token in the OS keyring.")
    exchange.add_argument("--client-guid", required=True, help="client GUID from the host's analyst")
    exchange.add_argument("--auth-token",
                          help="auth token; '-' reads it from stdin, and without the option it "
                               "comes from CASHIER_AUTH_TOKEN or a prompt (keeps it out of ps)")
    exchange.set_defaults(handler=exchange_command)
    backends = sub.add_parser(
        "backends", help="show which OS keyring backends this installation can use",
        description="Prints JSON: the keyring backend in use and every backend discovered. "
                    "Store IT uses it to check a packaged till finds the desktop's keyring.")
    backends.set_defaults(handler=backends_command)
    parser.set_defaults(handler=lambda args: _usage(parser))


def backends_command(args: argparse.Namespace) -> int:
    """List keyring backends: a frozen build that lost keyring's entry points shows fewer."""
    import json
    from importlib.metadata import entry_points

    import keyring
    import keyring.backend

    viable = sorted({type(k).__module__ for k in keyring.backend.get_all_keyring()})
    # every backend class keyring loaded through its entry points, usable here or not
    known = sorted({cls.__module__ for cls in keyring.backend.KeyringBackend._classes})
    current = keyring.get_keyring()
    print(json.dumps({
        "backend": f"{type(current).__module__}.{type(current).__name__}",
        "entry_points": sorted(ep.name for ep in entry_points(group="keyring.backends")),
        "known": known, "viable": viable,
    }))
    return 0


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    print("cashier credentials: error: choose a command: exchange or backends", file=sys.stderr)
    return 2


def _auth_token(value: str | None) -> str:
    if value == "-":
        return sys.stdin.readline().strip()
    if value:
        return value
    env = os.environ.get("CASHIER_AUTH_TOKEN")
    if env:
        return env
    return getpass.getpass("Auth token: ").strip()


def exchange_command(args: argparse.Namespace) -> int:
    from cashier.config import command_profile
    from cashier.credentials import exchange_and_store

    profile = command_profile(args)
    auth_token = _auth_token(args.auth_token)
    if not auth_token:
        print("cashier credentials: error: auth token: must not be empty", file=sys.stderr)
        return 2
    try:
        length = asyncio.run(exchange_and_store(profile, args.client_guid, auth_token))
    except CashierError as exc:
        print(f"cashier credentials: error: {exc}", file=sys.stderr)
        return 2
    where = "the training sandbox" if profile.is_training else profile.host_url
    print(f"Access token for till {profile.till_id} obtained from {where} and stored in the "
          f"OS keyring ({length} characters).")
    return 0
