"""Money movements journaled before the send, and recovered by a replay with the same key."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path

import pytest

from cashier.chargeapi import ChargeApiClient, ChargeApiTimeout
from cashier.chargeapi.journaled import REQUEST_NOTE, JournaledChargeApi
from cashier.journal import Journal, Kind, Op, State
from cashier.journal.model import NewEntry
from cashier.sandbox.chargeapi.testcards import TEST_CARDS
from tests.support.charge_api import Served, make_client, token

SLOW = next(c.number for c in TEST_CARDS if c.outcome == "slow")
DECLINE = next(c.number for c in TEST_CARDS if c.outcome == "do_not_honor")


@pytest.fixture
async def journal(tmp_path: Path) -> AsyncIterator[Journal]:
    async with Journal(tmp_path / "journal.sqlite", training=True) as j:
        yield j


async def test_charge_capture_refund_are_journaled(client: ChargeApiClient, journal: Journal) -> None:
    gw = JournaledChargeApi(client, journal, actor="7")
    auth = await gw.charge(Decimal("20.00"), "USD", card=await token(client), captured=False)
    assert auth.state is State.APPROVED and auth.exit_code == 0 and auth.result is not None
    assert auth.entry.kind is Kind.CHARGE and auth.entry.op is Op.AUTHORIZATION
    assert auth.entry.approved == Decimal("20.00") and auth.entry.card == "424242XXXXXX4242"
    events = await journal.events(auth.entry.id)
    assert [e.type for e in events][:3] == ["created", REQUEST_NOTE, "sent"]
    assert events[1].data["_note"]["params"]["amount"] == 2000
    capture = await gw.capture(auth.result.id)
    assert capture.state is State.APPROVED and capture.entry.captured == Decimal("20.00")
    refund = await gw.refund(auth.result.id, Decimal("5.00"))
    assert refund.entry.refunded == Decimal("5.00") and refund.entry.op is Op.REFUND
    rest = await gw.refund(auth.result.id)
    assert rest.entry.refunded == Decimal("15.00")
    keys = {auth.entry.idempotency_key, capture.entry.idempotency_key, refund.entry.idempotency_key}
    assert len(keys) == 3 and None not in keys


async def test_decline_and_error_outcomes(client: ChargeApiClient, journal: Journal) -> None:
    gw = JournaledChargeApi(client, journal)
    declined = await gw.charge(Decimal("1.00"), "USD", card=await token(client, DECLINE))
    assert declined.state is State.DECLINED and declined.exit_code == 1
    assert declined.entry.response_code == "do_not_honor" and declined.entry.auth_code is not None
    assert declined.entry.auth_code.startswith("char_")
    error = await gw.charge(Decimal("1.00"), "USD", card="tok_doesnotexist")
    assert error.state is State.ERROR and error.exit_code == 2


async def test_timeout_is_unknown_and_recovery_replays(served: Served, journal: Journal) -> None:
    """The slow card answers after 0.5 s; the client gives up at 0.2 s: outcome unknown."""
    async with ChargeApiClient("sk_test_rec", served.url, timeout_s=0.2, max_retries=0) as impatient, \
            ChargeApiClient("sk_test_rec", served.url) as patient:
        tok = (await patient.create_token(SLOW, "12", "2055")).id
        lost = await JournaledChargeApi(impatient, journal).charge(Decimal("12.34"), "USD", card=tok)
        assert lost.state is State.UNKNOWN and lost.exit_code == 3
        assert isinstance(lost.error, ChargeApiTimeout)
        assert lost.error.idempotency_key == lost.entry.idempotency_key
        recovered = await JournaledChargeApi(patient, journal).recover()
        assert [o.state for o in recovered] == [State.APPROVED]
        assert recovered[0].result is not None and recovered[0].result.replayed
        charges = await patient.list_charges()
        assert len(charges.objects) == 1 and charges.objects[0]["amount"] == 1234
        assert (await journal.unresolved()) == []


async def test_crash_before_the_request_was_written_is_never_sent(sandbox: object,
                                                                  journal: Journal) -> None:
    entry = await journal.create(NewEntry(Kind.CHARGE, Decimal("3.00"), actor="system",
                                          idempotency_key="k-crash",
                                 op=Op.CHARGE))
    async with make_client(sandbox) as client:  # type: ignore[arg-type]
        outcomes = await JournaledChargeApi(client, journal).recover()
        assert [o.state for o in outcomes] == [State.ERROR]
        assert (await client.list_charges()).objects == []
    assert (await journal.get(entry.id)).message == "never sent (no request recorded)"


def test_idempotency_keys_never_look_like_a_card_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """A UUID whose digit groups join into a Luhn-valid run would be refused by the journal's card
    guard (a charge failing one time in a few hundred): such a key is drawn again."""
    import uuid

    from cashier.chargeapi import client
    from cashier.journal.card_guard import contains_pan

    unlucky = uuid.UUID("b0312458-4958-453a-9617-f8c0607c31b7")  # 0312458 4958 453: Luhn-valid
    assert contains_pan(str(unlucky))
    drawn = iter([unlucky, uuid.UUID("abcdef01-cdef-4abc-8def-abcdefabcdef")])
    monkeypatch.setattr("cashier.chargeapi.client.uuid.uuid4", lambda: next(drawn))
    key = client.new_idempotency_key()
    assert key == "abcdef01-cdef-4abc-8def-abcdefabcdef" and not contains_pan(key)
