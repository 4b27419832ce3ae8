"""The cash desk: the drawer, the receipt printer and the reports of one till, together.

The command line and the window both go through this class, so what prints, what kicks the
drawer and what needs a manager is decided here once. It is synchronous on its own journal
connection (SQLite in WAL mode takes a second writer; each write is one short transaction).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from cashier.clerks import Action, Clerk, Roster
from cashier.config import TillProfile
from cashier.drawer import CloseResult, Drawer, Session
from cashier.entry_rules import cash_given
from cashier.errors import DrawerRefused
from cashier.journal.model import Entry, Kind, Op, State
from cashier.journal.recorder import JournalRecorder
from cashier.journal.ticket_model import Ticket, TicketSettings
from cashier.printing.layout import PrintJob, receipt_lines, test_page_lines, ticket_receipt_lines
from cashier.printing.queue import JobResult, PrintQueue, VirtualPrinter

#: Payments that end a ticket at the counter (Charge API payments are card-not-present: no paper).
RECEIPT_KINDS = frozenset({Kind.SALE, Kind.MANUAL_SALE, Kind.REFUND, Kind.GIFTCARD_SALE, Kind.QR, Kind.CASH})


if TYPE_CHECKING:
    from cashier.day_report import DayReport


def open_recorder(profile: TillProfile) -> JournalRecorder:
    return JournalRecorder(profile.resolved_journal_path, till_id=profile.till_id,
                        till_number=profile.till_number, currency=profile.currency,
                        training=profile.is_training)


class CashDesk:
    def __init__(self, profile: TillProfile, recorder: JournalRecorder, *,
                 virtual: VirtualPrinter | None = None, printer: PrintQueue | None = None) -> None:
        self.profile = profile
        #: Called after each drawer close (the window checks for an update then).
        self.drawer_closed: list[Callable[[], None]] = []
        self.recorder = recorder
        self.roster: Roster = profile.roster
        self.drawer = Drawer(recorder, self.roster)
        self.virtual = virtual if virtual is not None else (VirtualPrinter() if profile.is_training else None)
        self.printer = printer or PrintQueue.for_settings(profile.printer, virtual=self.virtual)
        self._receipted: set[int] = set()
        self._receipted_tickets: set[int] = set()
        self._listeners: list[Callable[[Any], None]] = []
        #: the receipts' language: the profile's, then the window's setting (``ui.gui``)
        self.language = profile.language

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        """Call ``listener`` with each drawer move this desk's journal commits (``DrawerMoved``):
        the journal records and queues them; the window's bus hears them from here."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _published(self) -> None:
        for change in self.recorder.take_changes():
            for listener in list(self._listeners):
                listener(change)

    @property
    def width(self) -> int:
        return self.profile.printer.width

    @property
    def printer_status(self) -> str:
        """One line for the command line and a tooltip: ``ready``, ``paper_low``,
        ``out_of_paper: ...``, ``offline: ...``, ``error: ...`` or ``none`` (no printer)."""
        return self.printer.status if self.printer is not None else "none"

    @property
    def printer_trouble(self) -> str:
        """The printer's status line while it is known not to print (a drawer kick sent through
        it may not have opened the drawer); "" while it prints, or when the till has none."""
        if self.printer is None or self.printer.printing:
            return ""
        return self.printer.status

    @property
    def printer_state(self) -> str:
        """For the status bar: the state alone (``none`` when the till has no printer)."""
        return self.printer.state if self.printer is not None else "none"

    def close(self) -> None:
        if self.printer is not None:
            self.printer.stop()

    def check_printer(self) -> dict[str, object]:
        """``cashier printer status``: the printer asked now (reachable, paper)."""
        if self.printer is None:
            raise DrawerRefused("printer: this till has no [printer] url in its profile")
        self.printer.check()
        return {"printer": self.printer.name, "state": self.printer.state,
                "detail": self.printer.detail}

    def test_page(self) -> PrintJob:
        """``cashier printer test``: a page to check the profile's width and code page."""
        if self.printer is None:
            raise DrawerRefused("printer: this till has no [printer] url in its profile")
        lines = test_page_lines(company=self.profile.company_name, till_id=self.recorder.till_id,
                                printer=self.printer.name, width=self.width)
        job = PrintJob(title="printer test", lines=lines)
        self._print(job)
        return job

    # ---- printing ----------------------------------------------------------------------------
    def _print(self, job: PrintJob) -> bool:
        return self.printer.submit(job) if self.printer is not None else False

    def _kicks(self) -> bool:
        return self.profile.printer.drawer == "printer" and self.printer is not None

    def find_entry(self, invoice: str) -> Entry:
        """A payment named by its invoice number, at this till."""
        entry = self.recorder.by_invoice(invoice)
        if entry is None or entry.till_id != self.recorder.till_id:
            raise DrawerRefused(f"ticket: no ticket or invoice {invoice} at this till")
        return entry

    def ticket(self, ticket_id: int) -> Ticket:
        if self.recorder.ticket_till(ticket_id) != self.recorder.till_id:
            raise DrawerRefused(f"ticket: no ticket {ticket_id} at this till")
        return Ticket.of(self.recorder.ticket(ticket_id))

    def cash_note(self, entry: Entry) -> tuple[Decimal | None, Decimal | None]:
        """(tendered, change) from the entry's cash note, when it has one."""
        cash = cash_given(self.recorder.events(entry.id))
        return (None, None) if cash is None else (cash.given, cash.change)

    def receipt_job(self, entry: Entry, *, copy: str = "customer", signature: bool = False,
                    kick: bool = False, qr: str | None = None, reprint: bool = False) -> PrintJob:
        """A payment's own receipt (one outside a ticket, or a refund slip: with its ticket's
        number and lines). ``qr``: a QR payment's code, printed under the receipt for the
        customer to scan. ``reprint``: marked COPY."""
        tendered, change = self.cash_note(entry) if entry.kind is Kind.CASH else (None, None)
        ticket = None
        if entry.ticket_id is not None and self._is_refund(entry):
            try:
                ticket = self.ticket(entry.ticket_id)
            except DrawerRefused:  # a ticket of another till: the slip names the refund alone
                ticket = None
        lines = receipt_lines(entry, company=self.profile.company_name, width=self.width, copy=copy,
                              signature=signature, tendered=tendered, change=change,
                              language=self.language, reprint=reprint,
                              tax_included=self.profile.prices_include_tax, ticket=ticket)
        return PrintJob(title=f"receipt {entry.invoice or entry.id}", lines=lines, kick=kick, qr=qr)

    def ticket_job(self, ticket: Ticket, *, copy: str = "customer", signature: bool = False,
                   kick: bool = False, reprint: bool = False) -> PrintJob:
        lines = ticket_receipt_lines(ticket, company=self.profile.company_name,
                                     till_id=self.recorder.till_id, width=self.width, copy=copy,
                                     signature=signature, language=self.language, reprint=reprint)
        return PrintJob(title=f"ticket {ticket.id}", lines=lines, kick=kick)

    def print_receipt(self, ticket: str, *, copy: str = "customer") -> tuple[str, PrintJob, bool]:
        """A reprint from the journal (never kicks the drawer): ``ticket`` is a ticket number,
        or a payment's invoice number (10 digits; its ticket's receipt when it has one).
        Returns what was reprinted (the ticket or the invoice), the job, and whether it queued."""
        reprinted, job = self.receipt_of(ticket, copy=copy)
        return reprinted, job, self._print(job)

    def receipt_of(self, ticket: str, *, copy: str = "customer",
                   reprint: bool = True) -> tuple[str, PrintJob]:
        """The receipt ``print_receipt`` would print, laid out and not printed (an e-mailed
        receipt takes its lines): what it is the receipt of (the ticket or the invoice), the job."""
        text = ticket.strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 12:
            raise DrawerRefused("ticket: must be a ticket number (or a payment's invoice number)")
        if len(text) < 10:
            return text, self.ticket_job(self.ticket(int(text)), copy=copy, reprint=reprint)
        return self.entry_receipt_of(self.find_entry(text), copy=copy, reprint=reprint)

    def entry_receipt_of(self, entry: Entry, *, copy: str = "customer",
                         reprint: bool = True) -> tuple[str, PrintJob]:
        """A payment's receipt as a reprint gives it: its ticket's when it has one (a cash tender
        has no invoice), else its own."""
        if entry.ticket_id is not None:
            return str(entry.ticket_id), self.ticket_job(self.ticket(entry.ticket_id), copy=copy,
                                                         reprint=reprint)
        return entry.invoice or str(entry.id), self.receipt_job(entry, copy=copy, reprint=reprint)

    def reprint_entry(self, entry_id: int, *, copy: str = "customer") -> tuple[str, PrintJob, bool]:
        """The window's reprint (Journal, F8): the receipt of the entry's ticket when it has one
        (a cash tender has no invoice), else the payment's own receipt."""
        return self._reprint(self.recorder.get(entry_id), copy=copy)

    def _reprint(self, entry: Entry, *, copy: str) -> tuple[str, PrintJob, bool]:
        reprinted, job = self.entry_receipt_of(entry, copy=copy)
        return reprinted, job, self._print(job)

    def wait_printed(self, job: PrintJob) -> JobResult | None:
        """Block (a worker thread, never the counter) until ``job`` printed or failed, at most the
        printer's timeout and a second; None when it is still waiting."""
        if self.printer is None:
            return None
        deadline = time.monotonic() + self.profile.printer.timeout_s + 1.0
        while (result := self.printer.outcome(job)) is None and time.monotonic() < deadline:
            self.printer.wait_idle(0.05)
            time.sleep(0.02)
        return result

    def ticket_done(self, ticket_id: int, *, clerk: str | None = None,
                    signature: bool | None = None) -> list[PrintJob]:
        """A paid ticket: ONE receipt (when the profile says so, or always with cash: the paper
        comes out with the drawer), the merchant copy with a signature line when a card tender
        was signed (``signature`` None: the profile's signature floor decides), and for a cash
        tender the drawer kick (journaled with the clerk). Once per ticket; a reprint is
        ``print_receipt``."""
        if ticket_id in self._receipted_tickets:
            return []
        ticket = self.ticket(ticket_id)
        if ticket.state != "paid":
            return []
        self._receipted_tickets.add(ticket_id)
        clerk = clerk or ticket.record.clerk or str(self.profile.clerk_id)
        cash = [t for t in ticket.tenders if t.kind == "cash" and t.amount > 0]
        cards = [t for t in ticket.tenders if t.kind in ("card", "giftcard", "tab")
                 and t.outcome in ("approved", "partial")]
        if signature is None:
            rule = TicketSettings.of(self.profile)
            signature = any(rule.wants_signature(t.amount) for t in cards if t.kind != "giftcard")
        kick = bool(cash) and self._kicks()
        settings = self.profile.printer
        jobs: list[PrintJob] = []
        if settings.receipt_every_ticket or kick:
            jobs.append(self.ticket_job(ticket, kick=kick))
        if signature and cards and settings.merchant_copy:
            jobs.append(self.ticket_job(ticket, copy="merchant", signature=True))
        for job in jobs:
            self._print(job)
        if cash:
            self.drawer.kicked(clerk=clerk, entry_id=cash[0].entry_id)
            self._published()
        return jobs

    def payment_done(self, entry: Entry) -> list[PrintJob]:
        """A payment outside a ticket (a refund from the Journal, a tab opened before tickets...)
        is its own ticket: its receipt prints once when it is approved (captured, for a tab).
        A ticket's tenders print nothing here: the paid ticket prints one receipt
        (``ticket_done``); a refund keeps its own receipt, its ticket or not."""
        if entry.id in self._receipted or not self._ticket_ended(entry):
            return []
        if entry.ticket_id is not None and not self._is_refund(entry):
            return []
        self._receipted.add(entry.id)
        if len(self._receipted) > 10_000:
            self._receipted = {entry.id}
        return self._payment_receipt(entry, clerk=entry.clerk or str(self.profile.clerk_id))

    @staticmethod
    def _is_refund(entry: Entry) -> bool:
        return entry.kind is Kind.REFUND or entry.op is Op.REFUND

    def _payment_receipt(self, entry: Entry, *, clerk: str) -> list[PrintJob]:
        cash = entry.kind is Kind.CASH and entry.op in (Op.SALE, Op.REFUND)
        kick = cash and self._kicks()
        jobs: list[PrintJob] = []
        if self.profile.printer.receipt_every_ticket or kick:
            jobs.append(self.receipt_job(entry, kick=kick))
        for job in jobs:
            self._print(job)
        if cash:
            self.drawer.kicked(clerk=clerk, entry_id=entry.id)
            self._published()
        return jobs

    @staticmethod
    def _ticket_ended(entry: Entry) -> bool:
        if entry.kind in (Kind.AUTHORIZATION, Kind.MANUAL_AUTHORIZATION):
            return entry.state is State.CAPTURED
        return entry.kind in RECEIPT_KINDS and entry.state is State.APPROVED

    # ---- the drawer --------------------------------------------------------------------------
    def open(self, *, clerk: str, float_amount: str | Decimal | None = None,
             counts: dict[str, int] | None = None) -> Session:
        """The session opens with its float, and the drawer opens to take the float in."""
        session = self.drawer.open(clerk=clerk, float_amount=float_amount, counts=counts)
        self._published()
        self._kick()
        return session

    def pay_in(self, amount: str | Decimal, reason: str | None, *, clerk: str,
               manager: Clerk | None = None) -> Session:
        session = self.drawer.pay_in(amount, reason, clerk=clerk, manager=manager)
        self._kick()
        return session

    def pay_out(self, amount: str | Decimal, reason: str | None, *, clerk: str,
                manager: Clerk | None = None) -> Session:
        session = self.drawer.pay_out(amount, reason, clerk=clerk, manager=manager)
        self._kick()
        return session

    def no_sale(self, reason: str | None, *, clerk: str) -> Session:
        session = self.drawer.no_sale(reason, clerk=clerk)
        self._kick()
        return session

    def _kick(self) -> None:
        self._published()
        if self._kicks():
            self._print(PrintJob(title="drawer kick", kick=True, cut=False))

    def status(self) -> dict[str, Any]:
        """What the clerk may see before the count: not the expected amount (blind close)."""
        session = self.drawer.current()
        if session is None:
            return {"open": False, "printer": self.printer_status}
        balance = self.drawer.balance(session)
        return {"open": True, "session": session.id, "state": session.state,
                # counted, waiting for a manager: no more moves until it closes
                "waiting_for_manager": session.state == "counted",
                "takes_moves": session.state == "open",
                "opened_at": session.opened_at, "opened_by": session.opened_by,
                "float": str(session.float), "cash_tickets": balance.cash_sales_count,
                "cash_refund_tickets": balance.cash_refunds_count, "pay_ins": str(balance.pay_ins),
                "pay_outs": str(balance.pay_outs), "no_sales": balance.no_sales,
                "printer": self.printer_status}

    def close_drawer(self, counted: str | Decimal, *, clerk: str, reason: str | None = None,
                     manager: Clerk | None = None) -> CloseResult:
        from cashier import reports  # loaded with the first report (decision 017, round 2)

        result = self.drawer.close(counted, clerk=clerk, reason=reason, manager=manager,
                                   report=lambda s: reports.z_report(self.recorder, self.drawer, s))
        self._published()
        if result.closed and result.report is not None and self.profile.printer.z_report_at_close:
            self._print(PrintJob(title=f"Z report {result.session.id}",
                                 lines=reports.report_text(result.report, self.width)))
        if result.closed:
            for listener in self.drawer_closed:
                listener()
        return result

    # ---- reports -----------------------------------------------------------------------------
    def x_report(self, manager: Clerk | None = None) -> dict[str, Any]:
        """Now, with the open drawer's expected cash: a manager's report on a till with clerks
        (``manager``, a PIN just checked), so the clerk who counts the drawer blind never reads
        what it should hold first; ``ManagerNeeded`` otherwise, before anything is read."""
        from cashier import reports  # loaded with the first report (decision 017, round 2)

        self.roster.approver(Action.X_REPORT, Decimal(0), manager)
        return reports.x_report(self.recorder, self.drawer)

    def z_report(self, session_id: int | None = None) -> dict[str, Any]:
        from cashier import reports  # loaded with the first report (decision 017, round 2)

        session = self.drawer.get(session_id) if session_id is not None else None
        if session is not None and session.state == "closed":
            stored = self.drawer.stored_report(session)
            if stored is not None:
                return stored
        return reports.z_report(self.recorder, self.drawer, session)

    def day_report(self, day: date, manager: Clerk | None = None) -> DayReport:
        """A business date's charts (and the same weekday a week earlier): a manager's, as the X
        report is."""
        from cashier import day_report as days  # loaded with the first report

        self.roster.approver(Action.X_REPORT, Decimal(0), manager)
        return days.day_report(self.recorder, self.drawer, day)

    def report_charts(self, report: dict[str, Any]) -> DayReport:
        """The charts of an X or Z report, over the report's own window."""
        from cashier.day_report import charts_of_report

        return charts_of_report(self.recorder, self.drawer, report)

    def report_pdf(self, report: dict[str, Any], charts: DayReport | None = None, *,
                   clerk: str = "") -> bytes:
        """The report's PDF, headed by the store's name, the till and the clerk who exported it:
        its text, then its charts drawn beside their tables."""
        from cashier import reports  # loaded with the first report (decision 017, round 2)
        from cashier.day_report import pdf_charts

        charts = charts if charts is not None else self.report_charts(report)
        return reports.report_pdf(report, pdf_charts(charts.charts, charts.currency),
                                  store=self.profile.company_name, clerk=clerk)

    def print_report(self, report: dict[str, Any]) -> PrintJob:
        from cashier import reports  # loaded with the first report (decision 017, round 2)

        job = PrintJob(title=f"{report['type'].upper()} report",
                       lines=reports.report_text(report, self.width))
        self._print(job)
        return job
