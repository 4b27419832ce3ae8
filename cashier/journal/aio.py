"""The journal for asyncio code: writes on one dedicated thread, reads on another.

SQLite calls (and their fsyncs) never run on the event loop. All writes go through one
connection on one thread, so they are serialised without locks; reads use their own connection,
which WAL lets run beside the writer.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import queue
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, Unpack

from cashier.discounts import Promotion
from cashier.journal.model import (
    INVOICED_KINDS,
    ClockMoved,
    DrawerMoved,
    Entry,
    EntryChanges,
    Event,
    Job,
    Kind,
    NewEntry,
    OfflineView,
    State,
    Totals,
)
from cashier.journal.recorder import JournalRecorder
from cashier.journal.ticket_model import Ticket, TicketChanged
from cashier.journal.tickets import LineSold, TicketRecord, TicketWritten

T = TypeVar("T")
P = ParamSpec("P")
log = logging.getLogger(__name__)
Listener = Callable[[Entry], None]
#: Every other committed change the journal publishes, in order.
JournalChange = TicketChanged | DrawerMoved | ClockMoved
#: Told of every other committed change: ``TicketChanged``, ``DrawerMoved``, ``ClockMoved``.
ChangeListener = Callable[[JournalChange], None]
InvoiceCheck = Callable[[int], Awaitable[int | None]]
#: Ticket lines held open on the writer are committed after this pause without another write...
LINES_IDLE_S = 0.2
#: ...or this long after the first of them, whichever comes first (a scanner that never pauses).
LINES_LONGEST_S = 1.0


class LineFlusher:
    """Commits the ticket lines the writer holds open once the typing pauses (a thread of its
    own, not the event loop: a write on another connection of this process, such as the cash
    desk's on the window's thread, waits for the lines' lock and must not wait on the loop)."""

    def __init__(self, flush: Callable[[], None]) -> None:
        self._flush = flush
        self._cond = threading.Condition()
        self._first: float | None = None
        self._last = 0.0
        self._closed = False
        self._thread: threading.Thread | None = None

    def poke(self) -> None:
        """A write left lines held: flush them after the pause (started on first use)."""
        with self._cond:
            self._last = time.monotonic()
            if self._first is not None:
                return  # already counting down: it sees the later ``_last`` when its wait ends
            self._first = self._last
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="journal-lines", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._first is None and not self._closed:
                    self._cond.wait()
                if self._closed or self._first is None:
                    return
                due = min(self._last + LINES_IDLE_S, self._first + LINES_LONGEST_S)
                wait = due - time.monotonic()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                self._first = None
            self._flush()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join()


#: What a lane's call returns once run: how its outcome reaches its caller (None: nobody waits).
Deliver = Callable[[], None] | None


class Lane:
    """One thread that runs the calls given to it in order: the writer's, or the reader's.

    Leaner than a ``ThreadPoolExecutor`` behind ``run_in_executor`` (a ticket makes some thirty
    calls; the pool's bookkeeping and its future chained to the loop's doubled each hop's cost):
    the caller's loop future is resolved straight from this thread. A call whose caller was
    cancelled before it started is skipped, as the pool did.

    ``run_here_if_idle`` runs a call on the caller's own thread instead when nothing is queued or
    running: the order of the calls is the same, and the hop (a thread woken, then the loop
    woken back: about 0.1 ms) is saved where the call itself is shorter than that."""

    _STOP = object()

    def __init__(self, name: str) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        #: Calls given and not yet finished (queued or running), under ``_count_lock``.
        self._pending = 0
        self._count_lock = threading.Lock()
        #: Held while a call runs, on this lane's thread or on a caller's (``run_here_if_idle``).
        self._running = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is self._STOP:
                return
            fn, done = item
            with self._running:
                deliver = done(fn)
            with self._count_lock:
                self._pending -= 1
            # the caller hears of it once the lane is idle again: its next call may run here
            if deliver is not None:
                deliver()

    def _put(self, item: tuple[Callable[[], Any], Callable[[Callable[[], Any]], Deliver]]) -> None:
        with self._count_lock:
            self._pending += 1
        self._queue.put(item)

    @property
    def idle(self) -> bool:
        """Nothing queued or running: a call now may run on the caller's thread."""
        with self._count_lock:
            return not self._pending and not self._running.locked()

    def run_here_if_idle(self, fn: Callable[[], T], when: Callable[[], bool]) -> tuple[bool, T | None]:
        """Run ``fn`` on this thread if no call is queued or running and ``when()`` holds then:
        (True, its result); else (False, None) and nothing ran. Its exception is raised here."""
        with self._count_lock:
            if self._pending or not self._running.acquire(blocking=False):
                return False, None
        try:
            if not when():
                return False, None
            return True, fn()
        finally:
            self._running.release()

    async def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on this lane's thread; its result or exception comes back here."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()

        def settle(outcome: Callable[[], None]) -> None:
            if not future.done():
                outcome()

        def done(call: Callable[[], T]) -> Deliver:
            if future.cancelled():
                return None  # its caller gave up before it began: never run
            try:
                result = call()
            except BaseException as exc:  # handed to the caller as it is
                error = exc
                outcome = functools.partial(settle, lambda: future.set_exception(error))
            else:
                outcome = functools.partial(settle, lambda: future.set_result(result))

            def deliver() -> None:
                with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits for it
                    loop.call_soon_threadsafe(outcome)
            return deliver

        self._put((fn, done))
        return await future

    def submit(self, fn: Callable[[], T]) -> concurrent.futures.Future[T]:
        """Run ``fn`` on this lane's thread, for a caller on another thread (the line flusher)."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()

        def done(call: Callable[[], T]) -> Deliver:
            if not future.set_running_or_notify_cancel():
                return None
            try:
                result = call()
            except BaseException as exc:
                error = exc
                return lambda: future.set_exception(error)
            return lambda: future.set_result(result)

        self._put((fn, done))
        return future

    def shutdown(self) -> None:
        """Run what was given, then end the thread."""
        self._queue.put(self._STOP)
        self._thread.join()


class Journal:
    """Async facade over two ``JournalRecorder`` instances (writer, reader), one thread each.
    Every method is typed as the recorder's it runs (no call by name): type checking goes
    from the flows through here to the journal's rows."""

    def __init__(self, path: str | Path, *, till_id: str = "training", till_number: int = 1,
                 currency: str = "USD", training: bool = False,
                 invoice_time_floor: bool = False) -> None:
        self.path = Path(path)
        self.till_id = till_id
        self.till_number = till_number
        self.currency = currency
        self.training = training
        self.invoice_time_floor = invoice_time_floor
        #: Asked once per process before the first invoice: given this journal's high water, the
        #: highest sequence the host still holds (``cashier.flows.invoices``). None: not asked.
        self.invoice_check: InvoiceCheck | None = None
        #: Asked once per process before the first invoice, before ``invoice_check``: the store's
        #: word on this till's number, when the journal has none yet (``cashier.store.outbox``).
        self.number_check: Callable[[], Awaitable[None]] | None = None
        self._invoices_confirmed = False
        self._confirm_lock = asyncio.Lock()
        #: Why held lines were lost: raised by the journal's next use (``_say_lines_lost``).
        self._lines_lost: BaseException | None = None
        self._writer_lane = Lane("journal-writer")
        self._reader_lane = Lane("journal-reader")
        self._writer: JournalRecorder | None = None
        self._reader: JournalRecorder | None = None
        self._listeners: list[Listener] = []
        self._change_listeners: list[ChangeListener] = []
        self._lines = LineFlusher(self._flush_lines)

    @classmethod
    async def open(cls, path: str | Path, *, till_id: str = "training", till_number: int = 1,
                   currency: str = "USD", training: bool = False,
                   invoice_time_floor: bool = False) -> Journal:
        journal = cls(path, till_id=till_id, till_number=till_number, currency=currency,
                      training=training, invoice_time_floor=invoice_time_floor)
        await journal.start()
        return journal

    def _recorder(self, *, reader: bool) -> JournalRecorder:
        return JournalRecorder(self.path, till_id=self.till_id, till_number=self.till_number,
                               currency=self.currency, training=self.training, reader=reader,
                               invoice_time_floor=self.invoice_time_floor)

    async def start(self) -> None:
        self._writer = await self._writer_lane.call(functools.partial(self._recorder, reader=False))
        # lines commit with the next write (``Datastore.lines_transaction``)
        self._writer.store.hold_lines = True
        self._reader = await self._reader_lane.call(functools.partial(self._recorder, reader=True))

    async def close(self) -> None:
        self._lines.close()  # the writer's close commits the lines still held
        try:
            if self._reader is not None:
                await self._reader_lane.call(self._reader.close)
            if self._writer is not None:
                await self._writer_lane.call(self._writer.close)
        finally:  # a close that could not commit (a full disk) still ends the lanes
            self._reader = self._writer = None
            self._writer_lane.shutdown()
            self._reader_lane.shutdown()

    async def __aenter__(self) -> Journal:
        if self._writer is None:
            await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- listeners: the journal is the one publisher of every entry's change ------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every entry a write moved, once it is committed (the runtime
        subscribes its event bus here once)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def subscribe_changes(self, listener: ChangeListener) -> Callable[[], None]:
        """Call ``listener`` with every other committed change: a ticket's (``TicketChanged``,
        the ticket as it now reads), each drawer move (``DrawerMoved``) and a clock jump
        (``ClockMoved``)."""
        self._change_listeners.append(listener)
        return lambda: self._change_listeners.remove(listener)

    def _publish(self, entry: Entry, mirrored: list[Entry],
                 changes: list[JournalChange] | None = None) -> Entry:
        """The entry written first, then each entry the same commit mirrored it on (the original
        of a refund, the charge a Charge API capture or refund moved), then what else it changed
        (the ticket of a tender)."""
        for moved in (entry, *mirrored):
            for listener in list(self._listeners):
                listener(moved)
        self._publish_changes(changes or [])
        return entry

    def _publish_changes(self, changes: list[JournalChange]) -> None:
        for change in changes:
            for listener in list(self._change_listeners):
                listener(change)

    def _changes(self, recorder: JournalRecorder, written: object = None) -> list[JournalChange]:
        """On the writer's thread: what the last write changed besides entries, as published
        (a ticket read once however many of its rows moved; not at all when the write itself
        returned it, ``written``)."""
        changes = recorder.take_changes()
        if not self._change_listeners:
            return []
        out: list[JournalChange] = []
        tickets: set[int] = set()
        for change in changes:
            if isinstance(change, TicketWritten):
                if change.ticket_id not in tickets:
                    tickets.add(change.ticket_id)
                    record = written if isinstance(written, TicketRecord) \
                        and written.id == change.ticket_id else recorder.ticket(change.ticket_id)
                    out.append(TicketChanged(Ticket.of(record)))
            else:
                out.append(change)
        return out

    async def _write_entry(self, fn: Callable[P, T], *args: P.args,
                           **kw: P.kwargs) -> tuple[T, list[Entry], list[JournalChange]]:
        """Run a write that moves an entry; also read back, on the writer's thread, every other
        entry the same commit moved, and the other changes to publish after them."""
        def run() -> tuple[T, list[Entry], list[JournalChange]]:
            recorder = self.recorder
            try:
                result = fn(*args, **kw)
            finally:
                changes = self._changes(recorder)
            written = result[0] if isinstance(result, tuple) else result
            written_id = written.id if isinstance(written, Entry) else None
            others = [i for i in recorder.take_moved() if i != written_id]
            return result, [recorder.get(i) for i in others] if self._listeners else [], changes

        return await self._write_only(run)

    # ---- plumbing -----------------------------------------------------------------------------
    @property
    def recorder(self) -> JournalRecorder:
        """The writer's recorder; only for code already running on the writer thread (tests, tools)."""
        if self._writer is None:
            raise RuntimeError("journal is not open")
        return self._writer

    @property
    def lines_committed(self) -> bool:
        """Every ticket line written is committed (by the next write, or by the flusher once the
        typing paused) and the writer's thread is idle: the next line is written on the caller's
        thread unless another connection holds the write lock (``_write_line``). A scanner's
        test waits for it, a real event, rather than for a time."""
        return self._writer is not None and not self._writer.store.lines_held and self._writer_lane.idle

    @property
    def reader(self) -> JournalRecorder:
        """The reader's recorder (its own connection); only for code on the reader's thread."""
        if self._reader is None:
            raise RuntimeError("journal is not open")
        return self._reader

    def _say_lines_lost(self) -> None:
        """Held lines the line flusher could not commit are gone with their transaction (a full
        disk): the next use of the journal raises why, once, rather than finding their ticket
        missing and saying that instead."""
        lost, self._lines_lost = self._lines_lost, None
        if lost is not None:
            raise lost

    async def _write_only(self, fn: Callable[P, T], *args: P.args, **kw: P.kwargs) -> T:
        """Run ``fn`` on the writer's thread; publishes nothing (the caller does)."""
        if self._writer is None:
            raise RuntimeError("journal is not open")
        self._say_lines_lost()
        result = await self._writer_lane.call(functools.partial(fn, *args, **kw))
        if self._writer.store.lines_held:
            self._lines.poke()
        return result

    def _flush_lines(self) -> None:
        """On the flusher's thread: the writer's thread commits the lines it holds."""
        writer = self._writer
        if writer is None or not writer.store.lines_held:
            return
        try:
            self._writer_lane.submit(writer.flush_lines).result()
        except RuntimeError:
            pass  # the journal closed meanwhile: its close committed them
        except Exception as exc:  # a full disk: the next write commits them, or says why it cannot
            log.warning("journal: ticket lines not yet committed", exc_info=True)
            if not writer.store.lines_held:  # SQLite gave the transaction up: the lines are gone
                self._lines_lost = exc

    def _with_changes(self, fn: Callable[P, T], *args: P.args,
                      **kw: P.kwargs) -> Callable[[], tuple[T, list[JournalChange]]]:
        """``fn`` as a call on the writer's connection that also returns what it changed besides
        entries (tickets, drawer), for ``_write`` and ``_write_line`` to publish."""
        def run() -> tuple[T, list[JournalChange]]:
            recorder = self.recorder
            result: Any = None
            try:
                result = fn(*args, **kw)
            finally:
                changes = self._changes(recorder, result)
            return result, changes
        return run

    async def _write(self, fn: Callable[P, T], *args: P.args, **kw: P.kwargs) -> T:
        """Run a write on the writer's thread, then publish what it changed (tickets, drawer)."""
        result, changes = await self._write_only(self._with_changes(fn, *args, **kw))
        self._publish_changes(changes)
        return result

    async def _write_line(self, fn: Callable[P, T], *args: P.args, **kw: P.kwargs) -> T:
        """A ticket line's write. While the writer holds lines in its open transaction, or can
        open it this instant (the write lock is free: nothing is waited for; nothing is committed,
        so no fsync), and nothing else is queued, it runs here on the caller's thread, in tens of
        microseconds, instead of a hop to the writer's thread and back that costs more than the
        write; else as ``_write``.
        Either way the same connection writes it, in order (docs/decisions/009-the-ticket.md, "A held line is
        written without a hop")."""
        writer = self._writer
        self._say_lines_lost()
        if writer is not None:
            store = writer.store
            try:
                ran, out = self._writer_lane.run_here_if_idle(self._with_changes(fn, *args, **kw),
                                                              store.begin_lines_now)
            finally:
                if store.lines_held:  # committed after the pause (also a refused line's begin)
                    self._lines.poke()
            if ran and out is not None:
                result, changes = out
                self._publish_changes(changes)
                return result
        return await self._write(fn, *args, **kw)

    async def _read(self, fn: Callable[P, T], *args: P.args, **kw: P.kwargs) -> T:
        """Run a read of the reader's recorder (``fn``, one of its methods) on its thread."""
        if self._reader is None:
            raise RuntimeError("journal is not open")
        self._say_lines_lost()
        return await self._reader_lane.call(functools.partial(fn, *args, **kw))

    # ---- invoice numbers ------------------------------------------------------------------------
    async def invoice_high_water(self) -> int:
        high: int = await self._write(self.recorder.invoice_high_water)
        return high

    async def raise_invoice_floor(self, sequence: int) -> None:
        await self._write(self.recorder.raise_invoice_floor, sequence)

    async def confirm_invoices(self) -> None:
        """Before this process's first invoice: learn from the host what it may still hold, so
        a new, replaced or restored journal never reuses a number (``invoice_check``)."""
        if self._invoices_confirmed or (self.invoice_check is None and self.number_check is None):
            return
        async with self._confirm_lock:
            if self._invoices_confirmed:
                return
            if self.number_check is not None:
                await self.number_check()
            if self.invoice_check is not None:
                high = await self.invoice_high_water()
                start: int = max(high, await self._write(self.recorder.time_floor))
                learned = await self.invoice_check(start)
                if learned is None:  # the host is away behind the gateway: the journal's own
                    return  # numbers this time, and asked again before the next invoice
                if learned > high:
                    await self.raise_invoice_floor(learned)
            self._invoices_confirmed = True

    # ---- writes -------------------------------------------------------------------------------
    async def create(self, new: NewEntry) -> Entry:
        """``EntryRecorder.create``: the intent committed (and sent, with ``new.sent``)."""
        if Kind(new.kind) in INVOICED_KINDS and new.invoice is None:
            await self.confirm_invoices()
        return self._publish(*await self._write_entry(self.recorder.create, new))

    async def transition(self, entry_id: int, state: State | str, *, actor: str,
                         event: str | None = None, **changes: Unpack[EntryChanges]) -> Entry:
        return self._publish(*await self._write_entry(self.recorder.transition, entry_id, state,
                                                      actor=actor, event=event, **changes))

    async def allocate_invoice(self) -> str:
        await self.confirm_invoices()
        invoice: str = await self._write(self.recorder.allocate_invoice)
        return invoice

    async def note(self, entry_id: int | None, type_: str, *, actor: str, **data: object) -> None:
        await self._write(self.recorder.note, entry_id, type_, actor=actor, **data)

    async def request_void(self, entry_id: int, *, reason: str, actor: str,
                           refusal: Callable[[Entry, list[Entry]], str | None] | None = None,
                           ) -> tuple[Entry, Job]:
        (entry, job), mirrored, changes = await self._write_entry(self.recorder.request_void, entry_id,
                                                                  reason=reason, actor=actor,
                                                                  refusal=refusal)
        self._publish(entry, mirrored, changes)
        return entry, job

    async def correct(self, entry_id: int, state: State | str, *, was: State, actor: str,
                      found_by: str, **changes: Unpack[EntryChanges]) -> Entry | None:
        """``JournalRecorder.correct``: None when another path moved the entry meanwhile."""
        corrected, moved, other = await self._write_entry(
            self.recorder.correct, entry_id, state, was=was, actor=actor, found_by=found_by, **changes)
        return None if corrected is None else self._publish(corrected, moved, other)

    async def open_batch_settled(self) -> list[Entry]:
        found: list[Entry] = await self._read(self.reader.open_batch_settled)
        return found

    async def corrections(self) -> list[Event]:
        found: list[Event] = await self._read(self.reader.corrections)
        return found

    async def mismatches(self) -> list[Event]:
        found: list[Event] = await self._read(self.reader.mismatches)
        return found

    async def batch_corrections(self, batch_no: int = 0) -> tuple[int, Decimal]:
        found: tuple[int, Decimal] = await self._read(self.reader.batch_corrections, batch_no)
        return found

    async def claim(self, entry_id: int) -> Entry:
        """This process takes the entry before settling it (``EntryOwned`` while its owner lives)."""
        entry: Entry = await self._write(self.recorder.claim, entry_id)
        return entry

    async def owned_elsewhere(self, entry_id: int) -> str | None:
        """The live process (lease token) that has this entry in flight, if not this one."""
        owner: str | None = await self._read(self.reader.owned_elsewhere, entry_id)
        return owner

    async def owned_elsewhere_among(self, entry_ids: list[int]) -> dict[int, str]:
        """``owned_elsewhere`` for many entries in one read: id -> the live owner's token."""
        owners: dict[int, str] = await self._read(self.reader.owned_elsewhere_among, entry_ids)
        return owners

    async def job_retry(self, job_id: int, *, error: str, delay_s: float) -> Job:
        return await self._write(self.recorder.job_retry, job_id, error=error, delay_s=delay_s)

    async def finish_job(self, job_id: int, *, outcome: str, actor: str, state: State | str,
                         **changes: Unpack[EntryChanges]) -> Entry:
        return self._publish(*await self._write_entry(self.recorder.finish_job, job_id, outcome=outcome,
                                                      actor=actor, state=state, **changes))

    async def close_batch(self, *, actor: str, override: bool, summary: dict[str, Any],
                          through_event: int | None = None) -> int:
        return await self._write(self.recorder.close_batch, actor=actor, override=override,
                                 summary=summary, through_event=through_event)

    async def require_cash_drawer(self) -> None:
        """Raises ``ValidationError`` when this till has no open drawer session (cash refused)."""
        await self._write(self.recorder.require_cash_drawer)

    # ---- tickets ------------------------------------------------------------------------------
    async def create_ticket(self, *, actor: str, tax_rate: Decimal, tax_included: bool,
                            tip_mode: str, promotions: tuple[Promotion, ...] = ()) -> TicketRecord:
        """A new ticket, as written (read on the writer's connection: no second hop). Held
        with its lines until the next commit, so written as a line is (``_write_line``)."""
        def run() -> TicketRecord:
            recorder = self.recorder
            return recorder.ticket(recorder.create_ticket(actor=actor, tax_rate=tax_rate,
                                                    tax_included=tax_included, tip_mode=tip_mode,
                                                    promotions=promotions))

        return await self._write_line(run)

    async def add_ticket_line(self, ticket_id: int, *, name: str, quantity: int, unit_price: Decimal,
                              actor: str, sold: LineSold | None = None) -> TicketRecord:
        return await self._write_line(self.recorder.add_ticket_line, ticket_id, name=name, quantity=quantity,
                                 unit_price=unit_price, actor=actor, sold=sold)

    async def remove_ticket_line(self, ticket_id: int, line_id: int, *, actor: str) -> TicketRecord:
        return await self._write_line(self.recorder.remove_ticket_line, ticket_id, line_id, actor=actor)

    async def add_ticket_discount(self, ticket_id: int, *, line_id: int | None, kind: str,
                                  value: Decimal, reason: str, actor: str, approved_by: str | None,
                                  before: Decimal, after: Decimal) -> TicketRecord:
        return await self._write(self.recorder.add_ticket_discount, ticket_id, line_id=line_id,
                                 kind=kind, value=value, reason=reason, actor=actor,
                                 approved_by=approved_by, before=before, after=after)

    async def set_ticket_tip(self, ticket_id: int, tip: Decimal, *, how: str,
                             actor: str) -> TicketRecord:
        return await self._write(self.recorder.set_ticket_tip, ticket_id, tip, how=how, actor=actor)

    async def cash_tender(self, ticket_id: int, applied: Decimal, *, tendered: Decimal,
                          change: Decimal, tip: Decimal | None, actor: str, message: str,
                          close_if: Callable[[TicketRecord], bool] | None = None,
                          tax: Decimal | None = None,
                          rounding: Decimal = Decimal(0)) -> tuple[Entry, TicketRecord]:
        """``JournalRecorder.cash_tender``: a ticket's cash tender (and its close) in one commit."""
        (entry, record), mirrored, changes = await self._write_entry(
            self.recorder.cash_tender, ticket_id, applied, tendered=tendered, change=change, tip=tip,
            actor=actor, message=message, close_if=close_if, tax=tax, rounding=rounding)
        self._publish(entry, mirrored, changes)
        return entry, record

    async def close_ticket(self, ticket_id: int, state: str, *, actor: str) -> TicketRecord:
        return await self._write(self.recorder.close_ticket, ticket_id, state, actor=actor)

    async def close_ticket_if(self, ticket_id: int, state: str, *, actor: str,
                              when: Callable[[TicketRecord], bool]) -> TicketRecord | None:
        """``JournalRecorder.close_ticket_if``: closed only when ``when`` holds, in one write."""
        record: TicketRecord | None = await self._write(self.recorder.close_ticket_if, ticket_id,
                                                        state, actor=actor, when=when)
        return record

    async def park_ticket(self, ticket_id: int, *, parked: bool, actor: str) -> None:
        """``JournalRecorder.park_ticket``: an open ticket set aside or taken back."""
        await self._write(self.recorder.park_ticket, ticket_id, parked=parked, actor=actor)

    async def parked_ticket_ids(self) -> list[int]:
        return await self._ticket_read(lambda recorder: recorder.parked_ticket_ids())

    async def _ticket_read(self, read: Callable[[JournalRecorder], T]) -> T:
        """A ticket read: on the writer's own connection while it holds lines not yet committed
        (the reader's cannot see them), else on the reader's."""
        writer = self._writer
        if writer is not None and writer.store.lines_held:
            return await self._write_only(read, writer)
        return await self._read(read, self.reader)

    async def ticket(self, ticket_id: int) -> TicketRecord:
        """The ticket as the journal holds it now. The writer answers when it holds the ticket
        (its last write of it, checked against other connections' commits there): no full read."""
        self._say_lines_lost()
        writer = self._writer
        if writer is not None and (writer.store.lines_held or writer.holds_ticket(ticket_id)):
            # held as last written: taken here when the writer is idle (no SQL but the check
            # that no other connection committed since), else asked on its thread
            ran, kept = self._writer_lane.run_here_if_idle(
                functools.partial(writer.held_ticket, ticket_id), lambda: True)
            if ran and kept is not None:
                return kept
            held: TicketRecord = await self._write_only(writer.ticket, ticket_id)
            return held
        record: TicketRecord = await self._read(self.reader.ticket, ticket_id)
        return record

    async def ticket_ids(self, *, open_only: bool = False, limit: int = 200) -> list[int]:
        return await self._ticket_read(
            lambda recorder: recorder.ticket_ids(open_only=open_only, limit=limit))

    # ---- reads (own connection, own thread) ----------------------------------------------------
    async def get(self, entry_id: int) -> Entry:
        entry: Entry = await self._read(self.reader.get, entry_id)
        return entry

    async def by_invoice(self, invoice: str) -> Entry | None:
        entry: Entry | None = await self._read(self.reader.by_invoice, invoice)
        return entry

    async def by_idempotency_key(self, key: str) -> Entry | None:
        entry: Entry | None = await self._read(self.reader.by_idempotency_key, key)
        return entry

    async def refunds_in_flight(self, invoice: str) -> list[Entry]:
        entries: list[Entry] = await self._read(self.reader.refunds_in_flight, invoice)
        return entries

    async def unresolved(self) -> list[Entry]:
        entries: list[Entry] = await self._read(self.reader.unresolved)
        return entries

    async def stored_offline(self) -> list[Entry]:
        entries: list[Entry] = await self._read(self.reader.stored_offline)
        return entries

    async def declined_on_forward(self) -> list[Entry]:
        entries: list[Entry] = await self._read(self.reader.declined_on_forward)
        return entries

    async def offline_view(self) -> OfflineView:
        view: OfflineView = await self._read(self.reader.offline_view)
        return view

    async def last_mode(self) -> Event | None:
        event: Event | None = await self._read(self.reader.last_mode)
        return event

    async def open_authorizations(self) -> list[Entry]:
        entries: list[Entry] = await self._read(self.reader.open_authorizations)
        return entries

    async def search(self, *, day: str | None = None, invoice: str | None = None,
                     amount: Decimal | None = None, last4: str | None = None,
                     since: str | None = None, until: str | None = None,
                     kinds: Sequence[str] = (), states: Sequence[str] = (),
                     limit: int = 500) -> list[Entry]:
        """``EntryRecorder.search``: today's screen's filters."""
        return await self._read(self.reader.search, day=day, invoice=invoice, amount=amount,
                                last4=last4, since=since, until=until, kinds=kinds, states=states,
                                limit=limit)

    async def totals(self, batch_no: int = 0) -> Totals:
        totals: Totals = await self._read(self.reader.totals, batch_no)
        return totals

    async def events(self, entry_id: int | None = None) -> list[Event]:
        """The events as this till holds them now: with ticket lines the writer holds not yet
        committed, read on its connection (as a ticket is): the reader's could not see them,
        and a count taken before a refused tender missed the lines its refusal committed."""
        events: list[Event] = await self._ticket_read(lambda recorder: recorder.events(entry_id))
        return events

    async def due_jobs(self) -> list[Job]:
        jobs: list[Job] = await self._read(self.reader.due_jobs)
        return jobs

    async def pending_jobs(self) -> list[Job]:
        jobs: list[Job] = await self._read(self.reader.pending_jobs)
        return jobs

    async def state_before_void(self, entry_id: int) -> State:
        state: State = await self._read(self.reader.state_before_void, entry_id)
        return state


__all__ = ["Journal"]
