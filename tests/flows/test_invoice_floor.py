"""Issue 11 item 1: a lost, replaced or restored journal never reuses an invoice the host holds."""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cashier.errors import ValidationError
from cashier.flows.invoices import highest_known
from cashier.journal.recorder import INVOICES_PER_DAY, JournalRecorder
from tests.support.profiles import write_profile
from tests.support.tills import cashier

pytestmark = pytest.mark.socket


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env["CASHIER_ACCESS_TOKEN"] = "FLOOR-TOKEN"
    return env


def _sale(profile: Path, *args: str) -> dict[str, Any]:
    done = cashier("--profile", str(profile), "sale", *args, env=_env())
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_replacing_the_journal_mid_day_never_reuses_an_invoice(serve_sandbox: Any,
                                                               tmp_path: Path) -> None:
    served = serve_sandbox("LG")
    journal_a, journal_b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    first = _sale(write_profile(tmp_path / "a.toml", host_url=served.api, journal=journal_a),
                  "--amount", "5.00")
    backup = tmp_path / "a-backup.sqlite"
    shutil.copy(journal_a, backup)  # a backup taken now, restored after two more sales
    second = _sale(write_profile(tmp_path / "a.toml", host_url=served.api, journal=journal_a),
                   "--amount", "6.00")
    # the journal is lost: a new empty file, another customer and card
    third = _sale(write_profile(tmp_path / "b.toml", host_url=served.api, journal=journal_b),
                  "--amount", "7.00", "--card", "5432000000003332", "--exp", "1240")
    # then the old backup is restored over journal A
    shutil.copy(backup, journal_a)
    for suffix in ("-wal", "-shm"):
        Path(str(journal_a) + suffix).unlink(missing_ok=True)
    fourth = _sale(write_profile(tmp_path / "a.toml", host_url=served.api, journal=journal_a),
                   "--amount", "8.00")
    invoices = [s["invoice"] for s in (first, second, third, fourth)]
    assert len(set(invoices)) == 4, invoices
    with served.control() as control:
        ledger = {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}
    for sold, amount in zip((first, second, third, fourth), ("5.00", "6.00", "7.00", "8.00"),
                            strict=True):
        assert sold["approved"] == amount
        held = ledger[sold["invoice"]]
        assert Decimal(held["approvedAmount"]) == Decimal(amount), held  # nobody's charge amended


def test_floor_only_rises_and_binds_a_real_till_to_the_day(tmp_path: Path) -> None:
    moment = datetime(2026, 11, 23, 12, tzinfo=UTC)
    store = JournalRecorder(tmp_path / "j.sqlite", invoice_time_floor=True, clock=lambda: moment)
    try:
        day = (moment.date() - datetime(2025, 1, 1).date()).days
        assert store.invoice_high_water() == 0
        assert store.allocate_invoice() == f"01{day * INVOICES_PER_DAY + 1:08d}"
        store.raise_invoice_floor(day * INVOICES_PER_DAY + 40)
        store.raise_invoice_floor(5)  # never lowers
        assert store.invoice_high_water() == day * INVOICES_PER_DAY + 40
        assert store.allocate_invoice() == f"01{day * INVOICES_PER_DAY + 41:08d}"
        for bad in (-1, 10 ** 8, True):
            with pytest.raises(ValidationError):
                store.raise_invoice_floor(bad)
    finally:
        store.close()
    training = JournalRecorder(tmp_path / "t.sqlite")
    try:
        assert training.allocate_invoice() == "0100000001"  # training tills keep 1, 2, 3...
    finally:
        training.close()


async def test_the_host_search_steps_over_gaps_and_gallops() -> None:
    held = set(range(1, 40)) | set(range(42, 1000))  # 40, 41 consumed but never sent
    asked: list[int] = []

    async def known(seq: int) -> bool:
        asked.append(seq)
        return seq in held

    assert await highest_known(known, 0) == 999
    assert len(asked) < 60
    assert await highest_known(known, 2000) == 2000


async def test_async_journal_wrappers(tmp_path: Path) -> None:
    from cashier.journal.aio import Journal

    async with await Journal.open(tmp_path / "j.sqlite") as journal:
        await journal.raise_invoice_floor(77)
        assert await journal.invoice_high_water() == 77
        assert await journal.allocate_invoice() == "0100000078"
