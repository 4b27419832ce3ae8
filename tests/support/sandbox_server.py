"""The sandbox served over a real socket by ``cashier sandbox serve`` in a process of its own:
forked from the worker's pre-imported command (``tests.support.forked_cli.start_cashier``), or
cold from a new Python, as a till starts it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from cashier.host.client import HostClient, HostSettings
from tests.support.forked_cli import ForkedProcess, start_cashier

ROOT = Path(__file__).resolve().parents[2]


class ServedSandbox:
    """``cashier sandbox serve --port 0`` in a process of its own: a host over a real socket
    (forked from the worker's pre-imported command: ``tests.support.forked_cli.start_cashier``)."""

    def __init__(self, option: str, tmp: Path) -> None:
        self.proc = start_cashier("sandbox", "serve", "--port", "0", "--option", option, cwd=tmp)
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            self.proc.kill()
            self.proc.wait(10)
            raise RuntimeError(f"sandbox did not start: {line!r} {self.proc.stderr.read()}")
        self.url = line.strip().split("listening on ", 1)[1]
        self.api = self.url + "/api/rest/v1"

    def control(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except Exception:
            self.proc.kill()


class Served:
    """A sandbox process started by ``start`` and the URL it listens on."""

    def __init__(self, proc: subprocess.Popen[str] | ForkedProcess, url: str) -> None:
        self.proc = proc
        self.url = url

    def client(self, option: str) -> HostClient:
        settings = HostSettings(base_url=self.url + "/api/rest/v1", processing_option=option,  # type: ignore[arg-type]
                                terminal_id="1742")
        return HostClient(settings, access_token="SOCKET-TOKEN")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=15)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def start(*args: str, cold: bool = False) -> Served:
    """``cashier sandbox serve ARGS`` in a process of its own: forked from the worker's
    pre-imported command (``start_cashier``), or ``cold`` from a new Python, as a till starts it."""
    serve = ["sandbox", "serve", "--port", "0", "--access-token", "SOCKET-TOKEN", *args]
    proc: subprocess.Popen[str] | ForkedProcess
    if cold:
        proc = subprocess.Popen([sys.executable, "-m", "cashier.cli", *serve],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    else:
        proc = start_cashier(*serve, cwd=ROOT)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    line = ""
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("sandbox listening on http://") or not line:
            break
    if not line.startswith("sandbox listening on"):
        proc.kill()
        raise AssertionError(f"no listening line: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    return Served(proc, line.strip().rsplit(" ", 1)[1])
