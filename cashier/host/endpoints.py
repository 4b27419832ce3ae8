"""Every operation of our spec's endpoint table: method, path, options and the client method.

The client, the sandbox and the tests read this one table, so a path is spelled once.
``timeout`` is the class of call: ``device`` waits on a person at a PIN pad (long, cancellable
through ``/devices/reset``), ``host`` is a plain host round trip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Option = Literal["HD", "LG", "DCP", "DCC"]
ALL: frozenset[str] = frozenset({"HD", "LG", "DCP", "DCC"})


@dataclass(frozen=True, slots=True)
class Endpoint:
    method: str
    path: str
    options: frozenset[str]
    client_method: str
    timeout: Literal["host", "device"] = "host"

    def supports(self, option: str) -> bool:
        return option in self.options


def _o(text: str) -> frozenset[str]:
    return ALL if text == "all" else frozenset(text.split())


#: The table, in our spec's order. Decision: the checkout session operations have no Options
#: in our spec ("not stated"); they are listed as HD, where the other hosted operations live.
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("POST", "/credentials/accesstoken", ALL, "exchange_access_token"),
    Endpoint("POST", "/transactions/authorization", ALL, "authorization", "device"),
    Endpoint("POST", "/transactions/capture", ALL, "capture"),
    Endpoint("POST", "/transactions/sale", ALL, "sale", "device"),
    Endpoint("POST", "/transactions/refund", ALL, "refund", "device"),
    Endpoint("GET", "/transactions/invoice", ALL, "invoice_status"),
    Endpoint("DELETE", "/transactions/invoice", ALL, "void"),
    Endpoint("POST", "/transactions/manualauthorization", ALL, "manual_authorization", "device"),
    Endpoint("POST", "/transactions/manualsale", ALL, "manual_sale", "device"),
    Endpoint("POST", "/transactions/signature", _o("HD LG"), "upload_signature"),
    Endpoint("POST", "/tokens/add", ALL, "token_add", "device"),
    Endpoint("POST", "/tokens/duplicate", _o("HD LG"), "token_duplicate"),
    Endpoint("POST", "/tokens/delete", _o("HD LG"), "token_delete"),
    Endpoint("GET", "/tokens/universaltoken", ALL, "universal_token"),
    Endpoint("POST", "/tokens/4words", _o("HD LG"), "token_four_words"),
    Endpoint("GET", "/merchants/merchant", ALL, "merchant_info"),
    Endpoint("POST", "/giftcards/activate", _o("HD LG"), "giftcard_activate", "device"),
    Endpoint("POST", "/giftcards/allocate", _o("HD LG"), "giftcard_allocate"),
    Endpoint("POST", "/giftcards/deactivate", _o("HD LG"), "giftcard_deactivate", "device"),
    Endpoint("POST", "/giftcards/cashback", _o("HD LG"), "giftcard_cashback", "device"),
    Endpoint("POST", "/giftcards/cashout", _o("HD LG"), "giftcard_cashout", "device"),
    Endpoint("POST", "/giftcards/reactivate", _o("HD LG"), "giftcard_reactivate", "device"),
    Endpoint("POST", "/giftcards/reload", _o("HD LG"), "giftcard_reload", "device"),
    Endpoint("POST", "/giftcards/balance", _o("HD LG"), "giftcard_balance", "device"),
    Endpoint("POST", "/giftcards/cancel", _o("HD LG"), "giftcard_cancel"),
    Endpoint("POST", "/cards/verify", _o("HD LG"), "card_verify", "device"),
    Endpoint("POST", "/cards/identify", _o("HD LG"), "card_identify", "device"),
    Endpoint("POST", "/devices/promptsignature", _o("LG DCP DCC"), "device_prompt_signature", "device"),
    Endpoint("POST", "/devices/promptconfirmation", _o("LG"), "device_prompt_confirmation", "device"),
    Endpoint("POST", "/devices/termsandconditions", _o("LG DCP DCC"), "device_terms_and_conditions",
             "device"),
    Endpoint("POST", "/devices/lineitems", _o("LG"), "device_line_items"),
    Endpoint("DELETE", "/devices/lineitems", _o("LG"), "device_clear_line_items"),
    Endpoint("GET", "/devices/info", _o("LG DCP"), "device_info"),
    Endpoint("POST", "/devices/initializereaders", _o("LG"), "device_initialize_readers"),
    Endpoint("POST", "/devices/reset", _o("LG DCP"), "device_reset"),
    Endpoint("POST", "/devices/promptcardread", _o("LG DCP DCC"), "device_prompt_card_read", "device"),
    Endpoint("POST", "/devices/promptinput", _o("LG DCP DCC"), "device_prompt_input", "device"),
    Endpoint("POST", "/devices/processform", _o("LG DCP DCC"), "device_process_form", "device"),
    Endpoint("POST", "/devices/print", _o("LG DCP DCC"), "device_print", "device"),
    Endpoint("POST", "/devices/getstatus", _o("DCP DCC"), "device_get_status"),
    Endpoint("POST", "/devices/prompttip", _o("DCP DCC"), "device_prompt_tip", "device"),
    Endpoint("GET", "/reports/batchtotals", _o("HD"), "batch_totals"),
    Endpoint("POST", "/batches/submit", _o("HD"), "batch_submit"),
    Endpoint("POST", "/qrpayments/getqrcode", _o("HD LG"), "qr_get_code"),
    Endpoint("POST", "/qrpayments/getqrdetails", _o("HD LG"), "qr_get_details"),
    Endpoint("POST", "/qrpayments/getqrpaymentstatus", _o("HD LG"), "qr_payment_status"),
    Endpoint("POST", "/qrpayments/cancelqrpayment", _o("HD LG"), "qr_cancel"),
    Endpoint("POST", "/mode/offline", _o("LG DCP"), "mode_offline"),
    Endpoint("POST", "/mode/online", _o("LG DCP"), "mode_online"),
    Endpoint("POST", "/risk/assess", _o("HD"), "risk_assess"),
    Endpoint("POST", "/risk/rulestatus", _o("HD"), "risk_rule_status"),
    Endpoint("POST", "/risk/ruleupdate", _o("HD"), "risk_rule_update"),
    Endpoint("POST", "/wallet/initiate", _o("HD"), "wallet_initiate"),
    Endpoint("POST", "/wallet/sale", _o("HD"), "wallet_sale"),
    Endpoint("POST", "/wallet/refund", _o("HD"), "wallet_refund"),
    Endpoint("POST", "/3dsecure/standalone", _o("HD"), "three_d_secure_standalone"),
    Endpoint("POST", "/3dsecure/completion", _o("HD"), "three_d_secure_completion"),
    Endpoint("POST", "/oct/payout", _o("HD"), "oct_payout"),
    Endpoint("POST", "/oct/updaterecipient", _o("HD"), "oct_update_recipient"),
    Endpoint("POST", "/ach/verify", _o("HD"), "ach_verify"),
    Endpoint("POST", "/ach/sale", _o("HD"), "ach_sale"),
    Endpoint("POST", "/ach/refund", _o("HD"), "ach_refund"),
    Endpoint("POST", "/ach/status", _o("HD"), "ach_status"),
    Endpoint("POST", "/ach/bankaggregator/link_token/create", _o("HD"), "ach_link_token_create"),
    Endpoint("POST", "/ach/bankaggregator/public_token/exchange", _o("HD"), "ach_public_token_exchange"),
    Endpoint("POST", "/updater/request", _o("HD"), "updater_request"),
    Endpoint("POST", "/updater/status", _o("HD"), "updater_status"),
    Endpoint("POST", "/dcc/ratelookup", _o("HD"), "dcc_rate_lookup"),
    Endpoint("POST", "/rules/verify", _o("HD"), "rules_verify"),
    Endpoint("POST", "/checkoutsessions/create", _o("HD"), "checkout_session_create"),
    Endpoint("POST", "/checkoutsessions/list", _o("HD"), "checkout_session_list"),
    Endpoint("POST", "/checkoutsessions/retrieve", _o("HD"), "checkout_session_retrieve"),
)

#: The later correction's spelling of ``/rules/verify``; the client falls back to it on a 404.
RULE_VERIFY_FALLBACK = "/rule/verify"

BY_KEY: dict[tuple[str, str], Endpoint] = {(e.method, e.path): e for e in ENDPOINTS}
BY_METHOD: dict[str, Endpoint] = {e.client_method: e for e in ENDPOINTS}


def endpoint(method: str, path: str) -> Endpoint | None:
    return BY_KEY.get((method.upper(), path))


def supported(option: str) -> list[Endpoint]:
    """The operations a processing option offers, in table order."""
    return [e for e in ENDPOINTS if option in e.options]
