"""The SQLite journal: every money movement is written down before it is sent.

Layout
- ``schema``: forward-only migrations (``PRAGMA user_version``), WAL, ``synchronous=FULL``.
- ``datastore.Datastore``: the one connection (one thread owns it), its transactions, the clock
  and the one writer of ``events``; the recorders built on it (``recorder.EntryRecorder``,
  ``tickets.TicketRecorder``, ``drawer_rows.DrawerRecorder``, ``report_rows.ReportRecorder``,
  ``outbox_rows.OutboxRecorder``); ``recorder.JournalRecorder`` is all of them on one datastore.
- ``aio.Journal``: what async code uses, and the one publisher of every change: the writer and
  the reader each run on a ``Lane`` (a thread of its own); ticket lines are held open and
  committed together (``LineFlusher``), a held line written on the caller's thread when the
  writer's lane is idle.
- ``model``: ``Kind``, ``Op``, ``State`` (the state machine and its legal transitions),
  ``Entry`` (the projection row), the one ``Outcome`` word, ``Event``, ``Job``, ``Totals``, and
  what is written (``NewEntry``, ``EntryChanges``); ``rows`` reads a row as an ``Entry``.
- ``ticket_model``: THE ticket read model (``Ticket``) flows, receipts and reports read.
- ``leases``: one owner per payment in flight (each process's OS-held lease).
- ``pin_guard``: every manager PIN checked through it (wrong tries lock it, in the till's guard
  file).
- ``export``: JSON and CSV.
- ``card_guard``: the card-number guard at the boundary; ``tokens``: the token codec;
  ``totals``: which bucket each entry counts in (running totals per batch).

Tables: ``events`` is append-only (triggers refuse UPDATE and DELETE); ``entries`` is the
current-state projection and can be rebuilt from the events (``JournalRecorder.replay``);
``totals`` holds running totals per batch, changed in the same transaction as each entry;
``jobs`` holds durable voids; ``counters`` the invoice sequence and the store's word on the
till's number; ``batches`` the closed batches; ``tickets`` and ``ticket_lines`` the tickets;
``drawer_sessions`` and ``drawer_moves`` the cash drawer; ``store_outbox`` the journal's id and
how far the store has its events; ``entry_owners`` who owns each entry in flight.

Keys: a Host API entry is keyed by its **invoice** (allocated by ``create`` in the same
transaction as the intent: two-digit till number + 8-digit sequence, never reused). A Charge API
entry (``Kind.CHARGE``) has no invoice and is keyed by its **idempotency key** instead::

    entry = await journal.create(NewEntry(Kind.CHARGE, Decimal("12.50"), actor=str(clerk_id),
                                          idempotency_key=key, op=Op.CHARGE, sent=True))
    # ... call the Charge API with Idempotency-Key: key ...
    await journal.transition(entry.id, State.APPROVED, actor=str(clerk_id),
                             approved=Decimal("12.50"), card="424242XXXXXX4242", auth_code="ch_..")
    # after a crash: await journal.by_idempotency_key(key) and re-send with the same key.

Card data: ``card`` is masked on the way in (first 6 + last 4 at most); every other text field
(and every event note) is refused with ``ValidationError`` if it holds a Luhn-valid 13-19 digit
number. Tokens are stored grouped so they never look like a card number.

States: intent -> sent -> approved / declined / error / unknown -> voiding -> voided, plus
captured for authorizations; ``model.TRANSITIONS`` is the whole table. Actors on events are a
clerk or manager id, ``"recovery"`` or ``"system"``.
"""

from cashier.journal.aio import Journal
from cashier.journal.card_guard import contains_pan
from cashier.journal.model import (
    UNRESOLVED,
    Entry,
    Event,
    Job,
    JournalError,
    Kind,
    NewEntry,
    Op,
    Outcome,
    State,
    Totals,
    outcome_of,
)
from cashier.journal.recorder import JournalRecorder

__all__ = ["UNRESOLVED", "Entry", "Event", "Job", "Journal", "JournalError", "JournalRecorder", "Kind",
           "NewEntry", "Op", "Outcome", "State", "Totals", "contains_pan", "outcome_of"]
