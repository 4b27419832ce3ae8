"""Issue #46 (round 4): an answer that approved another payment than the one asked (its card is
not the one presented) is never this customer's approval; the Manager screen lists it for the
manager to settle with the host."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ui.pages.manager import ManagerPage


def test_manager_screen_lists_an_answer_that_approved_another_payment(ui: Any, make_gui: Any) -> None:
    from cashier.flows.payments import KeyedCard, sale
    from cashier.host.models.common import Amount
    from cashier.journal.model import State

    gui = make_gui()
    ctx = gui.till.ctx
    # another till with this till's number sold under the number this till issues next
    taken = f"{1:02d}{ui.run(ctx.journal.invoice_high_water()) + 1:08d}"
    ui.run(ctx.client.sale(invoice=taken, amount=Amount(total=Decimal("50.00"), tax=Decimal(0)),
                           card=KeyedCard("4321000000001119", "1230").wire()))
    result = ui.run(sale(ctx, Decimal("80.00"), card=KeyedCard("5432000000003332", "1230")))
    assert result.entry.invoice == taken and result.entry.state is State.ERROR
    assert result.entry.approved == 0 and "not charged for this customer" in result.message
    manager = gui.window.go(ManagerPage)
    manager.pin.setText("1234")
    manager.unlock()
    ui.until(lambda: taken in manager.mismatches_hint.text(), what="listed")
    assert "80.00 on card ..1119" in manager.mismatches_hint.text()
