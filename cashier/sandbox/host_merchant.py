"""Merchant information; ``ApiOptions: RETURNPROCESSORS`` adds processors and card ranges."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.core import SERVER_NAME, Family, HostCall, invalid_field
from cashier.sandbox.shared import now_text

FAMILY = Family("merchant")

#: (card type, processor, lower, upper, lengths) of the ranges the sandbox merchant accepts.
CARD_RANGES = (
    ("VS", "SANDBOXVS", "400000", "499999", "13,16,19"),
    ("MC", "SANDBOXMC", "222100", "272099", "16"),
    ("MC", "SANDBOXMC", "510000", "559999", "16"),
    ("AX", "SANDBOXAX", "340000", "349999", "15"),
    ("AX", "SANDBOXAX", "370000", "379999", "15"),
    ("NS", "SANDBOXNS", "601100", "601199", "16"),
    ("NS", "SANDBOXNS", "300000", "305999", "14,16"),
    ("JC", "SANDBOXJC", "333700", "333799", "16"),
)
KNOWN_OPTIONS = frozenset({"RETURNPROCESSORS"})


@FAMILY.route("GET", "/merchants/merchant")
async def merchant(call: HostCall) -> dict[str, Any]:
    raw = call.header("ApiOptions") or ""
    options = {item.strip().upper() for item in raw.split(",") if item.strip()}
    if len(raw) > 255:
        raise invalid_field("ApiOptions", "must be at most 255 characters")
    info: dict[str, Any] = {
        "mid": call.config.merchant_id, "name": call.config.merchant_name[:22],
        "addressLine1": "1 Sandbox Way", "city": "Testville", "region": "NV", "postalCode": "89101",
        "phone": "7025550100", "serialNumber": "0000001", "industry": "R",
        "dayEndingTime": "000000", "defaultCurrency": "USD", "supportedCurrencies": "USD",
        "dcc": {"enabled": "N"}, "gtv": {"enabled": "Y"}, "surcharge": {"enabled": "N"},
        "autoClose": {"enabled": "N"},
    }
    if "RETURNPROCESSORS" in options:
        by_type: dict[str, dict[str, Any]] = {}
        for card_type, processor, lower, upper, lengths in CARD_RANGES:
            entry = by_type.setdefault(card_type, {"type": card_type, "processor": processor,
                                                   "ranges": []})
            entry["ranges"].append({"lower": lower, "upper": upper, "lengths": lengths,
                                    "lunhCheck": True})
        info["cardTypes"] = list(by_type.values())
    else:
        info["cardTypes"] = [{"type": t} for t in dict.fromkeys(r[0] for r in CARD_RANGES)]
    return {"dateTime": now_text(call), "merchant": info, "server": {"name": SERVER_NAME}}
