"""A lost answer is shown as "checking with the host", never as failed, until recovery settles it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx

from ui.pages.journal import JournalPage
from ui.pages.sale import SalePage


def _faults(ui: Any, gui: Any, rules: list[dict[str, Any]]) -> None:
    """Through the sandbox's own control route, as a trainer's script would."""
    async def post() -> None:
        transport = httpx.ASGITransport(app=gui.till.runtime.sandbox.asgi)
        async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as client:
            answer = await client.post("/_sandbox/faults", json={"rules": rules})
            assert answer.status_code == 200, answer.text
    ui.run(post())


def test_timeout_shows_checking_then_recovered(ui: Any, make_gui: Any) -> None:
    gui = make_gui()
    gui.pinpad.auto.setChecked(True)
    _faults(ui, gui, [
        {"path": "/api/rest/v1/transactions/sale", "action": "drop_after_commit", "count": 1},
        {"path": "/api/rest/v1/transactions/invoice", "action": "timeout_504", "count": 3}])
    page = gui.window.go(SalePage)
    page.amount.set_value(Decimal("15.00"))
    page.card_button.click()
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="result")
    assert page.result.outcome == "unknown"
    assert page.result_title.text() == "Checking with the host…"
    assert "fail" not in page.result_title.text().lower()
    assert page.result_page.property("outcome") == "unknown"
    assert page.check_button.isVisible()
    ui.until(lambda: gui.till.status.unresolved == 1, what="status bar count")
    assert "1" in gui.window.recovery_pill.text()
    # the journal says it in words, too
    journal = gui.window.go(JournalPage)
    ui.until(lambda: journal.entries, what="journal rows")
    assert journal.table.item(0, 5).text() == "Checking with the host"
    # the host answers again: Check now settles it, and the sale screen shows the real outcome
    gui.window.go(SalePage)
    page.check_button.click()
    ui.until(lambda: page.result.outcome == "approved", what="recovered")
    assert page.result_title.text() == "Approved"
    assert page.result.entry.approved == Decimal("15.00")  # charged once, found by invoice
    ui.until(lambda: gui.till.status.unresolved == 0, what="status bar cleared")


def test_startup_recovery_banner_lists_what_it_resolved(ui: Any, make_gui: Any, tmp_path: Any) -> None:
    journal_path = tmp_path / "shared.sqlite"
    first = make_gui(journal_path=journal_path)
    first.pinpad.auto.setChecked(True)
    _faults(ui, first, [
        {"path": "/api/rest/v1/transactions/sale", "action": "drop_after_commit", "count": 1},
        {"path": "/api/rest/v1/transactions/invoice", "action": "timeout_504", "count": 3}])
    page = first.window.go(SalePage)
    page.amount.set_value(Decimal("7.25"))
    page.card_button.click()
    ui.until(lambda: page.result is not None and page.result.outcome == "unknown", what="unknown")
    invoice = page.result.entry.invoice
    ui.run(first.stop())
    # the next start of the till (same journal and sandbox ledger) resolves it and says so
    second = make_gui(journal_path=journal_path)
    banner = second.window.recovery_banner
    ui.until(lambda: banner.isVisibleTo(second.window), what="banner")
    assert invoice in banner.text() and "Approved" in banner.text() and "$7.25" in banner.text()
    assert second.till.status.unresolved == 0
