"""Issue 11 item 2 / issue 10 point 1: one strict amount rule, used by every flow and the CLI."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.journal.recorder import JournalRecorder
from cashier.money import CURRENCIES, format_amount, max_amount, minor_units, parse_amount
from tests.support.tills import cashier

#: (what was typed, a word of the rule the refusal must name)
REFUSED = [
    ("12,50", "separators"), ("1,234.56", "separators"), ("12_50", "separators"),
    ("12 50", "separators"), ("1E+2", "exponent"), ("1e2", "exponent"),
    ("１２.５０", "0-9"), ("١٢٫٥٠", "0-9"), ("١٢", "0-9"), ("१२", "0-9"),
    ("9999999999.99", "host's limit"), ("2000000000", "host's limit"), ("1.2.3", "decimal point"),
    ("+5", "number"), ("0x10", "number"), ("12.", "number"), ("", "empty"), ("-1", "negative"),
    ("NaN", "finite"), ("Infinity", "finite"), ("12.500", "decimals"), ("0", "greater than zero"),
]


@pytest.mark.parametrize(("text", "rule"), REFUSED)
def test_strict_parser_refuses_naming_field_and_rule(text: str, rule: str) -> None:
    with pytest.raises(ValidationError) as info:
        parse_amount(text, field="--amount")
    assert info.value.field == "--amount"
    assert rule in info.value.rule, info.value.rule


@pytest.mark.parametrize(("text", "value"), [("12.50", D("12.50")), ("12.5", D("12.50")),
                                             ("7", D("7.00")), ("1999999999.99", D("1999999999.99"))])
def test_strict_parser_accepts_plain_amounts(text: str, value: D) -> None:
    assert parse_amount(text) == value


def test_currency_decimals_and_limit_follow_the_currency() -> None:
    assert parse_amount("1999999999", "JPY") == D("1999999999")
    with pytest.raises(ValidationError, match="0 decimals"):
        parse_amount("5.5", "JPY")
    assert parse_amount("1.234", "KWD") == D("1.234")
    assert max_amount("KWD") == D("1999999999.999")


def test_the_window_formats_from_the_core_table() -> None:
    """One currency table: the window's formatting agrees with the core's for every currency."""
    pytest.importorskip("PySide6")
    from PySide6.QtCore import QLocale

    from ui.i18n import format_money

    en = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    for code in CURRENCIES:
        assert format_money(D(1234), code, en) == format_amount(D(1234), code), code
        places = len(format_money(D(1), code, en).split(".")[1].split(" ")[0]) \
            if minor_units(code) else 0
        assert places == minor_units(code), code


# ---- every flow refuses before an invoice is taken ---------------------------------------------
def _entries(journal: Path) -> list[dict[str, Any]]:
    if not journal.exists():
        return []
    store = JournalRecorder(journal, reader=True)
    try:
        return store.all_rows()
    finally:
        store.close()


@pytest.mark.parametrize("args,field", [
    (["sale", "--amount", "12,50"], "--amount"),
    (["sale", "--amount", "12_50"], "--amount"),
    (["sale", "--amount", "1E+2"], "--amount"),
    (["sale", "--amount", "１２.５０"], "--amount"),
    (["sale", "--amount", "9999999999.99"], "--amount"),
    (["sale", "--amount", "5.00", "--tip", "50.00"], "tip"),
    (["sale", "--amount", "5.00", "--card", "4321000000001119", "--exp", "0120"], "exp"),
    (["refund", "--amount", "1,00"], "--amount"),
    (["qr", "pay", "--amount", "1e1"], "--amount"),
    (["giftcard", "reload", "--amount", "1_0", "--card", "2664654648774"], "--amount"),
])
def test_command_line_refuses_before_an_invoice_is_taken(env: dict[str, str], args: list[str],
                                                         field: str, tmp_path: Path) -> None:
    done = cashier(*args, env=env)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and field in lines[0] and "Traceback" not in done.stderr, done.stderr
    journals = list((tmp_path / "data").rglob("journal-*.sqlite"))
    assert all(not _entries(j) for j in journals)


async def test_flows_refuse_amounts_beyond_the_host_limit_before_journaling(make_till: Any) -> None:
    from cashier.flows import giftcards, payments, qr
    from cashier.flows.giftcards import GiftCard
    from cashier.flows.ticket import TicketSession, TicketSettings

    till = await make_till("LG")
    too_big = D("9999999999.99")
    attempts: list[Callable[[], Awaitable[object]]] = [
        lambda: payments.sale(till.ctx, too_big),
        lambda: payments.authorize(till.ctx, too_big),
        lambda: payments.refund(till.ctx, too_big),
        lambda: payments.sale(till.ctx, D("10.00"), tax=D("10.01")),
        lambda: payments.sale(till.ctx, D("10.00"), tip=D("10.01")),
        lambda: qr.pay(till.ctx, too_big),
        lambda: giftcards.reload(till.ctx, GiftCard(number="2664654648774"), too_big),
    ]
    for attempt in attempts:
        with pytest.raises(ValidationError):
            await attempt()
    ticket = await TicketSession.start(till.ctx, TicketSettings(tip_mode="keyed"))
    await ticket.add_line("Amount", D("10.00"))
    with pytest.raises(ValidationError, match="tip"):  # keyed at the counter: the ticket's tip
        await ticket.key_tip(D("10.01"))
    assert await till.journal.search() == []


async def test_expired_keyed_card_is_refused_before_sending(make_till: Any) -> None:
    from cashier.flows.payments import KeyedCard, sale

    till = await make_till("HD")
    now = datetime.now(UTC)
    last_month = (now.month - 2) % 12 + 1
    year = now.year if now.month > 1 else now.year - 1
    with pytest.raises(ValidationError, match="past") as info:
        await sale(till.ctx, D("5.00"),
                   card=KeyedCard("4321000000001119", f"{last_month:02d}{year % 100:02d}"))
    assert info.value.field == "exp"
    assert await till.journal.search() == []
    this_month = f"{now.month:02d}{now.year % 100:02d}"
    ok = await sale(till.ctx, D("5.00"), card=KeyedCard("4321000000001119", this_month))
    assert ok.outcome == "approved", json.dumps(ok.as_dict())


def test_window_amount_entry_stops_at_the_host_limit(qtbot: Any) -> None:
    """The amount widget asks the core: twelve 9s (9999999999.99) stop at the host's limit."""
    from PySide6.QtCore import Qt

    from ui.widgets.amount import AmountDisplay

    display = AmountDisplay("USD")
    qtbot.addWidget(display)
    qtbot.keyClicks(display, "1999999999")
    qtbot.keyClicks(display, "99")
    assert display.value == D("1999999999.99")
    display.clear()
    qtbot.keyClicks(display, "999999999999")
    assert display.value == D("999999999.99")  # the twelfth 9 would pass the host's limit
    qtbot.keyClick(display, Qt.Key.Key_Escape)
    assert display.value == 0


def test_a_malformed_command_line_is_one_line_too(env: dict[str, str]) -> None:
    done = cashier("sale", "--amount", "-inf", env=env)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "--amount" in lines[0], done.stderr
