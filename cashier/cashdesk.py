"""The cash desk: the drawer, the receipt printer and the reports of one till, together.

The command line and the window both go through this class, so what prints, what kicks the
drawer and what needs a manager is decided here once. It is synchronous on its own journal
connection (SQLite in WAL mode takes a second writer; each write is one short transaction).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cashier.clerks import Clerk, Roster
from cashier.config import TillProfile
from cashier.drawer import CloseResult, Drawer, Session
from cashier.errors import DrawerRefused
from cashier.journal.model import Entry, Kind, Op, State
from cashier.journal.store import JournalStore
from cashier.printing.layout import PrintJob, receipt_lines
from cashier.printing.queue import PrintQueue, VirtualPrinter
from cashier.reports import report_text, x_report, z_report

#: Payments that end a ticket at the counter (Charge API payments are card-not-present: no paper).
RECEIPT_KINDS = frozenset({Kind.SALE, Kind.MANUAL_SALE, Kind.REFUND, Kind.GIFTCARD_SALE, Kind.QR, Kind.CASH})


def open_store(profile: TillProfile) -> JournalStore:
    return JournalStore(profile.resolved_journal_path, till_id=profile.till_id,
                        till_number=profile.till_number, currency=profile.currency,
                        training=profile.is_training)


class CashDesk:
    def __init__(self, profile: TillProfile, store: JournalStore, *,
                 virtual: VirtualPrinter | None = None, printer: PrintQueue | None = None) -> None:
        self.profile = profile
        self.store = store
        self.roster: Roster = profile.roster
        self.drawer = Drawer(store, self.roster)
        self.virtual = virtual if virtual is not None else (VirtualPrinter() if profile.is_training else None)
        self.printer = printer or PrintQueue.for_settings(profile.printer, virtual=self.virtual)
        self._receipted: set[int] = set()

    @property
    def width(self) -> int:
        return self.profile.printer.width

    @property
    def printer_status(self) -> str:
        """For the status bar: ``ready``, ``offline: ...`` or ``none`` (no printer)."""
        return self.printer.status if self.printer is not None else "none"

    def close(self) -> None:
        if self.printer is not None:
            self.printer.stop()

    # ---- printing ----------------------------------------------------------------------------
    def _print(self, job: PrintJob) -> bool:
        return self.printer.submit(job) if self.printer is not None else False

    def _kicks(self) -> bool:
        return self.profile.printer.drawer == "printer" and self.printer is not None

    def find_entry(self, ticket: str) -> Entry:
        """A ticket named by its invoice number, or by the journal entry id."""
        text = ticket.strip()
        if not text.isdigit():
            raise DrawerRefused("ticket: must be an invoice number or a journal entry id (digits)")
        entry = self.store.by_invoice(text)
        if entry is None and len(text) < 10:
            try:
                entry = self.store.get(int(text))
            except Exception:
                entry = None
        if entry is None or entry.till_id != self.store.till_id:
            raise DrawerRefused(f"ticket: no journal entry with invoice or id {text} at this till")
        return entry

    def cash_note(self, entry: Entry) -> tuple[Decimal | None, Decimal | None]:
        """(tendered, change) from the entry's cash note, when it has one."""
        for event in reversed(self.store.events(entry.id)):
            note = event.data.get("_note", event.data)
            if isinstance(note, dict) and "tendered" in note:
                change = note.get("change")
                return Decimal(str(note["tendered"])), None if change is None else Decimal(str(change))
        return None, None

    def receipt_job(self, entry: Entry, *, copy: str = "customer", signature: bool = False,
                    kick: bool = False, qr: str | None = None) -> PrintJob:
        """``qr``: a QR payment's code, printed under the receipt for the customer to scan."""
        tendered, change = self.cash_note(entry) if entry.kind is Kind.CASH else (None, None)
        lines = receipt_lines(entry, company=self.profile.company_name, width=self.width, copy=copy,
                              signature=signature, tendered=tendered, change=change)
        return PrintJob(title=f"receipt {entry.invoice or entry.id}", lines=lines, kick=kick, qr=qr)

    def print_receipt(self, ticket: str, *, copy: str = "customer") -> tuple[Entry, PrintJob, bool]:
        """A reprint from the journal (never kicks the drawer)."""
        entry = self.find_entry(ticket)
        job = self.receipt_job(entry, copy=copy)
        return entry, job, self._print(job)

    def ticket_done(self, entry: Entry, *, clerk: str, signature: bool = False) -> list[PrintJob]:
        """After a ticket's tender: the receipt (when the profile says so), the merchant copy
        with a signature line when the host asked for a signature, and for cash the drawer
        kick (journaled with the clerk)."""
        cash = entry.kind is Kind.CASH and entry.op in (Op.SALE, Op.REFUND)
        jobs: list[PrintJob] = []
        kick = cash and self._kicks()
        settings = self.profile.printer
        if settings.receipt_every_ticket or kick:
            jobs.append(self.receipt_job(entry, kick=kick))
        if signature and settings.merchant_copy and entry.kind is not Kind.CASH:
            jobs.append(self.receipt_job(entry, copy="merchant", signature=True))
        for job in jobs:
            self._print(job)
        if cash:
            self.drawer.kicked(clerk=clerk, entry_id=entry.id)
        return jobs

    def payment_done(self, entry: Entry) -> list[PrintJob]:
        """Until tickets land, each payment that took or gave back money is its own ticket: its
        receipt prints once when it is approved (captured, for a tab). Later changes of the same
        entry (a refund against it) print nothing here; the refund is an entry of its own."""
        if entry.id in self._receipted or not self._ticket_ended(entry):
            return []
        self._receipted.add(entry.id)
        if len(self._receipted) > 10_000:
            self._receipted = {entry.id}
        return self.ticket_done(entry, clerk=entry.clerk or str(self.profile.clerk_id))

    @staticmethod
    def _ticket_ended(entry: Entry) -> bool:
        if entry.kind in (Kind.AUTHORIZATION, Kind.MANUAL_AUTHORIZATION):
            return entry.state is State.CAPTURED
        return entry.kind in RECEIPT_KINDS and entry.state is State.APPROVED

    # ---- the drawer --------------------------------------------------------------------------
    def open(self, *, clerk: str, float_amount: str | Decimal | None = None,
             counts: dict[str, int] | None = None) -> Session:
        return self.drawer.open(clerk=clerk, float_amount=float_amount, counts=counts)

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
        if self._kicks():
            self._print(PrintJob(title="drawer kick", kick=True, cut=False))

    def status(self) -> dict[str, Any]:
        """What the clerk may see before the count: not the expected amount (blind close)."""
        session = self.drawer.current()
        if session is None:
            return {"open": False, "printer": self.printer_status}
        balance = self.drawer.balance(session)
        return {"open": True, "session": session.id, "state": session.state,
                "opened_at": session.opened_at, "opened_by": session.opened_by,
                "float": str(session.float), "cash_tickets": balance.cash_sales_count,
                "cash_refund_tickets": balance.cash_refunds_count, "pay_ins": str(balance.pay_ins),
                "pay_outs": str(balance.pay_outs), "no_sales": balance.no_sales,
                "printer": self.printer_status}

    def close_drawer(self, counted: str | Decimal, *, clerk: str, reason: str | None = None,
                     manager: Clerk | None = None) -> CloseResult:
        result = self.drawer.close(counted, clerk=clerk, reason=reason, manager=manager,
                                   report=lambda s: z_report(self.store, self.drawer, s))
        if result.closed and result.report is not None and self.profile.printer.z_report_at_close:
            self._print(PrintJob(title=f"Z report {result.session.id}",
                                 lines=report_text(result.report, self.width)))
        return result

    # ---- reports -----------------------------------------------------------------------------
    def x_report(self) -> dict[str, Any]:
        return x_report(self.store, self.drawer)

    def z_report(self, session_id: int | None = None) -> dict[str, Any]:
        session = self.drawer.get(session_id) if session_id is not None else None
        if session is not None and session.state == "closed":
            stored = self.drawer.stored_report(session)
            if stored is not None:
                return stored
        return z_report(self.store, self.drawer, session)

    def print_report(self, report: dict[str, Any]) -> PrintJob:
        job = PrintJob(title=f"{report['type'].upper()} report", lines=report_text(report, self.width))
        self._print(job)
        return job
