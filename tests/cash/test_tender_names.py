"""One name per tender kind (card, giftcard, qr, cash) on the ticket, the receipt, the reports and
the command line; the old spellings still read (``--pay gift``, an old journal's Z report)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import get_args

from cashier.cashdesk import CashDesk
from cashier.flows.ticket import Tender, parse_tender
from cashier.journal.model import Kind
from cashier.journal.ticket_model import KIND_OF_ENTRY, TENDER_KINDS, TenderKind
from cashier.printing import receipt
from cashier.reports import TENDERS


def test_every_place_names_the_tender_kinds_alike() -> None:
    assert TENDER_KINDS == get_args(TenderKind) == ("card", "giftcard", "qr", "cash")
    assert set(TENDER_KINDS) <= set(TENDERS)  # the reports add the Charge API's own
    tender_entries = (Kind.SALE, Kind.GIFTCARD_SALE, Kind.QR, Kind.CASH)
    assert {KIND_OF_ENTRY[k] for k in tender_entries} == set(TENDER_KINDS)
    assert set(TENDER_KINDS) <= set(receipt._TENDER_TITLES)


def test_the_command_line_takes_the_old_spellings() -> None:
    assert parse_tender("giftcard") == parse_tender("gift") == parse_tender("GIFT_CARD") == Tender("giftcard")
    assert parse_tender("gift=5").kind == "giftcard"


def test_an_old_journals_z_report_reads_with_todays_names(make_desk: Callable[..., CashDesk]) -> None:
    desk = make_desk()
    desk.open(clerk="101", float_amount="50.00")
    closed = desk.close_drawer("50.00", clerk="101")
    assert closed.closed and set(closed.report["by_tender"]) == set(TENDERS)  # type: ignore[index]
    old = dict(closed.report or {})  # as a journal written before the names were one stored it
    old["by_tender"] = {("gift_card" if k == "giftcard" else k): v for k, v in old["by_tender"].items()}
    old["by_tender"]["gift_card"] = {"count": 2, "amount": "30.00"}
    old["refunds_by_tender"] = {"gift_card": {"count": 1, "amount": "5.00"}}
    desk.recorder.conn.execute("UPDATE drawer_sessions SET report = ? WHERE id = ?",
                            (json.dumps(old), closed.session.id))
    read = desk.drawer.stored_report(closed.session)
    assert read is not None and "gift_card" not in read["by_tender"]
    assert read["by_tender"]["giftcard"] == {"count": 2, "amount": "30.00"}
    assert read["refunds_by_tender"] == {"giftcard": {"count": 1, "amount": "5.00"}}
