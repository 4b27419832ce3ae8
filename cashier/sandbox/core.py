"""The sandbox's plumbing: the route registry, the error envelope, the sandbox clock and state.

Each family of the Host API lives in its own module (``transactions``, ``devices``, ...), which
declares it (``FAMILY = Family("devices")``) and its handlers (``@FAMILY.route(...)``);
``app.FAMILIES`` lists every family, and each ``HostSandbox`` builds its route table from that
list (importing a module fills no table anywhere). A handler gets a ``HostCall`` and returns the
``result[0]`` item; it raises ``HostFault`` to answer with the host's error envelope.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from starlette.routing import BaseRoute

ALL_OPTIONS = frozenset({"HD", "LG", "DCP", "DCC"})
SERVER_NAME = "SANDBOX01"


class HostFault(Exception):
    """Answer with the host's error envelope: ``{"result":[{"error":{...},"server":{...}}]}``."""

    def __init__(self, primary_code: int, short_text: str, long_text: str = "", *,
                 secondary_code: int = 0, http_status: int = 400, severity: str = "Info",
                 code: int | None = None, legacy: bool = True) -> None:
        self.primary_code = primary_code
        self.secondary_code = secondary_code
        self.short_text = short_text[:16]
        self.long_text = long_text[:255]
        self.http_status = http_status
        self.severity = severity
        self.code = code
        self.legacy = legacy  # False: ErrorNoPrimarySecondary (OCT, ACH, updater)
        super().__init__(f"{primary_code},{secondary_code} {short_text}: {long_text}")

    def envelope(self) -> dict[str, Any]:
        error: dict[str, Any] = {"shortText": self.short_text, "longText": self.long_text,
                                 "severity": self.severity}
        if self.legacy:
            error["primaryCode"] = self.primary_code
            error["secondaryCode"] = self.secondary_code
        if self.code is not None:
            error["code"] = self.code
        return {"result": [{"error": error, "server": {"name": SERVER_NAME}}]}


def missing_field(field: str) -> HostFault:
    return HostFault(9000, "MISSING FIELD", f"{field} is required", code=40102)


def invalid_field(field: str, rule: str) -> HostFault:
    return HostFault(9000, "INVALID FIELD", f"{field}: {rule}", code=40101)


def timeout_fault() -> HostFault:
    return HostFault(9951, "RESPONSE TIMEOUT", "Timeout waiting for response across the internet",
                     http_status=504, severity="Error", code=40001)


def invoice_not_found(invoice: str) -> HostFault:
    return HostFault(9815, "NO INV", f"Invoice Not Found: {invoice}", code=40104)


class SandboxClock:
    """Wall clock plus an offset that ``POST /_sandbox/clock`` advances."""

    def __init__(self) -> None:
        self.offset_s = 0.0

    def now(self) -> float:
        return time.time() + self.offset_s

    def advance(self, seconds: float) -> None:
        self.offset_s += seconds


@dataclass
class SandboxConfig:
    """How the sandbox was started (``cashier sandbox serve`` flags)."""

    option: str = "LG"
    access_token: str | None = None
    #: When set, only this (client GUID, auth token) pair is exchanged for an access token.
    credential_pair: tuple[str, str] | None = None
    hmac_keys: dict[str, bytes] = field(default_factory=dict)
    state_file: str | None = None
    #: Seconds of real time per trigger second (111.XX amounts); tests shrink it.
    delay_scale: float = 1.0
    offline_max_s: float = 4 * 3600.0
    lg_version: int = 3080
    lg_offline_feature: bool = True
    ach_notification_url: str | None = None
    checkout_notification_url: str | None = None
    merchant_id: int = 15877
    merchant_name: str = "Sandbox Merchant"


@dataclass
class HostCall:
    """One request as a handler sees it."""

    method: str
    path: str
    body: dict[str, Any]
    headers: dict[str, str]
    option: str
    state: Any  # SandboxState; typed loosely to keep modules free of import cycles
    config: SandboxConfig

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


Handler = Callable[[HostCall], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class HostRoute:
    method: str
    path: str
    options: frozenset[str]
    handler: Handler


#: A ``/_sandbox`` control made for one sandbox (its routes find that sandbox in the closure).
ControlFactory = Callable[[Any], Iterable[BaseRoute]]
#: (method, path without /api/rest/v1) -> route: one sandbox's table (``route_table``).
RouteTable = dict[tuple[str, str], HostRoute]


@dataclass
class Family:
    """One family of the Host API, declared by its module and listed in ``app.FAMILIES``: its
    operations (``route``) and its ``/_sandbox`` controls (a starlette route, whose handler finds
    the sandbox at ``request.app.state.sandbox``, or a factory ``f(sandbox) -> routes``)."""

    name: str
    routes: list[HostRoute] = field(default_factory=list)
    controls: list[BaseRoute | ControlFactory] = field(default_factory=list)

    def route(self, method: str, path: str, options: str = "HD LG DCP DCC",
              ) -> Callable[[Handler], Handler]:
        """A handler for one operation of the spec's endpoint table and its Options."""
        opts = ALL_OPTIONS if options == "all" else frozenset(options.split())

        def register(handler: Handler) -> Handler:
            self.routes.append(HostRoute(method, path, opts, handler))
            return handler

        return register


def route_table(families: Iterable[Family]) -> RouteTable:
    """The operations of ``families``; one claimed by two families stops the start (naming both)."""
    table: RouteTable = {}
    owner: dict[tuple[str, str], str] = {}
    for family in families:
        for route in family.routes:
            key = (route.method, route.path)
            if key in table:
                raise ValueError(f"{route.method} {route.path} is claimed by the sandbox families "
                                 f"{owner[key]} and {family.name}")
            table[key], owner[key] = route, family.name
    return table


# ---- more errors of the host (codes: docs/decisions/002-sandbox.md, "Sandbox host core") -
def duplicate_invoice(invoice: str) -> HostFault:
    """9815/1: the invoice is already used by a different kind of transaction in this batch."""
    return HostFault(9815, "DUP INVOICE", f"Duplicate invoice {invoice} for another transaction",
                     secondary_code=1, code=40104)


def token_not_found(token: str, merchant_id: int) -> HostFault:
    return HostFault(9846, "BAD UNIQUE ID",
                     f"Unique Identifier({token}) not found for Merchant {merchant_id:010d}", code=40105)


def invalid_amount(rule: str) -> HostFault:
    return HostFault(9000, "INVALID AMOUNT", f"amount.total: {rule}", code=40107)


def access_denied(secondary: int, short_text: str, long_text: str) -> HostFault:
    """9862: access token or signature refused (HTTP 400, the status the vendor declares)."""
    return HostFault(9862, short_text, long_text, secondary_code=secondary, code=40300)
