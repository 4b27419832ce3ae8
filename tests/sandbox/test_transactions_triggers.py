"""The vendor's test triggers on the sandbox host: cards, amounts, AVS, CSC."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from cashier.host.errors import HostError, HostTimeout, InvoiceNotFound
from cashier.sandbox import triggers
from cashier.sandbox.terminals import CustomerScript
from tests.support.host_requests import amount, customer, host_call, keyed, ledger_of


# ---- pure rules -------------------------------------------------------------------------------
@pytest.mark.parametrize(("total", "kind", "partial", "code", "approved"), [
    ("999997.99", "sale", False, "A", "999997.99"),
    ("999998.01", "sale", False, "R", "0"),
    ("999998.99", "authorization", False, "R", "0"),
    ("999999.01", "sale", False, "D", "0"),
    ("1999999999.99", "sale", False, "D", "0"),
    ("19.19", "refund", False, "D", "0"),
    ("19.19", "sale", False, "A", "19.19"),
    ("219", "sale", True, "P", "109.50"),
    ("219.00", "capture", False, "D", "0"),
    ("6.66", "sale", False, "A", "6.66"),
])
def test_amount_outcomes(total: str, kind: str, partial: bool, code: str, approved: str) -> None:
    outcome = triggers.amount_outcome(Decimal(total), Decimal(total), kind=kind, partial_allowed=partial)
    assert (outcome.response_code, outcome.approved) == (code, Decimal(approved))


def test_delayed_amounts_and_host_error() -> None:
    assert triggers.amount_outcome(Decimal("111.05"), Decimal(1), kind="sale",
                                   partial_allowed=False).delay_s == 5
    late_error = triggers.amount_outcome(Decimal("112.02"), Decimal(1), kind="sale", partial_allowed=False)
    assert late_error.delay_s == 2 and late_error.error is not None
    assert triggers.amount_outcome(Decimal("511.01"), Decimal(1), kind="sale",
                                   partial_allowed=False).response_code == "R"
    assert triggers.amount_outcome(Decimal("1111.03"), Decimal(1), kind="sale",
                                   partial_allowed=False).response_code == "D"
    assert triggers.amount_outcome(Decimal("32202.00"), Decimal(1), kind="sale",
                                   partial_allowed=False).error is not None
    assert triggers.amount_outcome(Decimal("6.66"), Decimal("6.66"), kind="sale",
                                   partial_allowed=False).balance == Decimal("43.34")


@pytest.mark.parametrize(("street", "postal", "result"), [
    ("65 Main", None, ("A", False)), (None, "69123", ("E", False)), ("78 Elm", "99999", ("N", True)),
    ("82", None, ("R", False)), (None, "85000", ("U", False)), ("88 X", None, ("X", False)),
    ("89 Y", None, ("Y", False)), (None, "90210", ("Z", False)), ("1 Main", "12345", ("N", False)),
    (None, None, None),
])
def test_avs_prefixes(street: str | None, postal: str | None, result: tuple[str, bool] | None) -> None:
    assert triggers.avs_result(street, postal) == result


@pytest.mark.parametrize(("value", "result"), [
    ("333", "M"), ("3333", "M"), ("444", "N"), ("4444", "N"), ("555", "P"), ("5555", "P"),
    ("666", "S"), ("6666", "S"), ("777", "U"), ("7777", "U"), ("123", "M"),
])
def test_csc_triggers(value: str, result: str) -> None:
    code = triggers.csc_result(value)
    assert code is not None and code[0] == result and code[1] == (result == "N")


def test_test_cards_table_is_consistent() -> None:
    numbers = [card.number for card in triggers.TEST_CARDS]
    assert len(numbers) == len(set(numbers)) and "4321000000001119" in numbers
    assert all(triggers.brand_of(card.number) == card.brand for card in triggers.TEST_CARDS)
    assert triggers.check_card(triggers.LUHN_FAIL_CARD) is not None
    assert triggers.check_card(triggers.LUHN_FAIL_CARD).primary_code == 9820  # type: ignore[union-attr]
    assert len(triggers.AMOUNT_TRIGGERS) >= 10


# ---- through the host -------------------------------------------------------------------------------
@pytest.mark.parametrize(("number", "primary", "status"), [
    ("4321000000001118", 9820, 400),  # Luhn failure
    ("4111111111111111", 9842, 400),  # a real-looking card that is not a test card
    ("4321000000009401", 9401, 400),
    ("4417010617574247", 9961, 400),
    ("4444000000008686", 9961, 400),
])
async def test_error_cards(make_sandbox, number: str, primary: int, status: int) -> None:  # type: ignore[no-untyped-def]
    _sandbox, client = make_sandbox("HD")
    with pytest.raises(HostError) as info:
        await client.sale(invoice="1", amount=amount("10.00"), card=keyed(number), customer=customer())
    assert info.value.primary_code == primary and info.value.http_status == status
    assert not isinstance(info.value, HostTimeout)


@pytest.mark.parametrize("number", ["4321000000011001", "4184324142934805"])
async def test_timeout_cards_give_504_and_commit_nothing(make_sandbox, number: str) -> None:  # type: ignore[no-untyped-def]
    _sandbox, client = make_sandbox("HD")
    with pytest.raises(HostTimeout) as info:
        await client.sale(invoice="2", amount=amount("10.00"), card=keyed(number), customer=customer())
    assert info.value.http_status == 504 and info.value.primary_code == 9951
    with pytest.raises(InvoiceNotFound):
        await client.invoice_status("2")


async def test_amount_triggers_through_the_host(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _sandbox, client = make_sandbox("HD")
    declined = await client.sale(invoice="3", amount=amount("1000000.00"), card=keyed(), customer=customer())
    assert declined.response_code == "D" and (await client.invoice_status("3")).response_code == "D"
    partial = await client.sale(invoice="4", amount=amount("219.00"), card=keyed(), customer=customer())
    assert partial.response_code == "P" and partial.amount is not None
    assert partial.amount.total == Decimal("109.50")
    no_partial = await client.sale(invoice="5", amount=amount("219.00"), card=keyed(), customer=customer(),
                                   api_options=())
    assert no_partial.response_code == "D"
    prepaid = await client.sale(invoice="6", amount=amount("6.66"), card=keyed(), customer=customer())
    assert prepaid.card is not None and prepaid.card.balance is not None
    assert prepaid.card.balance.amount == Decimal("43.34")
    with pytest.raises(HostError) as info:
        await client.sale(invoice="7", amount=amount("32202.00"), card=keyed(), customer=customer())
    assert info.value.primary_code == 9961
    assert (await client.invoice_status("7")).response_code == "e"  # GET reports the error
    # a declined invoice may be tried again
    retry = await client.sale(invoice="3", amount=amount("10.00"), card=keyed(), customer=customer())
    assert retry.response_code == "A"


async def test_delayed_approval_waits_scaled_seconds(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _sandbox, client = make_sandbox("HD", delay_scale=0.05)
    started = time.monotonic()
    result = await client.sale(invoice="8", amount=amount("111.04"), card=keyed(), customer=customer())
    elapsed = time.monotonic() - started
    assert result.response_code == "A" and 0.18 <= elapsed < 2.0
    late = await client.sale(invoice="9", amount=amount("1111.02"), card=keyed(), customer=customer())
    assert late.response_code == "D"


async def test_avs_and_csc_failures_decline_or_give_f(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    ok = await client.sale(invoice="10", amount=amount("10.00"), card=keyed(csc="333"),
                           customer=customer("65000", "89 Oak"))
    assert ok.response_code == "A" and ok.transaction.avs is not None and ok.transaction.avs.result == "Y"
    assert ok.card is not None and ok.card.security_code is not None and ok.card.security_code.result == "M"
    auto = await client.sale(invoice="11", amount=amount("10.00"), card=keyed(), customer=customer("78000"))
    assert auto.response_code == "D" and ledger_of(sandbox)["11"]["state"] == "declined"
    kept = await client.sale(invoice="12", amount=amount("10.00"), card=keyed(csc="444"), customer=customer(),
                             api_options=("POSHANDLEAVSFAIL",))
    assert kept.response_code == "f" and kept.card is not None
    assert kept.card.security_code is not None and kept.card.security_code.result == "N"
    assert ledger_of(sandbox)["12"]["state"] == "sale"  # the POS decides: keep or void
    await client.void("12", reversal_reason="09")
    with pytest.raises(InvoiceNotFound):
        await client.invoice_status("12")


async def test_contactless_online_pin_trigger_gives_s(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("LG")
    sandbox.state.terminals.set_script("1742", CustomerScript(card=triggers.ONLINE_PIN_CARD, entry_mode="T"))
    tapped = await client.sale(invoice="13", amount=amount("25.00"))
    assert tapped.response_code == "S" and not tapped.approved
    sandbox.state.terminals.set_script("1742", CustomerScript(card=triggers.ONLINE_PIN_CARD, entry_mode="E"))
    inserted = await client.sale(invoice="13", amount=amount("25.00"))
    assert inserted.response_code == "A"


async def test_raw_error_card_keeps_the_number_out_of_the_answer(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("HD")
    status, env = await host_call(sandbox.asgi, "POST", "/transactions/sale", {
        "amount": {"total": 1, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "14"},
        "card": {"number": "4111111111111111", "expirationDate": 1230, "entryMode": "M",
                 "securityCode": {"indicator": "1", "value": "333"}}, "customer": {"postalCode": "1"}})
    assert status == 400 and "4111111111111111" not in str(env)
