"""The Charge API served by the sandbox, at the root of the same server as the Host API.

``charge_api_routes(sandbox)`` gives Starlette one route per path of the spec's endpoint table.
Each request: API key -> account (any ``sk_test_<suffix>`` is its own test account, reached
also by ``pk_test_<suffix>``), body parsed (form, JSON or multipart), jobs that fell due on
the sandbox clock run (disputes, fraud warnings, rebills), idempotency applied, then the
handler. Errors are always ``{"error": {"type", "message"}}`` (with ``code`` on card errors), never a
traceback.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import json
import logging
import re
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cashier.sandbox.chargeapi.resources import (
    blacklist,
    cards,
    charges,
    checkout_sessions,
    credits,
    customers,
    disputes,
    events,
    files,
    payment_links,
    payment_methods,
    payouts,
    refunds,
    subscriptions,
    tokens,
)
from cashier.sandbox.chargeapi.state import Req, expand, expand_paths, new_account
from cashier.sandbox.chargeapi.wire import ChargeApiFault, invalid, parse_body, parse_query

log = logging.getLogger(__name__)

IDEMPOTENCY_TTL_S = 24 * 3600
KEY_PREFIXES = {"sk_test_": ("test", "secret"), "pk_test_": ("test", "public"),
                "sk_live_": ("live", "secret"), "pk_live_": ("live", "public"),
                "pr_test_": ("demo", "secret"), "pu_test_": ("demo", "public")}

Handler = Callable[..., dict[str, Any]]

#: (path, {method: handler}) in the spec's order; paths use Starlette's ``{name}`` parameters.
ENDPOINTS: list[tuple[str, dict[str, Handler]]] = [
    ("/charges", {"POST": charges.create_charge, "GET": charges.list_charges}),
    ("/charges/{charge_id}", {"GET": charges.get_charge, "POST": charges.update_charge}),
    ("/charges/{charge_id}/capture", {"POST": charges.capture_charge}),
    ("/charges/{charge_id}/incremental-authorization", {"POST": charges.incremental_authorization}),
    ("/charges/{charge_id}/refund", {"POST": refunds.refund_via_charge}),
    ("/refunds", {"POST": refunds.create_refund, "GET": refunds.list_refunds}),
    ("/refunds/{refund_id}", {"GET": refunds.get_refund, "POST": refunds.update_refund}),
    ("/customers", {"POST": customers.create_customer, "GET": customers.list_customers}),
    ("/customers/{customer_id}", {"GET": customers.get_customer, "POST": customers.update_customer,
                                  "DELETE": customers.delete_customer}),
    ("/customers/{customer_id}/cards", {"POST": cards.create_card, "GET": cards.list_cards}),
    ("/customers/{customer_id}/cards/{card_id}", {"GET": cards.get_card, "POST": cards.update_card,
                                                  "DELETE": cards.delete_card}),
    ("/payment-methods", {"POST": payment_methods.create_payment_method,
                          "GET": payment_methods.list_payment_methods}),
    ("/payment-methods/{method_id}", {"GET": payment_methods.get_payment_method,
                                      "DELETE": payment_methods.delete_payment_method}),
    ("/subscriptions", {"POST": subscriptions.create_subscription, "GET": subscriptions.list_subscriptions}),
    ("/subscriptions/{sub_id}", {"GET": subscriptions.get_subscription,
                                 "POST": subscriptions.update_subscription,
                                 "DELETE": subscriptions.cancel_subscription}),
    ("/subscriptions/{sub_id}/charges", {"GET": subscriptions.subscription_charges}),
    ("/plans", {"POST": subscriptions.create_plan, "GET": subscriptions.list_plans}),
    ("/plans/{plan_id}", {"GET": subscriptions.get_plan, "POST": subscriptions.update_plan,
                          "DELETE": subscriptions.delete_plan}),
    ("/events", {"GET": events.list_events}),
    ("/events/{event_id}", {"GET": events.get_event}),
    ("/tokens", {"POST": tokens.create_token}),
    ("/tokens/{token_id}", {"GET": tokens.get_token}),
    ("/3d-secure", {"POST": tokens.three_d_secure}),
    ("/blacklist", {"POST": blacklist.create_blacklist_rule, "GET": blacklist.list_blacklist}),
    ("/blacklist/{rule_id}", {"GET": blacklist.get_blacklist_rule,
                              "DELETE": blacklist.delete_blacklist_rule}),
    ("/credits", {"POST": credits.create_credit, "GET": credits.list_credits}),
    ("/credits/{credit_id}", {"GET": credits.get_credit, "POST": credits.update_credit}),
    ("/disputes", {"GET": disputes.list_disputes}),
    ("/disputes/{dispute_id}", {"GET": disputes.get_dispute, "POST": disputes.update_dispute}),
    ("/disputes/{dispute_id}/close", {"POST": disputes.close_dispute}),
    ("/files", {"POST": files.create_file, "GET": files.list_files}),
    ("/files/{file_id}", {"GET": files.get_file}),
    ("/fraud-warnings", {"GET": disputes.list_fraud_warnings}),
    ("/fraud-warnings/{warning_id}", {"GET": disputes.get_fraud_warning}),
    ("/payouts", {"POST": payouts.create_payout, "GET": payouts.list_payouts}),
    ("/payouts/{payout_id}", {"GET": payouts.get_payout}),
    ("/payout-transactions", {"GET": payouts.list_payout_transactions}),
    ("/checkout-sessions", {"POST": checkout_sessions.create_checkout_session,
                            "GET": checkout_sessions.list_checkout_sessions}),
    ("/checkout-sessions/{session_id}", {"GET": checkout_sessions.get_checkout_session}),
    ("/payment-links", {"POST": payment_links.create_payment_link, "GET": payment_links.list_payment_links}),
    ("/payment-links/{link_id}", {"GET": payment_links.get_payment_link,
                                  "POST": payment_links.update_payment_link}),
    ("/payment-links/{link_id}/deactivate", {"POST": payment_links.deactivate_payment_link}),
    ("/payment-links/{link_id}/reactivate", {"POST": payment_links.reactivate_payment_link}),
    ("/payment-links/{link_id}/charges", {"GET": payment_links.payment_link_charges}),
]
PUBLIC_KEY_OPERATIONS = {("POST", "/tokens")}
#: The one DELETE the vendor's SDKs send a body with (``atPeriodEnd`` of a subscription's cancel).
BODY_ON_DELETE = {("DELETE", "/subscriptions/{sub_id}")}
MERCHANT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: What falls due on the sandbox clock: the follow-ups of the test cards and subscription rebills.
JOBS: dict[str, Callable[[Req, str], None]] = {
    "dispute": disputes.open_dispute, "fraud_warning": disputes.raise_fraud_warning,
    "rebill": subscriptions.rebill,
}
ALL_METHODS = ["GET", "POST", "DELETE", "PUT", "PATCH"]


@dataclass
class InjectedFault:
    status: int
    path_prefix: str = ""
    retry_after_s: float | None = None


@dataclass
class ChargeApiSim:
    """The Charge API's side of one sandbox: its records, in-flight keys and test knobs."""

    sandbox: Any
    #: Next answers to replace with an error (429, 500...), for retry tests.
    faults: deque[InjectedFault] = field(default_factory=deque)
    #: Requests answered, per (method, route path): tests read it to prove a retry or a replay.
    calls: dict[tuple[str, str], int] = field(default_factory=dict)
    in_flight: set[tuple[int, str]] = field(default_factory=set)
    in_flight_fp: dict[tuple[int, str], str] = field(default_factory=dict)

    @property
    def data(self) -> dict[str, Any]:
        family: dict[str, Any] = self.sandbox.state.family("chargeapi")
        return family

    def account(self, account_id: str, mode: str) -> dict[str, Any]:
        accounts: dict[str, Any] = self.data.setdefault("accounts", {})
        if account_id not in accounts:
            accounts[account_id] = new_account(mode)
        result: dict[str, Any] = accounts[account_id]
        return result

    def inject(self, status: int, count: int = 1, path_prefix: str = "",
               retry_after_s: float | None = None) -> None:
        for _ in range(count):
            self.faults.append(InjectedFault(status, path_prefix, retry_after_s))

    def now(self) -> int:
        return int(self.sandbox.state.clock.now())


_SIMS: weakref.WeakKeyDictionary[Any, ChargeApiSim] = weakref.WeakKeyDictionary()


def charge_api_sim(sandbox: Any) -> ChargeApiSim:
    """The Charge API simulator of a ``HostSandbox`` (made by ``charge_api_routes``)."""
    sim = _SIMS.get(sandbox)
    if sim is None:
        sim = _SIMS[sandbox] = ChargeApiSim(sandbox)
    return sim


def error_response(fault: ChargeApiFault, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(fault.body()), status_code=fault.status, media_type="application/json",
                    headers=headers)


def _authenticate(request: Request) -> tuple[str, str, str]:
    """(account id, mode, key kind) from HTTP Basic with the key as user name."""
    header = request.headers.get("authorization", "")
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic" or not encoded:
        raise invalid("No API key: use HTTP Basic with the secret key as user name and an empty password",
                      401)
    try:
        user = base64.b64decode(encoded, validate=True).decode("utf-8").split(":", 1)[0]
    except (binascii.Error, UnicodeDecodeError):
        raise invalid("The Authorization header is not valid HTTP Basic", 401) from None
    for prefix, (mode, kind) in KEY_PREFIXES.items():
        if user.startswith(prefix) and len(user) > len(prefix) and user[len(prefix):].isalnum():
            return f"{mode}:{user[len(prefix):]}", mode, kind
    raise invalid("Invalid API key: expected sk_test_..., sk_live_... (or a public key for POST /tokens)",
                  401)


def _fingerprint(method: str, path: str, params: dict[str, Any], files: dict[str, tuple[str, bytes]]) -> str:
    """Form and JSON forms of one request compare equal: every scalar becomes its text."""

    def norm(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: norm(v) for k, v in sorted(value.items())}
        if isinstance(value, list):
            return [norm(v) for v in value]
        if isinstance(value, bool):
            return "true" if value else "false"
        return "" if value is None else str(value)

    digest = hashlib.sha256(json.dumps([method, path, norm(params)], sort_keys=True).encode())
    for name, (filename, content) in sorted(files.items()):
        digest.update(name.encode() + b"\0" + filename.encode() + b"\0" + hashlib.sha256(content).digest())
    return digest.hexdigest()


def _run_jobs(sim: ChargeApiSim, req: Req) -> None:
    jobs = req.account["jobs"]
    if not jobs or min(job[0] for job in jobs) > req.now:
        return
    due = sorted((job for job in jobs if job[0] <= req.now), key=lambda job: job[0])
    req.account["jobs"] = [job for job in jobs if job[0] > req.now]
    for _, kind, target in due:
        JOBS[kind](req, target)


def _prune_idempotency(account: dict[str, Any], now: int) -> None:
    idem = account["idem"]
    if len(idem) > 1000 and len(idem) % 256 == 0:  # a sweep now and then, not on every request
        for key in [k for k, v in idem.items() if v["at"] + IDEMPOTENCY_TTL_S <= now]:
            del idem[key]


def charge_api_routes(sandbox: Any) -> list[BaseRoute]:
    sim = charge_api_sim(sandbox)

    def make_endpoint(route_path: str, table: dict[str, Handler]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            try:
                return await _serve(sim, request, route_path, table)
            except ChargeApiFault as fault:
                return error_response(fault)
            except ClientDisconnect:  # nobody is left to answer: one line, no traceback
                log.info("Charge API client left mid-request: %s %s", request.method, request.url.path)
                return Response(status_code=400)
            except Exception:  # never a traceback on the wire
                log.exception("Charge API sandbox handler failed on %s %s", request.method, route_path)
                return error_response(ChargeApiFault(500, "gateway_error", None,
                                                   "The sandbox could not process the request"))

        return endpoint

    routes: list[BaseRoute] = [Route(path, make_endpoint(path, table), methods=ALL_METHODS)
                               for path, table in ENDPOINTS]
    # last of the server's routes: any other path gets the Charge API's error shape, not text
    routes.append(Route("/{rest:path}", make_endpoint("", {}), methods=ALL_METHODS))
    return routes


async def _serve(sim: ChargeApiSim, request: Request, route_path: str, table: dict[str, Handler]) -> Response:
    method = request.method
    if not table:
        raise invalid(f"No such endpoint: {request.url.path}", 404)
    if method not in table:
        raise invalid(f"{method} is not allowed on {route_path}; use {', '.join(table)}", 405)
    account_id, mode, key_kind = _authenticate(request)
    if key_kind == "public" and (method, route_path) not in PUBLIC_KEY_OPERATIONS:
        raise invalid(f"{method} {route_path} needs a secret key; a public key may only create tokens", 401)
    for fault in list(sim.faults):
        if request.url.path.startswith(fault.path_prefix):
            sim.faults.remove(fault)
            headers = {"Retry-After": str(fault.retry_after_s)} if fault.retry_after_s is not None else None
            kind = "gateway_error" if fault.status >= 500 else "invalid_request"
            return error_response(ChargeApiFault(fault.status, kind, None, f"injected fault {fault.status}"),
                                  headers)
    raw = await request.body()
    params, files = parse_body(request.headers.get("content-type", ""), raw)
    if method in ("GET", "DELETE") and params and (method, route_path) not in BODY_ON_DELETE:
        raise invalid(f"{method} takes no body: send list parameters in the query string")
    query = parse_query(request.url.query)
    merchant = request.headers.get("shift4-merchant")
    if merchant is not None:
        # a platform acting for one of its merchants (the vendor SDKs' explicit merchant): that
        # merchant's own records, apart from the platform's
        if not MERCHANT_ID.fullmatch(merchant):
            raise invalid("Shift4-Merchant: must be a merchant id (letters, digits, _ and -)")
        account_id = f"{account_id}:merchant:{merchant}"
    account = sim.account(account_id, mode)
    base_url = str(request.base_url).rstrip("/")
    req = Req(method, params, query, files, account, mode, key_kind, sim.now(), base_url)
    _run_jobs(sim, req)
    handler = table[method]
    sim.calls[(method, route_path)] = sim.calls.get((method, route_path), 0) + 1
    key = request.headers.get("idempotency-key")
    if method != "POST" or not key:
        body = handler(req, **request.path_params)
        paths = expand_paths(query) if method == "GET" else []
        if paths:
            body = expand(body, paths, req)
        if req.delay_s:
            await asyncio.sleep(req.delay_s * sim.sandbox.config.delay_scale)
        _persist(sim, method)
        return Response(json.dumps(body), media_type="application/json")
    if len(key) > 255:
        raise invalid("Idempotency-Key: must be at most 255 characters")
    return await _idempotent(sim, req, key, route_path, request, handler)


async def _idempotent(sim: ChargeApiSim, req: Req, key: str, route_path: str, request: Request,
                      handler: Handler) -> Response:
    """First answer kept 24 h (sandbox clock) and replayed; another body with the key refused."""
    fingerprint = _fingerprint(req.method, request.url.path, req.params, req.files)
    account = req.account
    stored = account["idem"].get(key)
    if stored is not None and stored["at"] + IDEMPOTENCY_TTL_S <= req.now:
        del account["idem"][key]
        stored = None
    slot = (id(account), key)
    if stored is not None or slot in sim.in_flight:
        if (stored is not None and stored["fp"] != fingerprint) or (stored is None and \
                sim.in_flight_fp.get(slot) != fingerprint):
            raise invalid("Idempotent key used for request with different parameters.")
        if stored is None:
            raise invalid("A request with this Idempotency-Key is still being processed; retry later", 409)
        return Response(stored["body"], status_code=stored["status"], media_type="application/json",
                         headers={"Idempotent-Replayed": "true"})
    sim.in_flight.add(slot)
    sim.in_flight_fp[slot] = fingerprint
    try:
        try:
            body_obj = handler(req, **request.path_params)
            status, body = 200, json.dumps(body_obj)
        except ChargeApiFault as fault:
            status, body = fault.status, json.dumps(fault.body())
        if req.delay_s:
            await asyncio.sleep(req.delay_s * sim.sandbox.config.delay_scale)
        if status < 500:
            _prune_idempotency(account, req.now)
            account["idem"][key] = {"fp": fingerprint, "status": status, "body": body, "at": req.now}
    finally:
        sim.in_flight.discard(slot)
        sim.in_flight_fp.pop(slot, None)
    _persist(sim, "POST")
    return Response(body, status_code=status, media_type="application/json")


def _persist(sim: ChargeApiSim, method: str) -> None:
    path = sim.sandbox.config.state_file
    if path and method != "GET":
        sim.sandbox.state.save(path)
