"""The vendor's test mode, as its own SDKs' test suites use it, against the socket-served sandbox.

Each test does what a merchant's integration test written against the vendor's test mode does
(the numbers and expectations are those of shift4-python ``tests/integration``, shift4-java,
shift4-php ``ExceptionTest`` and the shift4-ios/-node test data), through the official ``shift4``
SDK where it has the call, else over plain HTTP on the same socket (payouts: the pinned SDK has
no payout resource).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.sandbox.chargeapi import testcards
from cashier.sandbox.chargeapi.testcards import FOLLOW_UP_DELAY_S, TEST_CARDS
from tests.support.charge_api import Served

shift4 = pytest.importorskip("shift4")
pytestmark = pytest.mark.socket

KEY = "sk_test_vendor"
#: The sandbox page of IT's guide (issue #43: the README became one page).
README = Path(__file__).resolve().parents[2] / "docs" / "guides" / "sandbox.md"


@pytest.fixture
def api(served: Served) -> Iterator[Any]:
    saved = (shift4.api_url, shift4.uploads_url, shift4.secret_key)
    shift4.api_url, shift4.uploads_url, shift4.secret_key = served.url, served.url, KEY
    try:
        yield shift4
    finally:
        shift4.api_url, shift4.uploads_url, shift4.secret_key = saved


@pytest.fixture
def http(served: Served) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served.url, auth=(KEY, "")) as client:
        yield client


def card_req(number: str = "4242424242424242", **extra: Any) -> dict[str, Any]:
    return {"number": number, "expMonth": "12", "expYear": "2055", "cvc": "123",
            "cardholderName": "Ann Lee", **extra}


def charge_req(number: str = "4242424242424242", **extra: Any) -> dict[str, Any]:
    return {"amount": 499, "currency": "EUR", "card": card_req(number), "description": "d",
            "metadata": {"key": "value"}, **extra}


def error_of(fn: Any, *args: Any, **kw: Any) -> Any:
    with pytest.raises(shift4.Shift4Exception) as info:
        fn(*args, **kw)
    return info.value


VENDOR_DECLINES = [
    ("4024007134364842", "incorrect_cvc"), ("4929225021529113", "incorrect_zip"),
    ("4024007118468684", "insufficient_funds"), ("4024007114621187", "lost_or_stolen"),
    ("4024007155502486", "suspected_fraud"), ("4916018475814056", "card_declined"),
    ("4024007114166316", "processing_error"), ("4916449457024978", "authentication_required"),
    ("4024007102349866", "invalid_number"), ("4532873294814636", "invalid_expiry_month"),
    ("4532582477951947", "invalid_expiry_year"), ("4024007189368227", "invalid_cvc"),
    ("4916487051294548", "expired_card"),
]


@pytest.mark.parametrize(("number", "code"), VENDOR_DECLINES)
def test_each_vendor_test_card_fails_with_its_code_and_names_the_charge(api: Any, number: str,
                                                                         code: str) -> None:
    error = error_of(api.charges.create, charge_req(number))
    assert (error.type, error.code) == ("card_error", code)
    assert error.charge_id.startswith("char_")
    failed = api.charges.get(error.charge_id)
    assert failed["status"] == "failed" and failed["failureCode"] == code


def test_success_card_and_the_issuer_decline_code(api: Any, http: httpx.Client) -> None:
    ok = api.charges.create(charge_req())
    assert ok["status"] == "successful" and "failureCode" not in ok
    answer = http.post("/charges", json=charge_req("4024007118468684"))
    error = answer.json()["error"]
    assert answer.status_code == 402 and error["code"] == "insufficient_funds"
    assert error["issuerDeclineCode"] == "51" and error["chargeId"].startswith("char_")
    assert api.charges.get(error["chargeId"])["failureIssuerDeclineCode"] == "51"
    plain = http.post("/charges", json=charge_req("4024007114621187")).json()["error"]
    assert "issuerDeclineCode" not in plain  # only where the vendor gives one


def test_credit_to_the_declined_card_fails_naming_the_credit(api: Any, http: httpx.Client) -> None:
    credit = api.credits.create({"amount": 499, "currency": "EUR", "card": card_req("4242000000011114")})
    assert credit["fast"] is True and credit["card"]["last4"] == "1114"
    declined = {"amount": 499, "currency": "EUR", "card": card_req("4916018475814056")}
    answer = http.post("/credits", json=declined)
    error = answer.json()["error"]
    assert answer.status_code == 402 and (error["type"], error["code"]) == ("card_error", "card_declined")
    assert api.credits.get(error["creditId"])["failureCode"] == "card_declined"


def test_invalid_request_errors_read_as_the_vendors(api: Any) -> None:
    missing = error_of(api.customers.create, {})
    assert (missing.type, missing.code) == ("invalid_request", None)
    assert missing.message == "email: Must not be empty."
    assert missing.charge_id is None and missing.blacklist_rule_id is None
    unknown = error_of(api.customers.get, "1")
    assert (unknown.type, unknown.code) == ("invalid_request", None)
    assert unknown.message == "Customer '1' does not exist"
    created = api.charges.create(charge_req(), request_options={"idempotency_key": "k-1"})
    reused = error_of(api.charges.create, charge_req(amount="42"), request_options={"idempotency_key": "k-1"})
    assert (reused.type, reused.code) == ("invalid_request", None)
    assert reused.message == "Idempotent key used for request with different parameters."
    api.charges.update(created["id"], {"description": "a"}, request_options={"idempotency_key": "k-2"})
    other = error_of(api.charges.update, created["id"], {"description": "b"},
                     request_options={"idempotency_key": "k-2"})
    assert other.message == "Idempotent key used for request with different parameters."
    refused = error_of(api.charges.create, charge_req(colour="red"))
    assert (refused.type, refused.code) == ("invalid_request", None) and refused.message.startswith("colour:")


def test_a_charge_lists_its_refunds(api: Any) -> None:
    charge = api.charges.create(charge_req(amount=1000))
    assert charge["refunds"] == []
    api.charges.refund(charge["id"], {"amount": 300})
    refunded = api.charges.refund(charge["id"], {"amount": 200})
    assert [r["amount"] for r in refunded["refunds"]] == [300, 200]
    assert all(r["charge"] == charge["id"] for r in refunded["refunds"])
    assert api.charges.get(charge["id"])["refunds"] == refunded["refunds"]


def test_two_digit_year_is_kept_as_four_and_card_data_from_the_sdks(api: Any) -> None:
    fraud = {"ipAddress": "8.8.8.8", "email": "e@example.com", "userAgent": "ua", "acceptLanguage": "en"}
    charge = api.charges.create(charge_req(card=card_req(expYear="55", fraudCheckData=fraud,
                                                         addressCountry="CH"),
                                           threeDSecure={"requireAttempt": False,
                                                         "requireEnrolledCard": False}))
    assert charge["card"]["expYear"] == "2055" and charge["card"]["fraudCheckData"] == fraud
    token = api.tokens.create(card_req(expYear="55"))
    assert token["expYear"] == "2055"
    customer = api.customers.create({"email": "year@example.com", "card": {"id": token["id"]}})
    updated = api.cards.update(customer["id"], customer["defaultCardId"], {"expYear": "56"})
    assert updated["expYear"] == "2056"


def test_a_card_is_added_to_a_customer_by_token_or_charge_id(api: Any) -> None:
    customer = api.customers.create({"email": "cards@example.com"})
    token = api.tokens.create(card_req("5555555555554444"))
    by_token = api.cards.create(customer["id"], {"id": token["id"]})
    assert by_token["last4"] == "4444" and by_token["customerId"] == customer["id"]
    charge = api.charges.create(charge_req("378282246310005"))
    by_charge = api.cards.create(customer["id"], {"id": charge["id"]})
    assert by_charge["last4"] == "0005"
    assert {c["id"] for c in api.cards.list(customer["id"])["list"]} == {by_token["id"], by_charge["id"]}
    wrong = error_of(api.cards.create, customer["id"], {"id": "cust_nope"})
    assert wrong.type == "invalid_request" and wrong.message.startswith("id:")


def test_lists_accept_include_total_count(api: Any) -> None:
    customer = api.customers.create({"email": "count@example.com"})
    first = api.charges.create(charge_req(customerId=customer["id"]))
    for _ in range(2):
        api.charges.create(charge_req(customerId=customer["id"]))
    listed = api.charges.list({"customerId": customer["id"], "limit": 2, "includeTotalCount": True})
    assert listed["totalCount"] == 3 and len(listed["list"]) == 2 and listed["hasMore"] is True
    assert "totalCount" not in api.charges.list({"customerId": customer["id"]})
    after = api.charges.list({"customerId": customer["id"], "includeTotalCount": "true",
                              "startingAfterId": listed["list"][-1]["id"]})
    assert [c["id"] for c in after["list"]] == [first["id"]] and after["totalCount"] == 3


def test_payouts_carry_their_period_and_transactions_their_fee(http: httpx.Client) -> None:
    first_charge = http.post("/charges", json=charge_req()).json()
    for _ in range(2):
        http.post("/charges", json=charge_req())
    payout = http.post("/payouts").json()
    assert payout["amount"] == 3 * 499 and payout["currency"] == "EUR"
    assert payout["periodStart"] <= first_charge["created"] <= payout["periodEnd"]
    lines = http.get("/payout-transactions", params={"payout": payout["id"], "limit": 2,
                                                      "includeTotalCount": "true"}).json()
    assert lines["totalCount"] == 3 and len(lines["list"]) == 2
    assert all(t["fee"] == 0 and t["payout"] == payout["id"] for t in lines["list"])
    again = http.post("/payouts").json()  # nothing new: the vendor still makes a payout
    assert again["id"] != payout["id"] and again["periodStart"] == payout["periodEnd"]
    listed = http.get("/payouts", params={"includeTotalCount": "true"}).json()
    assert listed["totalCount"] == 2


def test_dispute_card_as_the_vendors_test_mode(api: Any, served: Served) -> None:
    charge = api.charges.create(charge_req("4242000000000018"))
    assert charge["disputed"] is False and "dispute" not in charge
    served.sandbox.state.clock.advance(FOLLOW_UP_DELAY_S)
    disputed = api.charges.get(charge["id"])
    dispute = disputed["dispute"]
    assert disputed["disputed"] is True and "charge" not in dispute
    assert (dispute["status"], dispute["reason"]) == ("CHARGEBACK_NEW", "GENERAL")
    assert dispute["acceptedAsLost"] is False
    assert dispute["amount"] == 499 and dispute["currency"] == "EUR" and dispute["updated"]
    assert dispute["evidenceDetails"]["hasEvidence"] is False
    assert dispute["evidenceDetails"]["submissionCount"] == 0
    got = api.disputes.get(dispute["id"])
    assert got["charge"]["id"] == charge["id"]
    updated = api.disputes.update(dispute["id"], {"evidence": {"customerName": "Ann",
                                                               "productDescription": "cake"}})
    assert updated["evidenceDetails"] == {**dispute["evidenceDetails"], "hasEvidence": True,
                                          "submissionCount": 1}
    assert updated["status"] == "CHARGEBACK_RESPONSE_UNDER_REVIEW"
    refused = error_of(api.disputes.update, dispute["id"], {"evidence": {"shoeSize": "44"}})
    assert refused.message.startswith("evidence.shoeSize:")
    assert api.disputes.close(dispute["id"])["acceptedAsLost"] is True
    listed = api.disputes.list({"limit": 100, "includeTotalCount": True})
    assert listed["totalCount"] == 1 and listed["list"][0]["id"] == dispute["id"]


def test_fraud_warning_card_as_the_vendors_test_mode(api: Any, http: httpx.Client, served: Served) -> None:
    charge = api.charges.create(charge_req("4242000000000208"))
    other = api.charges.create(charge_req("4242000000000208"))
    assert charge["fraudDetails"]["status"] == "in_progress"
    served.sandbox.state.clock.advance(FOLLOW_UP_DELAY_S)
    assert api.charges.get(charge["id"])["fraudDetails"]["status"] != "in_progress"
    mine = http.get("/fraud-warnings", params={"charge": charge["id"], "includeTotalCount": "true"}).json()
    assert mine["totalCount"] == 1 and mine["list"][0]["charge"] == charge["id"]
    warning = api.fraud_warnings.get(mine["list"][0]["id"])
    assert warning["actionable"] is True and warning["charge"] != other["id"]


def test_fields_the_vendor_sdks_name_are_accepted(api: Any) -> None:
    plan = api.plans.create({"amount": 499, "currency": "EUR", "interval": "month", "intervalCount": 3,
                             "name": "p", "trialPeriodDays": 5, "statementDescription": "s",
                             "billingCycles": 7, "metadata": {"key": "value"}})
    assert (plan["trialPeriodDays"], plan["billingCycles"], plan["statementDescription"]) == (5, 7, "s")
    customer = api.customers.create({"email": "sdk@example.com", "card": card_req()})
    assert customer["defaultCard"]["id"] == customer["defaultCardId"]
    sub = api.subscriptions.create({"customerId": customer["id"], "planId": plan["id"], "quantity": 1,
                                    "captureCharges": False, "trialEnd": 2_000_000_000,
                                    "metadata": {"key": "value"}})
    assert sub["captureCharges"] is False and sub["trialEnd"] == 2_000_000_000
    charge = api.charges.create(charge_req(merchantAccountId="m1", shipping={"name": "Ann"},
                                           billing={"name": "Ann", "vat": "CH1"}))
    updated = api.charges.update(charge["id"], {"customerId": customer["id"]})
    assert updated["customerId"] == customer["id"] and updated["merchantAccountId"] == "m1"
    token = api.tokens.create(card_req())
    by_id = api.charges.create({"amount": 100, "currency": "EUR", "card": {"id": token["id"]}})
    assert by_id["card"]["first6"] == "424242"
    method = api.payment_methods.create({"type": "bank_transfer", "billing": {"name": "Ann"}})
    pending = api.charges.create({"amount": 100, "currency": "EUR", "paymentMethod": {"id": method["id"]}})
    assert pending["status"] == "pending" and pending["paymentMethod"] == method["id"]
    with_method = api.customers.create({"email": "pm@example.com", "paymentMethod": {"id": method["id"]}})
    assert with_method["defaultPaymentMethodId"] == method["id"]
    credit = api.credits.create({"amount": 100, "currency": "EUR", "card": card_req(),
                                 "receiver": {"name": "Ann"}, "merchantAccountId": "m1"})
    assert credit["receiver"] == {"name": "Ann"}


def test_trials_billing_cycles_and_uncaptured_subscription_charges(api: Any, served: Served) -> None:
    clock = served.sandbox.state.clock
    customer = api.customers.create({"email": "trial@example.com", "card": card_req()})
    after = api.plans.create({"amount": 100, "currency": "EUR", "interval": "day", "name": "after"})
    plan = api.plans.create({"amount": 499, "currency": "EUR", "interval": "day", "name": "intro",
                             "trialPeriodDays": 2, "billingCycles": 2, "recursTo": after["id"]})
    sub = api.subscriptions.create({"customerId": customer["id"], "planId": plan["id"],
                                    "captureCharges": False})
    assert sub["status"] == "trialing" and sub["trialEnd"] - sub["trialStart"] == 2 * 86400
    assert sub["remainingBillingCycles"] == 2 and sub["currentPeriodEnd"] == sub["trialEnd"]
    billed = [c for c in api.charges.list({"customerId": customer["id"]})["list"]]
    assert billed == []  # nothing charged during the trial
    clock.advance(2 * 86400 + 1)  # the trial ends: the first cycle
    clock.advance(86400)  # the second and last cycle of the plan, then recursTo
    clock.advance(86400)  # the next plan's first day
    charges = api.charges.list({"customerId": customer["id"]})["list"]
    assert [c["amount"] for c in charges] == [100, 499, 499]
    assert all(c["captured"] is False and c["subscriptionId"] == sub["id"] for c in charges)
    now = api.subscriptions.get(sub["id"])
    assert now["status"] == "active" and now["planId"] == after["id"]
    ending = api.subscriptions.update(sub["id"], {"cancelAtPeriodEnd": True})
    clock.advance(86400)
    assert api.subscriptions.get(sub["id"])["status"] == "canceled"
    assert len(api.charges.list({"customerId": customer["id"]})["list"]) == 3 and ending["cancelAtPeriodEnd"]
    wrong = error_of(api.plans.create, {"amount": 1, "currency": "EUR", "interval": "day", "name": "x",
                                        "recursTo": "plan_nope"})
    assert wrong.message.startswith("recursTo:")


def test_checkout_sessions_take_the_vendor_sdks_line_items(api: Any, http: httpx.Client) -> None:
    plan = api.plans.create({"amount": 250, "currency": "EUR", "interval": "month", "name": "Box"})
    body = {"lineItems": [{"product": {"name": "Cake", "amount": 499, "currency": "EUR"}, "quantity": 2},
                          {"product": {"id": plan["id"]}}],
            "locale": "en", "collectBillingAddress": True, "capture": False, "metadata": {"k": "v"}}
    session = http.post("/checkout-sessions", json=body).json()
    assert (session["amount"], session["currency"], session["capture"]) == (2 * 499 + 250, "EUR", False)
    assert session["clientSecret"] and session["url"].endswith(session["id"])
    mixed = {"lineItems": [{"product": {"name": "A", "amount": 1, "currency": "EUR"}},
                           {"product": {"name": "B", "amount": 1, "currency": "USD"}}]}
    refused = http.post("/checkout-sessions", json=mixed)
    assert refused.status_code == 400 and "one currency" in refused.json()["error"]["message"]
    unknown = http.post("/checkout-sessions", json={"lineItems": [{"product": {"id": "plan_nope"}}]})
    assert unknown.status_code == 400 and "does not exist" in unknown.json()["error"]["message"]


def test_blacklist_rule_types_of_the_vendor_sdks(api: Any) -> None:
    rule = api.blacklist.create({"ruleType": "metadata", "metadataKey": "shop", "metadataValue": "evil"})
    error = error_of(api.charges.create, charge_req(metadata={"shop": "evil"}))
    assert error.code == "blacklisted" and error.blacklist_rule_id == rule["id"]
    assert api.charges.create(charge_req(metadata={"shop": "good"}))["status"] == "successful"
    agent = api.blacklist.create({"ruleType": "user_agent", "userAgent": "bot/1"})
    blocked = error_of(api.charges.create, charge_req(card=card_req(fraudCheckData={"userAgent": "bot/1"})))
    assert blocked.blacklist_rule_id == agent["id"]
    country = api.blacklist.create({"ruleType": "ip_country", "ipCountry": "XX"})
    assert api.blacklist.get(country["id"])["ipCountry"] == "XX"
    wrong = error_of(api.blacklist.create, {"ruleType": "shoe_size", "shoeSize": "44"})
    assert wrong.message.startswith("ruleType:")


def test_deep_json_and_deep_brackets_answer_400_and_the_server_keeps_serving(served: Served) -> None:
    deep = b'{"metadata": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with httpx.Client(base_url=served.url, auth=(KEY, "")) as client:  # one kept-alive connection
        answer = client.post("/charges", content=deep, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400 and answer.json()["error"]["type"] == "invalid_request"
        assert "nested deeper" in answer.json()["error"]["message"]
        brackets = "a" + "[x]" * 5000 + "=1"
        form = client.post("/charges", content=brackets,
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert form.status_code == 400 and form.json()["error"]["type"] == "invalid_request"
        after = client.post("/charges", json=charge_req())
        assert after.status_code == 200 and after.json()["status"] == "successful"


def test_an_explicit_merchant_has_its_own_records(http: httpx.Client, api: Any, tmp_path: Path) -> None:
    """The SDKs' explicit merchant (``Shift4-Merchant``): a platform acting for one merchant."""
    merchant = {"Shift4-Merchant": "shop7"}
    charge = http.post("/charges", json=charge_req(), headers=merchant).json()
    assert http.get(f"/charges/{charge['id']}", headers=merchant).json()["status"] == "successful"
    elsewhere = http.get(f"/charges/{charge['id']}")
    assert elsewhere.status_code == 404
    assert elsewhere.json()["error"]["message"] == f"Charge '{charge['id']}' does not exist"
    bad = http.get("/charges", headers={"Shift4-Merchant": "a b"})
    assert bad.status_code == 400 and bad.json()["error"]["message"].startswith("Shift4-Merchant:")
    evidence = tmp_path / "evidence.pdf"
    evidence.write_text("Any text", "utf-8")
    upload = api.file_uploads.upload(str(evidence), {"purpose": "dispute_evidence"})
    assert upload["url"].endswith(upload["id"]) and upload["type"] == "pdf" and upload["size"] == 8


def test_readme_test_card_tables_are_the_sandbox_table() -> None:
    readme = README.read_text("utf-8")
    assert testcards.markdown_table("vendor") in readme
    assert testcards.markdown_table("sandbox") in readme
    vendor = {c.number for c in TEST_CARDS if c.source == "vendor"}
    assert {number for number, _ in VENDOR_DECLINES} <= vendor
    assert {"4242424242424242", "4242000000000018", "4242000000000208"} <= vendor
