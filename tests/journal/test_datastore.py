"""The journal is a datastore with recorders built on it (issue #36): no mixin shares private
state, an intent is one typed value, and the async facade calls nothing by name."""

from __future__ import annotations

import ast
import dataclasses
from decimal import Decimal as D
from pathlib import Path

import pytest

from cashier.journal import Journal, JournalRecorder, Kind, NewEntry, State
from cashier.journal.datastore import Datastore
from cashier.journal.drawer_rows import DrawerRecorder
from cashier.journal.outbox_rows import OutboxRecorder
from cashier.journal.recorder import EntryRecorder
from cashier.journal.report_rows import ReportRecorder
from cashier.journal.tickets import TicketRecorder

JOURNAL = Path(__file__).resolve().parents[2] / "cashier" / "journal"
RECORDERS = ("recorder.py", "tickets.py", "drawer_rows.py", "report_rows.py", "outbox_rows.py")


def test_the_recorder_is_a_composition_on_one_datastore(tmp_path: Path) -> None:
    recorder = JournalRecorder(tmp_path / "j.sqlite")
    try:
        assert JournalRecorder.__mro__ == (JournalRecorder, object)  # no mixin
        parts = (recorder.entries, recorder.tickets, recorder.drawer, recorder.reports,
                 recorder.outbox)
        assert [type(p) for p in parts] == [EntryRecorder, TicketRecorder, DrawerRecorder,
                                            ReportRecorder, OutboxRecorder]
        assert isinstance(recorder.store, Datastore)
        assert all(p.conn is recorder.store.conn for p in parts)
        # one writer of events: a ticket line, an entry and a drawer move all go through it
        ticket = recorder.create_ticket(actor="7", tax_rate=D("0"), tax_included=False, tip_mode="none")
        recorder.add_ticket_line(ticket, name="Tea", quantity=1, unit_price=D("2.00"), actor="7")
        entry = recorder.create(NewEntry(Kind.SALE, D("2.00"), actor="7", sent=True))
        recorder.transition(entry.id, State.APPROVED, actor="7", approved=D("2.00"))
        assert [e.type for e in recorder.events()] == ["ticket_created", "ticket_line_added",
                                                       "created", "sent", "approved"]
    finally:
        recorder.close()


def test_no_recorder_reaches_into_another_or_the_datastore(tmp_path: Path) -> None:
    """The recorders use the datastore's public methods only (``store.now()``, not ``_now``)."""
    for name in RECORDERS:
        tree = ast.parse((JOURNAL / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                    and not node.attr.startswith("__") and isinstance(node.value, ast.Attribute):
                pytest.fail(f"{name}:{node.lineno}: reaches another object's private "
                            f"{ast.unparse(node)}")


def test_an_intent_is_one_typed_value(tmp_path: Path) -> None:
    recorder = JournalRecorder(tmp_path / "j.sqlite")
    try:
        new = NewEntry(Kind.SALE, D("1.00"), actor="7", tip=D("0.10"))
        with pytest.raises(dataclasses.FrozenInstanceError):
            new.actor = "8"  # type: ignore[misc]
        with pytest.raises(TypeError):  # the 19 keywords are gone
            recorder.create(Kind.SALE, D("1.00"), actor="7")  # type: ignore[call-arg, arg-type]
        entry = recorder.create(new)
        assert (entry.kind, entry.requested, entry.tip, entry.state) == (Kind.SALE, D("1.00"),
                                                                        D("0.10"), State.INTENT)
    finally:
        recorder.close()


def test_the_async_facade_calls_no_reader_by_name() -> None:
    """Each of ``Journal``'s methods names the recorder's method it runs (mypy checks the call):
    no ``getattr``, no read by a string, no ``**kw: Any``."""
    tree = ast.parse((JOURNAL / "aio.py").read_text(encoding="utf-8"))
    journal = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == Journal.__name__)
    for node in ast.walk(journal):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id != "getattr", f"aio.py:{node.lineno}: getattr"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("_read", "_ticket_read", "_write", "_write_only") and node.args:
            assert not isinstance(node.args[0], ast.Constant), f"aio.py:{node.lineno}: by name"
        if isinstance(node, ast.arg) and node.annotation is not None:
            assert ast.unparse(node.annotation) != "Any" or node.arg not in ("kw", "filters"), \
                f"aio.py:{node.lineno}: **{node.arg}: Any"
