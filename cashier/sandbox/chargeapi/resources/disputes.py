"""Disputes and fraud warnings, opened by the jobs of their test cards."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.common import state_error
from cashier.sandbox.chargeapi.store import (
    Req,
    allow,
    as_metadata,
    as_obj,
    render,
)
from cashier.sandbox.chargeapi.testcards import (
    FOLLOW_UP_DELAY_S,
)


def open_dispute(req: Req, charge_id: str) -> None:
    charge = req.account["objects"].get(charge_id)
    if charge is None:
        return
    charge["disputed"] = True
    dispute: dict[str, Any] = {"amount": charge["amount"], "currency": charge["currency"],
                               "reason": "fraudulent", "status": "open", "acceptedAsLost": False,
                               "_charge": charge_id}
    dispute["created"] = charge["created"] + FOLLOW_UP_DELAY_S
    req.add("dispute", dispute)
    req.emit("CHARGE_DISPUTE_CREATED", _dispute_view(req, dispute))


def raise_fraud_warning(req: Req, charge_id: str) -> None:
    charge = req.account["objects"].get(charge_id)
    if charge is None:
        return
    charge["fraudDetails"] = {"status": "fraudulent"}
    warning = {"charge": charge_id, "actionable": not charge["refunded"],
               "created": charge["created"] + FOLLOW_UP_DELAY_S}
    req.add("fraudWarning", warning)
    req.emit("FRAUD_WARNING_CREATED", warning)


def _dispute_view(req: Req, dispute: dict[str, Any]) -> dict[str, Any]:
    view = render(dispute)
    view["charge"] = render(req.account["objects"][dispute["_charge"]])
    return view


def list_disputes(req: Req) -> dict[str, Any]:
    page = req.page("dispute")
    objects = req.account["objects"]
    page["list"] = [_dispute_view(req, objects[d["id"]]) for d in page["list"]]
    return page


def get_dispute(req: Req, dispute_id: str) -> dict[str, Any]:
    return _dispute_view(req, req.get("dispute", dispute_id))


def update_dispute(req: Req, dispute_id: str) -> dict[str, Any]:
    dispute = req.get("dispute", dispute_id)
    allow(req.params, {"evidence", "metadata"})
    if dispute["status"] == "lost":
        raise state_error(f"dispute '{dispute_id}' is closed")
    evidence = as_obj(req.params, "evidence")
    if evidence is not None:
        dispute.setdefault("evidence", {}).update(evidence)
        dispute["status"] = "under_review"
    if "metadata" in req.params:
        dispute["metadata"] = as_metadata(req.params)
    req.emit("CHARGE_DISPUTE_UPDATED", _dispute_view(req, dispute))
    return _dispute_view(req, dispute)


def close_dispute(req: Req, dispute_id: str) -> dict[str, Any]:
    dispute = req.get("dispute", dispute_id)
    allow(req.params, set())
    if dispute["status"] != "lost":
        dispute.update(status="lost", acceptedAsLost=True)  # no further evidence: lost
        req.emit("CHARGE_DISPUTE_CLOSED", _dispute_view(req, dispute))
    return _dispute_view(req, dispute)


def list_fraud_warnings(req: Req) -> dict[str, Any]:
    return req.page("fraudWarning")


def get_fraud_warning(req: Req, warning_id: str) -> dict[str, Any]:
    return render(req.get("fraudWarning", warning_id))
