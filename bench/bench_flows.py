"""Flow figures against the in-process sandbox with the journal at FULL durability.

- ``flow_overhead_ms_p50``/``_p99``: a sale through flow + journal minus the bare client call.
- ``flow_floor_ms_p50``: the least that overhead can be on this machine: the sale's two commits
  (FULL, one small insert each, each behind the hop to a writer's thread and back, as the
  journal makes them) and nothing else; ``flow_overhead_over_floor`` the ratio against it.
- ``recovery_1000_unknown_s``: recovery of 1000 entries left SENT (half landed at the host).
- ``loop_lag_p99_ms_during_sales``: lateness of a 10 ms asyncio timer while sales run.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from cashier.journal.model import NewEntry

GOALS = {"flow_overhead_ms_p50": ("<=", 1.0), "flow_overhead_ms_p99": ("<=", 5.0),
         "recovery_1000_unknown_s": ("<=", 3.0), "loop_lag_p99_ms_during_sales": ("<=", 16.0)}
N = 300


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def _bench(tmp: Path) -> dict[str, float]:
    from cashier.config import load_profile
    from cashier.flows.payments import KeyedCard, sale
    from cashier.flows.recovery import recover
    from cashier.host.models.common import Amount, Card
    from cashier.journal.model import Kind, Op
    from cashier.runtime import open_runtime
    from cashier.sandbox.app import HostSandbox
    from cashier.sandbox.core import SandboxConfig

    profile = load_profile(None, processing_option="HD", journal_path=tmp / "flows.sqlite")
    rt = await open_runtime(profile, sandbox=HostSandbox(SandboxConfig(option="HD")))
    card = KeyedCard("4321000000001119", "1228")
    wire = Card(number="4321000000001119", expiration_date=1228, entry_mode="M")
    amount = Decimal("12.34")
    bare, flow, floors = [], [], []
    floor = _FloorSale(tmp)
    for i in range(N + 20):  # interleaved, so all see the same sandbox size, warm-up and machine
        f0 = await floor.one()
        t = time.perf_counter()
        await rt.client.sale(invoice=f"99{i:08d}", amount=Amount(total=amount, tax=Decimal(0)), card=wire)
        b = time.perf_counter() - t
        t = time.perf_counter()
        await sale(rt.ctx, amount, card=card)
        f = time.perf_counter() - t
        if i >= 20:
            bare.append(b * 1000)
            flow.append(f * 1000)
            floors.append(f0)
    floor.close()
    overhead = [f - b for f, b in zip(flow, bare, strict=True)]
    out = {"flow_overhead_ms_p50": statistics.median(flow) - statistics.median(bare),
           "flow_overhead_ms_p99": _pct(flow, 0.99) - _pct(bare, 0.99),
           "flow_overhead_ms_pairwise_p50": statistics.median(overhead)}

    out["flow_floor_ms_p50"] = statistics.median(floors)
    out["flow_overhead_over_floor"] = out["flow_overhead_ms_p50"] / out["flow_floor_ms_p50"]

    lags: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.010)
            lags.append((time.perf_counter() - t - 0.010) * 1000)

    task = asyncio.create_task(ticker())
    for _ in range(200):
        await sale(rt.ctx, amount, card=card)
    stop.set()
    await task
    out["loop_lag_p99_ms_during_sales"] = _pct(lags, 0.99)

    for i in range(1000):
        entry = await rt.journal.create(NewEntry(Kind.SALE, amount, actor="1", op=Op.SALE, sent=True))
        if i % 2 == 0:
            await rt.client.sale(invoice=str(entry.invoice), amount=Amount(total=amount, tax=Decimal(0)),
                                 card=wire)
    t = time.perf_counter()
    report = await recover(rt.ctx)
    out["recovery_1000_unknown_s"] = time.perf_counter() - t
    assert len(report.resolved) == 1000 and not report.still_open
    await rt.close()
    return out


class _FloorSale:
    """A sale's two commits and their hops, nothing else: run between the flows, so both see
    the machine as it is at that moment."""

    def __init__(self, tmp: Path) -> None:
        from bench.floor import FloorWriter

        self.writer = FloorWriter(tmp / "floor.sqlite")

    async def one(self) -> float:
        t = time.perf_counter()
        await self.writer.commit()
        await self.writer.commit()
        return (time.perf_counter() - t) * 1000

    def close(self) -> None:
        self.writer.close()


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_bench(Path(tmp)))
