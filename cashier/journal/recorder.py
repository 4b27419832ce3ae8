"""The synchronous journal: the datastore (one SQLite connection, used by one thread only) and
the recorders built on it, each with its own rows: ``EntryRecorder`` here (payment entries, voids,
batches, invoice numbers), ``TicketRecorder`` (tickets.py), ``DrawerRecorder`` (drawer_rows.py),
``ReportRecorder`` (report_rows.py) and ``OutboxRecorder`` (outbox_rows.py).

Every change is one ``BEGIN IMMEDIATE`` transaction of the datastore that appends an event, updates
the entry's projection row and the running totals together, so the three can never disagree.
``JournalRecorder`` is all of them on one datastore, as the till's code uses it; the async
``Journal`` (``cashier.journal.aio``) runs a writer one on a dedicated thread.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, Unpack

from cashier.errors import ValidationError
from cashier.journal.card_guard import guard_text, masked_card
from cashier.journal.datastore import (
    BUSY_TIMEOUT_S,
    CACHE_KIB,
    CLOCK_JUMP_S,
    Datastore,
    JournalOpenError,
    business_day,
    check_actor,
    disk_full,
    iso,
    minor_units,
    utc_now,
    write_event,
)
from cashier.journal.drawer_rows import DrawerRecorder
from cashier.journal.leases import EntryOwned, alive, lease_for
from cashier.journal.mail_rows import MailRecorder
from cashier.journal.model import (
    CORRECTIONS,
    INVOICED_KINDS,
    TRANSITIONS,
    UNRESOLVED,
    UNRESOLVED_SQL,
    Entry,
    EntryChanges,
    Event,
    Job,
    JournalError,
    Kind,
    NewEntry,
    OfflinePayment,
    OfflineView,
    Op,
    State,
    TicketRecord,
    Totals,
    check_transition,
    money,
)
from cashier.journal.outbox_rows import OutboxRecorder
from cashier.journal.report_rows import ReportRecorder
from cashier.journal.rows import entry_of_row as _entry
from cashier.journal.tickets import CASH_NOTE, LINES_NOTE, TicketRecorder
from cashier.journal.tokens import encode_token
from cashier.journal.totals import GIVEN_BACK_BUCKETS, add_total, contribution, rebuild_totals
from cashier.money import quantum
from cashier.text import clean_text

#: Named here too, where the till's code has always found them (the datastore owns them).
__all__ = [
    "BUSY_TIMEOUT_S",
    "CACHE_KIB",
    "CLOCK_JUMP_S",
    "INVOICES_PER_DAY",
    "SEQUENCE_DIGITS",
    "EntryRecorder",
    "JournalOpenError",
    "JournalRecorder",
    "corrections_figure",
    "disk_full",
    "iso",
    "utc_now",
    "write_event",
]

#: Columns a transition may change (everything but the identity of the entry).
MUTABLE = frozenset({
    "state", "op", "original_invoice", "requested_minor", "approved_minor", "tip_minor",
    "tax_minor", "captured_minor", "refunded_minor", "pending_minor", "card", "card_last4",
    "card_type", "token", "auth_code", "response_code", "host_code", "message", "clerk",
    "updated_at", "sent_at", "attempts", "reversal_reason", "batch_no",
    "charge_id", "refund_id", "payment_link_id", "customer_id", "offline",
})
CREATE_COLUMNS = MUTABLE | {"till_id", "kind", "invoice", "idempotency_key", "currency",
                            "training", "created_at", "business_date"}
#: Text columns that must never carry a card number.
_TEXT_FIELDS = ("original_invoice", "card_type", "auth_code", "response_code", "host_code",
                "message", "clerk", "reversal_reason", "idempotency_key", "invoice", "till_id",
                "charge_id", "refund_id", "payment_link_id", "customer_id")
#: Sequence digits after the two-digit till number: 10 digits in all.
SEQUENCE_DIGITS = 8
#: A real till's sequence is bound to the day: day N (since INVOICE_EPOCH, UTC) starts at
#: N * INVOICES_PER_DAY, so a lost journal never restarts below an earlier day's numbers. A busy
#: day spills into the next block, which only moves the counter forward. 9,999 days: to 2052.
INVOICE_EPOCH = date(2025, 1, 1)
INVOICES_PER_DAY = 10_000
#: The last day whose block the 8 digits hold (2052-05-18): a clock past it is wrong (or the
#: till outlived its numbering), and no invoice is issued (``time_floor``).
INVOICE_LAST_DAY = INVOICE_EPOCH + timedelta(days=10 ** SEQUENCE_DIGITS // INVOICES_PER_DAY - 1)
#: The counter that keeps the store's last word on this till's number: the number the store
#: refused (it is another till's there), 0 when it accepted it; absent until the store answers.
NUMBER_REFUSED = "store_number_refused"
#: The note that keeps what the host answered when it approved another payment than the one
#: asked (another card: the host amended a record another request made under the number).
MISMATCH_NOTE = "host_mismatch"
#: An open tab: an authorization approved and not yet captured (the host has not batched it).
OPEN_TAB_SQL = "state = 'approved' AND kind IN ('authorization', 'manual_authorization')"


# ---- rows -------------------------------------------------------------------------------------
def _stored_as_given(row: Mapping[str, Any], integer_columns: frozenset[str]) -> bool:
    """True when SQLite stores every value exactly as given (int in an INTEGER column, text in
    a TEXT one), so the Entry can be built from the values just written instead of re-reading
    the row; a value SQLite would convert (a clerk given as a number) forces the re-read."""
    for key, value in row.items():
        if value is None:
            continue
        if type(value) is not (int if key in integer_columns else str):
            return False
    return True


def _job(row: sqlite3.Row) -> Job:
    return Job(id=row["id"], entry_id=row["entry_id"], kind=row["kind"], reason=row["reason"],
               state=row["state"], attempts=row["attempts"], next_at=row["next_at"],
               last_error=row["last_error"], created_at=row["created_at"],
               created_by=row["created_by"])


log = logging.getLogger(__name__)

#: The event giving a refund journaled before journal v16 its tax (``price_refunds_due``).
REFUND_TAX_EVENT = "refund_tax"
#: Buckets of money given back: a correction moving them changes the net the other way.
_GIVEN_BACK = frozenset(GIVEN_BACK_BUCKETS)
#: The states in which an entry moved its money (the reports count it).
_TOOK_MONEY = (State.APPROVED, State.CAPTURED)


def _gives_back(row: Mapping[str, Any] | sqlite3.Row) -> bool:
    """An entry that gives money back (a refund, cash given back): on a ticket it carries the
    tax it gives back (``Ticket.refund_tax``)."""
    return bool(row["kind"] == Kind.REFUND or row["op"] == Op.REFUND)


def _net(part: tuple[str, str, int] | None) -> int:
    """What one entry's bucket adds to the net (minor units): refunds count negative."""
    if part is None:
        return 0
    return -part[2] if part[0] in _GIVEN_BACK else part[2]


def corrections_figure(data: Iterable[Mapping[str, Any]], currency: str) -> tuple[int, Decimal]:
    """(count, money moved) of correction events' data: what every report shows of them. The
    money is signed: what the corrections added to the net (a sale the host voided after all
    takes its amount off, a refund it voided puts it back)."""
    count, amount = 0, Decimal(0)
    for item in data:
        note = item.get("_note") or {}
        count += 1
        amount += Decimal(str(note.get("amount") or "0"))
    return count, amount.quantize(quantum(currency))


class EntryRecorder:
    """The payment entries' recorder: intents, transitions, corrections, voids, batches and
    invoice numbers, on the journal's datastore (its transactions, time and events); a tender
    asks the tickets' recorder about its ticket inside its own transaction."""

    def __init__(self, store: Datastore, tickets: TicketRecorder) -> None:
        self.store = store
        self.tickets = tickets
        self.conn = store.conn
        self.till_id = store.till_id
        self.currency = store.currency
        self._owner_token: tuple[int, str] | None = None

    def _row(self, entry_id: int) -> sqlite3.Row:
        row = self.conn.execute("SELECT * FROM entries WHERE id = ?", (entry_id,)).fetchone()
        if row is None:
            raise JournalError(f"entry: no journal entry {entry_id}")
        return row  # type: ignore[no-any-return]

    def time_floor(self) -> int:
        """The lowest sequence this day may use on a real till (0 when not bound to time):
        a journal that is new, replaced or restored starts at today's block, above every
        earlier day's numbers (see docs/decisions/004-journal-and-flows.md, "Invoice numbers")."""
        if not self.store.invoice_time_floor:
            return 0
        today = self.store.clock().astimezone(UTC).date()
        if today > INVOICE_LAST_DAY:  # its block would not fit the 8 digits
            raise ValidationError("clock", "the till's clock says {today}, after {last}, the last "
                                  "day invoice numbers can be bound to: set the clock right",
                                  today=today.isoformat(), last=INVOICE_LAST_DAY.isoformat())
        days = (today - INVOICE_EPOCH).days
        return max(days, 0) * INVOICES_PER_DAY

    def next_invoice(self) -> str:
        """Allocate inside the caller's transaction: the number is consumed even if unused.
        Refused while the store's last word is that this till's number is another till's."""
        refused = self.conn.execute("SELECT value FROM counters WHERE name = ?",
                                    (NUMBER_REFUSED,)).fetchone()
        if refused is not None and int(refused[0]) == self.store.till_number:
            raise ValidationError(
                "till_number", "the store says till number {number} is not this till's (another "
                "till holds it, or the store knows this till by another number): its invoices "
                "could amend another till's payments, so no payment was started; give this till "
                "a number of its own (the profile's till_number, and 'cashier store add-till ID "
                "--number NN' at the store)", number=f"{self.store.till_number:02d}")
        row = self.conn.execute(
            "INSERT INTO counters(name, value) VALUES ('invoice', MAX(1, :floor)) "
            "ON CONFLICT(name) DO UPDATE SET value = MAX(value + 1, :floor) RETURNING value",
            {"floor": self.time_floor() + 1}).fetchone()
        seq = int(row[0])
        if seq >= 10 ** SEQUENCE_DIGITS:
            raise JournalError("invoice: this till has used all its invoice numbers")
        return f"{self.store.till_number:02d}{seq:0{SEQUENCE_DIGITS}d}"

    def invoice_high_water(self) -> int:
        """The highest sequence this journal has issued or been told is taken (0: none)."""
        row = self.conn.execute("SELECT value FROM counters WHERE name = 'invoice'").fetchone()
        return 0 if row is None else int(row[0])

    def raise_invoice_floor(self, sequence: int) -> None:
        """Never issue ``sequence`` or below again (learned from the host, or another store);
        the counter only ever goes up."""
        if isinstance(sequence, bool) or not isinstance(sequence, int) \
                or not 0 <= sequence < 10 ** SEQUENCE_DIGITS:
            raise ValidationError("sequence", f"must be a whole number from 0 to "
                                              f"{10 ** SEQUENCE_DIGITS - 1}")
        with self.store.transaction() as conn:
            conn.execute("INSERT INTO counters(name, value) VALUES ('invoice', :seq) "
                         "ON CONFLICT(name) DO UPDATE SET value = MAX(value, :seq)",
                         {"seq": sequence})
            self.store.event(None, "system", "invoice_floor", {"_note": {"sequence": sequence}},
                             self.store.now())

    def store_number_word(self) -> int | None:
        """The store's word on this till's number at the last contact: the number it refused,
        0 when it accepted this till's, None when the store was never reached."""
        row = self.conn.execute("SELECT value FROM counters WHERE name = ?",
                                (NUMBER_REFUSED,)).fetchone()
        return None if row is None else int(row[0])

    def record_store_number(self, refused: bool, *, message: str = "") -> None:
        """Keep what the store said of this till's number (``refused``: it is another till's);
        journaled as ``store_till_number`` when it changes, so the manager sees when and why.
        Invoices are refused while the store's last word is a refusal of the current number."""
        value = self.store.till_number if refused else 0
        guard_text("message", message)
        with self.store.transaction() as conn:
            row = conn.execute("SELECT value FROM counters WHERE name = ?",
                               (NUMBER_REFUSED,)).fetchone()
            if row is not None and int(row[0]) == value:
                return
            conn.execute("INSERT INTO counters(name, value) VALUES (?, ?) ON CONFLICT(name) "
                         "DO UPDATE SET value = excluded.value", (NUMBER_REFUSED, value))
            if refused or row is not None:  # the first "accepted" is no news
                self.store.event(None, "store", "store_till_number",
                                 {"_note": {"till_number": self.store.till_number, "refused": refused,
                                            "message": clean_text(message)[:300]}}, self.store.now())

    def allocate_invoice(self) -> str:
        """An invoice for a request that is no entry (a gift card balance inquiry): never reused."""
        with self.store.transaction():
            return self.next_invoice()

    # ---- writes -------------------------------------------------------------------------------
    def create(self, new: NewEntry) -> Entry:
        """Commit an intent (invoice allocated in the same transaction); ``new.sent`` also
        records that the request is about to go, saving one commit on the hot path. A refund of
        ticket lines (``new.line_refund``) takes them in the same transaction (``LineRefunded``
        when another refund holds one: nothing journaled)."""
        kind = Kind(new.kind)
        requested, actor, currency, op = new.requested, new.actor, new.currency, new.op
        invoice, idempotency_key, ticket_id = new.invoice, new.idempotency_key, new.ticket_id
        line_refund, sent = new.line_refund, new.sent
        currency = currency or self.currency
        check_actor(actor)
        if kind in INVOICED_KINDS and idempotency_key is not None:
            raise ValidationError("idempotency_key", f"is for Charge API entries, not {kind}")
        if ticket_id is not None and (isinstance(ticket_id, bool) or not isinstance(ticket_id, int)):
            raise ValidationError("ticket", "must be a ticket number")
        if kind is Kind.CHARGE and not idempotency_key:
            raise ValidationError("idempotency_key", "is required for a Charge API entry")
        if idempotency_key is not None and not 1 <= len(idempotency_key) <= 255:
            raise ValidationError("idempotency_key", "must be 1 to 255 characters")
        if invoice is not None and not re.fullmatch(r"\d{1,10}", invoice):
            raise ValidationError("invoice", "must be a string of 1 to 10 digits")
        masked, last4 = masked_card(new.card)
        now = self.store.now()
        # the day of the journal's time: never before the last entry's (a clock set back)
        local_day = business_day(now)
        row: dict[str, Any] = {
            "till_id": self.till_id, "kind": str(kind), "state": str(State.INTENT),
            "op": str(Op(op)) if op else None, "invoice": invoice,
            "idempotency_key": idempotency_key, "original_invoice": new.original_invoice,
            "currency": currency,
            "requested_minor": minor_units("requested", requested, currency),
            "approved_minor": 0, "tip_minor": minor_units("tip", new.tip, currency),
            "tax_minor": minor_units("tax", new.tax, currency), "captured_minor": 0,
            "refunded_minor": 0, "pending_minor": minor_units("requested", requested, currency),
            "card": masked, "card_last4": last4, "card_type": None, "token": encode_token(new.token),
            "auth_code": None, "response_code": None, "host_code": None, "message": new.message,
            "training": int(self.store.training), "clerk": new.clerk, "created_at": now, "updated_at": now,
            "sent_at": None, "business_date": local_day, "attempts": 0,
            "reversal_reason": None, "batch_no": 0, "charge_id": new.charge_id, "refund_id": None,
            "payment_link_id": new.payment_link_id, "customer_id": new.customer_id,
            "ticket_id": ticket_id,
        }
        for name in _TEXT_FIELDS:
            guard_text(name, row[name])
            if isinstance(row[name], str):
                row[name] = clean_text(row[name])
        with self.store.transaction() as conn:
            if ticket_id is not None and Op(op or Op.SALE) is not Op.REFUND \
                    and kind is not Kind.REFUND:
                # decided in the transaction that records the tender: no two processes see one
                # remainder, and a second tender waits until the first has its outcome
                self.tickets.check_new_tender(ticket_id, requested)  # the tender's total, tip in it
            if line_refund is not None:
                if ticket_id is None:
                    raise ValidationError("line", "a refund of ticket lines names its ticket")
                self.tickets.check_line_refund(ticket_id, line_refund)
            if ticket_id is not None and _gives_back(row):  # its tax, by the ticket's rule
                row["tax_minor"] = self._refund_tax(
                    ticket_id, requested, line_refund.lines if line_refund else ())
            if kind in INVOICED_KINDS and invoice is None:
                row["invoice"] = self.next_invoice()
            # The projection row is written once, already SENT when ``sent``: the same row the
            # intent insert plus the SENT update gave, one statement less in the transaction. The
            # events still record both steps.
            changes: dict[str, Any] = {"state": str(State.SENT), "sent_at": now, "updated_at": now,
                                       "attempts": 1} if sent else {}
            stored = {**row, **changes}
            cols = ", ".join(stored)
            try:
                cur = conn.execute(f"INSERT INTO entries({cols}) VALUES ({', '.join('?' * len(stored))})",
                                   tuple(stored.values()))
            except sqlite3.IntegrityError:
                field = "invoice" if row["invoice"] else "idempotency_key"
                raise ValidationError(field, "is already in the journal: continue that entry "
                                             "instead of starting a new one") from None
            entry_id = int(cur.lastrowid or 0)
            conn.execute("INSERT INTO entry_owners(entry_id, owner, since) VALUES (?, ?, ?)",
                         (entry_id, self.owner, now))
            self.store.event(entry_id, actor, "created", row, now)
            if sent:
                self.store.event(entry_id, actor, "sent", changes, now)
            refunds_lines: dict[int, tuple[int, ...]] = {}
            if line_refund is not None:
                group = entry_id if line_refund.group is None else line_refund.group
                self.store.event(entry_id, actor, LINES_NOTE,
                                 {"_note": {"ticket": ticket_id, "lines": list(line_refund.lines),
                                            "group": group}}, now)
                refunds_lines[entry_id] = line_refund.lines
            entry = _entry({**stored, "id": entry_id}) if _stored_as_given(
                stored, self.store.integer_columns) else _entry(self._row(entry_id))
            if ticket_id is not None:
                self.store.ticket_written(ticket_id)
                before = self.store.held_before(ticket_id)
                if before is not None:  # the newest entry comes last, as a read orders them
                    self.store.hold(before.changed(
                        entries=(*before.entries, entry),
                        line_refunds={**before.line_refunds, **refunds_lines}))
            return entry

    def transition(self, entry_id: int, state: State | str, *, actor: str, event: str | None = None,
                   **changes: Unpack[EntryChanges]) -> Entry:
        """Move an entry to ``state`` and change fields, as one event. Amount fields are given
        as Decimals (``approved=...``) and stored as minor units."""
        state = State(state)
        check_actor(actor)
        with self.store.transaction() as conn:
            row = self._row(entry_id)
            current = State(row["state"])
            if current is State.VOIDED and state is State.VOIDED:
                return _entry(row)  # two paths told the same end (a status and a cancel): once
            if current in UNRESOLVED or state in UNRESOLVED:
                self._take(row)
            check_transition(current, state)
            cols = self._columns(row, changes)
            cols["state"] = str(state)
            if row["ticket_id"] is not None and _gives_back(row) and state in _TOOK_MONEY and (
                    int(cols.get("approved_minor", row["approved_minor"]))
                    != int(row["requested_minor"])  # the host gave back another amount
                    or int(row["tax_minor"]) == 0):  # or journaled with none (before v16)
                approved = money(int(cols.get("approved_minor", row["approved_minor"])),
                                 str(row["currency"]))
                cols["tax_minor"] = self._refund_tax(int(row["ticket_id"]), approved, None,
                                                     excluding=entry_id)
            if state is State.CAPTURED and int(row["batch_no"]) != 0:
                cols["batch_no"] = 0  # the host batches a capture when it happens: the open batch
            now = self.store.now()
            cols["updated_at"] = now
            if state is State.SENT:
                cols["sent_at"] = now
                cols["attempts"] = int(row["attempts"]) + 1
            new, propagated = self._apply(conn, row, cols, actor, event or str(state), now)
            if not propagated and _stored_as_given(cols, self.store.integer_columns):
                moved = _entry(new)
                if moved.ticket_id is not None:  # its ticket held with it, as it now reads
                    before = self.store.held_before(moved.ticket_id)
                    if before is not None:
                        self.store.hold(before.changed(entries=tuple(
                            moved if e.id == moved.id else e for e in before.entries)))
                return moved
            return _entry(self._row(entry_id))

    def _refund_tax(self, ticket_id: int, amount: Decimal, lines: Sequence[int] | None, *,
                    excluding: int | None = None) -> int:
        """The tax (minor units) a refund of ``amount`` on the ticket gives back, by its rule
        (``Ticket.refund_tax``); ``lines`` None: the lines the refund ``excluding`` took."""
        from cashier.journal.ticket_model import Ticket

        ticket = Ticket.of(self.tickets.ticket(ticket_id))
        taken = ticket.record.line_refunds.get(excluding or 0, ()) if lines is None else lines
        return minor_units("tax", ticket.refund_tax(amount, taken, excluding=excluding),
                           ticket.currency)

    def price_refunds_due(self) -> None:
        """Give the refunds journaled before a refund carried its own tax theirs (journal v16
        named them, ``refund_tax_due``), by THE rule (``Ticket.refund_tax``) on each ticket as
        the journal reads it, in the order they were made: each counts the refunds before it,
        never itself, as it would have when it was made. Each is one event (``refund_tax``: its
        state, unchanged, and its tax), so the projection stays the events' fold and the store
        folds it in as a move, in the refund's own day and batch. Only a refund that gave money
        back or may still (a move to its own state); one never sent, declined or in error gets
        its tax when it moves money (``transition``). A ticket its rows cannot price (damaged)
        keeps 0 and is named in one logged line: opening the journal never fails on it. One
        write: the list empties with it (decision 011, "Refunds journaled before their tax")."""
        from cashier.journal.ticket_model import Ticket, given_back

        if self.conn.execute("SELECT 1 FROM refund_tax_due LIMIT 1").fetchone() is None:
            return
        with self.store.transaction() as conn:
            due = {int(r[0]): int(r[1]) for r in conn.execute(
                "SELECT e.id, e.ticket_id FROM refund_tax_due d JOIN entries e ON e.id = d.entry_id "
                "WHERE e.ticket_id IS NOT NULL")}
            now = self.store.now()
            unpriced: list[int] = []
            for ticket_id in sorted(set(due.values())):
                try:
                    ticket = Ticket.of(self.tickets.ticket(ticket_id))
                    taxes = [(e, minor_units("tax", ticket.refund_tax(
                        given_back(e), ticket.record.line_refunds.get(e.id, ()), before=e.id),
                        ticket.currency)) for e in ticket.refunds
                        if e.id in due and e.tax == 0 and e.state in TRANSITIONS[e.state]]
                except sqlite3.Error:
                    raise  # the journal failing: nothing written, the list kept for the next open
                except Exception:  # damaged rows: this ticket's refunds keep 0
                    unpriced.append(ticket_id)
                    continue
                for entry, minor in taxes:
                    if minor:
                        self.store.event(entry.id, "system", REFUND_TAX_EVENT,
                                         {"state": str(entry.state), "tax_minor": minor}, now)
                        conn.execute("UPDATE entries SET tax_minor = ? WHERE id = ?",
                                     (minor, entry.id))
                if taxes:
                    self.store.ticket_written(ticket_id)
            conn.execute("DELETE FROM refund_tax_due")
        if unpriced:
            log.warning("journal: the refunds of %d ticket(s) journaled before a refund carried "
                        "its tax could not be priced (tickets %s): their tax given back stays 0",
                        len(unpriced), ", ".join(map(str, unpriced[:10]))
                        + (", ..." if len(unpriced) > 10 else ""))

    def _columns(self, row: sqlite3.Row, changes: Mapping[str, Any]) -> dict[str, Any]:
        cur = row["currency"]
        cols: dict[str, Any] = {}
        for key, value in changes.items():
            if key in ("requested", "approved", "tip", "tax", "captured", "refunded", "pending"):
                cols[f"{key}_minor"] = minor_units(key, value, cur)
            elif key == "card":
                cols["card"], cols["card_last4"] = masked_card(value)
            elif key == "token":
                cols["token"] = encode_token(value)
            elif key == "op":
                cols["op"] = str(Op(value)) if value else None
            elif key in MUTABLE:
                if value is not None and not isinstance(value, str | int):
                    raise ValidationError(key, "must be text or a whole number")
                guard_text(key, value)
                cols[key] = clean_text(value) if isinstance(value, str) else value
            else:
                raise ValidationError(key, "is not a field of a journal entry")
        return cols

    def _apply(self, conn: sqlite3.Connection, row: sqlite3.Row, cols: dict[str, Any], actor: str,
               type_: str, now: str) -> tuple[dict[str, Any], bool]:
        """Write one change; returns the row as written and whether another entry was changed
        too (a propagation may come back to this one, so that row must then be re-read)."""
        entry_id = int(row["id"])
        self.store.moved(entry_id)
        old = dict(row)
        new = {**old, **cols}
        data = dict(cols)
        if old["state"] != new["state"]:
            data["_from"] = old["state"]
        self.store.event(entry_id, actor, type_, data, now)
        if old.get("ticket_id") is not None:
            self.store.ticket_written(int(old["ticket_id"]))
        sets = ", ".join(f"{k} = ?" for k in cols)
        conn.execute(f"UPDATE entries SET {sets} WHERE id = ?", (*cols.values(), entry_id))
        before, after = contribution(old), contribution(new)
        if before != after or old["batch_no"] != new["batch_no"]:
            if before is not None:
                add_total(conn, int(old["batch_no"]), before, -1)
            if after is not None:
                add_total(conn, int(new["batch_no"]), after, 1)
        propagated = False
        if old["kind"] == Kind.REFUND and old["original_invoice"]:
            self._propagate_refund(conn, old, new, actor, now)
            propagated = True
        if old["kind"] == Kind.CHARGE and new["op"] in (Op.CAPTURE, Op.REFUND) and new["charge_id"]:
            self._propagate_charge(conn, old, new, actor, now)
            propagated = True
        return new, propagated

    def _propagate_charge(self, conn: sqlite3.Connection, old: Mapping[str, Any],
                          new: Mapping[str, Any], actor: str, now: str) -> None:
        """A Charge API capture or refund is mirrored on the charge it moved (the charge or
        authorization entry with that ``charge_id``), in the same transaction, so the original
        shows what was captured and refunded and an authorization leaves the open bucket once
        captured."""
        column = "captured_minor" if new["op"] == Op.CAPTURE else "refunded_minor"

        def counted(row: Mapping[str, Any]) -> int:
            return int(row[column]) if row["state"] in (State.APPROVED, State.CAPTURED) else 0

        delta = counted(new) - counted(old)
        if delta == 0:
            return
        origin = conn.execute(
            "SELECT * FROM entries WHERE kind = 'charge' AND charge_id = ? AND op IN ('charge', "
            "'authorization') AND state IN ('approved', 'captured') ORDER BY id LIMIT 1",
            (new["charge_id"],)).fetchone()
        if origin is None:
            return  # a charge made by another till or system: nothing to mirror
        amount = max(int(origin[column]) + delta, 0)
        cols: dict[str, Any] = {column: amount, "updated_at": now}
        if column == "captured_minor" and origin["op"] == Op.AUTHORIZATION and amount > 0:
            cols["state"] = str(State.CAPTURED)
        self._apply(conn, origin, cols, actor, "captured" if column == "captured_minor" else "refunded",
                    now)
        if column == "refunded_minor" and origin["op"] == Op.AUTHORIZATION \
                and not int(origin["captured_minor"]) and delta > 0:
            # the refund of an authorization never captured releases it: no money came in, so
            # none goes out; journaled as a void so no total counts it as a refund
            self._apply(conn, self._row(int(new["id"])), {"op": str(Op.VOID), "updated_at": now,
                                                           "message": "authorization released"},
                        actor, "released", now)

    def _propagate_refund(self, conn: sqlite3.Connection, old: Mapping[str, Any],
                          new: Mapping[str, Any], actor: str, now: str) -> None:
        """A linked refund's approved amount is mirrored on its original, in the same transaction."""
        def counted(row: Mapping[str, Any]) -> int:
            return 0 if row["state"] in (State.VOIDED, State.DECLINED, State.ERROR) \
                else int(row["approved_minor"])

        delta = counted(new) - counted(old)
        if delta == 0:
            return
        original = conn.execute("SELECT * FROM entries WHERE invoice = ?",
                                (old["original_invoice"],)).fetchone()
        if original is None:
            return  # an original from another till or system: nothing to mirror
        refunded = max(int(original["refunded_minor"]) + delta, 0)
        self._apply(conn, original, {"refunded_minor": refunded, "updated_at": now}, actor,
                    "refunded", now)

    def correct(self, entry_id: int, state: State | str, *, was: State, actor: str,
                found_by: str, **changes: Unpack[EntryChanges]) -> Entry | None:
        """The host is the truth, later too: an entry the host holds otherwise than the journal
        (``CORRECTIONS``) is corrected, one ``corrected`` event with both states and who found it
        (a correction is no transition of the payment's life: the journal had it wrong). ``was``
        is the state the comparison saw: an entry another path moved meanwhile is left alone
        (None). The note carries the money the correction moved, for every report."""
        new_state = State(state)
        check_actor(actor)
        guard_text("found_by", found_by)
        if new_state not in CORRECTIONS.get(was, frozenset()):
            raise JournalError(f"state: a correction cannot move {was} to {new_state}")
        with self.store.transaction() as conn:
            row = self._row(entry_id)
            if State(row["state"]) is not was:
                return None  # another path moved it since the host was asked: asked next time
            self._take(row)
            cols = self._columns(row, changes)
            now = self.store.now()
            cols.update(state=str(new_state), updated_at=now)
            if new_state in (State.DECLINED, State.ERROR):
                cols["approved_minor"] = 0  # nothing approved: the host holds it not charged
            moved = _net(contribution({**dict(row), **cols})) - _net(contribution(dict(row)))
            self._apply(conn, row, cols, actor, "corrected", now)
            self.store.event(entry_id, actor, "correction",
                             {"_note": {"was": str(was), "now": str(new_state), "found_by": found_by,
                                        "invoice": row["invoice"],
                                        "amount": str(money(moved, str(row["currency"])))}}, now)
            return _entry(self._row(entry_id))

    def open_batch_settled(self) -> list[Entry]:
        """Every entry of the open batch not in flight that the host numbers by invoice: compared
        with the host by recovery and before a close (the host is the truth, later too)."""
        rows = self.conn.execute(
            "SELECT * FROM entries WHERE batch_no = 0 AND invoice IS NOT NULL AND state IN "
            "('approved', 'captured', 'error', 'declined', 'voided') ORDER BY id")
        return [_entry(r) for r in rows]

    def corrections(self) -> list[Event]:
        """Every correction the host's later answers made (the Manager screen, reports)."""
        rows = self.conn.execute("SELECT * FROM events WHERE type = 'correction' ORDER BY id")
        return [Event(id=r["id"], entry_id=r["entry_id"], at=r["at"], actor=r["actor"],
                      type=r["type"], data=json.loads(r["data"])) for r in rows]

    def mismatches(self) -> list[Event]:
        """Every answer that approved another payment than the one asked (``MISMATCH_NOTE``): the
        Manager screen lists them for the manager to settle with the host."""
        rows = self.conn.execute("SELECT * FROM events WHERE type = ? ORDER BY id", (MISMATCH_NOTE,))
        return [Event(id=r["id"], entry_id=r["entry_id"], at=r["at"], actor=r["actor"],
                      type=r["type"], data=json.loads(r["data"])) for r in rows]

    def batch_corrections(self, batch_no: int = 0) -> tuple[int, Decimal]:
        """How many corrections the entries of a batch had, and what they added to the net (the
        batch close shows them)."""
        rows = self.conn.execute(
            "SELECT v.data FROM events v JOIN entries e ON e.id = v.entry_id "
            "WHERE v.type = 'correction' AND e.batch_no = ?", (batch_no,))
        return corrections_figure((json.loads(r[0]) for r in rows), self.currency)

    def note(self, entry_id: int | None, type_: str, *, actor: str, **data: object) -> None:
        """An event that changes no projection field (a PIN pad prompt, a reconciliation...)."""
        check_actor(actor)
        guard_text(type_, data)
        with self.store.transaction() as conn:
            self.store.event(entry_id, actor, type_, {"_note": data}, self.store.now())
            if entry_id is not None:  # a tender's note (cash tendered) changes what its ticket shows
                row = conn.execute("SELECT ticket_id FROM entries WHERE id = ?", (entry_id,)).fetchone()
                if row is not None and row[0] is not None:
                    ticket_id = int(row[0])
                    self.store.ticket_written(ticket_id)
                    before = self.store.held_before(ticket_id)
                    if type_ == CASH_NOTE and before is not None:  # as ``ticket`` reads it back
                        cash = (Decimal(str(data["tendered"])), Decimal(str(data["change"])))
                        self.store.hold_changed(ticket_id, cash={**before.cash, entry_id: cash})

    # ---- owners: one process per payment in flight ----------------------------------------------
    @property
    def owner(self) -> str:
        """This process's lease token on this journal (held from first use to the process's end)."""
        cached = self._owner_token
        if cached is None or cached[0] != os.getpid():  # a forked child holds a lease of its own
            cached = self._owner_token = (os.getpid(), lease_for(self.store.path).hold())
        return cached[1]

    def owner_of(self, entry_id: int) -> str | None:
        row = self.conn.execute("SELECT owner FROM entry_owners WHERE entry_id = ?",
                                (entry_id,)).fetchone()
        return None if row is None else str(row[0])

    def owned_elsewhere(self, entry_id: int) -> str | None:
        """The token of another live process that has this entry in flight (None: nobody else,
        or the entry is settled). Read only: ``claim`` takes it."""
        row = self._row(entry_id)
        if State(row["state"]) not in UNRESOLVED:
            return None
        owner = self.owner_of(entry_id)
        if owner is None or owner == lease_for(self.store.path).token or not alive(self.store.path, owner):
            return None
        return owner

    def owned_elsewhere_among(self, entry_ids: Sequence[int]) -> dict[int, str]:
        """``owned_elsewhere`` for many entries in one read (recovery's list): entry id ->
        the token of the other live process that has it in flight."""
        me = lease_for(self.store.path).token
        owners: dict[int, str] = {}
        for start in range(0, len(entry_ids), 500):  # within SQLite's bound on parameters
            chunk = list(entry_ids[start:start + 500])
            marks = ", ".join("?" * len(chunk))
            owners.update((int(r[0]), str(r[1])) for r in self.conn.execute(
                f"SELECT o.entry_id, o.owner FROM entry_owners o JOIN entries e ON e.id = o.entry_id "
                f"WHERE o.entry_id IN ({marks}) AND e.state IN {UNRESOLVED_SQL}", chunk))
        lives: dict[str, bool] = {}  # one question to the OS per owner, not per entry
        for token in set(owners.values()) - {me}:
            lives[token] = alive(self.store.path, token)
        return {i: token for i, token in owners.items() if token != me and lives[token]}

    def _take(self, row: sqlite3.Row) -> None:
        """Inside a write: this process becomes the entry's owner, refused (``EntryOwned``) while
        the entry is in flight in another process that still lives."""
        entry_id = int(row["id"])
        me = self.owner
        owner = self.owner_of(entry_id)
        if owner == me:
            return
        if owner is not None and State(row["state"]) in UNRESOLVED and alive(self.store.path, owner):
            raise EntryOwned(f"invoice {row['invoice']}" if row["invoice"] else "entry", owner)
        self.conn.execute("INSERT INTO entry_owners(entry_id, owner, since) VALUES (?, ?, ?) "
                          "ON CONFLICT(entry_id) DO UPDATE SET owner = excluded.owner, "
                          "since = excluded.since", (entry_id, me, self.store.now()))
        if owner is not None:
            self.store.event(entry_id, "system", "owner_taken",
                             {"_note": {"from": owner, "to": me}}, self.store.now())

    def claim(self, entry_id: int) -> Entry:
        """Take an entry before settling it (recovery, a cancel, a void): ``EntryOwned`` while
        its owner lives. Returns the entry as it is now (another process may have settled it)."""
        with self.store.transaction():
            row = self._row(entry_id)
            self._take(row)
            return _entry(row)

    # ---- jobs ---------------------------------------------------------------------------------
    def request_void(self, entry_id: int, *, reason: str, actor: str,
                     refusal: Callable[[Entry, list[Entry]], str | None] | None = None,
                     ) -> tuple[Entry, Job]:
        """Move to VOIDING and create the job in one transaction, so a crash keeps both.
        ``refusal`` (the void rule, ``entry_rules.void_refusal``) is asked in that transaction,
        with the entry's refunds in flight: a refund journaled meanwhile by another process is
        seen (``ValidationError`` on the invoice, nothing journaled)."""
        if not re.fullmatch(r"0[1-9]", reason):
            raise ValidationError("reversal_reason", "must be 01 to 09")
        check_actor(actor)
        with self.store.transaction() as conn:
            row = self._row(entry_id)
            current = State(row["state"])
            if refusal is not None and current is not State.VOIDING:
                why = refusal(_entry(row), self.refunds_in_flight(str(row["invoice"])))
                if why is not None:
                    raise ValidationError("invoice", why)
            self._take(row)
            if current is State.VOIDING:
                job = conn.execute("SELECT * FROM jobs WHERE entry_id = ? AND state = 'pending' "
                                   "ORDER BY id DESC", (entry_id,)).fetchone()
                if job is not None:
                    return _entry(row), _job(job)
            elif current not in (State.APPROVED, State.CAPTURED, State.UNKNOWN):
                raise JournalError(f"state: a {current} entry cannot be voided (only approved, "
                                   "captured or unknown ones)")
            if int(row["batch_no"]) != 0:
                raise JournalError("state: the entry is in a closed batch; refund it instead")
            now = self.store.now()
            self._apply(conn, row, {"state": str(State.VOIDING), "reversal_reason": reason,
                                    "op": str(Op.VOID), "updated_at": now},
                        actor, "void_requested", now)
            cur = conn.execute("INSERT INTO jobs(entry_id, kind, reason, next_at, created_at, created_by) "
                               "VALUES (?, 'void', ?, ?, ?, ?)", (entry_id, reason, now, now, actor))
            job = conn.execute("SELECT * FROM jobs WHERE id = ?", (cur.lastrowid,)).fetchone()
            return _entry(self._row(entry_id)), _job(job)

    def job_retry(self, job_id: int, *, error: str, delay_s: float) -> Job:
        guard_text("error", error)
        with self.store.transaction() as conn:
            next_at = iso(self.store.clock() + timedelta(seconds=delay_s))
            conn.execute("UPDATE jobs SET attempts = attempts + 1, last_error = ?, next_at = ? "
                         "WHERE id = ?", (error[:500], next_at, job_id))
            row = conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
            self.store.event(int(row["entry_id"]), "system", "job_retry",
                             {"_note": {"job": job_id, "error": error[:500], "next_at": next_at}},
                             self.store.now())
            return _job(row)

    def finish_job(self, job_id: int, *, outcome: str, actor: str, state: State | str,
                   **changes: Unpack[EntryChanges]) -> Entry:
        """Close the job and move its entry in the same transaction."""
        new_state = State(state)
        with self.store.transaction() as conn:
            job = conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
            if job is None:
                raise JournalError(f"job: no job {job_id}")
            row = self._row(int(job["entry_id"]))
            if State(row["state"]) is State.VOIDED and new_state is State.VOIDED:
                conn.execute("UPDATE jobs SET state = ?, done_at = ? WHERE id = ? AND state = "
                             "'pending'", (outcome, self.store.now(), job_id))
                return _entry(row)  # voided meanwhile by another path: the job is done too
            self._take(row)
            check_transition(State(row["state"]), new_state)
            cols = self._columns(row, changes)
            now = self.store.now()
            cols.update(state=str(new_state), updated_at=now)
            self._apply(conn, row, cols, actor, f"void_{outcome}", now)
            conn.execute("UPDATE jobs SET state = ?, done_at = ?, attempts = attempts + 1 WHERE id = ?",
                         (outcome, now, job_id))
            return _entry(self._row(int(row["id"])))

    def state_before_void(self, entry_id: int) -> State:
        """What the entry was before its (latest) void was requested."""
        row = self.conn.execute(
            "SELECT data FROM events WHERE entry_id = ? AND type = 'void_requested' "
            "ORDER BY id DESC LIMIT 1", (entry_id,)).fetchone()
        if row is None:
            return State.APPROVED
        return State(json.loads(row["data"]).get("_from", State.APPROVED))

    def due_jobs(self, *, all_pending: bool = False) -> list[Job]:
        if all_pending:
            rows = self.conn.execute("SELECT * FROM jobs WHERE state = 'pending' ORDER BY id").fetchall()
        else:
            rows = self.conn.execute("SELECT * FROM jobs WHERE state = 'pending' AND next_at <= ? "
                                     "ORDER BY next_at", (self.store.now(),)).fetchall()
        return [_job(r) for r in rows]

    # ---- batches ------------------------------------------------------------------------------
    def close_batch(self, *, actor: str, override: bool, summary: Mapping[str, Any],
                    through_event: int | None = None) -> int:
        """Move every finished entry of the open batch into a new closed batch, except open tabs
        (the host batches a tab only once it is captured, so it stays in the open batch); with
        ``through_event``, only entries created at or before that event (a store-wide close
        covers what the store had received from this till when it closed)."""
        check_actor(actor)
        guard_text("summary", summary)
        with self.store.transaction() as conn:
            batch_no = int(conn.execute("SELECT COALESCE(MAX(batch_no), 0) + 1 FROM batches").fetchone()[0])
            ids = [int(r[0]) for r in conn.execute(
                f"SELECT id FROM entries WHERE batch_no = 0 AND state NOT IN {UNRESOLVED_SQL} "
                f"AND NOT ({OPEN_TAB_SQL})")]
            if through_event is not None:
                created = {int(r[0]) for r in conn.execute(
                    "SELECT entry_id FROM events WHERE type = 'created' AND id <= ?", (through_event,))}
                ids = [i for i in ids if i in created]
            now = self.store.now()
            conn.execute("INSERT INTO batches(batch_no, closed_at, closed_by, override, summary) "
                         "VALUES (?, ?, ?, ?, ?)", (batch_no, now, actor, int(override),
                                                    json.dumps(summary, sort_keys=True, default=str)))
            conn.executemany("UPDATE entries SET batch_no = ? WHERE id = ?",
                             [(batch_no, i) for i in ids])
            self.store.event(None, actor, "batch_closed",
                             {"batch_no": batch_no, "entries": ids, "override": override,
                              "_note": dict(summary)}, now)
            rebuild_totals(conn, (0, batch_no))
            return batch_no

    # ---- reads --------------------------------------------------------------------------------
    def get(self, entry_id: int) -> Entry:
        return _entry(self._row(entry_id))

    def by_invoice(self, invoice: str) -> Entry | None:
        row = self.conn.execute("SELECT * FROM entries WHERE invoice = ?", (invoice,)).fetchone()
        return None if row is None else _entry(row)

    def by_idempotency_key(self, key: str) -> Entry | None:
        row = self.conn.execute("SELECT * FROM entries WHERE idempotency_key = ?", (key,)).fetchone()
        return None if row is None else _entry(row)

    def refunds_in_flight(self, invoice: str) -> list[Entry]:
        """The linked refunds of ``invoice`` whose answer is not known yet (an approved one is
        mirrored on the original as ``refunded``)."""
        rows = self.conn.execute(f"SELECT * FROM entries WHERE state IN {UNRESOLVED_SQL} AND "
                                 "original_invoice = ? ORDER BY id", (invoice,))
        return [_entry(r) for r in rows]

    def unresolved(self) -> list[Entry]:
        rows = self.conn.execute(f"SELECT * FROM entries WHERE state IN {UNRESOLVED_SQL} ORDER BY id")
        return [_entry(r) for r in rows]

    def open_authorizations(self) -> list[Entry]:
        rows = self.conn.execute(
            f"SELECT * FROM entries INDEXED BY entries_tabs WHERE {OPEN_TAB_SQL} ORDER BY created_at")
        return [_entry(r) for r in rows]

    def stored_offline(self) -> list[Entry]:
        """Payments the gateway approved by itself while the host was away and the host has not
        settled yet (store and forward, issue 40), oldest first."""
        rows = self.conn.execute("SELECT * FROM entries INDEXED BY entries_offline "
                                 "WHERE offline = 'stored' ORDER BY created_at, id")
        return [_entry(r) for r in rows]

    def offline_view(self) -> OfflineView:
        """The offline status in one read on the reader's thread (``flows.offline.status``):
        only the columns it shows, through the two partial indexes."""
        columns = ("id, invoice, ticket_id, state, currency, requested_minor, approved_minor, "
                   "card_last4, created_at")

        def rows(index: str, where: str) -> tuple[OfflinePayment, ...]:
            return tuple(
                OfflinePayment(id=r["id"], invoice=r["invoice"], ticket_id=r["ticket_id"],
                               state=State(r["state"]),
                               requested=money(r["requested_minor"], r["currency"]),
                               approved=money(r["approved_minor"], r["currency"]),
                               card_last4=r["card_last4"], created_at=r["created_at"])
                for r in self.conn.execute(f"SELECT {columns} FROM entries INDEXED BY {index} "
                                           f"WHERE {where} ORDER BY created_at, id"))
        return OfflineView(self.last_mode(), rows("entries_offline", "offline = 'stored'"),
                           rows("entries_declined_on_forward", "state = 'declined_on_forward'"))

    def declined_on_forward(self) -> list[Entry]:
        """Stored payments the host declined at the forward: the customer owes them."""
        rows = self.conn.execute("SELECT * FROM entries INDEXED BY entries_declined_on_forward "
                                 "WHERE state = 'declined_on_forward' ORDER BY created_at, id")
        return [_entry(r) for r in rows]

    def last_mode(self) -> Event | None:
        """The till's last offline or online switch (``mode_offline``, ``mode_online``)."""
        r = self.conn.execute("SELECT * FROM events INDEXED BY events_mode WHERE type IN "
                              "('mode_offline', 'mode_online') AND entry_id IS NULL "
                              "ORDER BY id DESC LIMIT 1").fetchone()
        if r is None:
            return None
        return Event(id=r["id"], entry_id=r["entry_id"], at=r["at"], actor=r["actor"],
                     type=r["type"], data=json.loads(r["data"]))

    def search(self, *, day: str | None = None, invoice: str | None = None,
               amount: Decimal | None = None, last4: str | None = None, since: str | None = None,
               until: str | None = None, kinds: Sequence[str] = (), states: Sequence[str] = (),
               limit: int = 500) -> list[Entry]:
        """Today's screen: filter by day (local YYYY-MM-DD), invoice, amount, last four, time."""
        where: list[str] = []
        args: list[Any] = []
        if day is not None:
            where.append("business_date = ?")
            args.append(day)
        if invoice is not None:
            where.append("invoice = ?")
            args.append(invoice)
        if amount is not None:
            # the amount a list shows (approved, or captured with the tip) or the one asked for
            where.append("? IN (requested_minor, approved_minor, captured_minor)")
            args.append(minor_units("amount", amount, self.currency))
        if last4 is not None:
            if not re.fullmatch(r"\d{4}", last4):
                raise ValidationError("last4", "must be exactly 4 digits")
            where.append("card_last4 = ?")
            args.append(last4)
        if since is not None:
            where.append("created_at >= ?")
            args.append(since)
        if until is not None:
            where.append("created_at < ?")
            args.append(until)
        if kinds:
            where.append(f"kind IN ({','.join('?' * len(kinds))})")
            args.extend(kinds)
        if states:
            where.append(f"state IN ({','.join('?' * len(states))})")
            args.extend(states)
        sql = "SELECT * FROM entries" + (" WHERE " + " AND ".join(where) if where else "")
        rows = self.conn.execute(sql + " ORDER BY id DESC LIMIT ?", (*args, limit))
        return [_entry(r) for r in rows]

    def totals(self, batch_no: int = 0) -> Totals:
        rows = self.conn.execute("SELECT bucket, currency, count, amount_minor FROM totals "
                                 "WHERE batch_no = ? AND count != 0", (batch_no,)).fetchall()
        unresolved = int(self.conn.execute(
            f"SELECT COUNT(*) FROM entries WHERE state IN {UNRESOLVED_SQL} AND batch_no = ?",
            (batch_no,)).fetchone()[0])
        return Totals(batch_no=batch_no, unresolved=unresolved,
                      buckets={(r["bucket"], r["currency"]): (int(r["count"]),
                                                              money(r["amount_minor"], r["currency"]))
                               for r in rows})

    def events(self, entry_id: int | None = None) -> list[Event]:
        if entry_id is None:
            rows = self.conn.execute("SELECT * FROM events ORDER BY id")
        else:
            rows = self.conn.execute("SELECT * FROM events WHERE entry_id = ? ORDER BY id", (entry_id,))
        return [Event(id=r["id"], entry_id=r["entry_id"], at=r["at"], actor=r["actor"], type=r["type"],
                      data=json.loads(r["data"])) for r in rows]

    def pending_jobs(self) -> list[Job]:
        return self.due_jobs(all_pending=True)

    def all_rows(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.conn.execute("SELECT * FROM entries ORDER BY id")]

    def integrity_check(self) -> str:
        return str(self.conn.execute("PRAGMA integrity_check").fetchone()[0])

    # ---- the projection is a fold of the events -------------------------------------------------
    def replay(self) -> tuple[list[dict[str, Any]], dict[tuple[int, str, str], tuple[int, int]]]:
        """Rebuild entries and totals from the events alone, in memory, without touching tables."""
        entries: dict[int, dict[str, Any]] = {}
        for event in self.events():
            data = {k: v for k, v in event.data.items() if not k.startswith("_")}
            if event.type == "created" and event.entry_id is not None:
                entries[event.entry_id] = {"id": event.entry_id, **data}
            elif event.type == "batch_closed":
                for entry_id in data.get("entries", []):
                    entries[int(entry_id)]["batch_no"] = data["batch_no"]
            elif event.entry_id is not None and data:
                entries[event.entry_id].update(data)
        totals: dict[tuple[int, str, str], tuple[int, int]] = {}
        for row in entries.values():
            part = contribution(row)
            if part is not None:
                key = (int(row["batch_no"]), part[0], part[1])
                count, minor = totals.get(key, (0, 0))
                totals[key] = (count + 1, minor + part[2])
        columns = [r[1] for r in self.conn.execute("PRAGMA table_info(entries)")]
        rows = [{c: entries[i].get(c) for c in columns} for i in sorted(entries)]
        return rows, totals

    def live_totals(self) -> dict[tuple[int, str, str], tuple[int, int]]:
        return {(int(r[0]), r[1], r[2]): (int(r[3]), int(r[4])) for r in self.conn.execute(
            "SELECT batch_no, bucket, currency, count, amount_minor FROM totals WHERE count != 0")}

    def rebuild_projection(self) -> None:
        """Replace the projection and totals with the fold of the events (repair tool)."""
        rows, _ = self.replay()
        with self.store.transaction() as conn:
            conn.execute("PRAGMA defer_foreign_keys = ON")
            conn.execute("DELETE FROM entries")
            for row in rows:
                cols = ", ".join(row)
                conn.execute(f"INSERT INTO entries({cols}) VALUES "
                             f"({', '.join('?' * len(row))})", tuple(row.values()))
            rebuild_totals(conn)


class JournalRecorder:
    """The journal on one connection: the datastore and every recorder built on it, as the till's
    code uses them (one name for each reading and writing). Not thread-safe: one thread owns it."""

    def __init__(self, path: str | Path, *, till_id: str = "training", till_number: int = 1,
                 currency: str = "USD", training: bool = False, reader: bool = False,
                 clock: Callable[[], datetime] = utc_now, invoice_time_floor: bool = False,
                 lock_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.store = store = Datastore(path, till_id=till_id, till_number=till_number,
                                       currency=currency, training=training, reader=reader,
                                       clock=clock, invoice_time_floor=invoice_time_floor,
                                       lock_timeout_s=lock_timeout_s)
        self.tickets = tickets = TicketRecorder(store)
        self.entries = entries = EntryRecorder(store, tickets)
        if not reader:  # the refunds journal v16 found without their tax get it (decision 011)
            try:
                entries.price_refunds_due()
            except BaseException:
                store.close()
                raise
        self.drawer = drawer = DrawerRecorder(store)
        self.reports = reports = ReportRecorder(store)
        self.outbox = outbox = OutboxRecorder(store)
        #: the mail outbox (e-mailed receipts), used by ``cashier.mail`` as it is
        self.mail = MailRecorder(store)
        self.conn = store.conn
        # the datastore: transactions, the held lines, the journal's time, what a write moved
        self.transaction = store.transaction
        self.close = store.close
        self.flush_lines = store.flush_lines
        self.begin_lines_now = store.begin_lines_now
        self.holds_ticket = store.holds_ticket
        self.take_changes = store.take_changes
        self.take_moved = store.take_moved
        #: The journal's time for a write of another table in the same transaction (the drawer).
        self.journal_now = store.now
        # entries
        self.time_floor = entries.time_floor
        self.next_invoice = entries.next_invoice
        self.invoice_high_water = entries.invoice_high_water
        self.raise_invoice_floor = entries.raise_invoice_floor
        self.store_number_word = entries.store_number_word
        self.record_store_number = entries.record_store_number
        self.allocate_invoice = entries.allocate_invoice
        self.create = entries.create
        self.transition = entries.transition
        self.correct = entries.correct
        self.note = entries.note
        self.claim = entries.claim
        self.owner_of = entries.owner_of
        self.owned_elsewhere = entries.owned_elsewhere
        self.owned_elsewhere_among = entries.owned_elsewhere_among
        self.request_void = entries.request_void
        self.job_retry = entries.job_retry
        self.finish_job = entries.finish_job
        self.state_before_void = entries.state_before_void
        self.due_jobs = entries.due_jobs
        self.pending_jobs = entries.pending_jobs
        self.close_batch = entries.close_batch
        self.open_batch_settled = entries.open_batch_settled
        self.corrections = entries.corrections
        self.mismatches = entries.mismatches
        self.batch_corrections = entries.batch_corrections
        self.get = entries.get
        self.by_invoice = entries.by_invoice
        self.by_idempotency_key = entries.by_idempotency_key
        self.refunds_in_flight = entries.refunds_in_flight
        self.unresolved = entries.unresolved
        self.open_authorizations = entries.open_authorizations
        self.stored_offline = entries.stored_offline
        self.declined_on_forward = entries.declined_on_forward
        self.offline_view = entries.offline_view
        self.last_mode = entries.last_mode
        self.search = entries.search
        self.totals = entries.totals
        self.events = entries.events
        self.all_rows = entries.all_rows
        self.integrity_check = entries.integrity_check
        self.replay = entries.replay
        self.live_totals = entries.live_totals
        self.rebuild_projection = entries.rebuild_projection
        # tickets
        self.create_ticket = tickets.create_ticket
        self.add_ticket_line = tickets.add_ticket_line
        self.remove_ticket_line = tickets.remove_ticket_line
        self.set_ticket_tip = tickets.set_ticket_tip
        self.add_ticket_discount = tickets.add_ticket_discount
        self.close_ticket = tickets.close_ticket
        self.close_ticket_if = tickets.close_ticket_if
        self.park_ticket = tickets.park_ticket
        self.parked_ticket_ids = tickets.parked_ticket_ids
        self.ticket = tickets.ticket
        self.held_ticket = tickets.held_ticket
        self.ticket_till = tickets.ticket_till
        self.ticket_ids = tickets.ticket_ids
        self.all_ticket_rows = tickets.all_ticket_rows
        # the drawer
        self.require_cash_drawer = drawer.require_cash_drawer
        self.drawer_current = drawer.drawer_current
        self.drawer_session = drawer.drawer_session
        self.drawer_last_closed = drawer.drawer_last_closed
        self.drawer_cash = drawer.drawer_cash
        self.drawer_move_sums = drawer.drawer_move_sums
        self.drawer_moves = drawer.drawer_moves
        self.drawer_last_move = drawer.drawer_last_move
        self.drawer_counts = drawer.drawer_counts
        self.drawer_report = drawer.drawer_report
        self.drawer_tx = drawer.drawer_tx
        self.drawer_move = drawer.drawer_move
        self.drawer_open_session = drawer.drawer_open_session
        self.drawer_mark_counted = drawer.drawer_mark_counted
        self.drawer_close_session = drawer.drawer_close_session
        self.drawer_save_report = drawer.drawer_save_report
        # the reports
        self.report_groups = reports.report_groups
        self.report_ticket_count = reports.report_ticket_count
        self.report_ticket_tax = reports.report_ticket_tax
        self.report_corrections = reports.report_corrections
        self.report_groups_by_hour = reports.report_groups_by_hour
        self.report_lines = reports.report_lines
        # the store outbox
        self.outbox_state = outbox.outbox_state
        self.save_outbox_mark = outbox.save_outbox_mark
        self.last_event_id = outbox.last_event_id
        self.read_events = outbox.read_events
        self.outbox_chain = outbox.outbox_chain
        self.save_pushed = outbox.save_pushed
        self.chain_through = outbox.chain_through

    # ---- the datastore's settings ---------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self.store.path

    @property
    def till_id(self) -> str:
        return self.store.till_id

    @property
    def till_number(self) -> int:
        return self.store.till_number

    @property
    def currency(self) -> str:
        return self.store.currency

    @property
    def training(self) -> bool:
        return self.store.training

    @property
    def clock(self) -> Callable[[], datetime]:
        """The wall clock the journal's time is made of (a test's seam)."""
        return self.store.clock

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self.store.clock = clock

    @property
    def hold_lines(self) -> bool:
        return self.store.hold_lines

    @hold_lines.setter
    def hold_lines(self, hold: bool) -> None:
        self.store.hold_lines = hold

    @property
    def lines_held(self) -> bool:
        return self.store.lines_held

    @property
    def owner(self) -> str:
        """This process's lease token on this journal (``EntryRecorder.owner``)."""
        return self.entries.owner

    # ---- a write across recorders ---------------------------------------------------------------
    def cash_tender(self, ticket_id: int, applied: Decimal, *, tendered: Decimal, change: Decimal,
                    tip: Decimal | None, actor: str, message: str,
                    close_if: Callable[[TicketRecord], bool] | None = None,
                    tax: Decimal | None = None,
                    rounding: Decimal = Decimal(0)) -> tuple[Entry, TicketRecord]:
        """A ticket's cash tender as one write (one commit): the drawer is open, the cash entry
        (approved: the cash is in the hand), what was tendered and the change; and the ticket
        closed as paid in the same commit when ``close_if`` (the ticket's rule) says so. Refused
        whole, with nothing journaled, when the drawer is not open or the cash exceeds what
        remains. Returns the entry and the ticket as it now reads."""
        entries, tickets = self.entries, self.tickets
        with self.store.transaction():
            self.store.keep_held()  # nothing written yet: all still hold
            self.drawer.require_cash_drawer()  # the drawer's rule, under the same lock as the cash
            if rounding:  # the cash rounding first: the tender is checked against the rounded rest
                tickets.set_cash_rounding(ticket_id, rounding, due=applied - rounding, actor=actor)
            entry = entries.create(NewEntry(Kind.CASH, applied, actor=actor, op=Op.SALE,
                                            clerk=actor, tip=tip, tax=tax or None,
                                            ticket_id=ticket_id, message=message))
            entry = entries.transition(entry.id, State.APPROVED, actor=actor, approved=applied)
            entries.note(entry.id, CASH_NOTE, actor=actor, tendered=str(tendered), change=str(change))
            if close_if is not None and close_if(tickets.ticket(ticket_id)):
                tickets.close_ticket(ticket_id, "paid", actor=actor)
            return entry, tickets.ticket(ticket_id)
