"""The store in tests: ``cashier store ...`` in a process of its own (forked from the worker's
pre-imported server), the store service served over a real socket that a test can kill, and the
store's roster and sessions made through the real command and the real sign-in."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from cashier.store.localpg import free_port
from tests.support.forked_cli import ForkedProcess, run_cashier, start_cashier

ROOT = Path(__file__).resolve().parents[2]


def cashier(*args: str, env: dict[str, str] | None = None, timeout: float = 60,
            stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``cashier ARGS`` in its own process (forked from the worker's pre-imported server)."""
    return run_cashier(*args, env=env, timeout=timeout, cwd=ROOT, stdin=stdin)


class ServedStore:
    """``cashier store serve`` in a process of its own (forked: ``start_cashier``); ``kill()`` is
    a crash, ``start()`` a restart on the same port (the tills' profiles keep their
    ``store_url``)."""

    def __init__(self, dsn: str, *extra: str) -> None:
        self.dsn = dsn
        self.extra = extra  # more of ``store serve``'s options (``--training-catalog``)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: ForkedProcess | None = None

    def start(self) -> ServedStore:
        self.proc = start_cashier("store", "serve", "--database", self.dsn,
                                  "--port", str(self.port), *self.extra, cwd=ROOT)
        deadline = time.monotonic() + 30
        line = ""
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if line.startswith("store listening on") or not line:
                break
        if line.strip() != f"store listening on {self.url}":
            self.proc.kill()
            self.proc.wait(10)
            raise AssertionError(f"store did not start: {line!r} {self.proc.stderr.read()}")
        return self

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> int:
        assert self.proc is not None
        ended = self.proc.poll()
        if ended is not None:
            return ended
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(15)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def add_till(dsn: str, till_id: str) -> str:
    import json

    done = cashier("store", "add-till", till_id, "--database", dsn)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["till"] == till_id and len(out["token"]) >= 40
    return str(out["token"])


def add_manager(dsn: str, manager_id: str, pin: str, name: str = "Manager") -> None:
    """A manager on the store's own roster (``cashier store add-manager``, the PIN on stdin)."""
    done = cashier("store", "add-manager", manager_id, "--name", name, "--database", dsn,
                   stdin=pin + "\n")
    assert done.returncode == 0, done.stderr


def put_manager(dsn: str, manager_id: str, pin: str, name: str = "Manager") -> None:
    """A manager on the store's roster written by the store's own ``StoreDatabase.add_manager``,
    the PIN hashed at the tests' scrypt cost (tests/support/profiles.py ``pin_hash``): every
    sign-in the test makes then checks the PIN at that cost (``add-manager`` hashes at the
    product's, about 0.05 s of CPU a sign-in). For tests whose point is neither the roster's
    command nor the PIN guard; those (test_cli, test_authority, test_pin_burst, the hostile
    store) keep ``add_manager``."""
    import asyncio
    import threading

    from cashier.store.database import StoreDatabase
    from cashier.store.schema import migrate
    from tests.support.profiles import pin_hash

    migrate(dsn)

    async def add() -> None:
        db = StoreDatabase(dsn, min_size=1, max_size=1)
        await db.open()
        try:
            await db.add_manager(manager_id, name, pin_hash(pin))
        finally:
            await db.close()

    failed: list[BaseException] = []

    def run() -> None:  # a thread of its own: the calling test may be inside an event loop
        try:
            asyncio.run(add())
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


def manager_session(profile: Any, manager_id: str, pin: str) -> str:
    """A store manager's session for ``profile``'s till (the PIN checked by the store)."""
    from cashier.store.close import sign_in_manager

    return sign_in_manager(profile, manager_id, pin)
