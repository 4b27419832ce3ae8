"""Sandbox host transactions through the real HostClient, in-process: every operation and transition."""

from __future__ import annotations

import base64
from decimal import Decimal

import pytest

from cashier.host.errors import HostError, InvoiceNotFound
from cashier.sandbox.terminals import CustomerScript
from tests.support.host_requests import amount, customer, host_call, keyed, ledger_of


async def test_hd_keyed_sale_answers_like_the_vendor(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    result = await client.sale(invoice="1001", amount=amount("12.50", "0.92"), card=keyed(),
                               customer=customer())
    assert result.response_code == "A"
    assert result.amount is not None and result.amount.total == Decimal("12.50")
    assert result.amount.tax == Decimal("0.92")
    assert result.card is not None and result.card.number == "XXXXXXXXXXXX1119"
    assert result.card.type == "VS"
    assert result.token is not None and len(result.token) == 16 and result.token.endswith("1119")
    tx = result.transaction
    assert tx.invoice == "1001" and tx.sale_flag == "S" and tx.auth_source == "E"
    assert tx.authorization_code is not None and len(tx.authorization_code) == 6
    assert tx.retrieval_reference is not None and len(tx.retrieval_reference) == 12
    assert result.merchant is not None and result.merchant.mid == 15877
    assert result.receipt and any(line.print_value == "APPROVED" for line in result.receipt)
    record = ledger_of(sandbox)["1001"]
    assert record["state"] == "sale" and record["approvedAmount"] == "12.50"
    assert "4321000000001119" not in str(sandbox.state.snapshot())  # never the full number


async def test_same_invoice_never_approves_twice(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    first = await client.sale(invoice="7", amount=amount("20.00"), card=keyed(), customer=customer())
    again = await client.sale(invoice="7", amount=amount("20.00"), card=keyed(), customer=customer())
    lower = await client.sale(invoice="7", amount=amount("5.00"), card=keyed(), customer=customer())
    assert again.transaction.authorization_code == first.transaction.authorization_code
    assert again.amount is not None and again.amount.total == Decimal("20.00")
    assert lower.amount is not None and lower.amount.total == Decimal("20.00")
    assert ledger_of(sandbox)["7"]["approvedAmount"] == "20.00"
    assert sandbox.state.family("sequences")["approval"] == 1  # one approval only


async def test_higher_amount_on_same_invoice_seeks_only_the_difference(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await client.sale(invoice="8", amount=amount("20.00"), card=keyed(), customer=customer())
    # 219 is the partial-approval trigger: half of what is sought (the 199.00 difference)
    more = await client.sale(invoice="8", amount=amount("219"), card=keyed(), customer=customer())
    assert more.response_code == "P"
    assert more.amount is not None and more.amount.total == Decimal("20.00") + Decimal("99.50")
    assert ledger_of(sandbox)["8"]["approvedAmount"] == "119.50"


async def test_authorization_then_capture_for_more_seeks_the_difference(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    auth = await client.authorization(invoice="20", amount=amount("40.00"), card=keyed(),
                                      customer=customer())
    assert auth.transaction.sale_flag == "A" and auth.token
    status = await client.invoice_status("20")
    assert status.transaction.sale_flag == "A" and status.response_code == "A"
    captured = await client.capture(invoice="20", amount=amount("48.00"), token=auth.token)
    assert captured.response_code == "A" and captured.amount is not None
    assert captured.amount.total == Decimal("48.00")
    assert ledger_of(sandbox)["20"]["state"] == "sale"
    assert (await client.invoice_status("20")).transaction.sale_flag == "S"
    # a capture sent again answers what is on file
    again = await client.capture(invoice="20", amount=amount("48.00"), token=auth.token)
    assert again.amount is not None and again.amount.total == Decimal("48.00")


async def test_capture_lower_and_capture_zero(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    a = await client.authorization(invoice="21", amount=amount("40.00"), card=keyed(), customer=customer())
    low = await client.capture(invoice="21", amount=amount("30.00"), token=a.token or "")
    assert low.amount is not None and low.amount.total == Decimal("30.00")
    b = await client.authorization(invoice="22", amount=amount("40.00"), card=keyed(), customer=customer())
    zero = await client.capture(invoice="22", amount=amount("0"), token=b.token or "")
    assert zero.amount is not None and zero.amount.total == 0
    assert ledger_of(sandbox)["22"]["state"] == "voided"
    with pytest.raises(InvoiceNotFound):
        await client.invoice_status("22")


async def test_capture_refuses_unknown_invoice_and_foreign_token(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _, client = make_sandbox("HD")
    with pytest.raises(InvoiceNotFound):
        await client.capture(invoice="404", amount=amount("1.00"), token="1234567890121119")
    await client.authorization(invoice="23", amount=amount("10.00"), card=keyed(), customer=customer())
    with pytest.raises(HostError) as info:
        await client.capture(invoice="23", amount=amount("10.00"), token="0000000000009999")
    assert info.value.primary_code == 9846


async def test_final_authorization_captures_exactly(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    from tests.support.host_requests import host_call

    sandbox, client = make_sandbox("HD")
    status, env = await host_call(sandbox.asgi, "POST", "/transactions/authorization", {
        "amount": {"total": 10, "tax": 0}, "clerk": {"numericId": 1},
        "transaction": {"invoice": "24", "authType": "1"},
        "card": {"number": "4321000000001119", "expirationDate": 1230, "entryMode": "M",
                 "securityCode": {"indicator": "1", "value": "333"}},
        "customer": {"postalCode": "94719"}})
    assert status == 200
    token = env["result"][0]["card"]["token"]["value"]
    with pytest.raises(HostError) as info:
        await client.capture(invoice="24", amount=amount("12.00"), token=token)
    assert "exactly 10.00" in info.value.long_text


async def test_incremental_authorization_raises_the_open_authorization(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    a = await client.authorization(invoice="30", amount=amount("100.00"), card=keyed(), customer=customer())
    inc = await client.incremental_authorization(invoice="30", amount=amount("125.00"), token=a.token or "")
    assert inc.response_code == "A" and inc.amount is not None and inc.amount.total == Decimal("125.00")
    # 219 as the new total is the partial trigger; without ALLOWPARTIALAUTH it is declined
    # and the approval on file stands
    declined = await client.incremental_authorization(invoice="30", amount=amount("219"), token=a.token or "")
    assert declined.response_code == "D"
    assert ledger_of(sandbox)["30"]["approvedAmount"] == "125.00"
    assert sandbox.state.family("sequences")["approval"] == 1
    with pytest.raises(HostError) as info:
        await client.incremental_authorization(invoice="30", amount=amount("300"), token="1234567890121111")
    assert info.value.primary_code == 9846


async def test_void_then_invoice_not_found_and_void_again_not_found(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    sale = await client.sale(invoice="40", amount=amount("15.00"), card=keyed(), customer=customer())
    voided = await client.void("40", reversal_reason="04", token=sale.token)
    assert voided.response_code == "A" and voided.amount is not None
    assert voided.amount.total == Decimal("15.00")
    assert voided.card is not None and voided.card.token is not None
    assert ledger_of(sandbox)["40"]["state"] == "voided"
    assert ledger_of(sandbox)["40"]["reversalReason"] == "04"
    with pytest.raises(InvoiceNotFound):
        await client.invoice_status("40")
    with pytest.raises(InvoiceNotFound):
        await client.void("40")
    # a voided invoice may carry a new sale
    fresh = await client.sale(invoice="40", amount=amount("3.00"), card=keyed(), customer=customer())
    assert fresh.response_code == "A" and ledger_of(sandbox)["40"]["approvedAmount"] == "3.00"


async def test_refunds_linked_and_unlinked(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await client.sale(invoice="50", amount=amount("30.00"), card=keyed(), customer=customer())
    r1 = await client.refund(invoice="51", amount=amount("10.00"), original_invoice="50",
                             card=keyed())
    assert r1.response_code == "A" and r1.transaction.sale_flag == "C"
    assert r1.card is not None and r1.card.number == "XXXXXXXXXXXX1119"
    with pytest.raises(HostError) as info:  # only 20.00 is left to refund
        await client.refund(invoice="52", amount=amount("25.00"), original_invoice="50",
                           card=keyed())
    assert "20.00" in info.value.long_text
    r2 = await client.refund(invoice="52", amount=amount("20.00"), original_invoice="50",
                             card=keyed())
    assert r2.response_code == "A"
    assert ledger_of(sandbox)["50"]["refundedAmount"] == "30.00"
    await client.void("52")  # voiding a refund gives the amount back
    assert ledger_of(sandbox)["50"]["refundedAmount"] == "10.00"
    unlinked = await client.refund(invoice="53", amount=amount("5.00"), card=keyed("5432000000003332"))
    assert unlinked.card is not None and unlinked.card.type == "MC"
    with pytest.raises(InvoiceNotFound):
        await client.refund(invoice="54", amount=amount("1.00"), original_invoice="999",
                           card=keyed())
    declined = await client.refund(invoice="55", amount=amount("19.19"), card=keyed())
    assert declined.response_code == "D" and not declined.approved
    with pytest.raises(HostError) as dup:  # a sale's invoice cannot carry a refund
        await client.refund(invoice="50", amount=amount("1.00"), card=keyed())
    assert (dup.value.primary_code, dup.value.secondary_code) == (9815, 1)


async def test_referral_then_manual_sale_with_voice_code(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    referred = await client.sale(invoice="60", amount=amount("999998.50"), card=keyed(), customer=customer())
    assert referred.response_code == "R"
    assert (await client.invoice_status("60")).response_code == "R"
    status, env = await host_call(sandbox.asgi, "POST", "/transactions/manualsale", {
        "amount": {"total": Decimal("999998.50"), "tax": 0}, "clerk": {"numericId": 1},
        "transaction": {"invoice": "60"}})
    assert status == 400 and "authorizationCode" in env["result"][0]["error"]["longText"]
    manual = await client.manual_sale(invoice="60", amount=amount("999998.50"), authorization_code="VC1234",
                                      card=keyed())
    assert manual.response_code == "A" and manual.transaction.authorization_code == "VC1234"
    assert manual.transaction.auth_source == "O"
    assert ledger_of(sandbox)["60"]["state"] == "sale"


async def test_manual_authorization_code_needed_only_above_amount_on_file(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox("HD")
    await client.manual_authorization(invoice="61", amount=amount("50.00"), authorization_code="AB12",
                                      card=keyed())
    assert ledger_of(sandbox)["61"]["state"] == "authorized"
    status, env = await host_call(sandbox.asgi, "POST", "/transactions/manualauthorization", {
        "amount": {"total": 40, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "61"}})
    assert status == 200 and env["result"][0]["amount"]["total"] == Decimal("50.00")
    status, env = await host_call(sandbox.asgi, "POST", "/transactions/manualauthorization", {
        "amount": {"total": 60, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "61"}})
    assert status == 400 and env["result"][0]["error"]["code"] == 40102


@pytest.mark.parametrize("option", ["HD", "LG"])
async def test_signature_upload(make_sandbox, option: str) -> None:  # type: ignore[no-untyped-def]
    sandbox, client = make_sandbox(option)
    card = keyed() if option == "HD" else None
    await client.sale(invoice="70", amount=amount("80.00"), card=card,
                      customer=customer() if card else None)
    png = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
    result = await client.upload_signature(invoice="70", data=png, format="P")
    assert result.transaction is not None and result.transaction.sale_flag == "S"
    assert ledger_of(sandbox)["70"]["signature"]["bytes"] == 12
    with pytest.raises(InvoiceNotFound):
        await client.upload_signature(invoice="71", data=png, format="P")
    with pytest.raises(HostError) as info:
        await client.upload_signature(invoice="70", data="not base64!", format="P")
    assert "signature.data" in info.value.long_text


async def test_signature_is_not_offered_on_dcp(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    _, client = make_sandbox("DCP")
    with pytest.raises(HostError) as info:
        await client.upload_signature(invoice="70", data="AAAA", format="P")
    assert "not supported by processing option DCP" in info.value.long_text


@pytest.mark.parametrize("option", ["LG", "DCP", "DCC"])
async def test_device_driven_sale_reads_the_pad_and_adds_the_tip(make_sandbox, option: str) -> None:  # type: ignore[no-untyped-def]
    from cashier.host.models.common import TipOptions

    sandbox, client = make_sandbox(option)
    terminal = "1170301234" if option == "DCC" else "1742"
    sandbox.state.terminals.set_script(terminal, CustomerScript(card="5432000000003332", entry_mode="E",
                                                                tip=Decimal("3.00")))
    tip = TipOptions(preset_type="amount", preset1=Decimal("1"), preset2=Decimal("2"),
                     preset3=Decimal("3")) if option != "LG" else None
    result = await client.sale(invoice="80", amount=amount("20.00", "1.50"), tip=tip)
    assert result.response_code == "A"
    assert result.amount is not None and result.amount.total == Decimal("23.00")
    assert result.amount.tip == Decimal("3.00")
    assert result.card is not None and result.card.type == "MC" and result.card.entry_mode == "E"
    assert result.device is not None and result.device.terminal_id == terminal
    assert ledger_of(sandbox)["80"]["terminalId"] == terminal
    status = await client.invoice_status("80")
    assert status.device is None and status.amount is not None and status.amount.total == Decimal("23.00")


async def test_dcp_without_device_uses_the_default_pad(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    from cashier.sandbox.terminals import DCP_DEFAULT_TERMINAL

    sandbox, _ = make_sandbox("DCP")
    status, env = await host_call(sandbox.asgi, "POST", "/transactions/sale", {
        "amount": {"total": 5, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "81"},
        "card": {"present": "Y"}})
    assert status == 200 and env["result"][0]["transaction"]["responseCode"] == "A"
    assert ledger_of(sandbox)["81"]["terminalId"] == DCP_DEFAULT_TERMINAL


async def test_lg_sale_needs_a_terminal_and_hd_needs_a_card(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    sandbox, _ = make_sandbox("LG")
    status, env = await host_call(sandbox.asgi, "POST", "/transactions/sale", {
        "amount": {"total": 5, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "82"}})
    assert status == 400 and "device.terminalId" in env["result"][0]["error"]["longText"]
    hd, _ = make_sandbox("HD")
    status, env = await host_call(hd.asgi, "POST", "/transactions/sale", {
        "amount": {"total": 5, "tax": 0}, "clerk": {"numericId": 1}, "transaction": {"invoice": "82"}})
    assert status == 400 and "card.number" in env["result"][0]["error"]["longText"]


async def test_cancelled_read_answers_a_host_error_and_commits_nothing(make_sandbox) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    sandbox, client = make_sandbox("LG")
    sandbox.state.terminals.set_script("1742", CustomerScript(silent=True))
    task = asyncio.create_task(client.sale(invoice="83", amount=amount("9.00")))
    for _ in range(100):
        await asyncio.sleep(0.01)
        if sandbox.state.terminals.get("1742").state != "idle":
            break
    sandbox.state.terminals.get("1742").reset()
    with pytest.raises(HostError) as info:
        await task
    assert info.value.primary_code == 9960
    assert "83" not in ledger_of(sandbox)
