"""PIN pad work around a sale: line items in step with the cart, terms, confirmation, signature
upload, receipt on the pad; against the virtual pads of the in-process sandbox."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows.cart import (
    Cart,
    CartLine,
    LineItemsShown,
    accept_terms,
    capture_signature,
    checkout,
    confirm,
    receipt_lines,
)
from cashier.flows.payments import KeyedCard, sale
from cashier.sandbox.terminals import CustomerScript, signature_png

PAD = {"LG": "1742", "DCP": "1742", "DCC": "1170301234"}


def pad(till: Any, option: str = "LG") -> Any:
    return till.sandbox.state.terminals.get(PAD[option])


def script(till: Any, option: str = "LG", **kw: Any) -> None:
    till.sandbox.state.terminals.set_script(PAD[option], CustomerScript(**kw), once=True)


async def test_line_items_follow_the_cart(make_till: Any) -> None:
    till = await make_till("LG")
    shown: list[LineItemsShown] = []
    till.ctx.bus.subscribe(shown.append, LineItemsShown)
    cart = Cart(till.ctx)
    await cart.add(CartLine("Coffee", D("3.50"), 2))
    await cart.add(CartLine("Bagel", D("2.25")))
    await cart.add(CartLine("Orange juice, freshly squeezed, large", D("4.00")))
    assert pad(till).line_items == cart.wanted() == [line.text() for line in cart.lines]
    assert cart.wanted()[0].startswith("2x Coffee") and cart.wanted()[0].endswith(" 7.00")
    assert all(len(text) <= 32 for text in cart.wanted())
    removed = await cart.remove(1)
    assert removed.description == "Bagel"
    assert pad(till).line_items == [cart.lines[0].text(), cart.lines[1].text()]
    assert cart.total == D("11.00")
    for i in range(10):
        await cart.add(CartLine(f"Item {i}", D("1.00")))
    assert len(cart.lines) == 12 and len(pad(till).line_items) == 10
    shown_now = pad(till).line_items
    assert shown_now[0] == "... 3 earlier items" and shown_now[-1] == cart.lines[-1].text()
    await cart.clear()
    assert pad(till).line_items == [] and cart.total == 0
    assert shown[-1] == LineItemsShown((), True)


async def test_each_change_is_one_call_to_the_pad(make_till: Any, monkeypatch: Any) -> None:
    """Beyond 10 lines the pad's first row ("... N earlier items") changes with every line: the
    list is shown anew in one Display Line Items call (without APPENDLINEITEM it replaces what is
    shown), not cleared and drawn again in two; an empty cart is one clear."""
    till = await make_till("LG")
    calls: list[tuple[str, list[str] | None]] = []
    host_endpoint = till.sandbox.host_endpoint

    async def counted(request: Any) -> Any:
        if request.url.path.endswith("/devices/lineitems"):
            body = await request.json() if request.method == "POST" else {}
            calls.append((request.method, body.get("apiOptions")))
        return await host_endpoint(request)
    monkeypatch.setattr(till.sandbox, "host_endpoint", counted)
    cart = Cart(till.ctx)
    for i in range(25):
        calls.clear()
        await cart.add(CartLine(f"Item {i}", D("1.00")))
        assert pad(till).line_items == cart.wanted() and cart.in_sync
        # appended while the pad holds every line; then the whole list, in place of the last
        assert calls == [("POST", ["APPENDLINEITEM"] if 0 < i < 10 else None)], (i, calls)
    assert pad(till).line_items[0] == "... 16 earlier items"
    calls.clear()
    await cart.remove(3)
    assert calls == [("POST", None)] and pad(till).line_items == cart.wanted()
    assert pad(till).line_items[0] == "... 15 earlier items"
    calls.clear()
    await cart.clear()
    assert calls == [("DELETE", None)] and pad(till).line_items == []
    calls.clear()
    await cart.clear()  # nothing shown, nothing sent
    assert calls == []


async def test_pad_that_missed_a_change_is_redrawn(make_till: Any) -> None:
    till = await make_till("LG")
    cart = Cart(till.ctx)
    await cart.add(CartLine("Tea", D("2.00")))
    pad(till).connected = False
    await cart.add(CartLine("Cake", D("4.00")))  # the till keeps the line, the pad missed it
    assert not cart.in_sync and len(cart.lines) == 2
    pad(till).connected = True
    await cart.add(CartLine("Milk", D("1.00")))
    assert cart.in_sync and pad(till).line_items == cart.wanted()
    assert [t.split()[0] for t in pad(till).line_items] == ["Tea", "Cake", "Milk"]


@pytest.mark.parametrize("option", ["DCP", "DCC"])
async def test_cart_without_line_items_on_the_option(make_till: Any, option: str) -> None:
    till = await make_till(option)
    cart = Cart(till.ctx)
    await cart.add(CartLine("Tea", D("2.00")))
    assert cart.shown == [] and pad(till, option).line_items == []


@pytest.mark.parametrize("kwargs,field", [
    ({"description": "", "unit_price": D("1.00")}, "description"),
    ({"description": "x" * 41, "unit_price": D("1.00")}, "description"),
    ({"description": "Tea", "unit_price": D("-1")}, "unit_price"),
    ({"description": "Tea", "unit_price": D("1.00"), "quantity": 0}, "quantity"),
])
def test_cart_line_input_is_checked(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as err:
        CartLine(**kwargs)
    assert err.value.field == field


@pytest.mark.parametrize("option", ["LG", "DCP", "DCC"])
async def test_terms_declined_stop_the_sale_before_any_money_moves(make_till: Any, option: str) -> None:
    till = await make_till(option)
    cart = Cart(till.ctx)
    await cart.add(CartLine("Bike rental", D("25.00")))
    script(till, option, confirm=False)
    result = await checkout(till.ctx, cart, terms="Return the bike by 6 pm.")
    assert result.outcome == "stopped" and result.payment is None and "declined" in str(result.stopped)
    assert await till.journal.search() == []
    assert await till.ledger() == {}
    answers = [e.data["_note"]["answer"] for e in await till.journal.events() if e.type == "terms"]
    assert answers == ["declined"]
    assert cart.lines  # the cart stays for another tender


async def test_checkout_on_lg_terms_sale_signature_receipt(make_till: Any) -> None:
    till = await make_till("LG")
    cart = Cart(till.ctx)
    await cart.add(CartLine("Bike rental", D("25.00")))
    result = await checkout(till.ctx, cart, terms="Return the bike by 6 pm.", signature=True,
                            print_on_pad=True)
    assert result.outcome == "approved" and result.payment is not None
    invoice = str(result.payment.entry.invoice)
    assert result.signature is not None and result.signature.uploaded
    assert (await till.ledger())[invoice]["signature"]["format"] == "P"
    receipt = pad(till).last_receipt
    assert receipt is not None and f"Invoice {invoice}" in receipt["lines"]
    assert not any("4321000000001119" in line for line in receipt["lines"])
    assert pad(till).line_items == [] and cart.lines == []
    notes = [e.type for e in await till.journal.events(result.payment.entry.id)]
    assert "signature" in notes


@pytest.mark.parametrize("option", ["DCP", "DCC"])
async def test_signature_on_the_controllers_is_kept_not_uploaded(make_till: Any, option: str) -> None:
    till = await make_till(option)
    paid = await sale(till.ctx, D("10.00"))
    signed = await capture_signature(till.ctx, str(paid.entry.invoice))
    assert signed.captured and not signed.uploaded and "cannot upload" in signed.message
    assert signed.data and signed.data not in repr(signed)  # the image stays out of logs


async def test_signature_on_hd_comes_from_the_window(make_till: Any) -> None:
    till = await make_till("HD")
    paid = await sale(till.ctx, D("10.00"), card=KeyedCard("4321000000001119", "1228"))
    with pytest.raises(ValidationError, match="no PIN pad"):
        await capture_signature(till.ctx, str(paid.entry.invoice))
    signed = await capture_signature(till.ctx, str(paid.entry.invoice), image=signature_png(3))
    assert signed.uploaded
    assert (await till.ledger())[str(paid.entry.invoice)]["signature"]["bytes"] > 0


async def test_customer_refusing_to_sign_is_reported(make_till: Any) -> None:
    till = await make_till("LG")
    paid = await sale(till.ctx, D("10.00"))
    script(till, signature=False)
    signed = await capture_signature(till.ctx, str(paid.entry.invoice))
    assert not signed.captured and not signed.uploaded
    assert "signature" not in (await till.ledger())[str(paid.entry.invoice)]


async def test_confirmation_and_terms_answers(make_till: Any) -> None:
    till = await make_till("LG")
    assert await confirm(till.ctx, "Add a bag for 0.10?") is True
    script(till, confirm=False)
    assert await confirm(till.ctx, "Add a bag for 0.10?") is False
    script(till, confirm=True)
    assert await accept_terms(till.ctx, "No refunds after 30 days.", header="Terms") is True
    with pytest.raises(ValidationError, match="question"):
        await confirm(till.ctx, "x" * 65)
    dcp = await make_till("DCP")
    with pytest.raises(ValidationError, match="processing_option"):
        await confirm(dcp.ctx, "Add a bag?")


async def test_empty_cart_and_receipt_lines(make_till: Any) -> None:
    till = await make_till("LG")
    with pytest.raises(ValidationError, match="cart"):
        await checkout(till.ctx, Cart(till.ctx))
    paid = await sale(till.ctx, D("8.00"), tip=D("1.00"))
    lines = receipt_lines(paid.entry)
    assert lines[0] == "SALE" and "Tip 1.00" in lines and "Total 9.00 USD" in lines
