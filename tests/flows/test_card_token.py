"""Issue 11 item 6: a card number given as a token is refused and never kept in any form."""

from __future__ import annotations

from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.journal.model import NewEntry
from tests.support.card_numbers import card_numbers_at_rest, card_numbers_in
from tests.support.tills import cashier


def test_scanner_looks_through_separators() -> None:
    for hidden in ("~43210000_00001119", "4321 0000 0000 1119", "4321-0000-0000-1119",
                   "4321_0000_0000_1119", "x=4321000000001119;", "3734 000000 02221"):
        assert card_numbers_in(hidden), hidden
    for harmless in ("0100000001", "2026-11-23 20:04:44", "~43210000_00001118", "12.50"):
        assert not card_numbers_in(harmless), harmless


@pytest.mark.parametrize("token", ["4321000000001119", "4321-0000-0000-1119", "5432000000003332"])
def test_card_number_as_token_is_refused_before_sending(env: dict[str, str], tmp_path: Path,
                                                        token: str) -> None:
    done = cashier("sale", "--amount", "3.00", "--token", token, env=env)
    assert done.returncode == 2 and "token" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    exported = cashier("journal", "export", "--format", "json", env=env)
    assert not card_numbers_in(exported.stdout + done.stdout + done.stderr)
    assert not card_numbers_at_rest(tmp_path / "data")


async def test_flows_refuse_a_card_number_token(make_till: Any) -> None:
    from cashier.flows import giftcards, payments

    till = await make_till("HD")
    with pytest.raises(ValidationError, match="card number"):
        await payments.sale(till.ctx, D("3.00"), token="4321000000001119")
    with pytest.raises(ValidationError, match="card number"):
        await payments.refund(till.ctx, D("3.00"), token="4321000000001119")
    with pytest.raises(ValidationError, match="card number"):
        giftcards.GiftCard(token="2664654648774")
    assert await till.journal.search() == []


async def test_sandbox_tokens_never_pass_for_card_numbers(make_till: Any) -> None:
    """The sandbox's card-on-file tokens (legacy style: 16 digits) are never Luhn-valid, so a
    till can refuse card-number tokens without refusing the host's own."""
    from cashier.flows.payments import KeyedCard, sale

    till = await make_till("HD")
    for number in ("4321000000001119", "5432000000003332", "373400000002221", "6011013928534509"):
        result = await sale(till.ctx, D("2.00"), card=KeyedCard(number, "1240"))
        assert result.outcome == "approved"
        assert result.entry.token and not card_numbers_in(result.entry.token)
        again = await sale(till.ctx, D("1.00"), token=result.entry.token)
        assert again.outcome == "approved"


def test_a_hosts_luhn_valid_token_is_kept_with_no_digit_run(tmp_path: Path) -> None:
    """A processor's token may pass Luhn; the journal keeps it with its digits as letters, so no
    card number is at rest in any form, and reads it back whole (older ``~8_8`` rows too)."""
    from cashier.journal.recorder import JournalRecorder
    from cashier.journal.tokens import decode_token

    store = JournalRecorder(tmp_path / "j.sqlite")
    try:
        entry = store.create(NewEntry("sale", D("1.00"), actor="1", token="4321000000001119"))
        assert store.get(entry.id).token == "4321000000001119"
    finally:
        store.close()
    assert not card_numbers_at_rest(tmp_path)
    assert decode_token("~43210000_00001119") == "4321000000001119"
