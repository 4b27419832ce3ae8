"""``/mode/offline`` and ``/mode/online`` (LG, DCP): the gateway or controller's offline mode.

LG goes offline only at version 3080 or later with the feature on (``config.lg_version``,
``config.lg_offline_feature``); otherwise the request is refused (decision: error 9000 with
code 40600 "misconfigured", since the request cannot succeed until someone changes the set-up).
Offline ends by itself after ``config.offline_max_s`` of sandbox time (``state.clock``).

Store and forward: while offline, a card sale or authorization is approved by the gateway itself
(``approve_offline``: ``authSource`` O, ``deferredAuth`` D) and stored; when the mode goes
online again (by request or at the maximum duration) every stored approval is forwarded to the
processor, whose triggers decide it again (and 19.19 declines: ``triggers.FORWARD_DECLINE``, a
training till's rehearsal). ``POST /_sandbox/mode/stored`` says a stored approval will decline
when forwarded; ``GET /transactions/invoice`` tells the truth afterwards.

The host behind the gateway (issue 40): ``POST /_sandbox/upstream {"reachable": false}`` makes it
unreachable. Every request that needs the host then gets the gateway's own answer, error code
65100 "Unable to connect to host" (``upstream_fault``); what the gateway does by itself still
works: ``/mode/offline``, the PIN pad's ``/devices/*``, a manual sale or authorization (a voice
authorization code needs no processor), and while offline a card sale or
authorization (stored as ever) and the invoice lookup or void of a stored one. ``/mode/online``
needs the host to forward to, so it is refused the same way and the gateway stays offline.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cashier.sandbox import triggers
from cashier.sandbox.control import _json, control_error, read_json
from cashier.sandbox.core import Family, HostCall, HostFault
from cashier.sandbox.shared import now_text

FAMILY = Family("mode")

LG_OFFLINE_MIN_VERSION = 3080


def _mode(state: Any) -> dict[str, Any]:
    mode: dict[str, Any] = state.family("mode")
    return mode


def is_offline(state: Any) -> bool:
    """True while offline mode is on and its maximum duration has not run out."""
    mode = _mode(state)
    if not mode.get("offline"):
        return False
    if state.clock.now() - float(mode.get("since", 0.0)) >= state.config.offline_max_s:
        _go_online(state, "maximum duration")
        return False
    return True


def _ledger(state: Any) -> dict[str, dict[str, Any]]:
    invoices: dict[str, dict[str, Any]] = state.family("transactions").setdefault("invoices", {})
    return invoices


def approve_offline(state: Any, record: dict[str, Any], options: frozenset[str]) -> None:
    """The gateway approves ``record`` by itself and stores it for forwarding."""
    record.update(authSource="O", deferredAuth="D", responseCode="A",
                  approvedAmount=record["requestedAmount"],
                  offline={"stored": True, "partialAllowed": "ALLOWPARTIALAUTH" in options})
    stored: list[str] = list(_mode(state).get("stored", []))
    if record["invoice"] not in stored:
        stored.append(record["invoice"])
    _mode(state)["stored"] = stored


def _forward(state: Any) -> list[str]:
    """Send every stored approval to the processor; the invoices that declined."""
    mode = _mode(state)
    book = _ledger(state)
    declined: list[str] = []
    for invoice in mode.get("stored", []):
        record = book.get(invoice)
        if record is None or not (record.get("offline") or {}).get("stored"):
            continue
        offline = dict(record["offline"])
        offline["stored"] = False
        offline["forwardedAt"] = state.clock.now()
        record["offline"] = offline
        if record["state"] not in ("sale", "authorized"):
            continue  # voided (or batched) before it could be forwarded: nothing to send
        total = Decimal(record["approvedAmount"])
        if offline.get("declineOnForward") or total == triggers.FORWARD_DECLINE:
            code, approved = "D", Decimal(0)
        else:
            outcome = triggers.amount_outcome(total, total, kind=record["kind"],
                                              partial_allowed=bool(offline.get("partialAllowed")))
            code = outcome.response_code or "e"
            approved = outcome.approved
        if code in ("A", "P"):
            record.update(responseCode=code, approvedAmount=str(approved))
            continue
        # the processor refused what the gateway approved: the invoice now says so
        record.update(state="declined", responseCode="D", approvedAmount="0",
                      declinedAfterOffline=True)
        declined.append(invoice)
    mode["stored"] = []
    return declined


def _go_online(state: Any, why: str) -> None:
    _mode(state).update(offline=False, endedBy=why)
    _forward(state)


#: What the gateway answers by itself with its host away (``upstream_fault``).
_LOCAL_PATHS = frozenset({"/mode/offline",
                          # a voice authorization needs no processor: the host records it
                          "/transactions/manualsale", "/transactions/manualauthorization"})
_STORING_PATHS = frozenset({"/transactions/sale", "/transactions/authorization"})


def upstream_reachable(state: Any) -> bool:
    return not _mode(state).get("unreachable")


def unreachable_fault() -> HostFault:
    """The gateway's own answer when its host cannot be reached (the vendor's 65100)."""
    return HostFault(9000, "NETWORK ERROR", "Unable to connect to host", severity="Alert",
                     code=65100, http_status=502)


def upstream_fault(method: str, path: str, headers: dict[str, str], state: Any,
                   option: str) -> HostFault | None:
    """The fault a request gets while the host behind the gateway is away; None when the
    gateway answers it by itself (or the host is there)."""
    if upstream_reachable(state) or path in _LOCAL_PATHS or path.startswith("/devices/"):
        return None
    if option in ("LG", "DCP") and is_offline(state):
        if path in _STORING_PATHS:
            return None
        if path == "/transactions/invoice":
            invoice = headers.get("invoice") or ""
            if invoice in _mode(state).get("stored", []):
                return None
    return unreachable_fault()


def offline_remaining_s(state: Any) -> float:
    """Seconds of offline mode left (0 when online)."""
    if not is_offline(state):
        return 0.0
    left: float = state.config.offline_max_s - (state.clock.now() - float(_mode(state)["since"]))
    return left


@FAMILY.route("POST", "/mode/offline", "LG DCP")
async def go_offline(call: HostCall) -> dict[str, Any]:
    if call.option == "LG":
        if call.config.lg_version < LG_OFFLINE_MIN_VERSION:
            raise HostFault(9000, "OFFLINE N/A", f"Offline mode needs local gateway version "
                            f"{LG_OFFLINE_MIN_VERSION} or later; this one is {call.config.lg_version}",
                            severity="Alert", code=40600)
        if not call.config.lg_offline_feature:
            raise HostFault(9000, "OFFLINE N/A", "The offline mode feature is switched off in the "
                            "local gateway's configuration", severity="Alert", code=40600)
    # Decision: going offline while offline keeps the original start: resending it cannot
    # stretch offline mode past its maximum duration.
    if not is_offline(call.state):
        _mode(call.state).update(offline=True, since=call.state.clock.now(), endedBy=None)
    return {"dateTime": now_text(call), "transaction": {"authSource": "O"}}


@FAMILY.route("POST", "/mode/online", "LG DCP")
async def go_online(call: HostCall) -> dict[str, Any]:
    if not upstream_reachable(call.state):
        raise unreachable_fault()  # nothing to forward to: the gateway stays offline
    if is_offline(call.state):
        _go_online(call.state, "request")
    return {"dateTime": now_text(call), "transaction": {"authSource": "E"}}


# ---- control: POST /_sandbox/mode/stored {"invoice": "...", "declineOnForward": true} ----------
async def _stored_control(request: Request) -> Response:
    """GET: the stored (not yet forwarded) approvals. POST: say one will decline when forwarded."""
    sandbox = request.app.state.sandbox
    state = sandbox.state
    if request.method == "POST":
        try:
            data = await read_json(request)
        except ValueError as exc:
            return control_error(str(exc))
        if not isinstance(data, dict) or not isinstance(data.get("invoice"), str) \
                or not isinstance(data.get("declineOnForward", True), bool):
            return control_error('send {"invoice": "1234", "declineOnForward": true}')
        record = _ledger(state).get(data["invoice"])
        if record is None or not (record.get("offline") or {}).get("stored"):
            return control_error(f"invoice {data['invoice']} has no stored offline approval", 404)
        record["offline"] = {**record["offline"],
                             "declineOnForward": bool(data.get("declineOnForward", True))}
        sandbox.save()
    book = _ledger(state)
    stored = [{"invoice": invoice, "amount": book[invoice]["approvedAmount"],
               "declineOnForward": bool(book[invoice]["offline"].get("declineOnForward"))}
              for invoice in _mode(state).get("stored", []) if invoice in book]
    return _json({"offline": is_offline(state), "stored": stored})


# ---- control: POST /_sandbox/upstream {"reachable": false|true} ---------------------------------
async def _upstream_control(request: Request) -> Response:
    """GET: whether the host behind the gateway is reachable. POST: make it so (training's "Host
    down" switch, the outage tests)."""
    sandbox = request.app.state.sandbox
    if request.method == "POST":
        try:
            data = await read_json(request)
        except ValueError as exc:
            return control_error(str(exc))
        if not isinstance(data, dict) or not isinstance(data.get("reachable"), bool):
            return control_error('send {"reachable": false} or {"reachable": true}')
        set_upstream(sandbox.state, data["reachable"])
        sandbox.save()
    return _json({"reachable": upstream_reachable(sandbox.state),
                  "offline": is_offline(sandbox.state)})


def set_upstream(state: Any, reachable: bool) -> None:
    """The host behind the gateway comes and goes (the control, and a training till's switch)."""
    _mode(state)["unreachable"] = not reachable


FAMILY.controls.append(Route("/_sandbox/mode/stored", _stored_control, methods=["GET", "POST"]))
FAMILY.controls.append(Route("/_sandbox/upstream", _upstream_control, methods=["GET", "POST"]))
