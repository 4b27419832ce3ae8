"""Disputes and fraud warnings, opened by the jobs of their test cards."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.common import state_error
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_bool,
    as_metadata,
    as_obj,
    as_str,
    render,
)
from cashier.sandbox.chargeapi.testcards import (
    FOLLOW_UP_DELAY_S,
)

#: Days the merchant has to answer a dispute with evidence (``evidenceDetails.dueBy``).
EVIDENCE_DAYS = 7
#: The vendor's dispute statuses this sandbox walks through (its test card opens a chargeback).
NEW, UNDER_REVIEW, LOST = ("CHARGEBACK_NEW", "CHARGEBACK_RESPONSE_UNDER_REVIEW",
                           "CHARGEBACK_REPRESENTED_UNSUCCESSFULLY")
#: Evidence fields the vendor's SDKs send (``customerName`` is the Python SDK's own test's).
EVIDENCE_FIELDS = frozenset({
    "productDescription", "customerName", "customerEmail", "customerPurchaseIp", "customerSignature",
    "billingAddress", "receipt", "customerCommunication", "serviceDate", "serviceDocumentation",
    "duplicateChargeId", "duplicateChargeDocumentation", "duplicateChargeExplanation", "refundPolicy",
    "refundPolicyDisclosure", "refundRefusalExplanation", "cancellationPolicy",
    "cancellationPolicyDisclosure", "cancellationRefusalExplanation", "accessActivityLogs",
    "shippingAddress", "shippingDate", "shippingCarrier", "shippingTrackingNumber",
    "shippingDocumentation", "uncategorizedText", "uncategorizedFile",
})


def open_dispute(req: Req, charge_id: str) -> None:
    """The vendor's dispute card: a chargeback (status ``CHARGEBACK_NEW``, reason ``GENERAL``)."""
    charge = req.account["objects"].get(charge_id)
    if charge is None:
        return
    charge["disputed"] = True
    created = charge["created"] + FOLLOW_UP_DELAY_S
    dispute: dict[str, Any] = {
        "created": created, "updated": created, "amount": charge["amount"], "currency": charge["currency"],
        "reason": "GENERAL", "status": NEW, "acceptedAsLost": False,
        "evidenceDetails": {"dueBy": created + EVIDENCE_DAYS * 86400, "hasEvidence": False,
                            "pastDue": False, "submissionCount": 0},
        "_charge": charge_id,
    }
    req.add("dispute", dispute)
    charge["_dispute"] = dispute["id"]
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
    """A dispute with its charge inside (the charge's own view holds the dispute without it)."""
    view = render(dispute)
    view["evidenceDetails"]["pastDue"] = (req.now > dispute["evidenceDetails"]["dueBy"]
                                          and not dispute["evidenceDetails"]["hasEvidence"])
    view["charge"] = render(req.account["objects"][dispute["_charge"]], req)
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
    if dispute["acceptedAsLost"]:
        raise state_error(f"dispute '{dispute_id}' is closed")
    evidence = as_obj(req.params, "evidence")
    if evidence is not None:
        allow(evidence, EVIDENCE_FIELDS, "evidence")
        for name in evidence:
            as_str(evidence, name, max_len=5000, label=f"evidence.{name}")
        dispute.setdefault("evidence", {}).update(evidence)
        details = dispute["evidenceDetails"]
        details.update(hasEvidence=True, submissionCount=details["submissionCount"] + 1)
        dispute["status"] = UNDER_REVIEW
    if "metadata" in req.params:
        dispute["metadata"] = as_metadata(req.params)
    dispute["updated"] = req.now
    req.emit("CHARGE_DISPUTE_UPDATED", _dispute_view(req, dispute))
    return _dispute_view(req, dispute)


def close_dispute(req: Req, dispute_id: str) -> dict[str, Any]:
    """Closing gives up the dispute: accepted as lost, the chargeback stands."""
    dispute = req.get("dispute", dispute_id)
    allow(req.params, set())
    if not dispute["acceptedAsLost"]:
        dispute.update(status=LOST, acceptedAsLost=True, updated=req.now)
        req.emit("CHARGE_DISPUTE_CLOSED", _dispute_view(req, dispute))
    return _dispute_view(req, dispute)


def list_fraud_warnings(req: Req) -> dict[str, Any]:
    """Filtered by ``chargeId`` (the SDKs' name; ``charge`` also read) and ``actionable``."""
    filters: dict[str, Any] = {}
    charge_id = as_str(req.query, "chargeId", max_len=64) or as_str(req.query, "charge", max_len=64)
    if charge_id is not None:
        filters["charge"] = charge_id
    actionable = as_bool(req.query, "actionable")
    if actionable is not None:
        filters["actionable"] = actionable
    objects = req.account["objects"]
    for warning_id in req.account["lists"].get("fraudWarning", []):
        _refresh_actionable(req, objects[warning_id])
    return req.page("fraudWarning", filters, frozenset({"charge", "chargeId", "actionable"}))


def get_fraud_warning(req: Req, warning_id: str) -> dict[str, Any]:
    return render(_refresh_actionable(req, req.get("fraudWarning", warning_id)))


def _refresh_actionable(req: Req, warning: dict[str, Any]) -> dict[str, Any]:
    """A warning stays actionable while its charge can still be refunded (not refunded, not
    disputed), as the vendor's ``actionable`` filter reads it."""
    charge = req.account["objects"].get(warning["charge"], {})
    warning["actionable"] = not charge.get("refunded") and not charge.get("disputed")
    return warning
