"""A training till whose profile names a real host still never leaves the machine."""

from decimal import Decimal
from pathlib import Path

from cashier.config import load_profile
from cashier.flows.payments import sale
from cashier.runtime import open_runtime


async def test_training_with_a_host_url_sells_on_the_embedded_sandbox(tmp_path: Path) -> None:
    profile = load_profile(None, training=True, host_url="https://gateway.store.invalid/api/rest/v1",
                           terminal_id="1742", journal_path=tmp_path / "journal.sqlite")
    runtime = await open_runtime(profile)
    try:
        assert runtime.sandbox is not None
        result = await sale(runtime.ctx, Decimal("12.34"))
        assert result.outcome == "approved"
        ledger = {i["invoice"]: i for i in runtime.sandbox.state.family("transactions")["invoices"].values()}
        assert result.entry.invoice in ledger
    finally:
        await runtime.close()
