"""The sandbox as an ASGI application: the Host API under /api/rest/v1, controls under /_sandbox.

Served in-process through ``httpx.ASGITransport`` (training mode, tests) or over a socket by
``cashier sandbox serve``. Every answer is in the host's shape; nothing ever leaks a traceback.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cashier.errors import ValidationError
from cashier.host import signing
from cashier.host.validation import validate_body
from cashier.sandbox import (
    host_3ds,
    host_ach,
    host_batches,
    host_cards,
    host_checkout,
    host_credentials,
    host_dcc,
    host_devices,
    host_giftcards,
    host_merchant,
    host_mode,
    host_oct,
    host_qr,
    host_risk,
    host_rules,
    host_tokens,
    host_transactions,
    host_updater,
    host_wallet,
)
from cashier.sandbox.chargeapi.app import charge_api_routes
from cashier.sandbox.control import control_routes
from cashier.sandbox.core import (
    Family,
    HostCall,
    HostFault,
    SandboxConfig,
    access_denied,
    invalid_field,
    missing_field,
    route_table,
)
from cashier.sandbox.faults import ASGIApp, FaultBook, Receive, Scope, Send, apply_fault
from cashier.sandbox.shared import BodyError, parse_json
from cashier.sandbox.state import SandboxState
from cashier.sandbox.terminals import TerminalHub

log = logging.getLogger(__name__)
PREFIX = "/api/rest/v1"
#: The interface headers the vendor marks required on every operation, with their limits.
#: Decision: the sandbox requires them too, so a till that forgets them fails in training.
INTERFACE_HEADERS = (("InterfaceVersion", 11), ("InterfaceName", 25), ("CompanyName", 26))
_FORBIDDEN = frozenset("$%:^-~<>,?\u201c\u201d\u2018\u2019{}[]\\+=")
NO_ACCESS_TOKEN = frozenset({"/credentials/accesstoken"})


_TAG = "\x00" + secrets.token_hex(4)  # unguessable: a client's text can never be unquoted
_UNQUOTE = re.compile(r'"\\u0000' + _TAG[1:] + r'(-?[0-9]+(?:\.[0-9]+)?)"')


def _decimal_marker(value: Any) -> str:
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError("amounts must be finite")
        return _TAG + format(value, "f")
    raise TypeError(f"not JSON: {type(value).__name__}")


def fast_dumps(data: Any) -> str:
    """``codec.dumps`` output (Decimals as plain JSON numbers) at the C encoder's speed: each
    Decimal goes out as a tagged string, and one regex pass removes the quotes."""
    text = json.dumps(data, default=_decimal_marker, separators=(",", ":"), allow_nan=False)
    return _UNQUOTE.sub(r"\1", text) if "\\u0000" in text else text


def json_response(data: Any, status: int = 200) -> Response:
    return Response(fast_dumps(data), status_code=status, media_type="application/json")


#: The Host API families the sandbox serves, each named here (a family module that fails to
#: import stops the sandbox's import, naming it: a training host that quietly answers 404 for a
#: whole family is worse than one that does not start).
FAMILIES: tuple[Family, ...] = (
    host_3ds.FAMILY, host_ach.FAMILY, host_batches.FAMILY, host_cards.FAMILY, host_checkout.FAMILY,
    host_credentials.FAMILY, host_dcc.FAMILY, host_devices.FAMILY, host_giftcards.FAMILY,
    host_merchant.FAMILY, host_mode.FAMILY, host_oct.FAMILY, host_qr.FAMILY, host_risk.FAMILY,
    host_rules.FAMILY, host_tokens.FAMILY, host_transactions.FAMILY, host_updater.FAMILY,
    host_wallet.FAMILY,
)


class HostSandbox:
    """Holds config and state; ``asgi`` is the application to serve (faults sit in front of it)."""

    def __init__(self, config: SandboxConfig | None = None,
                 families: Sequence[Family] = FAMILIES) -> None:
        #: (method, path) -> route of the Host API operations this sandbox answers
        self.routes = route_table(families)
        self.config = config or SandboxConfig()
        self.state = SandboxState(self.config)
        self.faults = FaultBook()
        if self.config.state_file:
            self.state.load(self.config.state_file)
        routes: list[BaseRoute] = [
            Route(PREFIX + "/{path:path}", self.host_endpoint,
                  methods=["GET", "POST", "DELETE", "PUT", "PATCH"]),
        ]
        routes += control_routes(self, families)
        routes += charge_api_routes(self)
        self.app = Starlette(routes=routes)
        #: control routes added by other parts find the sandbox here
        self.app.state.sandbox = self
        self.asgi: ASGIApp = self._serve

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            with self.state.request():  # --state: one unit of work per request
                if self.faults.rules:
                    rule = self.faults.pick(scope.get("path", ""))
                    if rule is not None:
                        await apply_fault(rule, self._direct, scope, receive, send)
                        return
                await self._direct(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _direct(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Host API requests skip starlette's router and middleware (a third of the time)."""
        if not scope.get("path", "").startswith(PREFIX + "/"):
            try:
                await self.app(scope, receive, send)
            except Exception as exc:
                # starlette has answered 500 already; the server must not drop the connection
                log.error("sandbox control %s %s failed: %s: %s", scope.get("method"),
                          scope.get("path"), type(exc).__name__, exc)
            return
        request = Request(scope, receive)
        response = await self.host_endpoint(request)
        await response(scope, receive, send)

    def save(self) -> None:
        """Write the ledger when a state file is configured (before the answer leaves)."""
        if self.config.state_file:
            self.state.save(self.config.state_file)

    @property
    def upstream_reachable(self) -> bool:
        """Whether the host behind the gateway answers (``POST /_sandbox/upstream``)."""
        return host_mode.upstream_reachable(self.state)

    def set_upstream(self, reachable: bool) -> None:
        """Take the host behind the gateway away, or bring it back (training's "Host down")."""
        host_mode.set_upstream(self.state, reachable)
        self.save()

    @property
    def terminals(self) -> TerminalHub:
        """The virtual PIN pads: a training pad attaches to one as to a real terminal's controller
        (its prompts come to a listener, which answers them as the customer)."""
        return self.state.terminals

    async def host_endpoint(self, request: Request) -> Response:
        try:
            return await self._host(request)
        except HostFault as fault:
            return json_response(fault.envelope(), fault.http_status)
        except ClientDisconnect:
            # nobody is left to answer: one line, no traceback
            log.info("client disconnected mid-request: %s %s", request.method, request.url.path)
            return Response(status_code=400)
        except Exception:  # never a stack trace on the wire
            log.exception("sandbox handler failed")
            internal = HostFault(9999, "SYSTEM ERROR", "The sandbox could not process the request",
                                 severity="Alert", http_status=400)
            return json_response(internal.envelope(), internal.http_status)

    async def _host(self, request: Request) -> Response:
        path = "/" + request.url.path[len(PREFIX):].strip("/")
        route = self.routes.get((request.method, path))
        if route is None:
            if any(p == path for (_, p) in self.routes):
                raise HostFault(9000, "BAD METHOD", f"{request.method} is not allowed on {path}",
                                http_status=405)
            raise HostFault(9000, "NOT FOUND", f"No such endpoint: {path}", http_status=404)
        headers = {k.lower(): v for k, v in request.headers.items()}
        self._check_interface(headers)
        raw = await request.body()
        if path not in NO_ACCESS_TOKEN:
            self._check_access(headers, raw)
        body: dict[str, Any] = {}
        if request.method in ("GET", "DELETE"):
            if raw.strip():
                raise HostFault(9000, "BODY NOT ALLOWED",
                                f"{request.method} {path} must not carry a body", code=40100)
        else:
            self._check_content_type(headers)
            try:
                parsed = parse_json(raw) if raw.strip() else None
            except BodyError as exc:
                reason = str(exc)
                raise HostFault(9000, "INVALID JSON", reason[:1].upper() + reason[1:],
                                code=40103) from None
            if not isinstance(parsed, dict):
                raise HostFault(9000, "INVALID JSON", "The request body must be a JSON object",
                                code=40103)
            body = parsed
            try:
                validate_body(path, body)
            except ValidationError as exc:
                raise HostFault(9000, "INVALID FIELD", str(exc), code=40101) from None
        option = self.state.option
        if option not in route.options:
            raise HostFault(9000, "NOT SUPPORTED",
                            f"{request.method} {path} is not supported by processing option "
                            f"{option}", code=40600)
        fault = host_mode.upstream_fault(request.method, path, headers, self.state, option)
        if fault is not None:
            raise fault
        call = HostCall(request.method, path, body, headers, option, self.state, self.config)
        item = await route.handler(call)
        if isinstance(item.get("result"), list):
            # A list operation answered the whole envelope (several items, e.g. ``hasMore``).
            envelope = item
        else:
            item.setdefault("server", {"name": "SANDBOX01"})
            envelope = {"result": [item]}
        if request.method != "GET":
            self.save()
        return json_response(envelope)

    # ---- request checks ------------------------------------------------------------------
    @staticmethod
    def _check_content_type(headers: dict[str, str]) -> None:
        """A body is JSON and says so, as the host wants (decision: 400 in the envelope, the
        status the vendor declares, rather than 415)."""
        given = headers.get("content-type", "")
        if given.split(";", 1)[0].strip().lower() != "application/json":
            shown = given or "none"
            raise HostFault(9000, "INVALID FORMAT", f"Content-Type must be application/json "
                            f"(got {shown[:40]})", code=40103)

    @staticmethod
    def _check_interface(headers: dict[str, str]) -> None:
        for name, limit in INTERFACE_HEADERS:
            value = headers.get(name.lower())
            if not value:
                raise missing_field(name)
            if len(value) > limit:
                raise invalid_field(name, f"must be at most {limit} characters")
            bad = _FORBIDDEN | ({"`"} if name != "InterfaceVersion" else set())
            if any(ch in bad for ch in value):
                raise invalid_field(name, "must not contain $ % : ^ - ~ < > , ? quotes { } [ ] \\ + =")

    def _check_access(self, headers: dict[str, str], raw: bytes) -> None:
        """AccessToken, and the HMAC signature when one is sent (docs/decisions/002-sandbox.md: auth
        failures)."""
        signed = False
        authorization = headers.get("authorization")
        if authorization:
            parsed = signing.parse_authorization(authorization)
            if parsed is None:
                raise access_denied(3, "Authorization",
                                    "Authorization must be HMAC-SHA256 Credential=<key>&Signature=<b64>")
            key_id, sig = parsed
            keys = self.config.hmac_keys
            if keys:
                secret = keys.get(key_id)
                if secret is None:
                    raise access_denied(4, "Authorization", f"HMAC key {key_id} is not known")
                if not signing.verify(secret, raw, sig):
                    raise access_denied(5, "Authorization", "HMAC signature does not match the body")
                signed = True
        token = headers.get("accesstoken")
        if not token:
            if signed:
                return  # a verified signature with a configured key identifies the caller
            raise access_denied(1, "AccessToken", "AccessToken header is required")
        if len(token) > 52:
            raise access_denied(2, "AccessToken", "AccessToken not found")
        configured = self.config.access_token
        if configured is None or token == configured or token in self.state.issued_access_tokens:
            return
        raise access_denied(2, "AccessToken", "AccessToken not found")
