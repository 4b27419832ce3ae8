"""The store service over HTTP: what tills call with their store token.

- ``GET /v1/health``: no token; ``{"ok": true}`` once the database answers.
- ``POST /v1/hello`` ``{"journal_id"}``: register the till's journal; answers the store's
  high-water mark for it, the till's invoice floor and the last store-wide close.
- ``POST /v1/events`` ``{"journal_id", "events": [...]}``: append in order; 200 with the new
  mark, or 409 ``{"error": "gap", "high_water"}`` (re-send from the mark). A resend is a no-op.
- ``GET /v1/totals[?business_date=YYYY-MM-DD]``: the store and every till.
- ``POST /v1/close``: record the store-wide close a till has submitted to the host.
- ``GET /updates/...``: with ``--updates REPO``, the signed update repository as static files
  (``cashier update publish``); no token: TUF's signatures protect it, and tills check them.

Bad requests get 4xx with one line naming the field and the rule, never a 500 or a traceback.
"""

from __future__ import annotations

import hmac
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from cashier.errors import ValidationError
from cashier.store.database import StoreDatabase, parse_events

log = logging.getLogger(__name__)
_JOURNAL_ID = re.compile(r"^[0-9a-f]{32}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
Handler = Callable[[Request, str], Awaitable[Response]]


def _error(status: int, error: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": error, "message": message, **extra}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body())
    except ValueError:
        raise ValidationError("body", "must be a JSON object") from None
    if not isinstance(body, dict):
        raise ValidationError("body", "must be a JSON object")
    return body


def _journal_id(body: dict[str, Any]) -> str:
    value = body.get("journal_id")
    if not isinstance(value, str) or not _JOURNAL_ID.match(value):
        raise ValidationError("journal_id", "must be the journal's 32 hex digit id")
    return value


class StoreApp:
    """The ASGI application around one ``StoreDatabase`` (opened and closed by its lifespan)."""

    def __init__(self, db: StoreDatabase, updates: Path | None = None) -> None:
        self.db = db

        @asynccontextmanager
        async def lifespan(_app: Starlette) -> AsyncIterator[None]:
            await db.open()
            try:
                yield
            finally:
                await db.close()

        routes: list[BaseRoute] = [
            Route("/v1/health", self.health, methods=["GET"]),
            Route("/v1/hello", self._authed(self.hello), methods=["POST"]),
            Route("/v1/events", self._authed(self.events), methods=["POST"]),
            Route("/v1/totals", self._authed(self.totals), methods=["GET"]),
            Route("/v1/close", self._authed(self.close), methods=["POST"]),
        ]
        if updates is not None:
            routes.append(Mount("/updates", app=StaticFiles(directory=updates), name="updates"))
        self.asgi = Starlette(routes=routes, lifespan=lifespan,
                              exception_handlers={Exception: self._unavailable})

    @staticmethod
    async def _unavailable(_request: Request, exc: Exception) -> Response:
        """The database away (or any fault of ours): 503, and the till keeps its events pending."""
        log.warning("store request failed: %s", type(exc).__name__)
        return _error(503, "unavailable", "the store database cannot be reached; the till keeps "
                                          "its events and retries")

    def _authed(self, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            header = request.headers.get("authorization", "")
            scheme, _, token = header.partition(" ")
            if not hmac.compare_digest(scheme.lower(), "bearer") or not token.strip():
                return _error(401, "unauthorized", "Authorization: Bearer <store token> is required")
            till_id = await self.db.till_for_token(token.strip())
            if till_id is None:
                return _error(401, "unauthorized", "store token not accepted (cashier store add-till "
                                                   "issues one per till)")
            try:
                return await handler(request, till_id)
            except ValidationError as exc:
                return _error(422, "invalid", str(exc), field=exc.field)
        return endpoint

    async def health(self, _request: Request) -> Response:
        async with self.db.pool.connection() as conn:
            await conn.execute("SELECT 1")
        return JSONResponse({"ok": True})

    async def hello(self, request: Request, till_id: str) -> Response:
        body = await _body(request)
        return JSONResponse(await self.db.hello(till_id, _journal_id(body)))

    async def events(self, request: Request, till_id: str) -> Response:
        body = await _body(request)
        journal_id = _journal_id(body)
        outcome = await self.db.push(till_id, journal_id, parse_events(body.get("events")))
        if outcome.gap:
            return _error(409, "gap", f"events must continue after {outcome.high_water}: re-send "
                                      "from there", high_water=outcome.high_water)
        return JSONResponse({"high_water": outcome.high_water, "applied": outcome.applied})

    async def totals(self, request: Request, _till_id: str) -> Response:
        day = request.query_params.get("business_date")
        if day is not None and not _DATE.match(day):
            raise ValidationError("business_date", "must be a date, YYYY-MM-DD")
        return JSONResponse(await self.db.totals(day))

    async def close(self, request: Request, till_id: str) -> Response:
        body = await _body(request)
        through = body.get("through")
        if not isinstance(through, dict) or not all(
                isinstance(j, dict) and all(isinstance(s, int) and not isinstance(s, bool)
                                            for s in j.values()) for j in through.values()):
            raise ValidationError("through", "must map till -> journal -> event sequence")
        closed_by = body.get("closed_by")
        if not isinstance(closed_by, str) or not 1 <= len(closed_by) <= 40:
            raise ValidationError("closed_by", "must name who closed: 1 to 40 characters")
        summary = body.get("summary", {})
        if not isinstance(summary, dict):
            raise ValidationError("summary", "must be a JSON object")
        batch_no = await self.db.close_batch(till_id=till_id, closed_by=closed_by,
                                             override=bool(body.get("override")), through=through,
                                             summary=summary)
        return JSONResponse({"batch_no": batch_no})
