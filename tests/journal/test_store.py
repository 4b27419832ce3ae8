"""The journal store: durability settings, state machine, projection fold, totals, card data."""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Iterator
from decimal import Decimal as D
from pathlib import Path

import pytest

from cashier.errors import ValidationError
from cashier.journal import JournalError, JournalRecorder, Kind, State, contains_pan
from cashier.journal.export import export_csv, export_json
from cashier.journal.model import NewEntry
from cashier.redact import luhn_ok
from tests.support.card_numbers import card_numbers_at_rest


@pytest.fixture
def store(tmp_path: Path) -> Iterator[JournalRecorder]:
    s = JournalRecorder(tmp_path / "j.sqlite", till_id="till-3", till_number=3)
    yield s
    s.close()


def approved_sale(store: JournalRecorder, amount: str, **kw: object) -> int:
    e = store.create(NewEntry(Kind.SALE, D(amount), actor="7", sent=True, **kw))  # type: ignore[arg-type]
    store.transition(e.id, State.APPROVED, actor="7", approved=D(amount), auth_code="OK1")
    return e.id


def test_durability_pragmas(store: JournalRecorder) -> None:
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_invoice_is_till_prefix_plus_sequence_and_ten_digits(store: JournalRecorder) -> None:
    invoices = [store.create(NewEntry(Kind.SALE, D("1.00"), actor="7")).invoice for _ in range(3)]
    assert invoices == ["0300000001", "0300000002", "0300000003"]
    assert all(i is not None and len(i) == 10 for i in invoices)


def test_charge_entries_are_keyed_by_idempotency_key(store: JournalRecorder) -> None:
    e = store.create(NewEntry(Kind.CHARGE, D("5.00"), actor="7", idempotency_key="key-1"))
    assert e.invoice is None
    assert store.by_idempotency_key("key-1") == e
    with pytest.raises(ValidationError, match="idempotency_key"):
        store.create(NewEntry(Kind.CHARGE, D("5.00"), actor="7", idempotency_key="key-1"))
    with pytest.raises(ValidationError, match="idempotency_key"):
        store.create(NewEntry(Kind.CHARGE, D("5.00"), actor="7"))
    # the invoice counter is untouched by charges
    assert store.create(NewEntry(Kind.SALE, D("1.00"), actor="7")).invoice == "0300000001"


def test_illegal_transitions_are_refused(store: JournalRecorder) -> None:
    e = store.create(NewEntry(Kind.SALE, D("3.00"), actor="7"))
    with pytest.raises(JournalError, match="cannot move"):
        store.transition(e.id, State.VOIDED, actor="7")
    store.transition(e.id, State.SENT, actor="7")
    store.transition(e.id, State.DECLINED, actor="7", response_code="D")
    with pytest.raises(JournalError, match="from declined to approved"):
        store.transition(e.id, State.APPROVED, actor="7")
    assert store.get(e.id).state is State.DECLINED


def test_every_change_is_an_event_with_actor_and_time(store: JournalRecorder) -> None:
    e = store.create(NewEntry(Kind.SALE, D("3.00"), actor="7", sent=True))
    store.transition(e.id, State.UNKNOWN, actor="7", message="no answer")
    store.transition(e.id, State.APPROVED, actor="recovery", approved=D("3.00"))
    events = store.events(e.id)
    assert [ev.type for ev in events] == ["created", "sent", "unknown", "approved"]
    assert [ev.actor for ev in events] == ["7", "7", "7", "recovery"]
    assert events[-1].data["_from"] == "unknown"
    assert all(re.match(r"\d{4}-\d\d-\d\dT", ev.at) for ev in events)


def test_events_are_append_only(store: JournalRecorder) -> None:
    store.create(NewEntry(Kind.SALE, D("3.00"), actor="7"))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.conn.execute("UPDATE events SET actor = 'x'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.conn.execute("DELETE FROM events")


def test_projection_rebuilt_from_events_equals_live(store: JournalRecorder) -> None:
    rng = random.Random(4)
    for i in range(300):
        kind = rng.choice([Kind.SALE, Kind.AUTHORIZATION, Kind.REFUND])
        e = store.create(NewEntry(kind, D(rng.randint(100, 99999)) / 100, actor=str(rng.randint(1, 9)),
                         sent=rng.random() < 0.8, card="5432000000003332", token=f"tok{i}"))
        if e.state is State.INTENT:
            continue
        outcome = rng.choice([State.APPROVED, State.DECLINED, State.ERROR, State.UNKNOWN])
        approved = e.requested if outcome is State.APPROVED else None
        e = store.transition(e.id, outcome, actor="7", approved=approved)
        if e.state is State.UNKNOWN and rng.random() < 0.5:
            e = store.transition(e.id, State.APPROVED, actor="recovery", approved=e.requested)
        if e.state is State.APPROVED and kind is Kind.AUTHORIZATION and rng.random() < 0.5:
            e = store.transition(e.id, State.SENT, actor="7", op="capture")
            e = store.transition(e.id, State.CAPTURED, actor="7", captured=e.approved + D("1.50"))
        if e.state in (State.APPROVED, State.CAPTURED) and rng.random() < 0.3:
            e, job = store.request_void(e.id, reason="03", actor="9")
            store.finish_job(job.id, outcome="done", actor="system", state=State.VOIDED)
        if i == 150:
            store.close_batch(actor="manager-1", override=False, summary={"n": i})
    rows, totals = store.replay()
    assert rows == store.all_rows()
    assert totals == store.live_totals()
    # and a deliberate repair from events reproduces the same table
    before = store.all_rows()
    store.rebuild_projection()
    assert store.all_rows() == before


def test_running_totals_follow_every_change(store: JournalRecorder) -> None:
    a = approved_sale(store, "10.00")
    approved_sale(store, "2.50")
    auth = store.create(NewEntry(Kind.AUTHORIZATION, D("20.00"), actor="7", sent=True))
    store.transition(auth.id, State.APPROVED, actor="7", approved=D("20.00"))
    t = store.totals()
    assert (t.amount("sale"), t.count("sale"), t.amount("auth_open")) == (D("12.50"), 2, D("20.00"))
    store.transition(auth.id, State.SENT, actor="7", op="capture")
    store.transition(auth.id, State.CAPTURED, actor="7", captured=D("24.00"))
    _, job = store.request_void(a, reason="03", actor="7")
    t = store.totals()
    assert t.amount("sale") == D("12.50")  # voiding is not voided yet: still charged
    store.finish_job(job.id, outcome="done", actor="system", state=State.VOIDED)
    t = store.totals()
    assert (t.amount("sale"), t.count("sale")) == (D("2.50"), 1)
    assert (t.amount("capture"), t.amount("auth_open")) == (D("24.00"), D(0))


def test_batch_close_moves_finished_entries_and_keeps_unresolved_open(store: JournalRecorder) -> None:
    approved_sale(store, "10.00")
    pending = store.create(NewEntry(Kind.SALE, D("4.00"), actor="7", sent=True))
    store.transition(pending.id, State.UNKNOWN, actor="7")
    n = store.close_batch(actor="manager-2", override=True, summary={"reason": "test"})
    assert store.totals(n).amount("sale") == D("10.00")
    assert store.totals(0).amount("sale") == D(0)
    assert store.totals(0).unresolved == 1
    assert store.get(pending.id).batch_no == 0
    ev = next(e for e in store.events() if e.type == "batch_closed")
    assert ev.actor == "manager-2" and ev.data["override"] is True


def test_void_job_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    s = JournalRecorder(path)
    e = s.create(NewEntry(Kind.SALE, D("8.00"), actor="7", sent=True))
    s.transition(e.id, State.UNKNOWN, actor="7")
    s.request_void(e.id, reason="01", actor="7")
    s.close()
    s2 = JournalRecorder(path)
    jobs = s2.pending_jobs()
    assert [(j.entry_id, j.reason, j.kind) for j in jobs] == [(e.id, "01", "void")]
    assert s2.get(e.id).state is State.VOIDING
    assert s2.state_before_void(e.id) is State.UNKNOWN
    retried = s2.job_retry(jobs[0].id, error="host unavailable", delay_s=60)
    assert retried.attempts == 1 and retried.next_at > jobs[0].next_at
    assert s2.due_jobs() == []  # not due for a minute
    s2.close()


def test_void_refused_for_declined_and_closed_batch(store: JournalRecorder) -> None:
    e = store.create(NewEntry(Kind.SALE, D("3.00"), actor="7", sent=True))
    store.transition(e.id, State.DECLINED, actor="7")
    with pytest.raises(JournalError, match="cannot be voided"):
        store.request_void(e.id, reason="03", actor="7")
    a = approved_sale(store, "1.00")
    store.close_batch(actor="m", override=False, summary={})
    with pytest.raises(JournalError, match="refund"):
        store.request_void(a, reason="03", actor="7")


# ---- card data ---------------------------------------------------------------------------------
def test_full_card_number_is_masked_in_card_field(store: JournalRecorder) -> None:
    e = store.create(NewEntry(Kind.SALE, D("1.00"), actor="7", card="4321 0000 0000 1119"))
    assert e.card == "432100XXXXXX1119" and e.card_last4 == "1119"
    e = store.transition(e.id, State.SENT, actor="7", card="5432000000003332")
    assert e.card == "543200XXXXXX3332"


@pytest.mark.parametrize("field", ["message", "auth_code", "clerk", "response_code", "host_code"])
def test_pan_in_any_text_field_is_refused(store: JournalRecorder, field: str) -> None:
    e = store.create(NewEntry(Kind.SALE, D("1.00"), actor="7"))
    with pytest.raises(ValidationError) as info:
        store.transition(e.id, State.SENT, actor="7",
                         **{field: "card 4321-0000-0000-1119 used"})  # type: ignore[arg-type]
    assert info.value.field == field
    with pytest.raises(ValidationError):
        store.create(NewEntry(Kind.SALE, D("1.00"), actor="7", message="pan 373400000002221"))
    with pytest.raises(ValidationError):
        store.note(e.id, "pinpad", actor="7", text="5432000000003332")
    # a long number that fails Luhn is not a card number
    store.transition(e.id, State.SENT, actor="7", message="ref 4321000000001118")


def test_no_card_number_anywhere_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    s = JournalRecorder(path)
    for i, pan in enumerate(["4321000000001119", "5432000000003332", "373400000002221"]):
        e = s.create(NewEntry(Kind.SALE, D("9.99"), actor="7", card=pan, token="8048471746471119",
                     sent=True))
        s.transition(e.id, State.APPROVED, actor="7", approved=D("9.99"), card=pan,
                     token=f"{8048471746471119 + i}")
    assert s.get(1).token == "8048471746471119"  # stored grouped, read back whole
    exports = "\n".join([export_json(s), export_csv(s)])
    assert not contains_pan(exports)
    s.close()
    runs = re.findall(r"(?<!\d)\d{13,19}(?!\d)", exports)
    assert not [r for r in runs if luhn_ok(r)]
    # the database, its WAL and shared memory files: raw pages and every stored value
    assert card_numbers_at_rest(tmp_path) == []


def test_exports(store: JournalRecorder) -> None:
    approved_sale(store, "12.34", card="4321000000001119")
    import csv
    import io
    import json

    data = json.loads(export_json(store))
    assert data["entries"][0]["approved"] == "12.34"
    assert data["entries"][0]["card"] == "432100XXXXXX1119"
    assert [e["type"] for e in data["events"]] == ["created", "sent", "approved"]
    rows = list(csv.DictReader(io.StringIO(export_csv(store))))
    assert rows[0]["invoice"] == "0300000001" and rows[0]["requested"] == "12.34"


def test_searches_for_the_day_screen(store: JournalRecorder) -> None:
    a = approved_sale(store, "12.34", card="4321000000001119")
    approved_sale(store, "5.00", card="5432000000003332")
    auth = store.create(NewEntry(Kind.AUTHORIZATION, D("40.00"), actor="7", sent=True))
    store.transition(auth.id, State.APPROVED, actor="7", approved=D("40.00"))
    u = store.create(NewEntry(Kind.SALE, D("7.00"), actor="7", sent=True))
    store.transition(u.id, State.UNKNOWN, actor="7")
    day = store.get(a).business_date
    assert [e.id for e in store.search(last4="1119")] == [a]
    assert [e.id for e in store.search(amount=D("12.34"), day=day)] == [a]
    assert [e.id for e in store.search(invoice=store.get(a).invoice)] == [a]
    assert len(store.search(day=day)) == 4
    assert store.search(since="2999-01-01") == []
    assert [e.id for e in store.unresolved()] == [u.id]
    assert [e.id for e in store.open_authorizations()] == [auth.id]
    with pytest.raises(ValidationError, match="last4"):
        store.search(last4="11")


def test_bad_amounts_are_refused_with_field(store: JournalRecorder) -> None:
    with pytest.raises(ValidationError, match="requested"):
        store.create(NewEntry(Kind.SALE, D("-1"), actor="7"))
    with pytest.raises(ValidationError, match="tip"):
        store.create(NewEntry(Kind.SALE, D("1"), actor="7", tip=D("0.001")))
    with pytest.raises(ValidationError, match="actor"):
        store.create(NewEntry(Kind.SALE, D("1"), actor=""))
    with pytest.raises(ValidationError, match="not a field"):
        e = store.create(NewEntry(Kind.SALE, D("1"), actor="7"))
        store.transition(e.id, State.SENT, actor="7", bogus="x")  # type: ignore[call-arg]
