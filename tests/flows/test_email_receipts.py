"""Receipts by e-mail (issue #41) through the real command line, each command its own process,
sent to a real SMTP server the test starts (aiosmtpd on loopback): the server away then back,
a rejected recipient, a header injection, a process killed (kill -9) mid-send, and the address
masked once the message is sent (never left in the journal's file, its WAL or the logs)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from cashier.journal.recorder import JournalRecorder
from tests.support.card_numbers import card_numbers_at_rest
from tests.support.cli_tills import CARD, CliTill
from tests.support.forked_cli import start_cashier
from tests.support.smtp_server import SmtpServer, free_port

pytestmark = pytest.mark.socket

ADDRESS = "jane.doe@example.com"


def _till(serve_sandbox: Any, tmp_path: Path, port: int) -> CliTill:
    served = serve_sandbox("LG")
    till = CliTill(served, tmp_path, "mail", extra=(
        'log_dir = "' + str(tmp_path / "logs") + '"', 'company_name = "Corner Shop"',
        "[email]", 'host = "127.0.0.1"', f"port = {port}", "starttls = false",
        'from = "receipts@corner.example"', 'store_address = "1 Main Street, Springfield"',
        "attempts = 3"))
    return till


def _sold(till: CliTill) -> str:
    done = till.run("sale", "--amount", "12.34", *CARD)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["invoice"])


def _outbox(till: CliTill, *args: str) -> dict[str, Any]:
    done = till.run("receipt", "outbox", *args)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def _address_at_rest(till: CliTill, address: str) -> list[str]:
    """Where the address still lies: the journal's files (raw pages, WAL) and the logs."""
    found = []
    folder = till.journal.parent
    for path in [*folder.glob(till.journal.name + "*"), *(folder / "logs").rglob("*")]:
        if path.is_file() and address.encode() in path.read_bytes():
            found.append(path.name)
    return found


def test_server_away_then_back_the_message_arrives_once_and_the_address_is_masked(
        serve_sandbox: Any, tmp_path: Path) -> None:
    port = free_port()
    till = _till(serve_sandbox, tmp_path, port)
    invoice = _sold(till)

    away = till.run("receipt", "email", invoice, "--to", ADDRESS)
    assert away.returncode == 0, away.stderr
    assert json.loads(away.stdout) == {"invoice": invoice, "queued": True}
    assert "not sent yet" in away.stderr
    box = _outbox(till)
    (row,) = box["messages"]
    assert (row["state"], row["attempts"], row["to"]) == ("queued", 1, "j***@example.com")
    assert "unreachable" in row["reason"]
    # queued, the address is in the outbox only: never in the event log the store is pushed,
    # the X report, the journal's export (with its events) or the card-number scan's sight
    recorder = JournalRecorder(till.journal, reader=True)
    try:
        events = json.dumps(recorder.read_events(0, 100_000))
    finally:
        recorder.close()
    assert ADDRESS not in events and "jane" not in events
    for command in (("report", "x"), ("journal", "export", "--format", "json"),
                    ("journal", "export", "--format", "csv")):
        shown = till.run(*command)
        assert shown.returncode == 0, shown.stderr
        assert ADDRESS not in shown.stdout + shown.stderr
    assert card_numbers_at_rest(till.journal) == []

    server = SmtpServer(port).start()
    try:
        box = _outbox(till, "--send")
        assert box["sent_now"] == 1 and box["sent"] == 1 and box["queued"] == 0
        assert server.wait_messages(1)
        assert _outbox(till, "--send")["sent_now"] == 0  # sent once: nothing goes out again
        time.sleep(0.2)
        assert len(server.messages) == 1
    finally:
        server.stop()
    message = server.messages[0]
    assert message["To"] == ADDRESS and "receipts@corner.example" in message["From"]
    assert "Corner Shop" in message["From"] and invoice in message["Subject"]
    assert message["Message-ID"] == box["messages"][0]["message_id"]
    text = message.get_body(("plain",))
    html = message.get_body(("html",))
    assert text is not None and html is not None
    plain = text.get_content()
    assert "1 Main Street, Springfield" in plain and invoice in plain and "12.34" in plain
    assert "4321000000001119" not in plain and "**** 1119" in plain
    assert invoice in html.get_content() and "12.34" in html.get_content()
    (pdf,) = [part for part in message.iter_attachments()]
    assert pdf.get_content_type() == "application/pdf"
    assert pdf.get_content().startswith(b"%PDF-")
    assert _outbox(till)["messages"][0]["to"] == "j***@example.com"
    assert _address_at_rest(till, ADDRESS) == []  # masked: in no page, no WAL frame, no log


def test_a_rejected_recipient_fails_at_once_with_the_reason_for_the_manager(
        serve_sandbox: Any, tmp_path: Path) -> None:
    server = SmtpServer().start()
    try:
        server.handler.refuse.add("nobody@example.com")
        till = _till(serve_sandbox, tmp_path, server.port)
        invoice = _sold(till)
        done = till.run("receipt", "email", invoice, "--to", "nobody@example.com")
        assert done.returncode == 0 and "1 failed" in done.stderr
        (row,) = _outbox(till, "--send")["messages"]
        assert (row["state"], row["attempts"], row["to"]) == ("failed", 1, "n***@example.com")
        assert "550" in row["reason"] and "rejected" in row["reason"]
        assert "nobody@example.com" not in row["reason"]  # the server echoed it: masked
        assert server.messages == []
        assert _address_at_rest(till, "nobody@example.com") == []
    finally:
        server.stop()


@pytest.mark.parametrize("to", [
    f"{ADDRESS}\r\nBcc: victim@example.com",
    f"{ADDRESS}\nBcc: victim@example.com",
    f"{ADDRESS}\rX-Evil: 1",
    f"Jane <{ADDRESS}>",
    f"{ADDRESS}, victim@example.com",
    "jane@exa\u0000mple.com",
    "jané@example.com",
    "jane@example",
    "",
])
def test_a_header_injection_or_a_bad_address_is_one_line_and_nothing_is_queued(
        serve_sandbox: Any, tmp_path: Path, to: str) -> None:
    server = SmtpServer().start()
    try:
        till = _till(serve_sandbox, tmp_path, server.port)
        invoice = _sold(till)
        done = till.run("receipt", "email", invoice, "--to", to)
        assert done.returncode == 2, done.stderr
        assert done.stdout == ""
        (line,) = done.stderr.strip().splitlines()
        assert line.startswith("cashier: to: must")
        assert _outbox(till)["messages"] == []
        assert server.messages == []
    finally:
        server.stop()


def _in_sending(till: CliTill, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            conn = sqlite3.connect(f"file:{till.journal}?mode=ro", uri=True)
            try:
                states = [r[0] for r in conn.execute("SELECT state FROM mail_outbox")]
            finally:
                conn.close()
        except sqlite3.Error:
            states = []
        if states == ["sending"]:
            return
        time.sleep(0.05)
    raise AssertionError("the message was never claimed")


@pytest.mark.parametrize("when", ["before_accepted", "after_accepted"])
def test_kill_9_mid_send_then_restart_sends_it_once_with_one_message_id(
        serve_sandbox: Any, tmp_path: Path, when: str) -> None:
    """Killed while the server still reads the message: it arrives once, after the restart.
    Killed between the server's acceptance and the till's record: the one possible repeat, with
    the same Message-ID (docs/decisions/019-email-receipts.md), which the server tells apart."""
    server = SmtpServer().start()
    try:
        till = _till(serve_sandbox, tmp_path, server.port)
        invoice = _sold(till)
        (server.handler.hold_rcpt if when == "before_accepted" else server.handler.hold_data).set()
        sender = start_cashier("--profile", str(till.profile), "receipt", "email", invoice,
                               "--to", ADDRESS, env=till.env)
        assert server.handler.holding.wait(30), "the till never reached the server"
        _in_sending(till)
        os.kill(sender.pid, signal.SIGKILL)
        sender.wait(10)
        server.handler.hold_rcpt.clear()
        server.handler.hold_data.clear()
        server.handler.release.set()
        accepted_before = len(server.messages)
        assert accepted_before == (0 if when == "before_accepted" else 1)

        box = _outbox(till, "--send")  # the next run takes over what the dead process held
        assert box["sent_now"] == 1 and box["sent"] == 1
        assert server.wait_messages(accepted_before + 1)
        assert _outbox(till, "--send")["sent_now"] == 0
        ids = {m["Message-ID"] for m in server.messages}
        assert ids == {box["messages"][0]["message_id"]}  # one message, however many copies
        assert len(server.messages) == (1 if when == "before_accepted" else 2)
        assert box["messages"][0]["attempts"] == 2
    finally:
        server.stop()
