"""``/mode/offline`` and ``/mode/online`` (LG, DCP): the gateway or controller's offline mode.

LG goes offline only at version 3080 or later with the feature on (``config.lg_version``,
``config.lg_offline_feature``); otherwise the request is refused (decision: error 9000 with
code 40600 "misconfigured", since the request cannot succeed until someone changes the set-up).
Offline ends by itself after ``config.offline_max_s`` of sandbox time (``state.clock``).

For the transaction handlers: ``is_offline(state)``; while it is true a device sale is approved
offline and answered with ``OFFLINE_MARKS`` (``authSource`` O, ``deferredAuth`` D).
"""

from __future__ import annotations

from typing import Any

from cashier.sandbox.core import HostCall, HostFault, host_route
from cashier.sandbox.host_devices import now_text

LG_OFFLINE_MIN_VERSION = 3080
OFFLINE_MARKS = {"authSource": "O", "deferredAuth": "D"}


def _mode(state: Any) -> dict[str, Any]:
    mode: dict[str, Any] = state.family("mode")
    return mode


def is_offline(state: Any) -> bool:
    """True while offline mode is on and its maximum duration has not run out."""
    mode = _mode(state)
    if not mode.get("offline"):
        return False
    if state.clock.now() - float(mode.get("since", 0.0)) >= state.config.offline_max_s:
        mode.update(offline=False, endedBy="maximum duration")
        return False
    return True


def offline_remaining_s(state: Any) -> float:
    """Seconds of offline mode left (0 when online)."""
    if not is_offline(state):
        return 0.0
    left: float = state.config.offline_max_s - (state.clock.now() - float(_mode(state)["since"]))
    return left


@host_route("POST", "/mode/offline", "LG DCP")
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


@host_route("POST", "/mode/online", "LG DCP")
async def go_online(call: HostCall) -> dict[str, Any]:
    if is_offline(call.state):
        _mode(call.state).update(offline=False, endedBy="request")
    return {"dateTime": now_text(call), "transaction": {"authSource": "E"}}
