"""Print jobs go through a queue served by one thread, so the counter never waits for paper.

``submit`` returns at once (False when the job could not even be queued). Each job gets one try
within the profile's timeout; a printer that is off, unplugged or out of paper turns ``state``
to ``offline`` or ``out_of_paper`` for the status bar, and the receipt can be printed again from
the journal (``cashier receipt print``). A job never retries on its own: a receipt coming out
minutes later, for a customer who has left, helps nobody. While the printer is not ready, and
now and then while it is, the thread asks it again when no job is waiting, so the status bar
turns back to ready once the roll is changed or the printer is back on.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from cashier.printing.device import (
    OutOfPaper,
    Paper,
    PrinterAddress,
    PrinterOffline,
    parse_url,
    send,
)
from cashier.printing.layout import PrintJob
from cashier.printing.settings import PrinterSettings
from cashier.redact import redact

log = logging.getLogger(__name__)
MAX_WAITING = 32
#: ``ready``; ``paper_low`` (still printing); ``out_of_paper``, ``offline`` and ``error`` (not
#: printing: the receipt is reprinted from the journal).
PrinterState = Literal["ready", "paper_low", "out_of_paper", "offline", "error"]
READY: PrinterState = "ready"
#: seconds between asking a printer that is not ready again, and one that is (when it answers
#: status at all: asking a silent one only opens a connection for nothing)
RECHECK_NOT_READY_S = 10.0
RECHECK_READY_S = 30.0

#: prints one job; returns what the printer said of its paper (None: it cannot say)
Sink = Callable[[PrintJob], Paper | None]
#: asks the printer without printing; raises like a sink
Probe = Callable[[], Paper]


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


class DevicePrinter:
    """A real printer at ``address``. It is asked for its paper before each job that needs
    paper until it is seen not to answer (most network printers and every file never do); from
    then on jobs go straight out, with no wait for an answer that will not come."""

    def __init__(self, address: PrinterAddress, timeout_s: float, *, ask_paper: bool = True) -> None:
        self.address = address
        self.timeout_s = timeout_s
        #: None: not known yet; False: never asked again
        self.answers_paper: bool | None = None if ask_paper and address.scheme != "file" else False

    def print(self, job: PrintJob) -> Paper | None:
        ask = self.answers_paper is not False and job.needs_paper
        paper = send(self.address, job.to_escpos(), self.timeout_s, ask_paper=ask,
                     without_paper=job.kick_escpos())
        return self._learn(paper) if ask else None

    def probe(self) -> Paper:
        """Open the printer (and ask for its paper if it answers) without printing anything."""
        paper = send(self.address, b"", self.timeout_s, ask_paper=self.answers_paper is not False)
        return self._learn(paper)

    def _learn(self, paper: Paper) -> Paper:
        if paper is Paper.UNKNOWN and self.answers_paper is None:
            self.answers_paper = False
            log.info("printer %s does not answer a paper status: not asked again", self.address)
        elif paper is not Paper.UNKNOWN:
            self.answers_paper = True
        return paper


class PrintQueue:
    """One worker thread in front of one printer (or the virtual printer)."""

    def __init__(self, sink: Sink, *, name: str = "printer", probe: Probe | None = None,
                 recheck_not_ready_s: float | None = None, recheck_ready_s: float | None = None,
                 answers_status: Callable[[], bool] | None = None) -> None:
        self.sink = sink
        self.name = name
        self.probe = probe
        self.recheck_not_ready_s = recheck_not_ready_s or RECHECK_NOT_READY_S
        self.recheck_ready_s = recheck_ready_s or RECHECK_READY_S
        self._answers_status = answers_status or (lambda: False)
        self.state: PrinterState = READY
        #: why, when not ready (for a tooltip, a log line and ``cashier drawer status``)
        self.detail = ""
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
        given (training); None when neither. A training till with a printer prints on it and
        shows each receipt on the virtual printer too (the trainee sees it on screen)."""
        if settings.url:
            address = parse_url(settings.url)
            device = DevicePrinter(address, settings.timeout_s, ask_paper=settings.ask_paper)
            sink: Sink = device.print
            if virtual is not None:
                shown = virtual

                def sink(job: PrintJob) -> Paper | None:
                    shown(job)  # on screen first: a printer that fails still shows the receipt
                    return device.print(job)
            return cls(sink, name=str(address), probe=device.probe,
                       answers_status=lambda: device.answers_paper is True)
        if virtual is not None:
            return cls(virtual, name="virtual")
        return None

    @property
    def status(self) -> str:
        """One line: the state, and why when it is not ready (``offline: tcp://...: refused``)."""
        return f"{self.state}: {self.detail}" if self.detail else self.state

    @property
    def printing(self) -> bool:
        return self.state in (READY, "paper_low")

    def submit(self, job: PrintJob) -> bool:
        """Queue ``job`` without waiting; False (and the status says why) when the queue is full."""
        try:
            self._idle.clear()
            self._jobs.put_nowait(job)
        except queue.Full:
            self._set("offline", f"{MAX_WAITING} jobs waiting, the printer is not taking them")
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

    def _set(self, state: PrinterState, detail: str = "") -> None:
        if (state, detail) != (self.state, self.detail):  # once per change, not once per receipt
            if state in (READY, "paper_low"):
                log.info("printer %s: %s", self.name, state)
            else:
                log.warning("printer %s: %s: %s", self.name, state, detail)
        self.state, self.detail = state, detail

    def _recheck_after(self) -> float | None:
        """How long the thread waits for a job before asking the printer again (None: forever)."""
        if self.probe is None:
            return None
        if self.state != READY:  # paper low included: the roll may be changed any moment
            return self.recheck_not_ready_s
        return self.recheck_ready_s if self._answers_status() else None

    def _serve(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=self._recheck_after())
            except queue.Empty:
                self._ask()
                continue
            if job is None:
                self._idle.set()
                return
            try:
                paper = self.sink(job)
            except OutOfPaper as exc:
                self._set("out_of_paper", redact(str(exc))[:160])
                self.results.append(JobResult(job.title, False, self.status, job))
            except PrinterOffline as exc:
                self._set("offline", redact(str(exc))[:160])
                self.results.append(JobResult(job.title, False, self.status, job))
            except Exception as exc:  # a bad job must not kill the printer thread
                self._set("error", type(exc).__name__)
                self.results.append(JobResult(job.title, False, self.status, job))
                log.exception("printer %s: %s failed", self.name, job.title)
            else:
                if paper is not None or self.state not in ("out_of_paper", "paper_low"):
                    # (a bare drawer kick asks nothing of the paper, so it says nothing of it)
                    self._set("paper_low" if paper is Paper.LOW else READY)
                self.results.append(JobResult(job.title, True, job=job))
            self.results = self.results[-100:]
            if self._jobs.empty():
                self._idle.set()

    def check(self) -> str:
        """Ask the printer now, on the caller's thread (the command line): its status line.
        The virtual printer has nothing to ask."""
        if self.probe is not None:
            self._ask()
        return self.status

    def _ask(self) -> None:
        assert self.probe is not None
        try:
            paper = self.probe()
        except OutOfPaper as exc:
            self._set("out_of_paper", redact(str(exc))[:160])
        except PrinterOffline as exc:
            self._set("offline", redact(str(exc))[:160])
        except Exception:  # the recheck must never kill the printer thread
            log.exception("printer %s: asking its status failed", self.name)
        else:
            self._set("paper_low" if paper is Paper.LOW else READY)
