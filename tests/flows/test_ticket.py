"""The ticket against the in-process sandbox on every processing option: split tenders, partial
approval, decline then another card, cancel with voids at the host, tip once, the LG basket."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows.base import PinPadBusy
from cashier.flows.payments import KeyedCard
from cashier.flows.ticket import (
    Tender,
    TicketSession,
    TicketSettings,
    load,
    open_tickets,
    parse_item,
    parse_tender,
    receipt_lines,
    refund_ticket,
)
from cashier.journal.model import Kind, NewEntry, Op, State
from cashier.sandbox.terminals import CustomerScript
from tests.support.tills import open_drawer

VISA = KeyedCard("4321000000001119", "1228")
DECLINED_VISA = KeyedCard("4321000000001119", "1228")
OPTIONS = ["HD", "LG", "DCP", "DCC"]
PAD = {"LG": "1742", "DCP": "1742", "DCC": "1170301234"}


def card(option: str, **kw: Any) -> Tender:
    """A card tender: keyed on HD (no PIN pad), on the PIN pad elsewhere."""
    return Tender("card", card=VISA if option == "HD" else None, **kw)


def script(till: Any, option: str, **kw: Any) -> None:
    till.sandbox.state.terminals.set_script(PAD[option], CustomerScript(**kw), once=True)


def expected_cash(profile: Any) -> D:
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer

    store = open_recorder(profile)
    try:
        drawer = Drawer(store, profile.roster)
        return drawer.balance(drawer.require_open()).expected
    finally:
        store.close()


async def new(till: Any, *lines: tuple[str, str, int], **settings: Any) -> TicketSession:
    session = await TicketSession.start(till.ctx, TicketSettings(**settings))
    for name, price, qty in lines:
        await session.add_line(name, D(price), qty)
    return session


@pytest.mark.parametrize("option", OPTIONS)
async def test_split_card_and_cash_with_change(make_till: Any, option: str) -> None:
    till = await make_till(option)
    open_drawer(till.rt.profile)
    s = await new(till, ("Coffee", "3.50", 2), ("Bagel", "5.00", 1), tax_rate=D("10"))
    t = s.ticket
    assert t is not None and (t.subtotal, t.tax, t.total) == (D("12.00"), D("1.20"), D("13.20"))
    t = await s.pay(card(option, amount=D("10.00")))
    assert (t.state, t.paid, t.remaining) == ("open", D("10.00"), D("3.20"))
    t = await s.pay(Tender("cash", D("5.00")))
    assert (t.state, t.paid, t.remaining, t.change) == ("paid", D("13.20"), D("0"), D("1.80"))
    cash = t.tenders[-1]
    assert (cash.kind, cash.amount, cash.tendered, cash.outcome) == ("cash", D("3.20"), D("5.00"),
                                                                    "approved")
    entries = await till.journal.search(limit=100)
    assert {e.ticket_id for e in entries} == {t.id}
    cash_entry = next(e for e in entries if e.kind is Kind.CASH)
    assert (cash_entry.op, cash_entry.state, cash_entry.approved) == (Op.SALE, State.APPROVED, D("3.20"))
    assert t.as_dict()["tenders"][0]["card"].endswith("1119")
    text = "\n".join(receipt_lines(t))
    assert "Cash given" in text and "1.80" in text and "13.20" in text and "4321000000001119" not in text


async def test_cash_that_pays_the_rest_is_one_commit_with_the_close(make_till: Any) -> None:
    """The cash tender, what was tendered and the ticket's close are one write (one commit);
    with no open drawer the same write is refused whole and nothing is journaled."""
    till = await make_till("HD")
    s = await new(till, ("Coffee", "3.50", 2))
    conn = till.journal.recorder.conn  # the writer's: it sees the held line too

    def rows() -> tuple[int, int]:
        return (conn.execute("SELECT count(*) FROM events").fetchone()[0],
                conn.execute("SELECT count(*) FROM entries").fetchone()[0])

    before = rows()
    with pytest.raises(ValidationError, match="drawer"):
        await s.pay(Tender("cash", D("10.00")))
    assert rows() == before and s.ticket is not None and s.ticket.state == "open"
    open_drawer(till.rt.profile)
    commits: list[str] = []
    till.journal.recorder.conn.set_trace_callback(
        lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
    t = await s.pay(Tender("cash", D("10.00")))
    till.journal.recorder.conn.set_trace_callback(None)
    assert (t.state, t.change, len(commits)) == ("paid", D("3.00"), 1)
    assert t == await load(till.ctx, t.id)  # as the journal reads it afresh
    kinds = [e.type for e in await till.journal.events()][-4:]
    assert kinds == ["created", "approved", "cash_tendered", "ticket_paid"]


@pytest.mark.parametrize("option", OPTIONS)
async def test_partial_approval_then_another_tender(make_till: Any, option: str) -> None:
    till = await make_till(option)
    open_drawer(till.rt.profile)
    s = await new(till, ("TV stand", "219.00", 1))
    t = await s.pay(card(option))
    first = t.tenders[0]
    assert (first.outcome, first.amount, t.state, t.remaining) == ("partial", D("109.50"), "open",
                                                                  D("109.50"))
    t = await s.pay(Tender("cash", D("200")))
    assert (t.state, t.change) == ("paid", D("90.50"))


@pytest.mark.parametrize("option", OPTIONS)
async def test_decline_then_another_card(make_till: Any, option: str) -> None:
    till = await make_till(option)
    s = await new(till, ("Big order", "1000000.00", 1))
    t = await s.pay(card(option))
    assert t.tenders[0].outcome == "declined" and t.state == "open" and t.remaining == D("1000000.00")
    await s.remove_line(0)
    await s.add_line("Smaller order", D("20.00"))
    t = await s.pay(card(option))
    assert t.state == "paid" and [x.outcome for x in t.tenders] == ["declined", "approved"]


@pytest.mark.parametrize("option", OPTIONS)
async def test_cancel_voids_approved_tenders_at_the_host(make_till: Any, option: str) -> None:
    till = await make_till(option)
    open_drawer(till.rt.profile)
    s = await new(till, ("Shoes", "80.00", 1))
    await s.pay(card(option, amount=D("50.00")))
    await s.pay(Tender("cash", D("10.00")))
    assert expected_cash(till.rt.profile) == D("110.00")  # the float and the cash tender
    t = await s.cancel()
    assert t.state == "cancelled"
    assert expected_cash(till.rt.profile) == D("100.00")  # the cash given back left the drawer
    assert [x.outcome for x in t.tenders] == ["voided", "returned"]
    ledger = await till.ledger()
    assert [r["state"] for r in ledger.values()] == ["voided"]
    back = [e for e in await till.journal.search(limit=100) if e.kind is Kind.CASH and e.op is Op.REFUND]
    assert len(back) == 1 and back[0].approved == D("10.00") and back[0].ticket_id == t.id
    with pytest.raises(ValidationError, match="ticket"):
        await s.pay(Tender("cash", D("1")))


@pytest.mark.parametrize("option", ["HD", "LG"])  # gift cards exist on HD and LG (our spec)
async def test_gift_card_short_then_card(make_till: Any, option: str) -> None:
    from cashier.flows.giftcards import GiftCard, activate

    till = await make_till(option)
    gift = GiftCard("2664654648774")
    assert (await activate(till.ctx, gift, D("15.00"))).outcome == "approved"
    s = await new(till, ("Jacket", "40.00", 1))
    t = await s.pay(Tender("giftcard", giftcard=gift))
    assert (t.tenders[0].kind, t.tenders[0].outcome, t.tenders[0].amount, t.remaining) == (
        "giftcard", "partial", D("15.00"), D("25.00"))
    t = await s.pay(card(option))
    assert t.state == "paid" and [x.kind for x in t.tenders] == ["giftcard", "card"]
    gift_entry = (await till.journal.search(kinds=["giftcard_sale"]))[0]
    assert gift_entry.ticket_id == t.id and gift_entry.card and "2664654648774" not in gift_entry.card


async def test_a_gift_card_read_on_the_pad_carries_the_pad_tip_on_the_ticket(make_till: Any) -> None:
    """Issue 22: the LG pad asked a tip for a gift card tender and the card was charged 11.50,
    while the ticket said total 10.00 and tip 0.00. The tip is the ticket's, as for a card."""
    from cashier.flows.giftcards import GiftCard, activate

    till = await make_till("LG")
    assert (await activate(till.ctx, GiftCard("2664654648774"), D("20.00"))).outcome == "approved"
    s = await new(till, ("Scarf", "10.00", 1), tip_mode="pad")
    script(till, "LG", card="2664654648774", tip=D("1.50"))  # the customer taps the gift card
    t = await s.pay(Tender("giftcard"))
    assert (t.state, t.tip, t.total, t.paid, t.remaining) == (
        "paid", D("1.50"), D("11.50"), D("11.50"), D("0.00"))
    assert [(x.kind, x.amount, x.tip) for x in t.tenders] == [("giftcard", D("11.50"), D("1.50"))]
    receipt = receipt_lines(t, width=32)
    assert any(line.startswith("Tip") and line.endswith("1.50") for line in receipt)
    assert any(line.startswith("Total") and "11.50" in line for line in receipt)
    gift = await till.journal.get(t.tenders[0].entry_id)
    assert (gift.kind, gift.approved, gift.tip) == (Kind.GIFTCARD_SALE, D("11.50"), D("1.50"))


async def test_a_gift_card_tender_without_pad_tips_is_never_asked_a_tip(make_till: Any) -> None:
    """With no tip on the pad the gift card tender says "no tip" (as a card tender does), so the
    LG gateway does not ask one the ticket would not count."""
    from cashier.flows.giftcards import GiftCard, activate

    till = await make_till("LG")
    await activate(till.ctx, GiftCard("2664654648774"), D("20.00"))
    s = await new(till, ("Scarf", "10.00", 1))
    script(till, "LG", card="2664654648774", tip=D("1.50"))  # a pad that asked would add 1.50
    t = await s.pay(Tender("giftcard"))
    assert (t.state, t.tip, t.total, t.paid) == ("paid", D("0"), D("10.00"), D("10.00"))
    assert [(x.kind, x.amount, x.tip) for x in t.tenders] == [("giftcard", D("10.00"), D("0"))]


@pytest.mark.parametrize("option", ["LG", "DCP", "DCC"])
async def test_keyed_tip_is_not_asked_again(make_till: Any, option: str) -> None:
    till = await make_till(option)
    s = await new(till, ("Dinner", "5.00", 1), tip_mode="pad")
    await s.key_tip(D("1.00"))
    with pytest.raises(ValidationError, match="tip"):
        await s.key_tip(D("3.00"))
    script(till, option, tip=D("2.00"))  # a pad that asked would add 2.00
    t = await s.pay(card(option))
    assert (t.state, t.tip, t.total, t.paid) == ("paid", D("1.00"), D("6.00"), D("6.00"))
    entry = (await till.journal.search(limit=10))[0]
    assert (entry.approved, entry.tip) == (D("6.00"), D("1.00"))
    assert "Tip" in "\n".join(receipt_lines(t))


@pytest.mark.parametrize("option", ["LG", "DCP", "DCC"])
async def test_pad_tip_asked_once_with_the_first_card(make_till: Any, option: str) -> None:
    till = await make_till(option)
    s = await new(till, ("Lunch", "20.00", 1), tip_mode="pad")
    script(till, option, tip=D("3.00"))
    t = await s.pay(card(option, amount=D("10.00")))
    assert (t.tip, t.paid, t.remaining) == (D("3.00"), D("13.00"), D("10.00"))
    script(till, option, tip=D("4.00"))
    t = await s.pay(card(option))
    assert (t.state, t.tip, t.total) == ("paid", D("3.00"), D("23.00"))
    assert [x.tip for x in t.tenders] == [D("3.00"), D("0")]


async def test_a_card_tender_while_the_pad_is_held_is_refused_and_the_tip_is_still_to_ask(
        make_till: Any) -> None:
    """Issue 13 item 7: the pad is one resource; the refused tender journals nothing, not even
    "tip asked", so the pad asks for the tip when the tender runs (issue 12: asked once)."""
    till = await make_till("DCP")
    s = await new(till, ("Lunch", "20.00", 1), tip_mode="pad")
    with till.ctx.pinpad.reserve("a tab of 5.00"), pytest.raises(PinPadBusy, match=r"a tab of 5\.00"):
        await s.pay(card("DCP"))
    t = await s.refresh()
    assert not t.tip_asked and not t.tenders and await till.journal.search(limit=10) == []
    script(till, "DCP", tip=D("3.00"))
    t = await s.pay(card("DCP"))
    assert (t.state, t.tip, t.paid) == ("paid", D("3.00"), D("23.00"))


async def test_basket_on_the_lg_pin_pad(make_till: Any) -> None:
    till = await make_till("LG")
    pad = till.sandbox.state.terminals.get("1742")
    s = await new(till, *[(f"Item {i}", "1.00", 1) for i in range(12)])
    assert len(pad.line_items) == 10 and pad.line_items[0].startswith("... 3 earlier")
    await s.pay(card("LG"))
    assert pad.line_items == []


async def test_crash_with_an_open_ticket_comes_back(make_till: Any, tmp_path: Any) -> None:
    journal = tmp_path / "crash.sqlite"
    till = await make_till("LG", journal=journal)
    s = await new(till, ("Lamp", "30.00", 1))
    await s.pay(card("LG", amount=D("10.00")))
    # the till dies with a second card tender journaled as sent but never answered
    await till.ctx.journal.create(NewEntry(Kind.SALE, D("20.00"), actor="1", op=Op.SALE, sent=True,
                                  ticket_id=s.id))
    await till.rt.close()
    again = await make_till("LG", journal=journal, sandbox=till.sandbox)
    [back] = await open_tickets(again.ctx, TicketSettings())
    t = back.ticket
    assert t is not None and t.id == s.id and t.state == "open"
    assert [x.outcome for x in t.tenders] == ["approved", "error"]
    assert t.remaining == D("20.00")
    t = await back.pay(card("LG"))
    assert t.state == "paid"


async def test_bad_input_is_refused_before_anything_is_sent(make_till: Any) -> None:
    till = await make_till("HD")
    s = await new(till)
    with pytest.raises(ValidationError, match="lines"):
        await s.pay(card("HD"))
    await s.add_line("Tea", D("2.00"))
    with pytest.raises(ValidationError, match="remains"):
        await s.pay(card("HD", amount=D("2.01")))
    with pytest.raises(ValidationError, match="Host Direct"):
        await s.pay(Tender("card"))
    assert await till.journal.search() == []
    with pytest.raises(ValidationError, match="--pay"):
        parse_tender("bitcoin=3")
    with pytest.raises(ValidationError, match="cash"):
        parse_tender("cash")
    assert parse_tender("card=1.50") == Tender("card", D("1.50"))
    assert parse_item("Coffee=3.50x2") == ("Coffee", D("3.50"), 2)
    with pytest.raises(ValidationError, match="--item"):
        parse_item("Coffee")


async def test_tax_included_in_prices(make_till: Any) -> None:
    till = await make_till("HD")
    s = await new(till, ("Book", "11.00", 1), tax_rate=D("10"), prices_include_tax=True)
    t = s.ticket
    assert t is not None and (t.subtotal, t.tax, t.total) == (D("11.00"), D("1.00"), D("11.00"))


@pytest.mark.parametrize("option", OPTIONS)
async def test_ticket_over_a_socket(serve_sandbox: Any, tmp_path: Any, option: str,
                                    monkeypatch: Any) -> None:
    from cashier.config import load_profile
    from cashier.flows.base import RecoveryPolicy
    from cashier.runtime import open_runtime

    served = serve_sandbox(option)
    profile = load_profile(None, processing_option=option, host_url=served.api, terminal_id="1742",
                           device_serial_number="1170301234", journal_path=tmp_path / "socket.sqlite")
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SANDBOX-TOKEN")
    rt = await open_runtime(profile, policy=RecoveryPolicy(grace_s=1.0))
    open_drawer(profile)
    try:
        s = await TicketSession.start(rt.ctx, TicketSettings())
        await s.add_line("Plant", D("219.00"))
        t = await s.pay(card(option))
        assert t.tenders[0].outcome == "partial"
        t = await s.pay(Tender("cash", D("110")))
        assert (t.state, t.change) == ("paid", D("0.50"))
        s = await TicketSession.start(rt.ctx, TicketSettings())
        await s.add_line("Pot", D("12.00"))
        await s.pay(card(option, amount=D("5.00")))
        t = await s.cancel()
        assert [x.outcome for x in t.tenders] == ["voided"]
        with served.control() as control:
            ledger = {r["invoice"]: r["state"] for r in control.get("/_sandbox/ledger").json()["invoices"]}
        assert ledger.get(str(t.tenders[0].invoice), "voided") == "voided"  # nothing left to settle
        entry = await rt.journal.by_invoice(str(t.tenders[0].invoice))
        assert entry is not None and str(entry.state) == "voided" and entry.ticket_id == t.id
    finally:
        await rt.close()


async def test_signature_above_the_floor_and_terms_on_the_pad(make_till: Any) -> None:
    till = await make_till("LG")
    s = await new(till, ("Bike", "150.00", 1), signature_floor=D("100"), terms_text="No returns on bikes.")
    assert await s.terms_accepted()
    t = await s.pay(card("LG"))
    assert t.state == "paid"
    notes = [e.type for e in await till.journal.events()]
    assert "terms" in notes and "signature" in notes
    uploaded = [e.data["_note"] for e in await till.journal.events() if e.type == "signature"]
    assert uploaded[0]["captured"] is True and uploaded[0]["uploaded"] is True
    s = await new(till, ("Bell", "20.00", 1), signature_floor=D("100"))
    await s.pay(card("LG"))
    assert [e.type for e in await till.journal.events()].count("signature") == 1  # below the floor


@pytest.mark.parametrize("option", ["HD", "LG"])
async def test_refund_from_a_ticket_goes_back_to_its_tenders(make_till: Any, option: str) -> None:
    from cashier.flows.giftcards import GiftCard, activate, balance

    till = await make_till(option)
    open_drawer(till.rt.profile)
    gift = GiftCard("2664654648774")
    await activate(till.ctx, gift, D("10.00"))
    s = await new(till, ("Boots", "60.00", 1), ("Socks", "10.00", 1), tax_rate=D("10"))
    await s.pay(Tender("giftcard", giftcard=gift))
    await s.pay(card(option, amount=D("50.00")))
    t = await s.pay(Tender("cash", D("20.00")))
    assert (t.state, t.total, t.change) == ("paid", D("77.00"), D("3.00"))
    with pytest.raises(ValidationError, match="at most"):
        await refund_ticket(till.ctx, t.id, amount=D("77.01"))
    t = await refund_ticket(till.ctx, t.id, lines=[1])  # the socks and their tax: 11.00
    kinds = [(e.kind, e.approved) for e in t.refunds]
    assert kinds == [(Kind.CASH, D("11.00"))]  # the latest tender first: cash
    t = await refund_ticket(till.ctx, t.id)  # the rest
    refunds = [(str(e.kind), e.approved, e.original_invoice) for e in t.refunds]
    assert refunds[1:] == [("cash", D("6.00"), None), ("refund", D("50.00"), t.tenders[1].invoice),
                           ("refund", D("10.00"), t.tenders[0].invoice)]
    assert (await balance(till.ctx, gift, history=False)).balance == D("10.00")
    with pytest.raises(ValidationError, match="at most"):
        await refund_ticket(till.ctx, t.id, amount=D("0.01"))


async def test_an_open_tab_is_a_ticket_closed_with_its_tip(make_till: Any) -> None:
    from cashier.flows.ticket import add_to_tab, close_tab, load, open_tab

    till = await make_till("LG")
    settings = TicketSettings(terms_text="Your card is held until the tab is closed.")
    opened = await open_tab(till.ctx, settings, D("40.00"))
    assert opened.outcome == "approved" and opened.entry.ticket_id is not None
    ticket_id = opened.entry.ticket_id
    t = await load(till.ctx, ticket_id)
    assert (t.state, t.tenders[0].kind, t.paid, t.remaining) == ("open", "tab", D("0.00"), D("40.00"))
    assert (await add_to_tab(till.ctx, str(opened.entry.invoice), D("10.00"))).outcome == "approved"
    closed = await close_tab(till.ctx, str(opened.entry.invoice), D("7.50"))
    assert closed.outcome == "captured" and closed.entry.captured == D("57.50")
    t = await load(till.ctx, ticket_id)
    assert (t.state, t.tip, t.total, t.paid) == ("paid", D("7.50"), D("57.50"), D("57.50"))
    assert [line.name for line in t.lines] == ["Tab", "Added to tab"]
    assert "terms" in [e.type for e in await till.journal.events()]


async def test_the_journals_events_include_the_ticket_lines_it_holds_not_yet_committed(
        make_till: Any) -> None:
    """The events as this till holds them now: a line the writer holds until the typing pauses
    is among them at once (read on the writer's connection). Read on the reader's, a count taken
    before a refused cash tender missed the lines the refusal then committed (seen under load)."""
    till = await make_till("LG")
    await new(till, ("Mug", "8.00", 1))
    assert not till.journal.lines_committed  # held: the flusher waits for the typing to pause
    types = [e.type for e in await till.journal.events()]
    assert "ticket_created" in types and "ticket_line_added" in types, types


async def test_cash_without_an_open_drawer_is_refused_before_anything_is_journaled(
        make_till: Any) -> None:
    till = await make_till("LG")
    s = await new(till, ("Mug", "8.00", 1))
    events = len(await till.journal.events())
    with pytest.raises(ValidationError, match="open the drawer first"):
        await s.pay(Tender("cash", D("10.00")))
    assert len(await till.journal.events()) == events and await till.journal.search() == []
    assert s.ticket is not None and s.ticket.state == "open" and s.ticket.tenders == ()
    open_drawer(till.rt.profile, "50.00")
    t = await s.pay(Tender("cash", D("10.00")))
    assert (t.state, t.change) == ("paid", D("2.00"))
    assert expected_cash(till.rt.profile) == D("58.00")  # the applied cash only, not the tendered


async def test_cash_back_from_a_ticket_needs_an_open_drawer_too(make_till: Any) -> None:
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer

    till = await make_till("LG")
    profile = till.rt.profile
    open_drawer(profile, "20.00")
    s = await new(till, ("Scarf", "15.00", 1))
    t = await s.pay(Tender("cash", D("20.00")))
    assert t.state == "paid" and expected_cash(profile) == D("35.00")
    store = open_recorder(profile)
    try:
        assert Drawer(store, profile.roster).close("35.00", clerk="1").closed
    finally:
        store.close()
    with pytest.raises(ValidationError, match="open the drawer first"):
        await refund_ticket(till.ctx, t.id)
    assert (await load(till.ctx, t.id)).refunds == ()  # nothing journaled


async def test_an_empty_ticket_left_open_is_not_offered_again(make_till: Any, tmp_path: Any) -> None:
    """A ticket started and left without a line or a tender is nothing to finish; one with a line
    next to it still comes back."""
    journal = tmp_path / "empty.sqlite"
    till = await make_till("LG", journal=journal)
    await TicketSession.start(till.ctx, TicketSettings())
    kept = await new(till, ("Lamp", "30.00", 1))
    await TicketSession.start(till.ctx, TicketSettings())
    await till.rt.close()
    again = await make_till("LG", journal=journal, sandbox=till.sandbox)
    assert [s.id for s in await open_tickets(again.ctx, TicketSettings())] == [kept.id]
