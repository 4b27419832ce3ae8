"""Tokens and 3D Secure: single-use tokens of card data (the only call a public key may make)."""

from __future__ import annotations

from typing import Any

from cashier.sandbox.chargeapi.resources.cards import CARD_PUBLIC, card_from_data, card_source
from cashier.sandbox.chargeapi.state import (
    Req,
    allow,
    as_currency,
    as_int,
    render,
)
from cashier.sandbox.chargeapi.wire import missing

TOKEN_LIFETIME_S = 3600


def _new_token(req: Req, card: dict[str, Any]) -> dict[str, Any]:
    token = {k: v for k, v in card.items() if k in CARD_PUBLIC}
    token.update(used=False, _outcome=card["_outcome"], _expires=req.now + TOKEN_LIFETIME_S)
    return req.add("token", token)


def create_token(req: Req) -> dict[str, Any]:
    """Card data in, a single-use token out; the only call a public key may make."""
    p = req.params
    data = p["card"] if isinstance(p.get("card"), dict) and len(p) == 1 else p
    return render(_new_token(req, card_from_data(req, data, "card")))


def get_token(req: Req, token_id: str) -> dict[str, Any]:
    return render(req.get("token", token_id))


def three_d_secure(req: Req) -> dict[str, Any]:
    """A token whose charge passes the ``authentication_required`` card (the sandbox skips the ACS)."""
    p = req.params
    allow(p, {"amount", "currency", "card", "returnUrl"})
    as_int(p, "amount", required=True, minimum=1)
    as_currency(p)
    if p.get("card") in (None, ""):
        raise missing("card")
    card = card_source(req, p["card"], None)
    token = _new_token(req, card)
    token["_threeds"] = True
    token["threeDSecureInfo"] = {"enrolled": True, "liabilityShift": "successful", "version": "2.2.0"}
    return render(token)
