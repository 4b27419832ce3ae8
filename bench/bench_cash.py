"""Cash desk figures: the Z report of a day of 20,000 tickets (goal <= 100 ms), and how late the
event loop runs while receipts go to a printer that answers slowly or not at all (p99 <= 16 ms)."""

from __future__ import annotations

import asyncio
import socket
import statistics
import tempfile
import threading
import time
from decimal import Decimal
from pathlib import Path

from cashier.clerks import ManagerRules, Roster
from cashier.drawer import Drawer
from cashier.journal.recorder import JournalRecorder
from cashier.journal.totals import rebuild_totals
from cashier.printing.layout import PrintJob
from cashier.printing.queue import PrintQueue
from cashier.printing.settings import PrinterSettings
from cashier.reports import z_report

GOALS = {"z_report_ms": ("<=", 100.0), "print_loop_lag_p99_ms": ("<=", 16.0)}
TICKETS = 20_000


def _z_report_ms() -> float:
    with tempfile.TemporaryDirectory() as tmp:
        store = JournalRecorder(Path(tmp) / "bench.sqlite", till_id="t1")
        drawer = Drawer(store, Roster([], ManagerRules()))
        session = drawer.open(clerk="1", float_amount=Decimal("200.00"))
        tenders = (("cash", "sale", None), ("sale", "sale", "VISA"), ("sale", "sale", "MASTERCARD"),
                   ("cash", "sale", None), ("giftcard_sale", "giftcard", None), ("qr", "qr", None),
                   ("refund", "refund", "VISA"), ("cash", "refund", None), ("charge", "charge", "VISA"))
        at = session.opened_at
        rows = []
        for i in range(TICKETS):
            kind, op, brand = tenders[i % len(tenders)]
            state = "voided" if i % 97 == 0 else "approved"
            minor = 100 + i % 9000
            rows.append(("t1", kind, op, state, f"{i + 1:010d}" if kind != "charge" else None,
                         f"k{i}" if kind == "charge" else None, "USD", minor, minor, (i % 7) * 10, i % 50,
                         brand, str(1 + i % 6), at, at, "2025-01-01"))
        with store.transaction() as conn:
            conn.executemany(
                "INSERT INTO entries(till_id, kind, op, state, invoice, idempotency_key, currency, "
                "requested_minor, approved_minor, tip_minor, tax_minor, card_type, clerk, created_at, "
                "updated_at, business_date) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
            rebuild_totals(conn)
        drawer.close(drawer.balance(session).expected, clerk="1")
        closed = drawer.get(session.id)
        times = []
        for _ in range(15):
            t = time.perf_counter()
            report = z_report(store, drawer, closed)
            times.append((time.perf_counter() - t) * 1000)
        assert report["tickets"] > TICKETS // 2
        store.close()
    return statistics.median(times)


class _SlowPrinter:
    """Accepts and reads 64 bytes every 20 ms: a printer that is slow to take a job."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.server.settimeout(0.1)
        self.port = self.server.getsockname()[1]
        self.stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
            conn.settimeout(0.5)
            with conn:
                while not self.stop.is_set():
                    try:
                        if not conn.recv(64):
                            break
                    except OSError:
                        break
                    time.sleep(0.02)


async def _lag_while_printing(urls: list[str], seconds: float = 2.0) -> list[float]:
    # the profile's path: the paper question first (a printer that never answers is asked once)
    queues = [q for url in urls
              if (q := PrintQueue.for_settings(PrinterSettings(url=url, timeout_s=0.5))) is not None]
    job = PrintJob(title="bench receipt", lines=[f"line {i:02d} " + "x" * 30 for i in range(60)], kick=True)
    lags: list[float] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    tick = 0.005
    n = 0
    while loop.time() < end:
        before = loop.time()
        await asyncio.sleep(tick)
        lags.append(max(0.0, (loop.time() - before - tick) * 1000))
        n += 1
        if n % 4 == 0:  # a receipt every 20 ms, to every printer
            for queue in queues:
                queue.submit(job)
    for queue in queues:
        queue.stop(0.1)
    return lags


def _print_loop_lag_p99_ms() -> float:
    slow = _SlowPrinter()
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    refused = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    probe.close()
    try:
        lags = asyncio.run(_lag_while_printing([f"tcp://127.0.0.1:{slow.port}", refused]))
    finally:
        slow.stop.set()
    return statistics.quantiles(lags, n=100)[98]


def run() -> dict[str, float]:
    return {"z_report_ms": _z_report_ms(), "print_loop_lag_p99_ms": _print_loop_lag_p99_ms()}
