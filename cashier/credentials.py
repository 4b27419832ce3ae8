"""Trading a client GUID and auth token for the till's access token, shared by
``cashier credentials exchange`` and the packaged till's first-start dialog."""

from __future__ import annotations

import httpx

from cashier.config import TillProfile, store_access_token
from cashier.errors import CashierError, ValidationError
from cashier.host.client import HostClient, HostSettings

SANDBOX_URL = "http://sandbox/api/rest/v1"


async def obtain_access_token(profile: TillProfile, client_guid: str, auth_token: str) -> str:
    """Run ``/credentials/accesstoken`` against the profile's host (training: the sandbox)."""
    if not client_guid.strip():
        raise ValidationError("credential.clientGuid", "must not be empty")
    if not auth_token.strip():
        raise ValidationError("credential.authToken", "must not be empty")
    transport: httpx.AsyncBaseTransport | None = None
    base_url = None
    if profile.is_training:
        # lazy: only training loads the embedded sandbox, which the runtime builds
        from cashier.runtime import training_host

        transport = httpx.ASGITransport(app=training_host(profile).asgi)
        base_url = SANDBOX_URL
    settings = HostSettings.from_profile(profile, base_url=base_url)
    async with HostClient(settings, transport=transport) as client:
        result = await client.exchange_access_token(client_guid=client_guid.strip(),
                                                    auth_token=auth_token.strip())
    token = result.access_token
    if not token:
        raise CashierError("the host answered the exchange without an access token")
    return token


async def exchange_and_store(profile: TillProfile, client_guid: str, auth_token: str) -> int:
    """Obtain the token and keep it in the OS keyring only; returns its length for the message."""
    token = await obtain_access_token(profile, client_guid, auth_token)
    try:
        store_access_token(profile, token)
    except Exception as exc:  # no usable keyring backend on this desktop
        raise CashierError(
            f"the access token could not be stored in the OS keyring ({type(exc).__name__}); "
            "it was not saved anywhere. Start the desktop's keyring, or set CASHIER_ACCESS_TOKEN."
        ) from None
    return len(token)
