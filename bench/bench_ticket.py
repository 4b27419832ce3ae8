"""Ticket figures against the in-process sandbox with the journal at FULL durability.

- ``ticket_overhead_ms_p50``/``_p99``: flow and journal time of one ticket of 20 lines and three
  tenders (card, gift card, cash), host time excluded (the time spent inside the sandbox's ASGI
  app, measured at the transport, is taken off).
- ``ticket_commits``: SQLite commits on the journal's writer connection per such ticket (its
  floor: one before each send and one after each answer; goal at most tenders x 2 + 2 = 8),
  counted from the statements SQLite runs (``COMMIT``, and any write outside a transaction).
- ``ticket_floor_ms_p50``: the least such a ticket can cost on this machine before any of the
  journal's or the flows' own work: the 20 lines as bare inserts, the 5 commits (FULL, each
  behind the hop to a writer's thread and back, as the journal makes them) and the two card
  tenders' bare client calls, host time excluded alike. ``ticket_overhead_over_floor`` is the
  ratio the ticket is judged by against it (docs/decisions/017-run-time-and-benchmarks.md, "What the
  ticket's floor is").
- ``ticket_loop_lag_p99_ms``: how late a 10 ms Qt timer fires in the window while a 50-line
  ticket is typed on the Sale screen (keys, +) and paid by card (the automatic virtual customer);
  measured in a child process, as ``bench_ui`` does.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx

from bench.bench_ui import FrameProbe, pct, training_window

TENDERS = 3
GOALS = {"ticket_overhead_ms_p50": ("<=", 3.0), "ticket_overhead_ms_p99": ("<=", 10.0),
         "ticket_commits": ("<=", TENDERS * 2 + 2),
         "ticket_loop_lag_p99_ms": ("<=", 16.0)}
ROOT = Path(__file__).resolve().parent.parent
#: Enough that the p99 is a percentile (the 198th of 200), not the single slowest ticket.
TICKETS = 200
GIFT = "2664654648774"




class TimedTransport(httpx.AsyncBaseTransport):
    """The sandbox's transport, adding up the time requests spend in the host."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.host_s = 0.0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        t = time.perf_counter()
        try:
            response = await self.inner.handle_async_request(request)
            await response.aread()
            return response
        finally:
            self.host_s += time.perf_counter() - t


class CommitCounter:
    """Counts the commits SQLite makes on one connection: each ``COMMIT``/``END`` statement and
    each write run outside a transaction (autocommit), as the statements start."""

    WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.commits = 0
        conn.set_trace_callback(self._statement)

    def _statement(self, sql: str) -> None:
        head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if head in ("COMMIT", "END") or (head in self.WRITES and not self.conn.in_transaction):
            self.commits += 1

    def stop(self) -> None:
        self.conn.set_trace_callback(None)


def _open_drawer(profile: Any) -> None:
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer

    store = open_recorder(profile)
    try:
        Drawer(store, profile.roster).open(clerk=str(profile.clerk_id), float_amount="100.00")
    finally:
        store.close()


async def _overhead(tmp: Path) -> dict[str, float]:
    from cashier.config import load_profile
    from cashier.flows.giftcards import GiftCard, activate
    from cashier.flows.payments import KeyedCard
    from cashier.flows.ticket import Tender, TicketSession, TicketSettings
    from cashier.runtime import open_runtime
    from cashier.sandbox.app import HostSandbox
    from cashier.sandbox.core import SandboxConfig

    sandbox = HostSandbox(SandboxConfig(option="HD"))
    timed = TimedTransport(httpx.ASGITransport(app=sandbox.asgi))
    profile = load_profile(None, processing_option="HD", journal_path=tmp / "tickets.sqlite",
                           tax_rate=Decimal("8.25"))
    rt = await open_runtime(profile, sandbox=sandbox, transport=timed)
    _open_drawer(profile)  # cash needs an open drawer session
    card = KeyedCard("4321000000001119", "1228")
    gift = GiftCard(GIFT)
    await activate(rt.ctx, gift, Decimal("999999.00"))
    settings = TicketSettings.of(profile)
    overhead: list[float] = []
    commits: list[int] = []
    counter = CommitCounter(rt.ctx.journal.recorder.conn)
    gift_kind = "giftcard"
    floor = FloorTicket(tmp, rt, timed)  # its sales use invoices 99..., the tickets' journal not
    floors: list[float] = []
    for i in range(TICKETS + 5):
        floors.append(await floor.one())
        timed.host_s = 0.0
        counter.commits = 0
        t = time.perf_counter()
        session = await TicketSession.start(rt.ctx, settings)
        for n in range(20):
            await session.add_line(f"Item {n}", Decimal("1.25"), 1 + n % 3)
        await session.pay(Tender("card", Decimal("10.00"), card=card))
        ticket = await session.pay(Tender(gift_kind, Decimal("10.00"),  # type: ignore[arg-type]
                                          giftcard=gift if gift_kind == "giftcard" else None,
                                          card=card if gift_kind == "card" else None))
        if ticket.tenders[-1].outcome != "approved" and gift_kind == "giftcard":
            gift_kind = "card"  # a sandbox without gift card sales yet: a second card stands in
        ticket = await session.pay(Tender("cash", Decimal("100.00")))
        elapsed = time.perf_counter() - t - timed.host_s
        if i < 5:  # counted on the warm-up tickets only: the trace costs the timed ones nothing
            commits.append(counter.commits)
            if i == 4:
                counter.stop()
        if ticket.state != "paid":
            await session.cancel()
        if i >= 5:
            overhead.append(elapsed * 1000)
    floor.close()
    await rt.close()
    floor_p50 = statistics.median(floors[5:])
    return {"ticket_floor_ms_p50": floor_p50,
            "ticket_overhead_over_floor": statistics.median(overhead) / floor_p50,
            "ticket_overhead_ms_p50": statistics.median(overhead),
            "ticket_overhead_ms_p99": pct(overhead, 0.99), "ticket_commits": float(max(commits)),
            "ticket_gift_tender_in_sandbox": 1.0 if gift_kind == "giftcard" else 0.0}


class FloorTicket:
    """The bench ticket with nothing but its unavoidable parts, timed the same way: its 5
    commits are the first tender's intent (the lines ride on it), its answer, the second
    tender's intent and answer, and the cash tender with the ticket's close. Run between the
    real tickets, so both see the machine as it is at that moment."""

    def __init__(self, tmp: Path, rt: Any, timed: TimedTransport) -> None:
        from bench.floor import FloorWriter
        from cashier.host.models.common import Card

        self.rt = rt
        self.timed = timed
        self.wire = Card(number="4321000000001119", expiration_date=1228, entry_mode="M")
        self.writer = FloorWriter(tmp / "floor.sqlite")
        self.invoice = 0

    async def one(self) -> float:
        """One floor ticket: its time in ms, host time excluded."""
        from cashier.host.models.common import Amount

        host_before = self.timed.host_s
        t = time.perf_counter()
        self.writer.conn.execute("BEGIN IMMEDIATE")
        for n in range(20):
            self.writer.insert(f"Item {n}")
        for tender in range(2):
            self.invoice += 1
            await self.writer.commit(begun=tender == 0)
            await self.rt.client.sale(invoice=f"99{self.invoice:08d}", card=self.wire,
                                      amount=Amount(total=Decimal("10.00"), tax=Decimal(0)))
            await self.writer.commit()
        await self.writer.commit()  # cash, and the close with it
        elapsed = time.perf_counter() - t - (self.timed.host_s - host_before)
        return elapsed * 1000

    def close(self) -> None:
        self.writer.close()


def child(tmp: str) -> dict[str, float]:
    """Runs in its own process: 50-line tickets typed and paid on the Sale screen."""
    from ui.pages.sale import SalePage

    _app, loop, gui = training_window(tmp)
    probe = FrameProbe()

    async def run() -> None:
        from cashier.sandbox.app import HostSandbox
        from cashier.sandbox.core import SandboxConfig

        await gui.start(poll_s=0, sandbox=HostSandbox(SandboxConfig(option="LG")))
        assert gui.pinpad is not None
        gui.pinpad.auto.setChecked(True)
        gui.pinpad.auto_delay_ms = 0
        sale: SalePage = gui.window.go(SalePage)
        probe.start()
        for _ in range(3):
            sale.new_sale()
            for n in range(50):
                sale.description.setText(f"Item {n}")
                sale.amount.clear()  # typing replaces the pre-filled remaining (as the keys do)
                for digit in "199":
                    sale.amount.type_digit(digit)
                sale.prefilled = False
                sale.add_line()
                assert sale.task is not None
                while not sale.task.done():
                    await asyncio.sleep(0.001)
                if os.environ.get("BENCH_TICKET_TRACE"):
                    print("line", n, sale.error_label.text(), file=sys.stderr, flush=True)
            sale.card_button.click()
            deadline = time.monotonic() + 60
            while sale.stack.currentWidget() is not sale.result_page:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no result: {sale.error_label.text()} {sale.notice.text()}")
                await asyncio.sleep(0.001)
            if sale.ticket is None or sale.ticket.state != "paid":
                raise RuntimeError("the 50-line ticket was not paid")
        probe.stop()
        await gui.stop()

    with loop:
        loop.run_until_complete(run())
    return {"ticket_loop_lag_p99_ms": pct(probe.lateness, 0.99)}


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-ticket-") as tmp:
        out = asyncio.run(_overhead(Path(tmp)))
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env.update(QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=f"{tmp}/data",
                   PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
        proc = subprocess.run([sys.executable, "-m", "bench.bench_ticket", "--child", tmp], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"the window child failed: {proc.stderr[-2000:]}")
        import json

        out.update(json.loads(proc.stdout.strip().splitlines()[-1]))
        return out


def _main(argv: list[str]) -> Any:
    import json

    if len(argv) > 2 and argv[1] == "--child":
        print(json.dumps(child(argv[2])))
        return 0
    print(json.dumps(run()))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv))
