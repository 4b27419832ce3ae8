"""The Charge API in tests: a client on the in-process sandbox, a card token made through it, and
the sandbox served over a real loopback socket (uvicorn in a background thread)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import uvicorn

from cashier.chargeapi.client import ChargeApiClient
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.chargeapi.app import ChargeApiSim, charge_api_sim
from cashier.sandbox.core import SandboxConfig

SECRET = "sk_test_alpha"
PUBLIC = "pk_test_alpha"


def make_client(sandbox: HostSandbox, secret: str = SECRET, public: str | None = PUBLIC,
                **kw: object) -> ChargeApiClient:
    kw.setdefault("backoff_s", 0.01)
    return ChargeApiClient(secret, "http://sandbox", public_key=public,
                         transport=httpx.ASGITransport(app=sandbox.asgi), **kw)  # type: ignore[arg-type]


async def token(client: ChargeApiClient, number: str = "4242424242424242") -> str:
    tok = await client.create_token(number, "12", "2055", cvc="123")
    return tok.id


@dataclass
class Served:
    """A sandbox served over a socket (``serving``) and its URL."""

    sandbox: HostSandbox
    url: str

    @property
    def sim(self) -> ChargeApiSim:
        return charge_api_sim(self.sandbox)


@contextlib.contextmanager
def serving(delay_scale: float) -> Iterator[Served]:
    """The sandbox behind uvicorn on a free loopback port, in a background thread."""
    sandbox = HostSandbox(SandboxConfig(delay_scale=delay_scale))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # the answers' head and body leave in two writes: without this, Nagle holds the body until
    # the client's delayed ACK (40 ms a request on Linux); accepted sockets inherit the option
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(sandbox.asgi, log_level="warning", lifespan="off", access_log=False,
                            interface="asgi3")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("sandbox did not start")
        time.sleep(0.01)
    try:
        yield Served(sandbox, f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        sock.close()
