"""Access token exchange: a client GUID and an auth token become a 52-character access token.

The sandbox accepts any well-formed pair unless it was started with a specific one
(``SandboxConfig.credential_pair``). Issued tokens are remembered (and kept by ``--state``), so
a till that exchanged once keeps working after a sandbox restart.
"""

from __future__ import annotations

import hmac
import secrets
import uuid
from typing import Any

from cashier.sandbox.core import SERVER_NAME, Family, HostCall, access_denied, invalid_field
from cashier.sandbox.shared import now_text, require, require_object

FAMILY = Family("credentials")

ACCESS_TOKEN_LENGTH = 52


def new_access_token() -> str:
    """UUID-style like the vendor's example, extended to the 52 characters our spec names."""
    head = str(uuid.uuid4()).upper()
    return f"{head}-{secrets.token_hex(8).upper()[:ACCESS_TOKEN_LENGTH - len(head) - 1]}"


@FAMILY.route("POST", "/credentials/accesstoken")
async def exchange(call: HostCall) -> dict[str, Any]:
    require_object(call.body, "credential")
    guid = require(call.body, "credential.clientGuid")
    auth = require(call.body, "credential.authToken")
    for field, value in (("credential.clientGuid", guid), ("credential.authToken", auth)):
        if not isinstance(value, str) or not 1 <= len(value) <= 64 or not value.isprintable() \
                or value.strip() != value:
            raise invalid_field(field, "must be 1 to 64 printable characters, no spaces around")
    pair = call.config.credential_pair
    if pair is not None and not (hmac.compare_digest(guid, pair[0])
                                 and hmac.compare_digest(auth, pair[1])):
        raise access_denied(0, "AuthToken", "AuthToken not valid")
    token = new_access_token()
    call.state.issued_access_tokens.add(token)
    return {"dateTime": call.body.get("dateTime") or now_text(call),
            "credential": {"accessToken": token}, "server": {"name": SERVER_NAME}}
