"""The typed views of what the till reads (issue 20 point 8), on the sandbox's real answers."""

from __future__ import annotations

import pytest

from cashier.chargeapi import ChargeApiClient, ChargeApiServerError
from cashier.chargeapi import models as api
from cashier.chargeapi.client.base import read_model
from tests.support.charge_api import token


async def test_charge_refund_customer_card_and_link_read_as_their_models(client: ChargeApiClient) -> None:
    customer = await client.create_customer("ann@example.com", description="regular")
    card = await client.create_card(customer.id, token=await token(client))
    charge = await client.create_charge(1000, "EUR", customer_id=customer.id, metadata={"k": "v"})
    refund = await client.create_refund(charge.id, 300, reason="requested_by_customer")
    link = await client.create_payment_link(500, "EUR", name="Box", max_successful_charges=1)

    read = (await client.get_charge(charge.id)).model
    assert (read.id, read.amount, read.amount_refunded, read.currency, read.status) == \
        (charge["id"], 1000, 300, "EUR", "successful")
    assert read.customer_id == customer.id and read.metadata == {"k": "v"} and read.refundable == 700
    assert read.card is not None and read.card.last4 == "4242" and read.card.first6 == "424242"
    assert [r.id for r in read.refunds] == [refund.id] and refund.model.charge == charge.id
    assert refund.model.amount == 300 and refund.model.reason == "requested_by_customer"

    got = (await client.get_customer(customer.id)).model
    assert got.email == "ann@example.com" and got.default_card_id == card.id and not got.deleted
    assert [c.id for c in got.cards] == [card.id] and card.model.expiry == "12/55"
    assert link.model.url.endswith(link.id) and link.model.max_successful_charges == 1
    assert link.model.active and link.model.amount == 500 and link.model.name == "Box"


async def test_a_page_reads_as_models_and_keeps_its_wire_json(client: ChargeApiClient) -> None:
    for email in ("a@example.com", "b@example.com"):
        await client.create_customer(email)
    page = await client.list_customers(limit=1, include_total_count=True)
    assert [m.email for m in page.models] == ["b@example.com"] and page.total_count == 2
    assert page["list"][0]["email"] == "b@example.com" and page.records[0].model.email == "b@example.com"
    emails = [c.email async for c in client.iterate_models("/customers", api.Customer)]
    assert emails == ["b@example.com", "a@example.com"]


def test_a_wrong_kind_of_value_in_an_answer_is_an_unknown_outcome() -> None:
    assert read_model(api.Charge, {"id": "char_1", "amount": "12", "newField": 1}).amount == 12
    with pytest.raises(ChargeApiServerError, match="Charge has a bad amount"):
        read_model(api.Charge, {"id": "char_1", "amount": "twelve"})
