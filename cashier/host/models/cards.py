"""Card checks with the processor: ``/cards/verify`` (AVS, CSC) and ``/cards/identify``."""

from __future__ import annotations

from pydantic import Field

from cashier.host.models.base import HostModel
from cashier.host.models.common import Avs, Customer, Device, Merchant, SecurityCode, Server, Token


class VerifyCard(HostModel):
    number: str | None = None
    type: str | None = None
    expiration_date: int | str | None = None
    security_code: SecurityCode | None = None
    token: Token | None = None


class VerifyTransaction(HostModel):
    response_code: str | None = None
    authorization_code: str | None = None
    avs: Avs | None = None


class AccountNameInquiry(HostModel):
    ani_response_code: str | None = None


class CardVerifyResult(HostModel):
    """Response codes here are A, D, e and f (f: AVS or CSC failure with POSHANDLEAVSFAIL)."""

    date_time: str | None = None
    card: VerifyCard | None = None
    customer: Customer | None = None
    device: Device | None = None
    merchant: Merchant | None = None
    server: Server | None = None
    transaction: VerifyTransaction | None = None
    account_name_inquiry: AccountNameInquiry | None = None

    @property
    def response_code(self) -> str:
        return ((self.transaction.response_code if self.transaction else None) or "").strip()

    @property
    def verified(self) -> bool:
        return self.response_code == "A"


class IdentifiedCard(HostModel):
    #: Our spec: at most 8 characters in the identify response.
    bin: str | None = Field(None, max_length=8)
    type: str | None = None
    debit_capable: str | None = None
    dcc_capable: str | None = None
    level_result: str | None = None


class CardIdentifyResult(HostModel):
    date_time: str | None = None
    card: IdentifiedCard | None = None
    device: Device | None = None
    merchant: Merchant | None = None
    server: Server | None = None
