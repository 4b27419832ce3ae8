"""Access token exchange (``/credentials/accesstoken``)."""

from __future__ import annotations

from pydantic import Field

from cashier.host.models.base import HostModel
from cashier.host.models.common import Server


class CredentialIn(HostModel):
    """What is sent: the client GUID and auth token handed over by the host's analyst."""

    client_guid: str = Field(min_length=1, max_length=51, repr=False)
    auth_token: str = Field(min_length=1, max_length=51, repr=False)


class CredentialOut(HostModel):
    access_token: str | None = Field(None, max_length=52, repr=False)


class AccessTokenResult(HostModel):
    """The access token is kept out of ``repr`` so a stray log line cannot show it."""

    date_time: str | None = None
    credential: CredentialOut | None = None
    server: Server | None = None

    @property
    def access_token(self) -> str | None:
        return self.credential.access_token if self.credential else None
