"""Credentials: the access-token exchange."""

from __future__ import annotations

from cashier.errors import ValidationError
from cashier.host.client.base import HostClientBase
from cashier.host.models.credentials import AccessTokenResult, CredentialIn


class CredentialsOperations(HostClientBase):
    """Credentials: the access-token exchange."""

    # ---- credentials -----------------------------------------------------------------------
    async def exchange_access_token(self, *, client_guid: str, auth_token: str) -> AccessTokenResult:
        """Trade the analyst's client GUID and auth token for the access token. No
        ``AccessToken`` header is sent on this call; the caller stores the answer securely."""
        for name, value in (("credential.clientGuid", client_guid), ("credential.authToken", auth_token)):
            if not value or len(value) > 51:
                raise ValidationError(name, "must be 1 to 51 characters")
        credential = CredentialIn(client_guid=client_guid, auth_token=auth_token)
        return await self.call(AccessTokenResult, "POST", "/credentials/accesstoken",
                               {"credential": credential.wire()}, auth=False)
