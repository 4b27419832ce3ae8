"""``/_sandbox/*``: the controls tests and the training window use to steer the sandbox.

Routes here: ``GET /_sandbox/ledger``, ``POST|GET|DELETE /_sandbox/faults``,
``POST /_sandbox/reset``, ``POST /_sandbox/clock``.

The families add their own controls (``/_sandbox/terminals/{id}/customer`` for the virtual PIN
pads, ``/_sandbox/qrpayments/pay`` for QR) in their ``Family.controls``; the app hands this
module the families it serves. An entry is either a starlette route, whose handler finds the
sandbox at ``request.app.state.sandbox``, or a factory ``f(sandbox) -> list[route]``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Protocol

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cashier.sandbox.core import Family, SandboxConfig
from cashier.sandbox.faults import FaultBook, FaultRuleError, parse_rule
from cashier.sandbox.shared import parse_json
from cashier.sandbox.state import SandboxState

log = logging.getLogger(__name__)
MAX_CLOCK_STEP_S = 10 * 365 * 86400


class ControlledSandbox(Protocol):
    """What the controls steer (``app.HostSandbox``, which imports this module: named here by
    what it offers, so the two modules import each other in no circle)."""

    config: SandboxConfig
    state: SandboxState
    faults: FaultBook

    def save(self) -> None: ...


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return format(value, "f")
    raise TypeError(f"not JSON: {type(value).__name__}")


def _json(data: Any, status: int = 200) -> Response:
    """Control answers are plain JSON (times as numbers, amounts as the ledger's strings)."""
    return Response(json.dumps(data, default=_plain), status_code=status, media_type="application/json")


def control_error(message: str, status: int = 400) -> Response:
    return _json({"error": message}, status)


async def read_json(request: Request) -> Any:
    """The body as JSON (``Decimal`` numbers), or ``ValueError`` with a readable message (not
    JSON, nested too deeply, or the client went away)."""
    try:
        raw = await request.body()
    except ClientDisconnect:
        log.info("client disconnected mid-request: %s %s", request.method, request.url.path)
        raise ValueError("the client disconnected before the body arrived") from None
    if not raw.strip():
        return None
    return parse_json(raw)


def ledger_view(sandbox: ControlledSandbox) -> dict[str, Any]:
    """Every invoice, gift card and closed batch, with no card number beyond the masked one."""
    invoices = []
    for record in sandbox.state.family("transactions").get("invoices", {}).values():
        view = {k: v for k, v in record.items() if k != "card"}
        card = record.get("card") or {}
        view["card"] = {"type": card.get("type"), "number": card.get("number"),
                        "token": card.get("token")}
        invoices.append(view)
    giftcards = []
    for card in sandbox.state.family("giftcards").get("cards", {}).values():
        giftcards.append({"number": card.get("number"), "state": card.get("state"),
                          "balance": card.get("balance")})
    batches = list(sandbox.state.family("batches").get("closed", []))
    return {"invoices": invoices, "giftcards": giftcards, "batches": batches}


def control_routes(sandbox: ControlledSandbox, families: Iterable[Family] = ()) -> list[BaseRoute]:
    async def ledger(request: Request) -> Response:
        return _json(ledger_view(sandbox))

    async def faults(request: Request) -> Response:
        if request.method == "GET":
            return _json({"rules": [rule.describe() for rule in sandbox.faults.rules]})
        if request.method == "DELETE":
            sandbox.faults.clear()
            return _json({"rules": []})
        try:
            data = await read_json(request)
        except ValueError as exc:
            return control_error(str(exc))
        if isinstance(data, dict) and "rules" in data:
            raw_rules = data["rules"]
            seed = data.get("seed")
        else:
            raw_rules, seed = data, None
        if isinstance(raw_rules, dict):
            raw_rules = [raw_rules]
        if not isinstance(raw_rules, list) or not raw_rules:
            return control_error('send a rule object, a list of rules, or {"rules": [...]}')
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            return control_error("seed: must be a whole number")
        try:
            rules = [parse_rule(raw, i) for i, raw in enumerate(raw_rules)]
        except FaultRuleError as exc:
            return control_error(str(exc))
        if seed is not None:
            sandbox.faults.random.seed(seed)
        sandbox.faults.add(rules)
        return _json({"rules": [rule.describe() for rule in sandbox.faults.rules]})

    async def reset(request: Request) -> Response:
        sandbox.state.reset()
        sandbox.faults.clear()
        sandbox.save()
        return _json({"reset": True})

    async def clock(request: Request) -> Response:
        try:
            data = await read_json(request)
        except ValueError as exc:
            return control_error(str(exc))
        step = data.get("advance_seconds") if isinstance(data, dict) else None
        if isinstance(step, bool) or not isinstance(step, int | Decimal) \
                or not 0 <= step <= MAX_CLOCK_STEP_S:
            return control_error(f"advance_seconds: must be a number from 0 to {MAX_CLOCK_STEP_S}")
        sandbox.state.clock.advance(float(step))
        sandbox.save()
        return _json({"offset_seconds": sandbox.state.clock.offset_s,
                      "now": round(sandbox.state.clock.now(), 3)})

    routes: list[BaseRoute] = [
        Route("/_sandbox/ledger", ledger, methods=["GET"]),
        Route("/_sandbox/faults", faults, methods=["GET", "POST", "DELETE"]),
        Route("/_sandbox/reset", reset, methods=["POST"]),
        Route("/_sandbox/clock", clock, methods=["POST"]),
    ]
    for extra in (control for family in families for control in family.controls):
        if isinstance(extra, BaseRoute):
            routes.append(extra)
        else:
            routes.extend(extra(sandbox))
    known = sorted({path for route in routes if isinstance(route, Route) for path in [route.path]})

    async def unknown(request: Request) -> Response:
        for route in routes:
            if isinstance(route, Route) and route.endpoint is not unknown \
                    and route.path_regex.match(request.url.path):
                return control_error(f"{request.method} is not allowed on {request.url.path}", 405)
        return control_error(f"no such control: {request.url.path}; known: {', '.join(known)}", 404)

    routes.append(Route("/_sandbox/{rest:path}", unknown,
                        methods=["GET", "POST", "PUT", "PATCH", "DELETE"]))
    return routes
