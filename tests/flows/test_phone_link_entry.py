"""The Phone/link screen's state without Qt (issue #36, round 3): which core events are about the
link on screen (the charges kept, another link's ignored), how a link's watch ended, and the
customers found, with the one whose default card may be charged."""

from __future__ import annotations

from decimal import Decimal as D

from cashier.flows.card_not_present import Customer, LinkResult, PaymentLink, SavedCard
from cashier.flows.events import LinkChargeSeen, LinkCreated, LinkStatus
from cashier.flows.phone_link_entry import LinkNews, PhoneLinkEntry

LINK = PaymentLink("plink_1", "https://pay.example/plink_1", D("25.00"), "USD", active=True)


def test_only_the_link_on_screen_is_heard_and_its_charges_kept() -> None:
    e = PhoneLinkEntry()
    charge = LinkChargeSeen("plink_1", "char_1", "failed", D("25.00"), "424242XXXXXX4242", "declined")
    assert e.link_event(charge) is None and e.seen == []  # no link on screen yet
    e.link_created(LINK)
    assert e.link_active
    assert e.link_event(LinkChargeSeen("plink_2", "char_9", "successful", D("1.00"), None)) is None
    assert e.link_event(LinkCreated("plink_1", LINK.url, D("25.00"), "USD")) is None
    assert e.link_event(charge) is LinkNews.CHARGE and e.seen == [charge]
    assert e.link_event(LinkStatus("plink_1", "unreachable")) is LinkNews.UNREACHABLE
    assert e.link_event(LinkStatus("plink_1", "waiting")) is None
    ended = PaymentLink(LINK.id, LINK.url, LINK.amount, LINK.currency, active=False)
    e.link_done(LinkResult(ended, "cancelled"))
    assert e.outcome is not None and e.outcome.ended_unpaid and e.link is ended and not e.link_active
    e.new_link()
    assert e.outcome is None and e.seen == []


def test_customers_found_and_the_one_whose_card_may_be_charged() -> None:
    e = PhoneLinkEntry()
    ana = Customer("cust_1", "ana@example.com", "Ana", None)
    luis = Customer("cust_2", "luis@example.com", "Luis", "card_1",
                    (SavedCard("card_1", "Visa", "424242XXXXXX4242", "12/40", True),))
    e.customers_found([ana, luis])
    assert e.customer(0) is ana and e.customer(2) is None and e.customer(-1) is None
    assert not e.can_charge(0) and e.can_charge(1) and not e.can_charge(5)
    with_card = Customer("cust_1", "ana@example.com", "Ana", "card_2",
                         (SavedCard("card_2", "Visa", "555555XXXXXX4444", "10/42", True),))
    e.replace_customer(with_card)
    assert e.customers == [with_card, luis] and e.can_charge(0)
