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

SANDBOX_URL = "http://sandbox/api/rest/v1"


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
    from cashier.config import load_profile, store_access_token

    profile = load_profile(getattr(args, "profile", None))
    auth_token = _auth_token(args.auth_token)
    if not auth_token:
        print("cashier credentials: error: auth token: must not be empty", file=sys.stderr)
        return 2
    token = asyncio.run(_exchange(profile, args.client_guid, auth_token))
    try:
        store_access_token(profile, token)
    except Exception as exc:  # no usable keyring on this machine
        print(f"cashier credentials: error: the access token could not be stored in the OS "
              f"keyring ({type(exc).__name__}); it was not saved anywhere", file=sys.stderr)
        return 2
    where = "the training sandbox" if profile.is_training else profile.host_url
    print(f"Access token for till {profile.till_id} obtained from {where} and stored in the "
          f"OS keyring ({len(token)} characters).")
    return 0


async def _exchange(profile: Any, client_guid: str, auth_token: str) -> str:
    import httpx

    from cashier.host.client import HostClient, HostSettings

    transport: httpx.AsyncBaseTransport | None = None
    base_url = None
    if profile.is_training:
        from cashier.sandbox.app import HostSandbox
        from cashier.sandbox.core import SandboxConfig

        transport = httpx.ASGITransport(app=HostSandbox(
            SandboxConfig(option=profile.processing_option)).asgi)
        base_url = SANDBOX_URL
    settings = HostSettings.from_profile(profile, base_url=base_url)
    async with HostClient(settings, transport=transport) as client:
        result = await client.exchange_access_token(client_guid=client_guid, auth_token=auth_token)
    token = result.access_token
    if not token:
        raise CashierError("the host answered the exchange without an access token")
    return token
