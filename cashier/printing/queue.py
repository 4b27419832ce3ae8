"""Print jobs go through a queue served by one thread, so the counter never waits for paper.

``submit`` returns at once (False when the job could not even be queued). Each job gets one try
within the profile's timeout; a printer that is off, unplugged or out of paper turns ``status``
to ``offline: ...`` for the status bar, and the receipt can be printed again from the journal
(``cashier receipt print``). A job never retries on its own: a receipt coming out minutes later,
for a customer who has left, helps nobody.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from cashier.printing.device import PrinterAddress, PrinterOffline, parse_url, send
from cashier.printing.layout import PrintJob
from cashier.printing.settings import PrinterSettings
from cashier.redact import redact

log = logging.getLogger(__name__)
MAX_WAITING = 32
READY = "ready"

Sink = Callable[[PrintJob], None]


@dataclass(frozen=True, slots=True)
class JobResult:
    title: str
    printed: bool
    error: str | None = None
    #: the job itself, so a caller can find what came of the one it submitted
    job: PrintJob | None = field(default=None, compare=False, repr=False)


class VirtualPrinter:
    """Training mode's printer: keeps what would have come out, for the window to show."""

    def __init__(self, keep: int = 50) -> None:
        self.keep = keep
        self.printed: list[PrintJob] = []
        self._listeners: list[Callable[[PrintJob], None]] = []
        self._lock = threading.Lock()

    def listen(self, callback: Callable[[PrintJob], None]) -> None:
        self._listeners.append(callback)

    def __call__(self, job: PrintJob) -> None:
        with self._lock:
            self.printed = [*self.printed, job][-self.keep:]
        for callback in list(self._listeners):
            callback(job)


def device_sink(address: PrinterAddress, timeout_s: float) -> Sink:
    def sink(job: PrintJob) -> None:
        send(address, job.to_escpos(), timeout_s)
    return sink


class PrintQueue:
    """One worker thread in front of one printer (or the virtual printer)."""

    def __init__(self, sink: Sink, *, name: str = "printer") -> None:
        self.sink = sink
        self.name = name
        self.status = READY
        self.results: list[JobResult] = []
        self._jobs: queue.Queue[PrintJob | None] = queue.Queue(maxsize=MAX_WAITING)
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._serve, name=f"print-{name}", daemon=True)
        self._thread.start()

    @classmethod
    def for_settings(cls, settings: PrinterSettings, *,
                     virtual: VirtualPrinter | None = None) -> PrintQueue | None:
        """The profile's printer; the virtual printer when there is none and ``virtual`` is
        given (training); None when neither."""
        if settings.url:
            address = parse_url(settings.url)
            return cls(device_sink(address, settings.timeout_s), name=str(address))
        if virtual is not None:
            return cls(virtual, name="virtual")
        return None

    def submit(self, job: PrintJob) -> bool:
        """Queue ``job`` without waiting; False (and the status says why) when the queue is full."""
        try:
            self._idle.clear()
            self._jobs.put_nowait(job)
        except queue.Full:
            self.status = f"offline: {MAX_WAITING} jobs waiting, the printer is not taking them"
            return False
        return True

    def outcome(self, job: PrintJob) -> JobResult | None:
        """What came of ``job`` (None while it waits or prints)."""
        return next((r for r in reversed(self.results) if r.job is job), None)

    def wait_idle(self, timeout_s: float) -> bool:
        """For the command line and tests: True once every queued job has had its try."""
        return self._idle.wait(timeout_s)

    def stop(self, timeout_s: float = 1.0) -> None:
        try:
            self._jobs.put_nowait(None)
        except queue.Full:
            return  # a daemon thread: it ends with the process
        self._thread.join(timeout_s)

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                self._idle.set()
                return
            try:
                self.sink(job)
            except PrinterOffline as exc:
                status = f"offline: {redact(str(exc))[:160]}"
                if status != self.status:  # once per change, not once per receipt
                    log.warning("printer %s: %s (%s not printed)", self.name, status, job.title)
                self.status = status
                self.results.append(JobResult(job.title, False, self.status, job))
            except Exception as exc:  # a bad job must not kill the printer thread
                self.status = f"error: {type(exc).__name__}"
                self.results.append(JobResult(job.title, False, self.status, job))
                log.exception("printer %s: %s failed", self.name, job.title)
            else:
                if self.status != READY:
                    log.info("printer %s: ready again", self.name)
                self.status = READY
                self.results.append(JobResult(job.title, True, job=job))
            self.results = self.results[-100:]
            if self._jobs.empty():
                self._idle.set()
