"""Events: every change of state the sandbox publishes, newest first."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.state import (
    Req,
    render,
)


def list_events(req: Req) -> dict[str, Any]:
    filters = {"type": req.query["type"]} if "type" in req.query else None
    return req.page("event", filters, frozenset({"type"}))


def get_event(req: Req, event_id: str) -> dict[str, Any]:
    return render(req.get("event", event_id))
