"""The remaining families: risk, wallet, 3-D Secure, OCT, ACH, updater, DCC rate, rules, checkout.

Typed where our spec names a field; every model keeps the fields it does not know
(``HostModel`` allows extras), so a richer answer is never lost. Requests are a model or a
plain mapping, sent as given after the spec's limits are checked.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from pydantic import Field

from cashier.host.models.base import HostModel
from cashier.host.models.common import Amount, Card, Customer, Merchant, Server
from cashier.host.models.transactions import TransactionInfo


class HostResult(HostModel):
    """A ``result[0]`` item with no fixed shape beyond the envelope's common fields."""

    date_time: str | None = None
    merchant: Merchant | None = None
    server: Server | None = None
    transaction: TransactionInfo | None = None

    @property
    def response_code(self) -> str:
        return ((self.transaction.response_code if self.transaction else None) or "").strip()


# ---- risk ----------------------------------------------------------------------------------
class Risk(HostModel):
    session_id: str | None = Field(None, max_length=32)
    tran_id: str | None = None
    assessment: str | None = None


class RiskTransaction(TransactionInfo):
    gateway_risk_id: str | None = None


class RiskAssessRequest(HostModel):
    amount: Amount
    transaction: dict[str, Any]
    card: Card | None = None
    customer: Customer | None = None
    risk: Risk | None = None


class RiskAssessResult(HostResult):
    """approve, deny, escalate or review; with approve or review the payment may carry
    ``risk.tranId``, ``risk.assessment`` and ``transaction.gatewayRiskId``."""

    risk: Risk | None = None
    transaction: RiskTransaction | None = None


class RiskRules(HostModel):
    parameter: Literal["card", "email", "token"] | str | None = None
    value: str | None = None
    status: str | None = None
    result: str | None = None


class RiskRuleResult(HostResult):
    """Rule status or update; ``riskRules.result`` E or N reports the call itself."""

    risk_rules: RiskRules | list[RiskRules] | None = None


# ---- wallet --------------------------------------------------------------------------------
class Wallet(HostModel):
    payment_method_id: str | None = None
    payment_method_id_usage: str | None = None


class WalletResult(HostResult):
    wallet: Wallet | None = None
    amount: Amount | None = None


# ---- 3-D Secure ----------------------------------------------------------------------------
class ThreeDSecure(HostModel):
    cryptogram: str | None = None
    ecomm_indicator: str | None = None
    security_level_indicator: str | None = None
    program_protocol: str | None = None
    directory_server_tran_id: str | None = None
    authentication_source: str | None = None
    version: str | None = None
    initiate: str | None = None


class ThreeDSecureResult(HostResult):
    three_d_secure: ThreeDSecure | None = Field(None, alias="threeDSecure")


# ---- OCT, ACH, updater ---------------------------------------------------------------------
class OctResult(HostResult):
    amount: Amount | None = None


class Ach(HostModel):
    """Account and routing numbers are sent, never kept: only the last four come back."""

    account_number: str | None = Field(None, repr=False)
    routing_number: str | None = None
    account_last_four: str | None = None
    account_type: str | None = None


class AchResult(HostResult):
    ach: Ach | None = None
    amount: Amount | None = None


class BankAggregator(HostModel):
    link_token: str | None = Field(None, repr=False)
    public_token: str | None = Field(None, repr=False)
    redirect_url: str | None = None
    expiration: str | None = None


class BankAggregatorResult(HostResult):
    bankaggregator: BankAggregator | None = None
    ach: Ach | None = None


class UpdaterCard(HostModel):
    token: dict[str, Any] | None = None
    status: str | None = None


class UpdaterResult(HostResult):
    updater_id: str | None = None
    updater_status: str | None = None
    cards: list[UpdaterCard] | None = None


# ---- DCC, rules, checkout sessions -----------------------------------------------------------
class Dcc(HostModel):
    enabled: str | None = None
    provider: str | None = None
    currency_code: str | None = None
    foreign_amount: Decimal | None = None
    conversion_rate: str | None = None
    margin_over_ecb: str | None = None
    display_unit: Decimal | int | None = None
    conversion_indicator: str | None = None
    support_indicator: str | None = None
    secondary_lookup_disclaimer: str | None = None
    transaction_id: str | None = None


class DccRateResult(HostResult):
    dcc: Dcc | None = None
    amount: Amount | None = None


class SurchargeInfo(HostModel):
    eligible: str | None = None
    percentage: Decimal | None = None
    amount: Decimal | None = None


class RuleVerifyResult(HostResult):
    surcharge: SurchargeInfo | dict[str, Any] | None = None
    amount: Amount | None = None


class CheckoutSession(HostModel):
    id: str | None = None
    status: str | None = None
    url: str | None = None
    amount: Amount | None = None


class CheckoutSessionResult(HostResult):
    checkout_session: CheckoutSession | None = None
    checkout_sessions: list[CheckoutSession] | None = None
