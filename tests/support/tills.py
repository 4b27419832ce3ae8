"""A till's checks and neighbours in the flow tests: the command run as a process, another till
voiding behind its back, the journal against the host, the drawer opened, the gift cards."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import httpx

from cashier.journal.model import State
from tests.support.forked_cli import run_cashier

#: The gift card the flow tests activate, reload and spend (not the sandbox's pad card).
GIFT_NUMBER = "2664650000001234"


def cashier(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the ``cashier`` command in its own process, as a script or a cashier would."""
    return run_cashier(*args, env=env)


#: Another till's program on the same host: voids an invoice there (argv: profile, invoice).
_OTHER_TILL_VOIDS = """
import asyncio, sys
from cashier.config import load_profile
from cashier.runtime import open_runtime


async def main() -> None:
    rt = await open_runtime(load_profile(sys.argv[1]))
    try:
        await rt.client.void(sys.argv[2])
    finally:
        await rt.close()

asyncio.run(main())
"""


def void_elsewhere(profile: Path, invoice: str, env: dict[str, str]) -> None:
    """Another till's process (``profile``) voids ``invoice`` at the host, behind the back of the
    till that sold it: what ``recover`` and the close must find and correct (issue 27)."""
    done = subprocess.run([sys.executable, "-c", _OTHER_TILL_VOIDS, str(profile), invoice],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


async def assert_agrees(till: Any) -> None:
    """Every approval the host holds is in the journal with the same amount, and vice versa."""
    ledger = await till.ledger()
    host = {i: D(r["approvedAmount"]) for i, r in ledger.items()
            if r["state"] in ("sale", "authorized", "refund")}
    rows = await till.journal.search(limit=10_000)
    mine = {e.invoice: (e.captured if e.state is State.CAPTURED else e.approved) for e in rows
            if e.state in (State.APPROVED, State.CAPTURED)}
    assert host == mine


def open_drawer(profile: Any, float_amount: str = "100.00") -> Any:
    """Cash needs an open drawer session: opened through the real drawer, on its own connection."""
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer

    store = open_recorder(profile)
    try:
        return Drawer(store, profile.roster).open(clerk=str(profile.clerk_id), float_amount=float_amount)
    finally:
        store.close()


async def gift_ledger(till: Any) -> dict[str, dict[str, Any]]:
    """The sandbox's gift cards by last four (the ledger shows them masked)."""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=till.sandbox.asgi),
                                 base_url="http://sandbox") as control:
        cards = (await control.get("/_sandbox/ledger")).json()["giftcards"]
    return {c["number"][-4:]: c for c in cards}
