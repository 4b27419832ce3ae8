"""Typed views of the Charge API objects the till reads: charges, refunds, customers, cards and
payment links, as the vendor's own SDKs type them (camelCase on the wire, snake_case here).

Every field is optional and unknown fields are ignored: an answer from a newer API version, or one
that leaves a field out, still reads; only a value of the wrong kind (text where a number belongs)
is refused, and the client reports that as an unknown outcome, never as a refusal.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class ApiModel(BaseModel):
    """camelCase wire names, read by their snake_case names."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore",
                              frozen=True)

    id: str = ""
    created: int | None = None


class Card(ApiModel):
    """A saved card or a charge's card: first 6 and last 4 digits only, never the number."""

    first6: str = Field("", alias="first6")
    last4: str = Field("", alias="last4")
    fingerprint: str | None = None
    exp_month: str = ""
    exp_year: str = ""
    brand: str = ""
    type: str | None = None
    cardholder_name: str | None = None
    customer_id: str | None = None
    deleted: bool = False

    @property
    def expiry(self) -> str:
        """MM/YY as a receipt or a list of saved cards shows it."""
        return f"{self.exp_month.zfill(2)}/{self.exp_year[-2:]}"


class Refund(ApiModel):
    amount: int = 0
    currency: str = ""
    charge: str | None = None
    reason: str | None = None
    status: str | None = None
    metadata: dict[str, str] = Field(default_factory=dict)


class Charge(ApiModel):
    amount: int = 0
    amount_refunded: int = 0
    currency: str = ""
    status: str = ""
    captured: bool = False
    refunded: bool = False
    disputed: bool = False
    description: str | None = None
    customer_id: str | None = None
    payment_link_id: str | None = None
    card: Card | None = None
    failure_code: str | None = None
    failure_message: str | None = None
    metadata: dict[str, str] = Field(default_factory=dict)
    refunds: list[Refund] = Field(default_factory=list)

    @property
    def refundable(self) -> int:
        """Minor units not yet refunded."""
        return max(self.amount - self.amount_refunded, 0)


class Customer(ApiModel):
    email: str = ""
    description: str | None = None
    default_card_id: str | None = None
    deleted: bool = False
    cards: list[Card] = Field(default_factory=list)
    metadata: dict[str, str] = Field(default_factory=dict)


class PaymentLink(ApiModel):
    url: str = ""
    amount: int = 0
    currency: str = ""
    name: str | None = None
    description: str | None = None
    active: bool = False
    successful_charges: int = 0
    failed_attempts: int = 0
    max_successful_charges: int | None = None
    max_failed_attempts: int | None = None
    deactivation_reason: str | None = None
    metadata: dict[str, str] = Field(default_factory=dict)


__all__ = ["ApiModel", "Card", "Charge", "Customer", "PaymentLink", "Refund"]
