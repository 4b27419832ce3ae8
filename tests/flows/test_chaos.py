"""Chaos: many sales over a real socket with seeded random faults, and sale processes killed with
SIGKILL at random moments followed by ``cashier recover``. Afterwards the host and the journal
agree exactly. ``CASHIER_CHAOS_SALES`` sets the number of sales (default sized for < 60 s)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.config import load_profile
from cashier.flows.base import RecoveryPolicy
from cashier.flows.payments import sale
from cashier.flows.recovery import recover, void
from cashier.journal.model import State
from cashier.journal.recorder import JournalRecorder
from cashier.runtime import open_runtime
from tests.flows.conftest import write_profile
from tests.pans import card_numbers_in

pytestmark = pytest.mark.socket
SALES = int(os.environ.get("CASHIER_CHAOS_SALES", "500"))
SEED = int(os.environ.get("CASHIER_CHAOS_SEED", "20240521"))


def _amount(rng: random.Random) -> D:
    while True:
        value = D(rng.randint(100, 50000)) / 100
        if int(value) not in (111, 112, 219, 511, 1111) and value != D("6.66") and value != D("19.19"):
            return value


SALE_PATH, STATUS_PATH = "/api/rest/v1/transactions/sale", "/api/rest/v1/transactions/invoice"
#: (weight, rule) drawn before a sale; the rest of the time the sale goes through untouched.
SALE_FAULTS: list[tuple[float, dict[str, Any]]] = [
    (0.06, {"action": "drop_after_commit"}), (0.04, {"action": "timeout_504", "commit": True}),
    (0.04, {"action": "timeout_504", "commit": False}), (0.04, {"action": "reset"}),
    (0.05, {"action": "delay", "delay_ms": 5}),
]


def _pick_faults(rng: random.Random) -> list[dict[str, Any]]:
    """Seeded random faults for the next sale (one-shot rules: ``count`` 1)."""
    rules: list[dict[str, Any]] = []
    roll, edge = rng.random(), 0.0
    for weight, rule in SALE_FAULTS:
        edge += weight
        if roll < edge:
            rules.append({"path": SALE_PATH, "count": 1, **rule})
            break
    if rng.random() < 0.1:  # the status lookup that follows may fail too
        rules.append({"path": STATUS_PATH, "action": "reset", "count": 1})
    return rules


async def test_chaos(serve_sandbox: Any, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    served = serve_sandbox("LG")
    journal = tmp_path / "chaos.sqlite"
    profile_path = write_profile(tmp_path / "chaos.toml", host_url=served.api, journal=journal,
                                 host_s=5.0)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env["CASHIER_ACCESS_TOKEN"] = "CHAOS-TOKEN"
    os.environ["CASHIER_ACCESS_TOKEN"] = "CHAOS-TOKEN"
    logs: list[str] = []
    control = served.control()
    profile = load_profile(profile_path)
    rt = await open_runtime(profile, policy=RecoveryPolicy(grace_s=0.3, delays_s=(0.0, 0.05, 0.1)))
    crashes = max(4, min(12, SALES // 80))
    crash_at = set(rng.sample(range(SALES), crashes))
    started = time.monotonic()
    crash_s = 0.0
    try:
        for i in range(SALES):
            rules = _pick_faults(rng)
            if rules:
                assert control.post("/_sandbox/faults", json={"rules": rules}).status_code == 200
            result = await sale(rt.ctx, _amount(rng))
            roll = rng.random()
            if result.outcome == "error" and roll < 0.5:  # the cashier tries again, same invoice
                await sale(rt.ctx, result.entry.requested, invoice=result.entry.invoice)
            elif result.outcome in ("approved", "unknown") and roll < 0.05:
                await void(rt.ctx, str(result.entry.invoice))
            if i in crash_at:
                t = time.monotonic()
                logs += await asyncio.to_thread(_crash_round, rng, profile_path, env)
                crash_s += time.monotonic() - t
        await rt.ctx.client.aclose()
        control.delete("/_sandbox/faults")
        rt = await open_runtime(profile, policy=RecoveryPolicy(grace_s=0.3, delays_s=(0.0, 0.1)))
        report = await recover(rt.ctx)
        assert not report.still_open, report.as_dict()
    finally:
        await rt.close()
        control.close()
        os.environ.pop("CASHIER_ACCESS_TOKEN", None)
    elapsed = time.monotonic() - started

    with served.control() as control:
        ledger = {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}
    store = JournalRecorder(journal, till_id="chaos")
    entries = {e.invoice: e for e in store.search(limit=100_000)}
    host_approved = {i: D(r["approvedAmount"]) for i, r in ledger.items() if r["state"] == "sale"}
    mine = {i: e.approved for i, e in entries.items() if e.state is State.APPROVED}
    assert host_approved == mine
    assert all(e.approved <= e.requested for e in entries.values())
    assert all(D(r["approvedAmount"]) <= entries[i].requested for i, r in ledger.items() if i in entries)
    assert set(ledger) <= set(entries)  # the host holds nothing the journal does not know
    assert store.unresolved() == [] and store.pending_jobs() == []
    assert store.integrity_check() == "ok"
    rows, totals = store.replay()
    assert rows == store.all_rows() and totals == store.live_totals()
    store.close()
    blob = "".join(p.read_bytes().decode("latin-1") for p in tmp_path.glob("chaos.sqlite*"))
    blob += "\n".join(logs)
    assert not card_numbers_in(blob)  # split or not (tests/pans.py)
    voided = sum(1 for e in entries.values() if e.state is State.VOIDED)
    print(f"chaos: {len(entries)} entries, {len(mine)} approved, {voided} voided, "
          f"{crashes} kills ({crash_s:.1f} s of them), {elapsed:.1f} s")


def _crash_round(rng: random.Random, profile: Path, env: dict[str, str]) -> list[str]:
    """One ``cashier sale`` killed with SIGKILL at a random moment, then ``cashier recover``."""
    amount = str(_amount(rng))
    proc = subprocess.Popen([sys.executable, "-m", "cashier.cli", "--profile", str(profile), "sale",
                             "--amount", amount], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(rng.uniform(0.1, 0.9))
    proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate()
    rec = subprocess.run([sys.executable, "-m", "cashier.cli", "--profile", str(profile), "recover",
                          "--grace", "0.3"], env=env, capture_output=True, text=True, timeout=60)
    assert rec.returncode in (0, 3), rec.stderr
    return [out, err, rec.stdout, rec.stderr]
