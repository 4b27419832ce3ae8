"""The store service over HTTP: what tills call with their store token.

- ``GET /v1/health``: no token; ``{"ok": true}`` once the database answers.
- ``POST /v1/hello`` ``{"journal_id", "till_id", "till_number"}``: register the till's journal;
  answers the store's high-water mark for it, the till's invoice floor, the last store-wide
  close and the catalog's newest version (the window's till pulls at once when it is newer). A
  journal of another till than the token's is refused (403), and so is a till number another
  till holds or not the one pinned for this till (403 ``{"error": "till_number"}``: the
  till then starts no payment until it has a number of its own).
- ``POST /v1/events`` ``{"journal_id", "chain", "events": [...]}``: append in order; 200 with
  the new mark, or 409 ``{"error": "gap", "high_water"}`` (re-send from the mark). A resend is a
  no-op. ``chain``: the journal's chain before the first event; one that does not lead to the
  store's chain at its mark is a journal restored from an older copy: 409 ``{"error":
  "forked"}``, nothing stored.
  What the store checks in a push (``cashier.store.checks``): 422/409, nothing of it stored.
- ``POST /v1/manager`` ``{"manager", "pin"}``: a manager on the store's roster signs in from
  this till; answers ``{"session", "expires_in"}`` (403 a wrong PIN, 429 locked).
- ``GET /v1/totals[?business_date=YYYY-MM-DD]``: the till's own figures; the store and every
  till with a manager's session (``X-Store-Manager``).
- ``POST /v1/close``: record the store-wide close a till has submitted to the host: needs a
  manager's session; the store records that manager as who closed.
- ``GET /v1/pin-failures``: the store's failed manager PINs (a manager's session).
- ``GET /v1/catalog[?after=N|?version=N]``: the catalog (a till token): the newest version whole,
  what changed after version N (``"full": false``), or version N whole (earlier versions stay
  readable); ``GET /v1/catalog/versions``: who made each version, when, what changed.
- ``POST /v1/catalog/import`` (the CSV as the body, up to 32 MiB), ``/v1/catalog/categories``
  ``{"name", "colour"}``, ``/v1/catalog/tax-classes`` ``{"name", "rate"}``,
  ``/v1/catalog/reasons`` ``{"name"}`` (issue #38; the import takes a promotions sheet too as
  JSON ``{"products", "promotions"}``, each file base64),
  ``/v1/catalog/products`` ``{"product"}``, ``/v1/catalog/change`` ``{"sku", "price"?, "name"?,
  "category"?, "active"?}``: a store manager's session only (403 for a till token alone); each
  answers ``{"version", "changed"}`` (``cashier.store.catalog``: every rule checked again).
- ``GET /updates/...``: with ``--updates REPO``, the signed update repository as static files
  (``cashier update publish``); no token: TUF's signatures protect it, and tills check them.

Who may do what: a till token alone (``Authorization: Bearer``) is that till's only (its own
journal, its own figures); store-wide work needs the till token and a manager's session made
with a PIN the store itself checks. Bodies above 1 MiB are refused (413) before being read.
Bad requests get 4xx with one line naming the field and the rule, never a 500 or a traceback.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import psycopg
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cashier.catalog.rules import check_colour, check_name, check_rate, check_reason_word
from cashier.errors import ValidationError
from cashier.store.catalog import SHEET_MAX, change_from_wire, sheets_from_wire
from cashier.store.checks import MAX_BODY, HistoryRewritten, JournalForked, parse_body
from cashier.store.database import (
    Forbidden,
    Locked,
    ManagerSession,
    NumberTaken,
    StoreDatabase,
    parse_events,
)

log = logging.getLogger(__name__)
_JOURNAL_ID = re.compile(r"^[0-9a-f]{32}$")
_CHAIN = re.compile(r"^[A-Z2-7]{52}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
Handler = Callable[[Request, str], Awaitable[Response]]
MANAGER_HEADER = "x-store-manager"
_MANAGER_ID = re.compile(r"^[0-9]{1,5}$")


def _error(status: int, error: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": error, "message": message, **extra}, status_code=status)


class TooLarge(Exception):
    """A body above its limit (answered 413, the rest never read)."""

    def __init__(self, limit: int = MAX_BODY) -> None:
        super().__init__(limit)
        self.limit = limit


async def _raw(request: Request, limit: int = MAX_BODY) -> bytes:
    """The body, refused above ``limit`` by its announced length before a byte is read, and
    while reading when no length was announced."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise TooLarge(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(limit)
        chunks.append(chunk)
    return b"".join(chunks)


async def _body(request: Request) -> dict[str, Any]:
    """The JSON body (at most ``MAX_BODY``)."""
    return parse_body(await _raw(request))


def _journal_id(body: dict[str, Any]) -> str:
    value = body.get("journal_id")
    if not isinstance(value, str) or not _JOURNAL_ID.match(value):
        raise ValidationError("journal_id", "must be the journal's 32 hex digit id")
    return value


class CutOffWhenStopping:
    """A request still running when the service stops is cancelled by uvicorn once its graceful
    wait is over (a till stalled mid-body, a slow database): one line and a 503 (the till keeps
    its events and sends them again; its transaction rolled back), never a traceback and a 500."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except asyncio.CancelledError:  # the server's stop cut it off: answered, not re-raised
            log.warning("store stopping: a request still running was cut off (the till sends "
                        "it again)")
            if not started:
                await _error(503, "stopping", "the store service is stopping; the till keeps its "
                                              "events and retries")(scope, receive, send)


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
                try:
                    await db.close()
                except asyncio.CancelledError:  # a clean stop: one line, no traceback
                    log.info("store database pool closed while stopping")
                log.info("store service stopped")

        routes: list[BaseRoute] = [
            Route("/v1/health", self.health, methods=["GET"]),
            Route("/v1/hello", self._authed(self.hello), methods=["POST"]),
            Route("/v1/events", self._authed(self.events), methods=["POST"]),
            Route("/v1/totals", self._authed(self.totals), methods=["GET"]),
            Route("/v1/close", self._authed(self.close), methods=["POST"]),
            Route("/v1/manager", self._authed(self.manager), methods=["POST"]),
            Route("/v1/pin-failures", self._authed(self.pin_failures), methods=["GET"]),
            Route("/v1/catalog", self._authed(self.catalog), methods=["GET"]),
            Route("/v1/catalog/versions", self._authed(self.catalog_versions), methods=["GET"]),
            Route("/v1/catalog/import", self._authed(self.catalog_import), methods=["POST"]),
            Route("/v1/catalog/categories", self._authed(self.catalog_category),
                  methods=["POST"]),
            Route("/v1/catalog/tax-classes", self._authed(self.catalog_tax_class),
                  methods=["POST"]),
            Route("/v1/catalog/reasons", self._authed(self.catalog_reason), methods=["POST"]),
            Route("/v1/catalog/products", self._authed(self.catalog_add), methods=["POST"]),
            Route("/v1/catalog/change", self._authed(self.catalog_change), methods=["POST"]),
        ]
        if updates is not None:
            routes.append(Mount("/updates", app=StaticFiles(directory=updates), name="updates"))
        self.asgi = Starlette(routes=routes, lifespan=lifespan,
                              exception_handlers={Exception: self._unavailable},
                              middleware=[Middleware(CutOffWhenStopping)])

    @staticmethod
    async def _unavailable(_request: Request, exc: Exception) -> Response:
        """The database away (or any fault of ours): 503, and the till keeps its events pending.
        One line in the log, never a traceback."""
        log.warning("store request failed: %s", type(exc).__name__)
        return _error(503, "unavailable", "the store database cannot be reached; the till keeps "
                                          "its events and retries")

    async def _manager(self, request: Request, till_id: str) -> ManagerSession | None:
        token = request.headers.get(MANAGER_HEADER, "").strip()
        if not token or len(token) > 200:
            return None
        return await self.db.manager_session(till_id, token)

    def _authed(self, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            header = request.headers.get("authorization", "")
            scheme, _, token = header.partition(" ")
            if not hmac.compare_digest(scheme.lower(), "bearer") or not token.strip():
                return _error(401, "unauthorized", "Authorization: Bearer <store token> is required")
            try:
                till_id = await self.db.till_for_token(token.strip())
            except Exception as exc:  # the database away
                return await self._unavailable(request, exc)
            if till_id is None:
                return _error(401, "unauthorized", "store token not accepted (cashier store add-till "
                                                   "issues one per till)")
            try:
                return await handler(request, till_id)
            except HistoryRewritten as exc:
                return _error(409, "rewrite", str(exc), field=exc.field)
            except JournalForked as exc:
                return _error(409, "forked", str(exc), high_water=exc.high_water)
            except ValidationError as exc:
                return _error(422, "invalid", str(exc), field=exc.field)
            except NumberTaken as exc:  # the till starts no payment while it uses this number
                log.warning("store refused till %s: %s", till_id, exc)
                return _error(403, "till_number", str(exc), till_number=exc.till_number)
            except Forbidden as exc:
                log.warning("store refused till %s: %s", till_id, exc)
                return _error(403, "forbidden", str(exc))
            except Locked as exc:
                return _error(429, "locked", str(exc))
            except TooLarge as exc:
                return _error(413, "too_large", f"body: must be at most {exc.limit} bytes")
            except ClientDisconnect:
                log.warning("till %s went away before its request was read (it pushes again)",
                            till_id)
                return Response(status_code=400)
            except psycopg.DataError as exc:
                log.warning("store refused a value of till %s: %s", till_id, type(exc).__name__)
                return _error(422, "invalid", "body: holds a value the store cannot keep as given")
            except Exception as exc:  # the database away: one line, never a traceback
                return await self._unavailable(request, exc)
        return endpoint

    async def health(self, request: Request) -> Response:
        try:
            async with self.db.pool.connection() as conn:
                await conn.execute("SELECT 1")
        except Exception as exc:  # the database away
            return await self._unavailable(request, exc)
        return JSONResponse({"ok": True})

    async def hello(self, request: Request, till_id: str) -> Response:
        body = await _body(request)
        claimed = body.get("till_id")
        if claimed is not None and (not isinstance(claimed, str) or not 1 <= len(claimed) <= 32):
            raise ValidationError("till_id", "must be the journal's till id")
        number = body.get("till_number")
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)
                                   or not 1 <= number <= 99):
            raise ValidationError("till_number", "must be a whole number from 1 to 99")
        return JSONResponse(await self.db.hello(till_id, _journal_id(body), claimed_till=claimed,
                                                till_number=number))

    async def manager(self, request: Request, till_id: str) -> Response:
        body = await _body(request)
        manager_id, pin = body.get("manager"), body.get("pin")
        if not isinstance(manager_id, str) or not _MANAGER_ID.match(manager_id):
            raise ValidationError("manager", "must be the manager's number (1 to 5 digits)")
        if not isinstance(pin, str) or not pin.isdigit() or not 4 <= len(pin) <= 8:
            raise ValidationError("pin", "must be 4 to 8 digits")
        token, life = await self.db.sign_in_manager(till_id, manager_id, pin)
        log.info("store manager %s signed in at till %s", manager_id, till_id)
        return JSONResponse({"session": token, "manager": manager_id, "expires_in": life})

    async def pin_failures(self, request: Request, till_id: str) -> Response:
        if await self._manager(request, till_id) is None:
            raise Forbidden("pin failures: a manager signed in at the store may see them")
        return JSONResponse({"failures": await self.db.pin_failures()})

    async def events(self, request: Request, till_id: str) -> Response:
        body = await _body(request)
        journal_id = _journal_id(body)
        chain = body.get("chain")
        if chain is not None and (not isinstance(chain, str) or not _CHAIN.match(chain)):
            raise ValidationError("chain", "must be the journal's chain before the first event "
                                           "(52 base32 characters)")
        outcome = await self.db.push(till_id, journal_id, parse_events(body.get("events")), chain)
        if outcome.gap:
            return _error(409, "gap", f"events must continue after {outcome.high_water}: re-send "
                                      "from there", high_water=outcome.high_water)
        return JSONResponse({"high_water": outcome.high_water, "applied": outcome.applied})

    async def totals(self, request: Request, till_id: str) -> Response:
        day = request.query_params.get("business_date")
        if day is not None and not _DATE.match(day):
            raise ValidationError("business_date", "must be a date, YYYY-MM-DD")
        manager = await self._manager(request, till_id)
        return JSONResponse(await self.db.totals(day, only_till=None if manager else till_id))

    async def close(self, request: Request, till_id: str) -> Response:
        manager = await self._manager(request, till_id)
        if manager is None:
            raise Forbidden("close: the store-wide close needs a manager signed in at the store "
                            "(a till token alone never closes the store)")
        body = await _body(request)
        through = body.get("through")
        if not isinstance(through, dict) or not all(
                isinstance(j, dict) and all(isinstance(s, int) and not isinstance(s, bool)
                                            for s in j.values()) for j in through.values()):
            raise ValidationError("through", "must map till -> journal -> event sequence")
        closed_by = manager.manager_id  # who closed is the store's to say, never the body's
        summary = body.get("summary", {})
        if not isinstance(summary, dict):
            raise ValidationError("summary", "must be a JSON object")
        batch_no = await self.db.close_batch(till_id=till_id, closed_by=closed_by,
                                             override=bool(body.get("override")), through=through,
                                             summary=summary, manager_id=manager.manager_id)
        log.info("store batch %s closed by manager %s from till %s", batch_no, manager.manager_id,
                 till_id)
        return JSONResponse({"batch_no": batch_no, "closed_by": manager.manager_id})

    # ---- the catalog (issue #37): a till token reads, a store manager's session writes --------
    async def catalog(self, request: Request, till_id: str) -> Response:
        def number(name: str) -> int | None:
            value = request.query_params.get(name)
            if value is None:
                return None
            if not value.isdigit() or len(value) > 9:
                raise ValidationError(name, "must be a catalog version (a whole number)")
            return int(value)

        text = await self.db.catalog.wire(version=number("version"), after=number("after") or 0)
        return Response(text, media_type="application/json")

    async def catalog_versions(self, request: Request, till_id: str) -> Response:
        return JSONResponse({"versions": await self.db.catalog.versions()})

    async def _catalog_manager(self, request: Request, till_id: str) -> ManagerSession:
        manager = await self._manager(request, till_id)
        if manager is None:
            raise Forbidden("catalog: a change needs a store manager signed in at the store (a "
                            "till token only reads the catalog)")
        return manager

    @staticmethod
    def _made_by(manager: ManagerSession) -> str:
        return f"manager {manager.manager_id}"

    async def catalog_import(self, request: Request, till_id: str) -> Response:
        manager = await self._catalog_manager(request, till_id)
        promotions: bytes | None = None
        if request.headers.get("content-type", "").startswith("application/json"):
            # with a promotions sheet (issue #38): both files in one JSON body, base64
            data, promotions = sheets_from_wire(parse_body(await _raw(request, SHEET_MAX * 3)))
        else:
            data = await _raw(request, SHEET_MAX)
        written = await self.db.catalog.import_sheet(data, made_by=self._made_by(manager),
                                                     till_id=till_id, promotions=promotions)
        log.info("catalog version %s: import by manager %s at till %s", written.version,
                 manager.manager_id, till_id)
        return JSONResponse(written.as_dict())

    async def catalog_category(self, request: Request, till_id: str) -> Response:
        manager = await self._catalog_manager(request, till_id)
        body = await _body(request)
        name, colour = body.get("name"), body.get("colour")
        if colour is not None and not isinstance(colour, str):
            raise ValidationError("colour", "must be a colour as #RRGGBB")
        written = await self.db.catalog.add_category(
            check_name(name if isinstance(name, str) else "", "name"),
            None if colour is None else check_colour(colour, "colour"),
            made_by=self._made_by(manager), till_id=till_id)
        return JSONResponse(written.as_dict())

    async def catalog_tax_class(self, request: Request, till_id: str) -> Response:
        manager = await self._catalog_manager(request, till_id)
        body = await _body(request)
        name, rate = body.get("name"), body.get("rate")
        written = await self.db.catalog.add_tax_class(
            check_name(name if isinstance(name, str) else "", "name"),
            check_rate(rate if isinstance(rate, str) else "", "rate"),
            made_by=self._made_by(manager), till_id=till_id)
        return JSONResponse(written.as_dict())

    async def catalog_reason(self, request: Request, till_id: str) -> Response:
        manager = await self._catalog_manager(request, till_id)
        word = (await _body(request)).get("name")
        written = await self.db.catalog.add_reason(
            check_reason_word(word if isinstance(word, str) else "", "name"),
            made_by=self._made_by(manager), till_id=till_id)
        return JSONResponse(written.as_dict())

    async def catalog_add(self, request: Request, till_id: str) -> Response:
        manager = await self._catalog_manager(request, till_id)
        body = await _body(request)
        product = body.get("product")
        if not isinstance(product, dict):
            raise ValidationError("product", "must be an object")
        written = await self.db.catalog.add_product(product, made_by=self._made_by(manager),
                                                    till_id=till_id)
        return JSONResponse(written.as_dict())

    async def catalog_change(self, request: Request, till_id: str) -> Response:
        manager = await self._catalog_manager(request, till_id)
        written = await self.db.catalog.change_product(change_from_wire(await _body(request)),
                                                       made_by=self._made_by(manager),
                                                       till_id=till_id)
        log.info("catalog version %s: a product changed by manager %s at till %s",
                 written.version, manager.manager_id, till_id)
        return JSONResponse(written.as_dict())
