"""Fault injection: lost answers, 504s, resets and delays on chosen Host API paths.

Rules come from ``POST /_sandbox/faults``. They act at the ASGI layer, outside the Host API
dispatcher, because a dropped connection is not an answer: the app must either raise before
anything is sent (in-process, ``httpx.ASGITransport`` surfaces the exception to the caller) or,
over a socket, start a response and die so the client sees an incomplete message. Both are what
a cashier sees when the network eats the host's answer.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import httpx

from cashier.host import codec
from cashier.sandbox.core import timeout_fault

ACTIONS = frozenset({"drop_after_commit", "timeout_504", "reset", "delay"})

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class InjectedDisconnect(httpx.RemoteProtocolError):
    """The host committed, then the connection died before the answer (in-process form)."""


class InjectedReset(httpx.ReadError):
    """The connection was reset before the host did anything (in-process form)."""


class FaultRuleError(ValueError):
    """A fault rule that names a bad field; the message names it and the rule."""


@dataclass
class FaultRule:
    path: str
    action: str
    probability: float = 1.0
    count: int | None = None  # None: until cleared
    delay_ms: int = 0
    commit: bool = True
    fired: int = 0

    def describe(self) -> dict[str, Any]:
        return {"path": self.path, "action": self.action, "probability": self.probability,
                "count": self.count, "delay_ms": self.delay_ms, "commit": self.commit,
                "fired": self.fired}


def parse_rule(raw: Any, index: int = 0) -> FaultRule:
    """One rule from JSON, or ``FaultRuleError`` naming the field."""
    where = f"rules[{index}]"
    if not isinstance(raw, dict):
        raise FaultRuleError(f"{where}: must be an object")
    unknown = set(raw) - {"path", "action", "probability", "count", "delay_ms", "commit"}
    if unknown:
        raise FaultRuleError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    path = raw.get("path")
    if not isinstance(path, str) or not path.startswith("/"):
        raise FaultRuleError(f"{where}.path: must be a request path such as "
                             "/api/rest/v1/transactions/sale")
    action = raw.get("action")
    if action not in ACTIONS:
        raise FaultRuleError(f"{where}.action: must be one of {', '.join(sorted(ACTIONS))}")
    probability = raw.get("probability", 1.0)
    if isinstance(probability, bool) or not isinstance(probability, int | float | Decimal) \
            or not 0 <= probability <= 1:
        raise FaultRuleError(f"{where}.probability: must be a number from 0 to 1")
    count = raw.get("count")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        raise FaultRuleError(f"{where}.count: must be a whole number of at least 1, or null")
    delay_ms = raw.get("delay_ms", 0)
    if isinstance(delay_ms, bool) or not isinstance(delay_ms, int) or not 0 <= delay_ms <= 600_000:
        raise FaultRuleError(f"{where}.delay_ms: must be a whole number from 0 to 600000")
    commit = raw.get("commit", True)
    if not isinstance(commit, bool):
        raise FaultRuleError(f"{where}.commit: must be true or false")
    if action == "delay" and not delay_ms:
        raise FaultRuleError(f"{where}.delay_ms: is required for action delay")
    return FaultRule(path.rstrip("/") or "/", action, float(probability), count, delay_ms, commit)


class FaultBook:
    """The active rules. The first matching rule that fires wins; a spent rule is dropped."""

    def __init__(self, seed: int | None = None) -> None:
        self.rules: list[FaultRule] = []
        self.random = random.Random(seed)

    def add(self, rules: list[FaultRule]) -> None:
        self.rules.extend(rules)

    def clear(self) -> None:
        self.rules.clear()

    def pick(self, path: str) -> FaultRule | None:
        if not self.rules:
            return None
        path = path.rstrip("/") or "/"
        for rule in self.rules:
            if rule.path != path:
                continue
            if rule.probability < 1 and self.random.random() >= rule.probability:
                continue
            rule.fired += 1
            if rule.count is not None and rule.fired >= rule.count:
                self.rules.remove(rule)
            return rule
        return None


async def _discard(message: Message) -> None:
    return None


async def apply_fault(rule: FaultRule, app: ASGIApp, scope: Scope, receive: Receive,
                      send: Send) -> None:
    """Serve one request the way ``rule`` says."""
    if rule.delay_ms:
        await asyncio.sleep(rule.delay_ms / 1000)
    if rule.action == "delay":
        await app(scope, receive, send)
        return
    if rule.action == "reset":
        await _die(send, InjectedReset("Connection reset by peer (injected)"))
        return
    if rule.action == "drop_after_commit":
        await app(scope, receive, _discard)
        await _die(send, InjectedDisconnect("Server disconnected without sending a response "
                                            "(injected, after commit)"))
        return
    # timeout_504
    if rule.commit:
        await app(scope, receive, _discard)
    fault = timeout_fault()
    body = codec.dumps(fault.envelope()).encode()
    await send({"type": "http.response.start", "status": 504,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _die(send: Send, exc: Exception) -> None:
    """Start a response that promises a body, then raise.

    In-process the transport re-raises ``exc`` (an ``httpx`` transport error). Over a socket,
    uvicorn closes the connection once a response has started and the app fails, so the client
    reads headers and then a dead socket: an incomplete message, never an answer.
    """
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"64")]})
    raise exc
