"""No full gift card number reaches the disk: the state keeps a one-way key and the masked
number; the allocate answer still hands the new number out once. In-process and ``serve --state``."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from cashier.host.models.common import Card, Token
from tests.support.host_requests import amount
from tests.support.sandbox_server import Served, start

GIFT = "2664654648774"


def digits_at_rest(folder: Path) -> str:
    """Every digit of every file the sandbox wrote (but its key file), separators dropped, so a
    number split into groups is still found."""
    text = b"".join(p.read_bytes() for p in sorted(folder.iterdir())
                    if p.is_file() and not p.name.endswith(".key"))
    return re.sub(rb"[^0-9]", b"", text).decode()


async def test_gift_card_numbers_never_reach_the_state_file(make_sandbox, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "state"
    path = folder / "sandbox.sqlite"
    _sandbox, client = make_sandbox("HD", state_file=str(path))
    activated = await client.giftcard_activate(invoice="1", amount=Decimal("30.00"),
                                               card=Card(number=GIFT, expiration_date=1230))
    assert activated.card is not None and activated.card.token is not None
    token = activated.card.token.value
    await client.sale(invoice="2", amount=amount("5.00"), card=Card(number=GIFT, expiration_date=1230))
    await client.giftcard_reload(invoice="3", amount=Decimal("1.00"), card=Card(token=Token(value=token)))
    await client.token_add(card=Card(number=GIFT, expiration_date=1230))
    allocated = await client.giftcard_allocate(invoice="4", amount=Decimal("10.00"))
    assert allocated.card is not None and allocated.card.number is not None
    new_number = allocated.card.number
    assert new_number.isdigit() and len(new_number) >= 13  # handed out in full, once
    at_rest = digits_at_rest(folder)
    assert GIFT not in at_rest and new_number not in at_rest
    assert (folder / "sandbox.sqlite.key").stat().st_mode & 0o077 == 0  # owner-only
    # a restarted sandbox still finds both cards by number and by token
    _again, client2 = make_sandbox("HD", state_file=str(path))
    by_number = await client2.giftcard_balance(invoice="5", card=Card(number=GIFT, expiration_date=1230))
    assert by_number.card is not None and by_number.card.balance is not None
    assert by_number.card.balance.amount == Decimal("26.00")
    assert by_number.card.number == "XXXXXXXXX8774"
    by_token = await client2.giftcard_balance(invoice="6", card=Card(token=Token(value=token)))
    assert by_token.card is not None and by_token.card.balance is not None
    assert by_token.card.balance.amount == Decimal("26.00")
    allocated_again = await client2.giftcard_balance(
        invoice="7", card=Card(number=new_number, expiration_date=1230))
    assert allocated_again.card is not None and allocated_again.card.number != new_number
    assert allocated_again.card.balance is not None
    assert allocated_again.card.balance.amount == Decimal("10.00")


@pytest.mark.socket
async def test_serve_with_state_keeps_no_gift_card_number(tmp_path: Path) -> None:
    folder = tmp_path / "served"
    folder.mkdir()
    served: Served = start("--option", "HD", "--state", str(folder / "state.sqlite"))
    try:
        async with served.client("HD") as client:
            await client.giftcard_activate(invoice="10", amount=Decimal("12.00"),
                                           card=Card(number=GIFT, expiration_date=1230))
            allocated = await client.giftcard_allocate(invoice="11", amount=Decimal("4.00"))
            assert allocated.card is not None and allocated.card.number is not None
            new_number = allocated.card.number
    finally:
        assert served.stop() == 0
    at_rest = digits_at_rest(folder)
    assert GIFT not in at_rest and new_number not in at_rest
