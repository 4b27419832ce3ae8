"""Tokens through the real HostClient: add, duplicate, delete for good, universal, four words."""

from __future__ import annotations

from decimal import Decimal

import httpx
import pytest

from cashier.host.errors import HostError
from cashier.host.models.common import Amount, Card
from cashier.sandbox.host_tokens import is_legacy_token, issue_token, resolve_token
from tests.support.vendor_schema import check_all, record_answers

VISA = "4321000000001119"


def keyed(number: str = VISA) -> Card:
    return Card(number=number, expiration_date=1230, entry_mode="M")


async def test_add_duplicate_universal_and_four_words(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    seen = record_answers(client)
    added = await client.token_add(card=keyed(), api_options=("RETURNEXPDATE",))
    assert added.card is not None and added.card.number == "XXXXXXXXXXXX1119" and added.card.type == "VS"
    assert added.card.token is not None
    token = added.card.token.value
    assert len(token) == 16 and token.isdigit() and token.endswith("1119") and is_legacy_token(token)
    assert resolve_token(sandbox.state, token) == VISA
    assert added.universal_token is not None
    universal = added.universal_token.value
    # a token issued by a sale is the same card's token: one vault
    sale = await client.sale(invoice="70", amount=Amount(total=Decimal("5.00"), tax=Decimal(0)),
                             card=keyed())
    assert sale.card is not None and sale.card.token is not None and sale.card.token.value == token
    copy = await client.token_duplicate(token)
    assert copy.card is not None and copy.card.token is not None
    assert copy.card.token.value != token and copy.card.token.value.endswith("1119")
    assert resolve_token(sandbox.state, copy.card.token.value) == VISA
    assert resolve_token(sandbox.state, token) == VISA  # the original stays valid
    by_token = await client.universal_token(token=token)
    by_number = await client.universal_token(card_number=VISA)
    assert by_token.universal_token is not None and by_number.universal_token is not None
    assert by_token.universal_token.value == by_number.universal_token.value == universal
    words = await client.token_four_words(token)
    assert words.card is not None
    four = words.card.four_words
    assert len(four.split()) == 4 and len(four) <= 28
    assert (await client.token_four_words(token)).card.four_words == four
    check_all(seen)
    assert VISA not in str(sandbox.state.snapshot())  # tokens never keep the full number


async def test_delete_is_irreversible(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    added = await client.token_add(card=keyed("5432000000003332"))
    assert added.card is not None and added.card.token is not None
    token = added.card.token.value
    deleted = await client.token_delete(token)
    assert deleted.card is not None and deleted.card.token is not None and deleted.card.token.value == token
    assert resolve_token(sandbox.state, token) is None
    for use in (client.token_delete(token), client.token_duplicate(token), client.token_four_words(token),
                client.universal_token(token=token)):
        with pytest.raises(HostError) as gone:
            await use
        assert gone.value.primary_code == 9846 and gone.value.short_text == "BAD UNIQUE ID"
    with pytest.raises(HostError) as sale:
        await client.sale(invoice="71", amount=Amount(total=Decimal("5.00"), tax=Decimal(0)),
                          card=Card(token={"value": token}))
    assert sale.value.primary_code == 9846
    # the same card tokenized again never brings the deleted value back
    again = await client.token_add(card=keyed("5432000000003332"))
    assert again.card is not None and again.card.token is not None and again.card.token.value != token
    assert issue_token(sandbox.state, "5432000000003332") != token


async def test_device_add_and_global_vault_tokens(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("DCC")
    seen = record_answers(client)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=sandbox.asgi),
                                 base_url="http://sandbox") as http:
        r = await http.post("/_sandbox/terminals/1170301234/customer", json={"card": "6011000000004444"})
        assert r.status_code == 200
        r = await http.post("/_sandbox/tokens/settings", json={"gtv": True})
        assert r.status_code == 200 and r.json()["gtv"] is True
        bad = await http.post("/_sandbox/tokens/settings", json={"gtv": "yes"})
        assert bad.status_code == 400
    read = await client.token_add()
    assert read.card is not None and read.card.token is not None and read.card.type == "NS"
    token = read.card.token.value
    assert token.startswith("4444") and not token.isdigit() and len(token) == 16
    assert resolve_token(sandbox.state, token) == "6011000000004444"
    check_all(seen)
    _hd_sandbox, hd = make_sandbox("HD")
    hd_sandbox = _hd_sandbox
    hd_sandbox.state.family("tokens")["gtv"] = True
    added = await hd.token_add(card=keyed())
    assert added.card is not None and added.card.token is not None
    with pytest.raises(HostError) as legacy_only:
        await hd.token_four_words(added.card.token.value)
    assert "legacy" in (legacy_only.value.long_text or "")


async def test_add_refusals(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _sandbox, client = make_sandbox("HD")
    with pytest.raises(HostError) as luhn:
        await client.token_add(card=keyed("4321000000001118"))
    assert luhn.value.primary_code == 9820
    with pytest.raises(HostError) as range_:
        await client.token_add(card=keyed("4000000000000002"))
    assert range_.value.primary_code == 9842
    with pytest.raises(HostError) as nothing:
        await client.universal_token(card_number="12")
    assert nothing.value.http_status == 400


def test_no_gift_card_token_passes_for_a_card_number() -> None:
    """The till refuses a Luhn-valid 13-19 digit token as a card typed in the wrong field, so the
    sandbox never issues one, gift card tokens included (fresh ones are random)."""
    from cashier.cards import looks_like_card_number
    from cashier.sandbox.app import HostSandbox
    from cashier.sandbox.core import SandboxConfig
    from cashier.sandbox.host_tokens import issue_gift_token

    state = HostSandbox(SandboxConfig(option="HD", access_token=None)).state
    issued = [issue_gift_token(state, f"key-{n}", "XXXXXXXXX8774", style="legacy", fresh=n % 2 == 0)
              for n in range(400)]
    assert len(set(issued)) > 300 and not [t for t in issued if looks_like_card_number(t)]
