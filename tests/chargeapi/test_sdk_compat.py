"""The official SDK (PyPI ``shift4`` 2.1.0), unchanged, against the socket-served sandbox.

Only ``api_url``, ``uploads_url`` and ``secret_key`` are set. The SDK is synchronous
(``requests``, JSON bodies); the sandbox runs in a uvicorn thread of this process, so the
tests can move the sandbox clock to make disputes and fraud warnings appear.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cashier.sandbox.chargeapi.testcards import FOLLOW_UP_DELAY_S, TEST_CARDS
from tests.support.charge_api import Served

shift4 = pytest.importorskip("shift4")
pytestmark = pytest.mark.socket


@pytest.fixture
def api(served: Served) -> Iterator[Any]:
    saved = (shift4.api_url, shift4.uploads_url, shift4.secret_key)
    shift4.api_url, shift4.uploads_url, shift4.secret_key = served.url, served.url, "sk_test_sdk"
    try:
        yield shift4
    finally:
        shift4.api_url, shift4.uploads_url, shift4.secret_key = saved


def card_req(number: str = "4242424242424242") -> dict[str, str]:
    return {"number": number, "expMonth": "12", "expYear": "2055", "cvc": "123", "cardholderName": "Ann Lee"}


def charge_req(**kw: Any) -> dict[str, Any]:
    return {"amount": 499, "currency": "EUR", "card": card_req(), "description": "phone order",
            "metadata": {"key": "value"}, **kw}


def error_of(fn: Any, *args: Any, **kw: Any) -> Any:
    with pytest.raises(shift4.Shift4Exception) as info:
        fn(*args, **kw)
    return info.value


def test_charges_capture_refund_list_and_update(api: Any) -> None:
    created = api.charges.create(charge_req())
    assert api.charges.get(created["id"]) == created
    assert created["card"]["first6"] == "424242" and created["card"]["last4"] == "4242"
    assert created["card"]["expMonth"] == "12" and created["card"]["cardholderName"] == "Ann Lee"
    updated = api.charges.update(created["id"], {"description": "new", "metadata": {"key": "v2"}})
    assert updated["description"] == "new" and updated["metadata"]["key"] == "v2"
    assert updated["amount"] == 499
    auth = api.charges.create(charge_req(captured=False))
    assert not auth["captured"] and api.charges.capture(auth["id"])["captured"]
    refunded = api.charges.refund(auth["id"], {"amount": 100})
    assert refunded["amountRefunded"] == 100 and refunded["refunded"]
    customer = api.customers.create({"email": "list@example.com"})
    c1, c2, c3 = (api.charges.create(charge_req(customerId=customer["id"])) for _ in range(3))
    listed = api.charges.list({"customerId": customer["id"]})
    assert [c["id"] for c in listed["list"]] == [c3["id"], c2["id"], c1["id"]]
    after = api.charges.list({"customerId": customer["id"], "startingAfterId": c3["id"], "limit": 1})
    assert [c["id"] for c in after["list"]] == [c2["id"]] and after["hasMore"] is True


def test_idempotency_through_request_options(api: Any) -> None:
    key = str(uuid.uuid4())
    first = api.charges.create(charge_req(), request_options={"idempotency_key": key})
    second = api.charges.create(charge_req(), request_options={"idempotency_key": key})
    assert first == second
    assert api.charges.create(charge_req()) != api.charges.create(charge_req())
    changed = charge_req(amount="42")
    error = error_of(api.charges.create, changed, request_options={"idempotency_key": key})
    assert error.type == "invalid_request"
    assert error.message == "Idempotent key used for request with different parameters."


def test_errors_are_shift4_exceptions(api: Any, served: Served) -> None:
    declined = next(c.number for c in TEST_CARDS if c.outcome == "insufficient_funds")
    error = error_of(api.charges.create, charge_req(card=card_req(declined)))
    assert (error.type, error.code) == ("card_error", "insufficient_funds")
    assert error.charge_id and api.charges.get(error.charge_id)["status"] == "failed"
    missing = error_of(api.customers.create, {})
    assert missing.type == "invalid_request" and missing.message.startswith("email")
    unknown = error_of(api.customers.get, "cust_nope")
    assert unknown.type == "invalid_request" and "does not exist" in unknown.message
    saved = api.secret_key
    api.secret_key = "not-a-key"
    try:
        assert error_of(api.charges.list).type == "invalid_request"
    finally:
        api.secret_key = saved


def test_customers_and_cards(api: Any) -> None:
    customer = api.customers.create({"email": "ann@example.com", "card": card_req()})
    assert api.customers.get(customer["id"])["email"] == "ann@example.com"
    new_card = api.cards.create(customer["id"], card_req("5555555555554444"))
    assert api.cards.get(new_card["customerId"], new_card["id"]) == new_card
    assert customer["defaultCardId"] != new_card["id"]
    updated = api.customers.update(customer["id"], {"defaultCardId": new_card["id"]})
    assert updated["defaultCardId"] == new_card["id"]
    change = {"expMonth": "05", "expYear": "2055", "cardholderName": "Bo", "addressCity": "Bern"}
    assert api.cards.update(customer["id"], new_card["id"], change) == {**new_card, **change}
    listed = api.cards.list(customer["id"], {"limit": 1})
    assert [c["id"] for c in listed["list"]] == [new_card["id"]]
    api.cards.delete(customer["id"], new_card["id"])
    assert api.cards.get(customer["id"], new_card["id"])["deleted"] is True
    assert api.customers.get(customer["id"])["defaultCardId"] == customer["defaultCardId"]
    twin = api.customers.create({"email": "ann@example.com"})
    api.customers.delete(twin["id"])
    assert [c["id"] for c in api.customers.list({"email": "ann@example.com"})["list"]] == [customer["id"]]
    assert [c["id"] for c in api.customers.list({"email": "ann@example.com", "deleted": True})["list"]] \
        == [twin["id"]]


def test_tokens_plans_and_subscriptions(api: Any) -> None:
    token = api.tokens.create(card_req())
    got = api.tokens.get(token["id"])
    assert got["last4"] == "4242" and got["used"] is False and "number" not in got
    charge = api.charges.create({"amount": 2000, "currency": "EUR", "card": token["id"], "captured": False})
    api.charges.capture(charge["id"])
    assert api.charges.refund(charge["id"], {"amount": 1000})["amountRefunded"] == 1000
    plan = api.plans.create({"amount": 999, "currency": "EUR", "interval": "week", "name": "Box"})
    assert api.plans.update(plan["id"], {"amount": 222, "currency": "PLN"})["currency"] == "PLN"
    customer = api.customers.create({"email": "sub@example.com"})
    sub = api.subscriptions.create({"customerId": customer["id"], "planId": plan["id"],
                                    "card": api.tokens.create(card_req())["id"]})
    assert sub == api.subscriptions.get(sub["id"]) and sub["planId"] == plan["id"]
    shipping = {"name": "Ann", "address": {"line1": "Main 1", "city": "Bern", "country": "CH"}}
    api.subscriptions.update(sub["id"], {"shipping": shipping})
    assert api.subscriptions.get(sub["id"])["shipping"] == shipping
    assert [s["id"] for s in api.subscriptions.list({"customerId": customer["id"]})["list"]] == [sub["id"]]
    api.plans.delete(plan["id"])
    assert api.plans.get(plan["id"])["deleted"] is True
    assert plan["id"] in [p["id"] for p in api.plans.list({"limit": 100, "deleted": True})["list"]]
    assert api.subscriptions.cancel(sub["id"])["status"] == "canceled"


def test_blacklist_credits_payment_methods(api: Any) -> None:
    rule = api.blacklist.create({"ruleType": "email", "email": "fraud@example.com"})
    assert api.blacklist.get(rule["id"])["email"] == "fraud@example.com"
    bad = api.customers.create({"email": "fraud@example.com", "card": card_req()})
    error = error_of(api.charges.create, {"amount": 100, "currency": "USD", "customerId": bad["id"]})
    assert error.code == "blacklisted" and error.blacklist_rule_id == rule["id"]
    assert [r["id"] for r in api.blacklist.list()["list"]] == [rule["id"]]
    api.blacklist.delete(rule["id"])
    assert api.blacklist.list()["list"] == []
    credit = api.credits.create({"amount": 300, "currency": "EUR", "card": card_req(), "description": "d"})
    assert api.credits.get(credit["id"]) == credit
    assert api.credits.update(credit["id"], {"description": "e"})["description"] == "e"
    assert api.credits.list()["list"][0]["id"] == credit["id"]
    method = api.payment_methods.create({"type": "bank_transfer", "billing": {"name": "Ann"}})
    assert api.payment_methods.get(method["id"])["status"] == "chargeable"
    api.payment_methods.delete(method["id"])
    assert api.payment_methods.get(method["id"])["deleted"] is True


def test_disputes_fraud_warnings_events_files(api: Any, served: Served, tmp_path: Path) -> None:
    disputed = next(c.number for c in TEST_CARDS if c.outcome == "dispute")
    fraud = next(c.number for c in TEST_CARDS if c.outcome == "fraud_warning")
    charge = api.charges.create(charge_req(card=card_req(disputed)))
    warned = api.charges.create(charge_req(card=card_req(fraud)))
    assert warned["fraudDetails"]["status"] == "in_progress"
    served.sandbox.state.clock.advance(FOLLOW_UP_DELAY_S)
    assert api.charges.get(charge["id"])["disputed"] is True
    dispute = next(d for d in api.disputes.list({"limit": 100})["list"] if d["charge"]["id"] == charge["id"])
    api.disputes.update(dispute["id"], {"evidence": {"customerName": "Ann"}})
    assert api.disputes.get(dispute["id"])["evidence"]["customerName"] == "Ann"
    api.disputes.close(dispute["id"])
    assert api.disputes.get(dispute["id"])["acceptedAsLost"] is True
    assert api.charges.get(warned["id"])["fraudDetails"]["status"] != "in_progress"
    warning = next(w for w in api.fraud_warnings.list({"limit": 100})["list"] if w["charge"] == warned["id"])
    assert api.fraud_warnings.get(warning["id"])["charge"] == warned["id"]
    event = next(e for e in api.events.list({"limit": 100})["list"] if e["data"].get("id") == charge["id"])
    assert api.events.get(event["id"])["data"]["id"] == charge["id"]
    evidence = tmp_path / "evidence.pdf"
    evidence.write_text("Any text", "utf-8")
    by_name = api.file_uploads.upload(str(evidence), {"purpose": "dispute_evidence"})
    with evidence.open("rb") as fh:
        by_file = api.file_uploads.upload(fh, {"purpose": "dispute_evidence"})
    assert api.file_uploads.get(by_name["id"])["size"] == 8
    listed = [f["id"] for f in api.file_uploads.list({"limit": 100})["list"]]
    assert listed[:2] == [by_file["id"], by_name["id"]]


def test_a_cancelled_subscription_is_a_deleted_one(api: Any, served: Served) -> None:
    """Issue #44: the vendor's cancel is its delete. The default list leaves a cancelled
    subscription out, ``deleted=true`` lists only those (newest first in both), and a read by id
    still finds it, ``canceled`` with ``canceledAt``; also one that ends at its period's end."""
    plan = api.plans.create({"amount": 999, "currency": "EUR", "interval": "week", "name": "Box"})
    customer = api.customers.create({"email": "cancel@example.com", "card": card_req()})
    subs = [api.subscriptions.create({"customerId": customer["id"], "planId": plan["id"]})
            for _ in range(4)]
    assert all("deleted" not in sub for sub in subs)
    cancelled = [api.subscriptions.cancel(subs[i]["id"]) for i in (0, 2)]
    mine = {"customerId": customer["id"]}

    def listed(query: dict[str, Any]) -> list[str]:
        return [sub["id"] for sub in api.subscriptions.list(query)["list"]]

    assert listed(mine) == listed({**mine, "deleted": False}) == [subs[3]["id"], subs[1]["id"]]
    assert listed({**mine, "deleted": True}) == [subs[2]["id"], subs[0]["id"]]
    assert listed({}) == [subs[3]["id"], subs[1]["id"]]
    assert api.subscriptions.list({**mine, "includeTotalCount": True})["totalCount"] == 2
    for gone in cancelled:
        got = api.subscriptions.get(gone["id"])
        assert got == gone and got["status"] == "canceled" and got["deleted"] is True
        assert got["canceledAt"] >= gone["created"] and got["endedAt"] == got["canceledAt"]
    api.subscriptions.update(subs[1]["id"], {"cancelAtPeriodEnd": True})
    served.sandbox.state.clock.advance(7 * 86400 + 1)
    assert listed(mine) == [subs[3]["id"]]
    assert listed({**mine, "deleted": True}) == [subs[2]["id"], subs[1]["id"], subs[0]["id"]]
    ended = api.subscriptions.get(subs[1]["id"])
    assert (ended["status"], ended["deleted"]) == ("canceled", True)
    assert ended["canceledAt"] == ended["endedAt"] == subs[1]["currentPeriodEnd"]


def _deletable(api: Any, resource: str) -> tuple[Any, Any, Any, Any]:
    """How the SDK makes, deletes, lists and reads one object of a list that takes ``deleted``."""
    if resource == "cards":
        owner = api.customers.create({"email": "owner@example.com"})["id"]
        return (lambda: api.cards.create(owner, card_req()), lambda o: api.cards.delete(owner, o["id"]),
                lambda q: api.cards.list(owner, q), lambda o: api.cards.get(owner, o["id"]))
    if resource == "subscriptions":
        plan = api.plans.create({"amount": 999, "currency": "EUR", "interval": "week", "name": "Box"})
        payer = api.customers.create({"email": "payer@example.com", "card": card_req()})["id"]
        return (lambda: api.subscriptions.create({"customerId": payer, "planId": plan["id"]}),
                lambda o: api.subscriptions.cancel(o["id"]),
                lambda q: api.subscriptions.list({"customerId": payer, **q}),
                lambda o: api.subscriptions.get(o["id"]))
    bodies: dict[str, Any] = {
        "customers": lambda i: {"email": f"c{i}@example.com"},
        "payment_methods": lambda i: {"type": "alipay"},
        "plans": lambda i: {"amount": 100 + i, "currency": "EUR", "interval": "month", "name": f"P{i}"},
        "blacklist": lambda i: {"ruleType": "email", "email": f"b{i}@example.com"},
    }
    calls = getattr(api, resource)
    count = iter(range(100))
    return (lambda: calls.create(bodies[resource](next(count))), lambda o: calls.delete(o["id"]),
            lambda q: calls.list(q), lambda o: calls.get(o["id"]))


@pytest.mark.parametrize("resource", ["customers", "cards", "payment_methods", "plans", "blacklist",
                                      "subscriptions"])
def test_every_list_that_takes_deleted_keeps_one_rule(api: Any, resource: str) -> None:
    """Each list the vendor's SDKs filter by ``deleted``: the live objects by default (and with
    ``deleted=false``), only the deleted ones with ``deleted=true``, newest first; a deleted one
    is still read by id, with ``deleted: true``, and a live one carries no ``deleted``."""
    make, delete, list_, get = _deletable(api, resource)
    made = [make() for _ in range(4)]
    ids = [o["id"] for o in made]
    assert all("deleted" not in o for o in made)
    for gone in (made[0], made[2]):
        delete(gone)

    def listed(query: dict[str, Any]) -> list[str]:
        return [o["id"] for o in list_({"limit": 100, **query})["list"] if o["id"] in ids]

    assert listed({}) == listed({"deleted": False}) == [ids[3], ids[1]]
    assert listed({"deleted": True}) == [ids[2], ids[0]]
    assert get(made[0])["deleted"] is True and "deleted" not in get(made[1])
    assert error_of(list_, {"deleted": "maybe"}).message == "deleted: must be true or false"
