"""Customers, cards, links, subscriptions, disputes, payouts, files, events and pagination."""

from __future__ import annotations

import pytest

from cashier.chargeapi import ChargeApiClient, InvalidRequestError
from cashier.sandbox.app import HostSandbox
from cashier.sandbox.chargeapi.app import charge_api_sim
from cashier.sandbox.chargeapi.testcards import FOLLOW_UP_DELAY_S, TEST_CARDS
from tests.support.charge_api import make_client, token

DECLINE = next(c.number for c in TEST_CARDS if c.outcome == "card_declined")


async def test_newest_card_becomes_default_when_default_is_deleted(client: ChargeApiClient) -> None:
    customer = await client.create_customer("ann@example.com", card=await token(client))
    first = customer["defaultCardId"]
    second = await client.create_card(customer.id, token=await token(client, "5555555555554444"))
    third = await client.create_card(customer.id, token=await token(client, "378282246310005"))
    assert (await client.get_customer(customer.id))["defaultCardId"] == first  # adding keeps it
    await client.update_customer(customer.id, default_card_id=second.id)
    deleted = await client.delete_card(customer.id, second.id)
    assert deleted["deleted"] is True
    again = await client.get_customer(customer.id)
    assert again["defaultCardId"] == third.id
    assert [c["id"] for c in again["cards"]] == [first, third.id]
    cards = await client.list_cards(customer.id)
    assert [c.id for c in cards.objects] == [third.id, first]
    charge = await client.create_charge(100, "USD", customer_id=customer.id)
    assert charge["card"]["id"] == third.id and charge["card"]["last4"] == "0005"


async def test_card_from_a_charge_and_customer_search(client: ChargeApiClient) -> None:
    charge = await client.create_charge(100, "USD", card=await token(client))
    customer = await client.create_customer("bob@example.com")
    card = await client.create_card(customer.id, charge_id=charge.id)
    assert card["last4"] == "4242" and card["customerId"] == customer.id
    await client.create_customer("other@example.com")
    found = await client.list_customers(email="BOB@example.com")
    assert [c.id for c in found.objects] == [customer.id]
    await client.delete_customer(customer.id)
    assert (await client.list_customers(email="bob@example.com")).objects == []
    assert [c.id for c in (await client.list_customers(email="bob@example.com", deleted=True)).objects] \
        == [customer.id]
    assert (await client.get_customer(customer.id))["deleted"] is True


async def test_payment_link_lifecycle_and_successful_charge_limit(client: ChargeApiClient) -> None:
    link = await client.create_payment_link(1500, "USD", name="Cake", max_successful_charges=2)
    assert link["active"] is True and link.id.startswith("pl_") and link["url"].endswith(link.id)
    off = await client.deactivate_payment_link(link.id)
    assert off["active"] is False
    with pytest.raises(InvalidRequestError, match="deactivated"):
        await client.create_charge(1500, "USD", card=await token(client), payment_link_id=link.id)
    assert (await client.reactivate_payment_link(link.id))["active"] is True
    c1 = await client.create_charge(1500, "USD", card=await token(client), payment_link_id=link.id)
    with pytest.raises(InvalidRequestError, match="amount"):
        await client.create_charge(999, "USD", card=await token(client), payment_link_id=link.id)
    c2 = await client.request("POST", "/charges", {"card": await token(client), "paymentLinkId": link.id})
    after = await client.get_payment_link(link.id)
    assert after["active"] is False and after["successfulCharges"] == 2
    assert after["deactivationReason"] == "successful_charges_limit"
    with pytest.raises(InvalidRequestError, match="cannot be reactivated"):
        await client.reactivate_payment_link(link.id)
    charges = await client.list_payment_link_charges(link.id)
    assert [c.id for c in charges.objects] == [c2.id, c1.id]


async def test_payment_link_failed_attempt_limit_set_only_at_creation(client: ChargeApiClient) -> None:
    link = await client.create_payment_link(800, "EUR", max_failed_attempts=2)
    with pytest.raises(InvalidRequestError, match="only when the payment link is created"):
        await client.update_payment_link(link.id, maxFailedAttempts=5)
    for _ in range(2):
        with pytest.raises(Exception, match="declined"):
            await client.create_charge(800, "EUR", card=await token(client, DECLINE), payment_link_id=link.id)
    after = await client.get_payment_link(link.id)
    assert after["active"] is False and after["failedAttempts"] == 2
    with pytest.raises(InvalidRequestError, match="failed attempts"):
        await client.reactivate_payment_link(link.id)
    renamed = await client.update_payment_link(link.id, name="Renamed")
    assert renamed["name"] == "Renamed" and renamed["active"] is False


async def test_subscription_rebills_the_default_card_and_outlives_its_plan(client: ChargeApiClient,
                                                                         sandbox: HostSandbox) -> None:
    customer = await client.create_customer("sub@example.com", card=await token(client))
    plan = await client.create_plan(900, "USD", "week", "Weekly box")
    sub = await client.create_subscription(customer.id, plan.id)
    assert sub["status"] == "active" and sub["currentPeriodEnd"] - sub["currentPeriodStart"] == 7 * 86400
    await client.update_plan(plan.id, amount=1100)  # future rebills only
    deleted = await client.delete_plan(plan.id)
    assert deleted["deleted"] is True
    new_card = await client.create_card(customer.id, token=await token(client, "5555555555554444"))
    await client.update_customer(customer.id, default_card_id=new_card.id)
    sandbox.state.clock.advance(14 * 86400 + 10)
    charges = await client.list_subscription_charges(sub.id)
    amounts = [(c["amount"], c["card"]["last4"]) for c in charges.objects]
    assert amounts == [(1100, "4444"), (1100, "4444"), (900, "4242")]
    assert (await client.cancel_subscription(sub.id))["status"] == "canceled"
    sandbox.state.clock.advance(30 * 86400)
    assert len((await client.list_subscription_charges(sub.id)).objects) == 3
    with pytest.raises(InvalidRequestError, match="deleted"):
        await client.create_subscription(customer.id, plan.id)


async def test_the_client_lists_live_or_deleted_objects_a_cancelled_subscription_deleted(
        client: ChargeApiClient) -> None:
    """Issue #44 in-process, through our client: every list that takes ``deleted`` gives the live
    objects by default and only the deleted ones with ``deleted=True``; a cancelled subscription
    is a deleted one, read by id still."""
    customer = await client.create_customer("lists@example.com", card=await token(client))
    plan = await client.create_plan(900, "USD", "week", "Weekly box")
    kept = await client.create_subscription(customer.id, plan.id)
    gone = await client.create_subscription(customer.id, plan.id)
    await client.cancel_subscription(gone.id)
    listed = await client.list_subscriptions(customerId=customer.id)
    assert [s.id for s in listed.objects] == [kept.id]
    listed = await client.list_subscriptions(deleted=True, customerId=customer.id)
    assert [s.id for s in listed.objects] == [gone.id]
    again = await client.get_subscription(gone.id)
    assert (again["status"], again["deleted"], again["canceledAt"]) == ("canceled", True, again["endedAt"])
    card = await client.create_card(customer.id, token=await token(client, "5555555555554444"))
    await client.delete_card(customer.id, card.id)
    assert [c.id for c in (await client.list_cards(customer.id)).objects] == [customer["defaultCardId"]]
    assert [c.id for c in (await client.list_cards(customer.id, deleted=True)).objects] == [card.id]
    old_plan = await client.create_plan(100, "USD", "day", "Old")
    await client.delete_plan(old_plan.id)
    assert [p.id for p in (await client.list_plans()).objects] == [plan.id]
    assert [p.id for p in (await client.list_plans(deleted=True)).objects] == [old_plan.id]
    method = await client.create_payment_method("alipay")
    await client.delete_payment_method(method.id)
    assert (await client.list_payment_methods()).objects == []
    assert [m.id for m in (await client.list_payment_methods(deleted=True)).objects] == [method.id]
    rule = await client.create_blacklist_rule("email", email="x@example.com")
    await client.delete_blacklist_rule(rule.id)
    assert (await client.list_blacklist_rules()).objects == []
    assert [r.id for r in (await client.list_blacklist_rules(deleted=True)).objects] == [rule.id]


async def test_a_subscription_cancelled_before_it_was_marked_deleted_is_still_deleted(
        client: ChargeApiClient, sandbox: HostSandbox) -> None:
    """A state file (``--state``) kept from before a cancel marked ``deleted`` holds cancelled
    subscriptions without it: they are deleted all the same (``is_deleted``)."""
    customer = await client.create_customer("old@example.com", card=await token(client))
    plan = await client.create_plan(900, "USD", "week", "Weekly box")
    sub = await client.create_subscription(customer.id, plan.id)
    await client.cancel_subscription(sub.id)
    for account in charge_api_sim(sandbox).data["accounts"].values():
        account["objects"].get(sub.id, {}).pop("deleted", None)
    assert (await client.list_subscriptions()).objects == []
    assert [s.id for s in (await client.list_subscriptions(deleted=True)).objects] == [sub.id]


async def test_failed_rebill_is_listed_and_marks_past_due(client: ChargeApiClient,
                                                          sandbox: HostSandbox) -> None:
    customer = await client.create_customer("due@example.com", card=await token(client))
    plan = await client.create_plan(500, "USD", "day", "Daily")
    sub = await client.create_subscription(customer.id, plan.id)
    bad = await client.create_card(customer.id, token=await token(client, DECLINE))
    await client.update_customer(customer.id, default_card_id=bad.id)
    sandbox.state.clock.advance(86400 + 1)
    charges = (await client.list_subscription_charges(sub.id)).objects
    assert [c["status"] for c in charges] == ["failed", "successful"]
    assert (await client.get_subscription(sub.id))["status"] == "past_due"


async def test_dispute_opens_after_the_charge_and_close_is_lost(client: ChargeApiClient,
                                                                sandbox: HostSandbox) -> None:
    number = next(c.number for c in TEST_CARDS if c.outcome == "dispute")
    charge = await client.create_charge(4200, "USD", card=await token(client, number))
    assert (await client.list_disputes()).objects == []
    sandbox.state.clock.advance(FOLLOW_UP_DELAY_S)
    assert (await client.get_charge(charge.id))["disputed"] is True
    dispute = (await client.list_disputes()).objects[0]
    assert dispute["charge"]["id"] == charge.id and dispute["status"] == "CHARGEBACK_NEW"
    upload = await client.upload_file("receipt.pdf", b"%PDF-1.4 evidence", "dispute_evidence")
    assert upload.id.startswith("file_") and upload["size"] == 17 and upload["type"] == "pdf"
    updated = await client.update_dispute(dispute.id, evidence={"customerName": "Ann", "receipt": upload.id})
    assert updated["evidence"]["customerName"] == "Ann"
    closed = await client.close_dispute(dispute.id)
    assert closed["status"] == "CHARGEBACK_REPRESENTED_UNSUCCESSFULLY" and closed["acceptedAsLost"] is True
    with pytest.raises(InvalidRequestError, match="closed"):
        await client.update_dispute(dispute.id, evidence={"customerName": "Bob"})
    types = [e["type"] for e in (await client.list_events()).objects]
    assert types[0] == "CHARGE_DISPUTE_CLOSED" and "CHARGE_DISPUTE_CREATED" in types


async def test_fraud_warning_after_the_charge(client: ChargeApiClient, sandbox: HostSandbox) -> None:
    number = next(c.number for c in TEST_CARDS if c.outcome == "fraud_warning")
    charge = await client.create_charge(100, "USD", card=await token(client, number))
    assert charge["fraudDetails"]["status"] == "in_progress"
    sandbox.state.clock.advance(FOLLOW_UP_DELAY_S + 1)
    warnings = (await client.list_fraud_warnings()).objects
    assert [w["charge"] for w in warnings] == [charge.id]
    assert (await client.get_fraud_warning(warnings[0].id))["charge"] == charge.id
    assert (await client.get_charge(charge.id))["fraudDetails"]["status"] == "fraudulent"


async def test_payout_only_with_a_test_key(client: ChargeApiClient, sandbox: HostSandbox) -> None:
    charge = await client.create_charge(1000, "USD", card=await token(client))
    refund = await client.create_refund(charge.id, 300)
    credit = await client.create_credit(200, "USD", card=await token(client))
    payout = await client.create_payout()
    assert payout.id.startswith("po_") and payout["amount"] == 500
    with pytest.raises(InvalidRequestError, match="payout or source"):
        await client.request("GET", "/payout-transactions")
    lines = await client.list_payout_transactions(payout=payout.id)
    assert sorted((t["type"], t["amount"]) for t in lines.objects) == \
        [("charge", 1000), ("credit", -200), ("refund", -300)]
    by_source = await client.list_payout_transactions(source=refund.id)
    assert [t["payout"] for t in by_source.objects] == [payout.id]
    assert credit.id in {t["source"] for t in lines.objects}
    empty = await client.create_payout()  # as the vendor's test mode: an empty payout, not a refusal
    assert empty.id != payout.id and empty["amount"] == 0 and empty["periodStart"] == payout["periodEnd"]
    async with make_client(sandbox, "sk_live_money", None) as live:
        with pytest.raises(Exception, match="test key"):
            await live.create_payout()
        with pytest.raises(InvalidRequestError, match="test key"):
            await live.request("POST", "/payouts")


async def test_credit_needs_customer_or_card(client: ChargeApiClient) -> None:
    with pytest.raises(InvalidRequestError, match="customerId or card"):
        await client.request("POST", "/credits", {"amount": 100, "currency": "USD"})
    customer = await client.create_customer("cr@example.com", card=await token(client))
    credit = await client.create_credit(100, "USD", customer_id=customer.id, description="goodwill")
    assert credit["customerId"] == customer.id
    assert [c.id for c in (await client.list_credits(customerId=customer.id)).objects] == [credit.id]


async def test_checkout_session_needs_a_secret_key(client: ChargeApiClient) -> None:
    session = await client.create_checkout_session(
        "USD", line_items=[{"amount": 250, "quantity": 2, "name": "Tea"}, {"amount": 100}])
    assert session["amount"] == 600 and session["clientSecret"].startswith(session.id)
    assert session["url"].endswith(session.id)
    assert (await client.get_checkout_session(session.id))["status"] == "open"
    from cashier.chargeapi import AuthenticationError

    with pytest.raises(AuthenticationError):
        await client.request("POST", "/checkout-sessions", {"amount": 100, "currency": "USD"}, public=True)


async def test_pagination_cursor_and_created_filters(client: ChargeApiClient, sandbox: HostSandbox) -> None:
    made = []
    for i in range(23):
        if i == 10:
            sandbox.state.clock.advance(1000)
        made.append((await client.create_customer(f"p{i}@example.com")).id)
    newest_first = list(reversed(made))
    page = await client.list_customers(limit=10)
    assert [c.id for c in page.objects] == newest_first[:10] and page.has_more
    page2 = await client.list_customers(limit=10, starting_after_id=page.objects[-1].id)
    assert [c.id for c in page2.objects] == newest_first[10:20]
    back = await client.list_customers(limit=5, ending_before_id=newest_first[10])
    assert [c.id for c in back.objects] == newest_first[5:10] and back.has_more
    walked = [c.id async for c in client.iterate("/customers", limit=7)]
    assert walked == newest_first
    first = await client.get_customer(made[0])
    # the first ten may straddle a second boundary; the other thirteen are 1000 s later
    old = [c.id async for c in client.iterate("/customers", created_lte=first["created"] + 999)]
    assert old == list(reversed(made[:10]))
    recent = [c.id async for c in client.iterate("/customers", created_gte=first["created"] + 1000)]
    assert recent == newest_first[:13]
    for bad in ({"limit": 0}, {"limit": 101}, {"limit": "x"}, {"startingAfterId": "cust_nope"},
                {"created": {"after": 1}}, {"colour": "red"}):  # gt/gte/lt/lte are bounds (#25)
        with pytest.raises(InvalidRequestError):
            await client.request("GET", "/customers", bad)


async def test_events_newest_first_with_object_data(client: ChargeApiClient) -> None:
    charge = await client.create_charge(100, "USD", card=await token(client))
    await client.create_refund(charge.id)
    events = (await client.list_events()).objects
    assert [e["type"] for e in events[:2]] == ["CHARGE_REFUNDED", "CHARGE_SUCCEEDED"]
    assert events[1]["data"]["id"] == charge.id and events[1].id.startswith("evt_")
    assert (await client.get_event(events[1].id))["data"]["refunded"] is False
