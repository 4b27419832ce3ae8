"""Which Charge API a till talks to, and with which key: shared by ``cashier charge`` and the window.

Training (no ``charge_api_url`` in the profile): the runtime's embedded sandbox in-process, with a
test key of its own (``sk_test_training``). Otherwise the secret key comes from the environment
(``CASHIER_CHARGE_API_SECRET_KEY``) or the OS keyring (service ``cashier-charge-api``, user = till id),
never from a file; a live key is refused in a training profile.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any

from cashier.errors import ValidationError

if TYPE_CHECKING:
    from cashier.chargeapi.client import ChargeApiClient
    from cashier.config import TillProfile

log = logging.getLogger(__name__)

KEYRING_SERVICE = "cashier-charge-api"
SECRET_ENV = "CASHIER_CHARGE_API_SECRET_KEY"
PUBLIC_ENV = "CASHIER_CHARGE_API_PUBLIC_KEY"
TRAINING_SECRET = "sk_test_training"
TRAINING_PUBLIC = "pk_test_training"
TRAINING_URL = "http://sandbox"


def secret_key_for(till_id: str) -> str | None:
    """Env first, then the OS keyring; never a file."""
    env = os.environ.get(SECRET_ENV)
    if env:
        return env
    try:
        import keyring  # lazy: see cashier.config.access_token_for

        return keyring.get_password(KEYRING_SERVICE, till_id)
    except Exception:  # no usable keyring backend
        return None


def charge_api_client(profile: TillProfile, sandbox: Any = None) -> ChargeApiClient:
    """A client for this till's Charge API; ``ValidationError`` names what is missing."""
    # lazy: this module registers sub-commands at start-up, and httpx (~390 ms measured) must not
    # load before the window paints; see tests/core/test_lazy_imports.py
    import httpx

    from cashier.chargeapi.client import ChargeApiClient

    timeout = profile.timeouts.host_s
    if profile.charge_api_url is None:
        if sandbox is None:  # a real host but no Charge API configured
            raise ValidationError("charge_api_url", "is not set in the till profile")
        return ChargeApiClient(TRAINING_SECRET, TRAINING_URL, public_key=TRAINING_PUBLIC,
                             transport=httpx.ASGITransport(app=sandbox.asgi), timeout_s=timeout)
    secret = secret_key_for(profile.till_id)
    if not secret:
        raise ValidationError(SECRET_ENV, f"no Charge API secret key: set {SECRET_ENV} or "
                                          f"store it in the keyring (service {KEYRING_SERVICE})")
    if profile.is_training and "_live_" in secret:
        raise ValidationError(SECRET_ENV, "a live key is refused in training mode")
    return ChargeApiClient(secret, profile.charge_api_url, public_key=os.environ.get(PUBLIC_ENV) or None,
                         timeout_s=timeout, connect_timeout_s=profile.timeouts.connect_s)


def optional_gateway_client(profile: TillProfile, sandbox: Any = None) -> ChargeApiClient | None:
    """The runtime's view: a till without a Charge API simply has none (logged, not fatal)."""
    try:
        return charge_api_client(profile, sandbox)
    except ValidationError as exc:
        log.info("no Charge API for this till: %s", exc)
        return None
