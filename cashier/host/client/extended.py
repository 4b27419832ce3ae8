"""The hosted operations our spec lists (risk, wallet, 3-D Secure, OCT, ACH, updater, DCC,
rules, checkout sessions): bodies as mappings or models, answers typed."""

from __future__ import annotations

from cashier.host.client.base import Body, HostClientBase
from cashier.host.endpoints import BY_METHOD, RULE_VERIFY_FALLBACK
from cashier.host.errors import HostError
from cashier.host.models.extended import (
    AchResult,
    BankAggregatorResult,
    CheckoutSessionResult,
    DccRateResult,
    OctResult,
    RiskAssessResult,
    RiskRuleResult,
    RuleVerifyResult,
    ThreeDSecureResult,
    UpdaterResult,
    WalletResult,
)


class ExtendedOperations(HostClientBase):
    """The hosted operations our spec lists (risk, wallet, 3-D Secure, OCT, ACH, updater, DCC,"""

    # ---- risk, wallet, 3-D Secure, OCT, ACH, updater, DCC, rules, checkout ------------------
    async def risk_assess(self, body: Body) -> RiskAssessResult:
        return await self.call(RiskAssessResult, "POST", "/risk/assess", self._wire(body))

    async def risk_rule_status(self, body: Body) -> RiskRuleResult:
        return await self.call(RiskRuleResult, "POST", "/risk/rulestatus", self._wire(body))

    async def risk_rule_update(self, body: Body) -> RiskRuleResult:
        return await self.call(RiskRuleResult, "POST", "/risk/ruleupdate", self._wire(body))

    async def wallet_initiate(self, body: Body) -> WalletResult:
        return await self.call(WalletResult, "POST", "/wallet/initiate", self._wire(body))

    async def wallet_sale(self, body: Body) -> WalletResult:
        return await self.call(WalletResult, "POST", "/wallet/sale", self._wire(body))

    async def wallet_refund(self, body: Body) -> WalletResult:
        return await self.call(WalletResult, "POST", "/wallet/refund", self._wire(body))

    async def three_d_secure_standalone(self, body: Body) -> ThreeDSecureResult:
        return await self.call(ThreeDSecureResult, "POST", "/3dsecure/standalone", self._wire(body))

    async def three_d_secure_completion(self, body: Body) -> ThreeDSecureResult:
        return await self.call(ThreeDSecureResult, "POST", "/3dsecure/completion", self._wire(body))

    async def oct_payout(self, body: Body) -> OctResult:
        return await self.call(OctResult, "POST", "/oct/payout", self._wire(body))

    async def oct_update_recipient(self, body: Body) -> OctResult:
        return await self.call(OctResult, "POST", "/oct/updaterecipient", self._wire(body))

    async def ach_verify(self, body: Body) -> AchResult:
        return await self.call(AchResult, "POST", "/ach/verify", self._wire(body))

    async def ach_sale(self, body: Body) -> AchResult:
        return await self.call(AchResult, "POST", "/ach/sale", self._wire(body))

    async def ach_refund(self, body: Body) -> AchResult:
        """``transaction.originalInvoice`` is required here (checked before sending)."""
        return await self.call(AchResult, "POST", "/ach/refund", self._wire(body))

    async def ach_status(self, body: Body) -> AchResult:
        return await self.call(AchResult, "POST", "/ach/status", self._wire(body))

    async def ach_link_token_create(self, body: Body) -> BankAggregatorResult:
        return await self.call(BankAggregatorResult, "POST", "/ach/bankaggregator/link_token/create",
                               self._wire(body))

    async def ach_public_token_exchange(self, body: Body) -> BankAggregatorResult:
        return await self.call(BankAggregatorResult, "POST",
                               "/ach/bankaggregator/public_token/exchange", self._wire(body))

    async def updater_request(self, body: Body) -> UpdaterResult:
        return await self.call(UpdaterResult, "POST", "/updater/request", self._wire(body))

    async def updater_status(self, body: Body) -> UpdaterResult:
        return await self.call(UpdaterResult, "POST", "/updater/status", self._wire(body))

    async def dcc_rate_lookup(self, body: Body) -> DccRateResult:
        return await self.call(DccRateResult, "POST", "/dcc/ratelookup", self._wire(body))

    async def rules_verify(self, body: Body) -> RuleVerifyResult:
        """Our spec says ``/rules/verify``, a later correction ``/rule/verify``: send the first,
        fall back to the second on a 404, and remember which one the server took."""
        wire = self._wire(body)
        if self._rule_path is not None:
            return await self.call(RuleVerifyResult, "POST", self._rule_path, wire)
        primary = BY_METHOD["rules_verify"].path
        try:
            result = await self.call(RuleVerifyResult, "POST", primary, wire)
        except HostError as exc:
            if exc.http_status != 404:
                raise
            result = await self.call(RuleVerifyResult, "POST", RULE_VERIFY_FALLBACK, wire)
            self._rule_path = RULE_VERIFY_FALLBACK
            return result
        self._rule_path = primary
        return result

    @property
    def rule_verify_path(self) -> str | None:
        """The rules path the server accepted, once known."""
        return self._rule_path

    async def checkout_session_create(self, body: Body) -> CheckoutSessionResult:
        return await self.call(CheckoutSessionResult, "POST", "/checkoutsessions/create",
                               self._wire(body))

    async def checkout_session_list(self, body: Body | None = None, *,
                                    status: str | None = None) -> CheckoutSessionResult:
        """List sessions, filtered by ``status`` when given."""
        wire = self._wire(body)
        if status is not None:
            wire["status"] = status
        return await self.call(CheckoutSessionResult, "POST", "/checkoutsessions/list", wire)

    async def checkout_session_retrieve(self, body: Body) -> CheckoutSessionResult:
        return await self.call(CheckoutSessionResult, "POST", "/checkoutsessions/retrieve",
                               self._wire(body))
