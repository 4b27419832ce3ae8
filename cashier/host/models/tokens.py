"""Card tokens: add, duplicate, delete, universal token, four words; and the merchant record."""

from __future__ import annotations

from cashier.host.models.base import HostModel
from cashier.host.models.common import Customer, Device, Merchant, Server, Token, UniversalToken


class TokenCard(HostModel):
    number: str | None = None
    type: str | None = None
    entry_mode: str | None = None
    expiration_date: int | str | None = None
    token: Token | None = None
    four_words: str | None = None


class TokenResult(HostModel):
    """``result[0]`` of ``/tokens/*``; ``token`` is set only by the ACH variant of add."""

    date_time: str | None = None
    card: TokenCard | None = None
    customer: Customer | None = None
    device: Device | None = None
    merchant: Merchant | None = None
    server: Server | None = None
    universal_token: UniversalToken | None = None
    token: Token | None = None

    @property
    def token_value(self) -> str | None:
        if self.card and self.card.token:
            return self.card.token.value
        return self.token.value if self.token else None


class Enabled(HostModel):
    enabled: str | None = None


class VoiceCenter(HostModel):
    account_number: str | None = None
    phone_number: str | None = None


class CardRange(HostModel):
    lower: str | None = None
    upper: str | None = None
    lengths: str | None = None
    lunh_check: bool | None = None


class MerchantCardType(HostModel):
    type: str | None = None
    processor: str | None = None
    ranges: list[CardRange] | None = None
    voice_center: VoiceCenter | None = None


class MerchantDetails(HostModel):
    """``merchant`` of ``GET /merchants/merchant``; card ranges only with RETURNPROCESSORS."""

    mid: int | None = None
    name: str | None = None
    address_line1: str | None = None
    address_line2: str | None = None
    city: str | None = None
    region: str | None = None
    postal_code: str | None = None
    phone: str | None = None
    industry: str | None = None
    serial_number: str | None = None
    day_ending_time: str | None = None
    default_currency: str | None = None
    supported_currencies: str | list[str] | None = None
    card_types: list[MerchantCardType] | None = None
    gtv: Enabled | None = None
    surcharge: Enabled | None = None
    auto_close: Enabled | None = None
    dcc: Enabled | None = None


class MerchantResult(HostModel):
    date_time: str | None = None
    merchant: MerchantDetails | None = None
    server: Server | None = None
