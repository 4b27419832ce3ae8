"""Every request parameter and list filter the vendor's SDKs (Java, .NET, Node.js, PHP, Ruby,
mobile, Python) can send, one case each, over a real socket (issue #25).

Raw HTTP as those SDKs send it: list filters in the query string (``created[gt]=``,
``expand[]=``), bodies as JSON. One socket-served sandbox for the module; each case works in
its own account (its own ``sk_test_`` key), so the cases cannot see each other's records.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cashier.sandbox.chargeapi.testcards import FOLLOW_UP_DELAY_S, TEST_CARDS
from tests.support.charge_api import Served

pytestmark = pytest.mark.socket

CARD = {"number": "4242424242424242", "expMonth": "12", "expYear": "2055", "cvc": "123"}


class Account:
    """One fresh test account of the shared sandbox, spoken to as the SDKs speak."""

    def __init__(self, served: Served, http: httpx.Client) -> None:
        self.served = served
        self.http = http
        self.auth = (f"sk_test_{uuid.uuid4().hex}", "")

    def call(self, method: str, path: str, query: Any = None, body: Any = None) -> httpx.Response:
        return self.http.request(method, path, params=query, json=body, auth=self.auth)

    def ok(self, method: str, path: str, query: Any = None, body: Any = None) -> Any:
        response = self.call(method, path, query, body)
        assert response.status_code == 200, response.text
        return response.json()

    def ids(self, path: str, query: Any = None) -> list[str]:
        return [item["id"] for item in self.ok("GET", path, query)["list"]]

    def advance(self, seconds: int) -> None:
        self.served.sandbox.state.clock.advance(seconds)

    # ---- what the cases build on --------------------------------------------------------------
    def customer(self, email: str = "ann@example.com", **extra: Any) -> dict[str, Any]:
        result: dict[str, Any] = self.ok("POST", "/customers", body={"email": email, **extra})
        return result

    def charge(self, **extra: Any) -> dict[str, Any]:
        body = {"amount": 500, "currency": "EUR", "card": dict(CARD), **extra}
        result: dict[str, Any] = self.ok("POST", "/charges", body=body)
        return result

    def plan(self) -> dict[str, Any]:
        result: dict[str, Any] = self.ok("POST", "/plans", body={"amount": 900, "currency": "EUR",
                                                                 "interval": "month", "name": "Box"})
        return result

    def subscription(self, plan_id: str | None = None, **extra: Any) -> dict[str, Any]:
        customer = self.customer(card=dict(CARD))
        body = {"customerId": customer["id"], "planId": plan_id or self.plan()["id"], **extra}
        result: dict[str, Any] = self.ok("POST", "/subscriptions", body=body)
        return result


@pytest.fixture(scope="module")
def http(served_module: Served) -> Iterator[httpx.Client]:
    """One client for the module (making one costs more than a case's requests)."""
    with httpx.Client(base_url=served_module.url, timeout=10) as client:
        yield client


@pytest.fixture
def acct(served_module: Served, http: httpx.Client) -> Account:
    return Account(served_module, http)


# ---- what every list takes (the SDKs' ListRequest) ----------------------------------------------
LISTS = ["/charges", "/refunds", "/customers", "/payment-methods", "/subscriptions", "/plans", "/events",
         "/blacklist", "/credits", "/disputes", "/fraud-warnings", "/files", "/payouts",
         "/checkout-sessions", "/payment-links"]
COMMON = {"limit": "5", "includeTotalCount": "true", "created[gt]": "0", "created[gte]": "0",
          "created[lt]": "99999999999", "created[lte]": "99999999999", "expand[]": "customer"}


@pytest.mark.parametrize("path", LISTS)
def test_every_list_accepts_the_common_list_parameters(acct: Account, path: str) -> None:
    page = acct.ok("GET", path, COMMON)
    assert page["hasMore"] is False and page["totalCount"] == len(page["list"])


def test_the_cards_of_a_customer_and_a_payout_s_transactions_accept_them_too(acct: Account) -> None:
    customer = acct.customer(card=dict(CARD))
    assert acct.ok("GET", f"/customers/{customer['id']}/cards", COMMON)["totalCount"] == 1
    payout = acct.ok("POST", "/payouts")
    assert acct.ok("GET", "/payout-transactions", {**COMMON, "payout": payout["id"]})["totalCount"] == 0


@pytest.mark.parametrize(("bound", "expected"), [("gt", [2]), ("gte", [1, 2]), ("lt", [0]), ("lte", [0, 1])])
def test_created_bounds(acct: Account, bound: str, expected: list[int]) -> None:
    made = []
    for i in range(3):
        made.append(acct.customer(f"c{i}@example.com"))
        acct.advance(10)
    middle = made[1]["created"]
    listed = acct.ids("/customers", {f"created[{bound}]": middle})
    assert listed == [made[i]["id"] for i in reversed(expected)]


def test_created_as_one_second(acct: Account) -> None:
    first = acct.customer("a@example.com")
    acct.advance(10)
    acct.customer("b@example.com")
    assert acct.ids("/customers", {"created": first["created"]}) == [first["id"]]


def test_include_total_count_counts_past_the_page(acct: Account) -> None:
    for i in range(3):
        acct.customer(f"t{i}@example.com")
    page = acct.ok("GET", "/customers", {"limit": 1, "includeTotalCount": "true"})
    assert len(page["list"]) == 1 and page["totalCount"] == 3 and page["hasMore"] is True
    assert "totalCount" not in acct.ok("GET", "/customers", {"limit": 1})


@pytest.mark.parametrize("cursor", ["startingAfterId", "endingBeforeId"])
def test_cursors_with_a_filter(acct: Account, cursor: str) -> None:
    customer = acct.customer(card=dict(CARD))
    charges = [acct.charge(customerId=customer["id"])["id"] for _ in range(3)]
    acct.charge()  # another payer's charge is never in this customer's pages
    newest_first = list(reversed(charges))
    listed = acct.ids("/charges", {"customerId": customer["id"], cursor: newest_first[1]})
    assert listed == (newest_first[2:] if cursor == "startingAfterId" else newest_first[:1])


@pytest.mark.parametrize("form", [
    {"expand": "source"}, {"expand[]": "source"}, {"expand[0]": "source"}, {"expand": "payout,source"}])
def test_expand_replaces_an_id_by_its_object(acct: Account, form: dict[str, str]) -> None:
    charge = acct.charge()
    payout = acct.ok("POST", "/payouts")
    plain = acct.ok("GET", "/payout-transactions", {"payout": payout["id"]})["list"][0]
    assert plain["source"] == charge["id"]
    expanded = acct.ok("GET", "/payout-transactions", {"payout": payout["id"], **form})["list"][0]
    assert expanded["source"]["id"] == charge["id"] and expanded["source"]["amount"] == 500


def test_expand_on_a_single_object_and_an_unknown_path_is_ignored(acct: Account) -> None:
    charge = acct.charge()
    refund = acct.ok("POST", "/refunds", body={"chargeId": charge["id"]})
    got = acct.ok("GET", f"/refunds/{refund['id']}", {"expand[]": ["charge", "nothing"]})
    assert got["charge"]["id"] == charge["id"] and got["charge"]["refunded"] is True
    assert acct.call("GET", "/customers", {"expand": "not a field"}).status_code == 400


# ---- per-resource filters ---------------------------------------------------------------------
def test_charges_customer_id(acct: Account) -> None:
    customer = acct.customer(card=dict(CARD))
    mine = acct.charge(customerId=customer["id"])
    acct.charge()
    assert acct.ids("/charges", {"customerId": customer["id"]}) == [mine["id"]]


@pytest.mark.parametrize("name", ["chargeId", "none"])
def test_refunds_charge_id_or_every_refund(acct: Account, name: str) -> None:
    first, second = acct.charge(), acct.charge()
    refunds = [acct.ok("POST", "/refunds", body={"chargeId": c["id"]})["id"] for c in (first, second)]
    query = {"chargeId": first["id"]} if name == "chargeId" else {}
    assert acct.ids("/refunds", query) == (refunds[:1] if name == "chargeId" else refunds[::-1])


@pytest.mark.parametrize(("query", "expected"), [
    ({"email": "ANN@example.com"}, ["ann"]),
    ({"deleted": "true"}, ["gone"]),
    ({"metadataKey": "tier"}, ["bob", "ann"]),
    ({"metadataKey": "tier", "metadataValue": "gold"}, ["ann"]),
])
def test_customers_filters(acct: Account, query: dict[str, str], expected: list[str]) -> None:
    made = {"ann": acct.customer("ann@example.com", metadata={"tier": "gold"}),
            "bob": acct.customer("bob@example.com", metadata={"tier": "silver"}),
            "gone": acct.customer("gone@example.com", metadata={"tier": "gold"})}
    acct.ok("DELETE", f"/customers/{made['gone']['id']}")
    assert acct.ids("/customers", query) == [made[name]["id"] for name in expected]


def test_customers_metadata_value_needs_its_key(acct: Account) -> None:
    answer = acct.call("GET", "/customers", {"metadataValue": "gold"})
    assert answer.status_code == 400 and "metadataKey" in answer.json()["error"]["message"]


@pytest.mark.parametrize("name", ["deleted", "customerId"])
def test_cards_filters(acct: Account, name: str) -> None:
    customer = acct.customer(card=dict(CARD))
    kept = customer["defaultCardId"]
    second = acct.ok("POST", f"/customers/{customer['id']}/cards", body=dict(CARD))
    acct.ok("DELETE", f"/customers/{customer['id']}/cards/{second['id']}")
    path = f"/customers/{customer['id']}/cards"
    if name == "deleted":
        assert acct.ids(path, {"deleted": "true"}) == [second["id"]]
        assert acct.ids(path, {"deleted": "false"}) == [kept]
    else:
        assert acct.ids(path, {"customerId": customer["id"]}) == [kept]
        assert acct.call("GET", path, {"customerId": acct.customer()["id"]}).status_code == 400


@pytest.mark.parametrize("name", ["customerId", "deleted"])
def test_payment_methods_filters(acct: Account, name: str) -> None:
    customer = acct.customer()
    theirs = acct.ok("POST", "/payment-methods", body={"type": "alipay", "customerId": customer["id"]})
    other = acct.ok("POST", "/payment-methods", body={"type": "alipay"})
    if name == "customerId":
        assert acct.ids("/payment-methods", {"customerId": customer["id"]}) == [theirs["id"]]
    else:
        acct.ok("DELETE", f"/payment-methods/{other['id']}")
        assert acct.ids("/payment-methods", {"deleted": "true"}) == [other["id"]]
        assert acct.ids("/payment-methods") == [theirs["id"]]


@pytest.mark.parametrize("name", ["customerId", "planId", "deleted"])
def test_subscriptions_filters(acct: Account, name: str) -> None:
    plan = acct.plan()
    first, second = acct.subscription(plan["id"]), acct.subscription()
    if name == "customerId":
        assert acct.ids("/subscriptions", {"customerId": first["customerId"]}) == [first["id"]]
    elif name == "planId":
        assert acct.ids("/subscriptions", {"planId": plan["id"]}) == [first["id"]]
    else:
        cancelled = acct.ok("DELETE", f"/subscriptions/{second['id']}")
        assert cancelled["deleted"] is True and cancelled["endedAt"] == cancelled["canceledAt"]
        assert acct.ids("/subscriptions", {"deleted": "true"}) == [second["id"]]
        assert acct.ids("/subscriptions", {"deleted": "false"}) == [first["id"]]
        assert acct.ids("/subscriptions") == [first["id"]]  # cancelled is deleted (issue #44)


@pytest.mark.parametrize(("path", "make", "remove"), [
    ("/plans", lambda a: a.plan(), "/plans/{}"),
    ("/blacklist", lambda a: a.ok("POST", "/blacklist", body={"ruleType": "email", "email": "x@y.example"}),
     "/blacklist/{}"),
])
def test_deleted_filter(acct: Account, path: str, make: Callable[[Account], dict[str, Any]],
                        remove: str) -> None:
    kept, gone = make(acct), make(acct)
    acct.ok("DELETE", remove.format(gone["id"]))
    assert acct.ids(path, {"deleted": "true"}) == [gone["id"]]
    assert acct.ids(path) == [kept["id"]]


#: The lists whose request in the vendor's SDKs takes ``deleted`` (their ``...ListRequest``),
#: besides a customer's cards.
DELETABLE = {"/customers", "/payment-methods", "/subscriptions", "/plans", "/blacklist"}


@pytest.mark.parametrize("path", LISTS)
def test_deleted_is_a_filter_of_exactly_the_lists_the_sdks_give_it(acct: Account, path: str) -> None:
    answer = acct.call("GET", path, {"deleted": "true"})
    if path in DELETABLE:
        assert answer.status_code == 200 and answer.json()["list"] == []
        bad = acct.call("GET", path, {"deleted": "yes"})
        assert bad.status_code == 400
        assert bad.json()["error"]["message"] == "deleted: must be true or false"
    else:
        assert answer.status_code == 400
        assert answer.json()["error"]["message"] == "deleted: is not a parameter of this list"


def test_credits_customer_id(acct: Account) -> None:
    customer = acct.customer(card=dict(CARD))
    theirs = acct.ok("POST", "/credits",
                     body={"amount": 100, "currency": "EUR", "customerId": customer["id"]})
    acct.ok("POST", "/credits", body={"amount": 100, "currency": "EUR", "card": dict(CARD)})
    assert acct.ids("/credits", {"customerId": customer["id"]}) == [theirs["id"]]


@pytest.mark.parametrize("name", ["chargeId", "actionable"])
def test_fraud_warnings_filters(acct: Account, name: str) -> None:
    fraud = next(c.number for c in TEST_CARDS if c.outcome == "fraud_warning")
    first = acct.charge(card={**CARD, "number": fraud})
    second = acct.charge(card={**CARD, "number": fraud})
    acct.advance(FOLLOW_UP_DELAY_S)
    warnings = {w["charge"]: w["id"] for w in acct.ok("GET", "/fraud-warnings")["list"]}
    if name == "chargeId":
        assert acct.ids("/fraud-warnings", {"chargeId": first["id"]}) == [warnings[first["id"]]]
    else:
        acct.ok("POST", f"/charges/{first['id']}/refund")  # refunded: nothing left to act on
        assert acct.ids("/fraud-warnings", {"actionable": "true"}) == [warnings[second["id"]]]
        assert acct.ids("/fraud-warnings", {"actionable": "false"}) == [warnings[first["id"]]]


def test_files_purpose(acct: Account) -> None:
    def upload(purpose: str) -> str:
        response = acct.http.post("/files", data={"purpose": purpose}, auth=acct.auth,
                                  files={"file": ("e.pdf", b"evidence", "application/pdf")})
        assert response.status_code == 200, response.text
        return str(response.json()["id"])

    evidence = upload("dispute_evidence")
    upload("customer_signature")
    assert acct.ids("/files", {"purpose": "dispute_evidence"}) == [evidence]


@pytest.mark.parametrize("name", ["payout", "source"])
def test_payout_transactions_filters(acct: Account, name: str) -> None:
    first = acct.charge()
    acct.charge()
    payout = acct.ok("POST", "/payouts")
    assert payout["payoutNumber"] and payout["metadata"] == {}
    by_payout = acct.ok("GET", "/payout-transactions", {"payout": payout["id"]})["list"]
    assert len(by_payout) == 2 and all(t["description"].startswith("charge ") for t in by_payout)
    if name == "source":
        found = acct.ok("GET", "/payout-transactions", {"source": first["id"]})["list"]
        assert [t["source"] for t in found] == [first["id"]]


def test_payment_links_active(acct: Account) -> None:
    kept = acct.ok("POST", "/payment-links", body={"amount": 100, "currency": "EUR"})
    off = acct.ok("POST", "/payment-links", body={"amount": 100, "currency": "EUR"})
    acct.ok("POST", f"/payment-links/{off['id']}/deactivate")
    assert acct.ids("/payment-links", {"active": "true"}) == [kept["id"]]
    assert acct.ids("/payment-links", {"active": "false"}) == [off["id"]]


def test_an_unknown_list_parameter_is_still_refused_by_name(acct: Account) -> None:
    answer = acct.call("GET", "/charges", {"colour": "red"})
    assert answer.status_code == 400 and answer.json()["error"]["message"].startswith("colour:")


# ---- request parameters ------------------------------------------------------------------------
def test_subscription_update_card(acct: Account) -> None:
    sub = acct.subscription()
    before = acct.ok("GET", f"/customers/{sub['customerId']}")["defaultCardId"]
    acct.ok("POST", f"/subscriptions/{sub['id']}", body={"card": {**CARD, "number": "5555555555554444"}})
    customer = acct.ok("GET", f"/customers/{sub['customerId']}")
    assert customer["defaultCardId"] != before and customer["defaultCard"]["last4"] == "4444"


@pytest.mark.parametrize(("field", "value"), [("captureCharges", False), ("merchantAccountId", "shop-2")])
def test_subscription_update_fields(acct: Account, field: str, value: Any) -> None:
    sub = acct.subscription()
    assert acct.ok("POST", f"/subscriptions/{sub['id']}", body={field: value})[field] == value
    assert acct.ok("GET", f"/subscriptions/{sub['id']}")[field] == value


def test_subscription_update_trial_end(acct: Account) -> None:
    sub = acct.subscription(trialEnd=int(acct.served.sandbox.state.clock.now()) + 3600)
    later = sub["trialEnd"] + 86400
    updated = acct.ok("POST", f"/subscriptions/{sub['id']}", body={"trialEnd": later})
    assert updated["trialEnd"] == later == updated["currentPeriodEnd"] and updated["status"] == "trialing"
    active = acct.subscription()
    refused = acct.call("POST", f"/subscriptions/{active['id']}", body={"trialEnd": later})
    assert refused.status_code == 400 and "trialing" in refused.json()["error"]["message"]


@pytest.mark.parametrize("where", ["query", "body"])
def test_subscription_cancel_at_period_end(acct: Account, where: str) -> None:
    sub = acct.subscription()
    flag = {"atPeriodEnd": "true"} if where == "query" else None
    body = {"atPeriodEnd": True} if where == "body" else None
    answer = acct.ok("DELETE", f"/subscriptions/{sub['id']}", query=flag, body=body)
    assert answer["status"] == "active" and answer["cancelAtPeriodEnd"] is True
    acct.advance(sub["currentPeriodEnd"] - sub["currentPeriodStart"] + 1)
    ended = acct.ok("GET", f"/subscriptions/{sub['id']}")
    assert ended["status"] == "canceled" and ended["endedAt"] == sub["currentPeriodEnd"]


def test_credit_update_customer_id(acct: Account) -> None:
    credit = acct.ok("POST", "/credits", body={"amount": 100, "currency": "EUR", "card": dict(CARD)})
    customer = acct.customer()
    assert acct.ok("POST", f"/credits/{credit['id']}", body={"customerId": customer["id"]})["customerId"] \
        == customer["id"]
    assert acct.ids("/credits", {"customerId": customer["id"]}) == [credit["id"]]


@pytest.mark.parametrize(("wallet", "kind"), [("applePay", "apple_pay"), ("googlePay", "google_pay")])
def test_payment_method_wallet_token_is_accepted_and_never_kept(acct: Account, wallet: str,
                                                                kind: str) -> None:
    method = acct.ok("POST", "/payment-methods", body={"type": kind, wallet: {"token": "opaque-wallet-blob"}})
    got = acct.ok("GET", f"/payment-methods/{method['id']}")
    assert method["type"] == got["type"] == kind and "opaque-wallet-blob" not in str(got)
    wrong = acct.call("POST", "/payment-methods", body={"type": "alipay", wallet: {"token": "x"}})
    assert wrong.status_code == 400 and wrong.json()["error"]["message"].startswith(f"{wallet}:")


def test_payment_method_three_d_secure(acct: Account) -> None:
    method = acct.ok("POST", "/payment-methods",
                     body={"type": "alipay", "threeDSecure": {"amount": 500, "currency": "eur"}})
    assert method["threeDSecure"] == {"amount": 500, "currency": "EUR"}


@pytest.mark.parametrize(("rule", "blocks"), [
    ({"ruleType": "card_bin", "cardBin": "424242"}, True),
    ({"ruleType": "email_domain", "email": "blocked.example"}, True),
    ({"ruleType": "card_country", "cardCountry": "PL"}, False),
    ({"ruleType": "card_issuer", "cardIssuer": "Some Bank"}, False),
    ({"ruleType": "shipping"}, False),
])
def test_blacklist_rule_types(acct: Account, rule: dict[str, str], blocks: bool) -> None:
    made = acct.ok("POST", "/blacklist", body=rule)
    assert made["ruleType"] == rule["ruleType"] and acct.ids("/blacklist") == [made["id"]]
    customer = acct.customer("ann@blocked.example", card=dict(CARD))
    answer = acct.call("POST", "/charges",
                       body={"amount": 500, "currency": "EUR", "customerId": customer["id"]})
    if blocks:
        assert answer.status_code == 402 and answer.json()["error"]["blacklistRuleId"] == made["id"]
    else:
        assert answer.status_code == 200, answer.text


#: The sandbox page of IT's guide (issue #43: the README became one page).
README = Path(__file__).resolve().parents[2] / "docs" / "guides" / "sandbox.md"
LIST_PATHS = {"Charges": "/charges", "Refunds": "/refunds", "Customers": "/customers",
              "Payment methods": "/payment-methods", "Subscriptions": "/subscriptions",
              "Plans": "/plans",
              "Events": "/events", "Blacklist": "/blacklist", "Credits": "/credits",
              "Fraud warnings": "/fraud-warnings", "File uploads": "/files",
              "Payment links": "/payment-links"}


def test_the_readme_table_names_filters_the_sandbox_takes(acct: Account) -> None:
    """Each list filter the README's table promises is a parameter of that list (its value may
    still be refused, by its own rule: never as an unknown parameter)."""
    rows = [line.split("|") for line in README.read_text("utf-8").splitlines()
            if line.startswith("| ") and line.split("|")[1].strip() in LIST_PATHS]
    assert {row[1].strip() for row in rows} == set(LIST_PATHS)
    for row in rows:
        for name in re.findall(r"`(\w+)`", row[2]):
            value = "true" if name in ("deleted", "actionable", "active") else "x"
            answer = acct.call("GET", LIST_PATHS[row[1].strip()], {name: value})
            assert "is not a parameter" not in answer.text, (row[1], name)
