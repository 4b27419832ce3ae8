"""The mail outbox in the core (issue #41): queued before anything leaves, sent once by
whichever sender claims it, retried while the server is away, failed for good after the
profile's attempts with the reason for the manager, and training's messages go to the Mail
window's mailbox only. A real SMTP server (aiosmtpd on loopback) where one is needed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from cashier.cashdesk import CashDesk, open_recorder
from cashier.config import TillProfile, load_profile
from cashier.errors import ValidationError
from cashier.mail.outbox import MailDesk, MailQueue, MailSender, SmtpTransport, VirtualMailbox, failures
from tests.support.journal_entries import card_entry
from tests.support.profiles import write_till
from tests.support.smtp_server import SmtpServer, free_port


def _real_till(tmp_path: Path, port: int, *, attempts: int = 3) -> TillProfile:
    path = tmp_path / "real.toml"
    path.write_text("\n".join([
        'till_id = "lane-1"', "till_number = 1", 'host_url = "http://127.0.0.1:9/api"',
        'terminal_id = "1742"', f'journal_path = "{tmp_path / "journal.sqlite"}"',
        f'log_dir = "{tmp_path / "logs"}"', 'company_name = "Corner Shop"',
        "[email]", 'host = "127.0.0.1"', f"port = {port}", "starttls = false",
        'from = "receipts@corner.example"', f"attempts = {attempts}"]) + "\n", encoding="utf-8")
    return load_profile(path)


@pytest.fixture
def desks() -> Iterator[list[CashDesk]]:
    made: list[CashDesk] = []
    yield made
    for desk in made:
        desk.close()
        desk.recorder.close()


def _desk(profile: TillProfile, desks: list[CashDesk]) -> CashDesk:
    desk = CashDesk(profile, open_recorder(profile))
    desks.append(desk)
    return desk


def test_training_hands_each_message_to_the_mailbox_and_masks_it(tmp_path: Path,
                                                                  desks: list[CashDesk]) -> None:
    desk = _desk(load_profile(write_till(tmp_path, clerks=False)), desks)
    entry = card_entry(desk.recorder, "9.99", ticket=True)
    desk.recorder.conn.execute("PRAGMA secure_delete = OFF")  # as SQLite's own default build
    mailbox = VirtualMailbox()
    label = MailQueue(desk).queue_entry(entry.id, "jane@example.com", clerk="101", reprint=False)
    assert label == str(entry.ticket_id)
    (row,) = desk.recorder.mail.mail_rows()
    assert (row.state, row.address) == ("queued", "jane@example.com")  # kept until sent
    desk.recorder.mail.forget_wal()  # a long wait: checkpointed into the journal's own pages
    report = MailSender(desk.profile, desk.recorder, mailbox).send_due()
    assert report.sent == 1 and len(mailbox.delivered) == 1
    assert b"TRAINING" in mailbox.delivered[0] and b"9.99" in mailbox.delivered[0]
    (row,) = desk.recorder.mail.mail_rows()
    assert (row.state, row.address, row.message) == ("sent", "j***@example.com", None)
    assert MailSender(desk.profile, desk.recorder, mailbox).send_due(now=True).sent == 0
    # the journal still open (a window's day): no page, freed byte or WAL frame holds it
    assert desk.recorder.conn.execute("PRAGMA secure_delete").fetchone()[0] == 0  # left as it was
    journal = desk.recorder.store.path
    assert [p.name for p in journal.parent.glob(journal.name + "*")
            if p.is_file() and b"jane@example.com" in p.read_bytes()] == []


def test_a_real_till_without_a_mail_server_queues_nothing(tmp_path: Path, desks: list[CashDesk]) -> None:
    path = tmp_path / "real.toml"
    path.write_text('till_id = "lane-1"\ntill_number = 1\nhost_url = "http://127.0.0.1:9/api"\n'
                    f'terminal_id = "1742"\njournal_path = "{tmp_path / "j.sqlite"}"\n', encoding="utf-8")
    desk = _desk(load_profile(path), desks)
    entry = card_entry(desk.recorder, "5.00")
    with pytest.raises(ValidationError, match="no \\[email\\] host"):
        MailQueue(desk).queue_entry(entry.id, "jane@example.com", clerk="1")
    assert desk.recorder.mail.mail_rows() == []


def test_away_it_waits_its_turn_then_goes_once_the_server_is_back(tmp_path: Path,
                                                                   desks: list[CashDesk]) -> None:
    port = free_port()
    desk = _desk(_real_till(tmp_path, port), desks)
    entry = card_entry(desk.recorder, "20.00")
    MailQueue(desk).queue_entry(entry.id, "jane@example.com", clerk="1")
    sender = MailSender(desk.profile, desk.recorder, SmtpTransport(desk.profile))
    assert sender.send_due().retried == 1
    (row,) = desk.recorder.mail.mail_rows()
    assert row.state == "queued" and row.next_at > row.updated_at  # its next try is later
    server = SmtpServer(port).start()
    try:
        assert sender.send_due().sent == 0  # not due yet
        assert sender.send_due(now=True).sent == 1
        assert server.wait_messages(1)
        assert sender.send_due(now=True).sent == 0
    finally:
        server.stop()
    assert len(server.messages) == 1 and server.messages[0]["To"] == "jane@example.com"


def test_after_the_attempts_it_fails_with_the_reason_and_the_address_masked(
        tmp_path: Path, desks: list[CashDesk]) -> None:
    desk = _desk(_real_till(tmp_path, free_port(), attempts=2), desks)
    entry = card_entry(desk.recorder, "20.00")
    MailQueue(desk).queue_entry(entry.id, "jane@example.com", clerk="1")
    sender = MailSender(desk.profile, desk.recorder, SmtpTransport(desk.profile))
    assert sender.send_due(now=True).retried == 1
    assert sender.send_due(now=True).failed == 1
    (failed,) = failures(desk.recorder)
    assert failed["to"] == "j***@example.com" and failed["attempts"] == 2
    assert "unreachable" in failed["reason"]
    (row,) = desk.recorder.mail.mail_rows()
    assert (row.state, row.address, row.message) == ("failed", "j***@example.com", None)


def test_two_senders_at_once_send_each_message_once(tmp_path: Path, desks: list[CashDesk]) -> None:
    server = SmtpServer().start()
    try:
        profile = _real_till(tmp_path, server.port)
        desk = _desk(profile, desks)
        for n in range(6):
            entry = card_entry(desk.recorder, f"{n + 1}.00")
            MailQueue(desk).queue_entry(entry.id, f"customer{n}@example.com", clerk="1")
        go = threading.Barrier(2)
        sent: list[int] = []

        def send() -> None:
            recorder = open_recorder(profile)
            try:
                go.wait()
                sent.append(MailSender(profile, recorder, SmtpTransport(profile)).send_due(now=True).sent)
            finally:
                recorder.close()
        threads = [threading.Thread(target=send) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sum(sent) == 6
        assert server.wait_messages(6)
        assert len({m["Message-ID"] for m in server.messages}) == len(server.messages) == 6
    finally:
        server.stop()


def test_the_window_s_worker_sends_when_woken(tmp_path: Path, desks: list[CashDesk]) -> None:
    server = SmtpServer().start()
    desk = _desk(_real_till(tmp_path, server.port), desks)
    mail = MailDesk(desk)
    mail.start()
    try:
        entry = card_entry(desk.recorder, "7.00")
        mail.queue_entry(entry.id, "jane@example.com", clerk="1")
        assert server.wait_messages(1)
    finally:
        mail.stop()
        server.stop()
    assert mail.failures() == []
