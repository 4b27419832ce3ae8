"""A real SMTP server for the tests: aiosmtpd on loopback, in a thread of the test process.

It keeps every message it accepted (``messages``), refuses a recipient the test names (550),
and can hold a client at RCPT (before it accepted anything) or after DATA arrived (accepted,
not yet answered), so a test can kill the till's process at either point."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import threading
import time
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Handler:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.raw: list[bytes] = []
        #: each accepted message's recipients, as the envelope named them
        self.recipients: list[list[str]] = []
        self.refuse: set[str] = set()
        #: set: a client waits at RCPT (``hold_rcpt``) or after its DATA was kept (``hold_data``)
        self.hold_rcpt = threading.Event()
        self.hold_data = threading.Event()
        self.holding = threading.Event()
        self.release = threading.Event()

    async def _hold(self) -> None:
        self.holding.set()
        while not self.release.is_set():
            await asyncio.sleep(0.02)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if address in self.refuse:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        if self.hold_rcpt.is_set():
            await self._hold()
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        data = bytes(envelope.original_content or envelope.content)
        self.raw.append(data)
        self.recipients.append(list(envelope.rcpt_tos))
        self.messages.append(email.message_from_bytes(data, policy=email.policy.default))
        if self.hold_data.is_set():
            await self._hold()
        return "250 Message accepted for delivery"


class SmtpServer:
    """``SmtpServer(port)``: started on 127.0.0.1:port; ``stop`` and ``start`` again."""

    def __init__(self, port: int | None = None, handler: Handler | None = None) -> None:
        self.port = port or free_port()
        self.handler = handler or Handler()
        self.controller: Controller | None = None

    def start(self) -> SmtpServer:
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.handler.release.set()
            self.controller.stop()
            self.controller = None

    @property
    def messages(self) -> list[EmailMessage]:
        return self.handler.messages

    def wait_messages(self, count: int, timeout_s: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout_s
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return len(self.messages) >= count
