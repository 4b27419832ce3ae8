"""The mail outbox: queue an e-mailed receipt in the journal, then send it once.

``MailQueue.queue`` checks the address (``cashier.email_address``), lays the receipt out as the
cash desk does, builds the message and commits it to the journal's mail outbox (journal v12,
``cashier.journal.mail_rows``) before anything leaves. ``MailSender.send_due`` claims what is due
and sends it through the transport: a real SMTP server (``SmtpTransport``: the standard library's
``smtplib``, run on a worker thread by the window, ``MailWorker``), or a training till's Mail
window (``VirtualMailbox``). A try that fails for now is tried again later (``RETRY_S``, doubled
each time, at most ``RETRY_MAX_S``), until the profile's ``attempts``; a refusal by the server
(5xx: a rejected recipient) fails at once. A failed message is shown to the manager with its
reason (``failures``). Decision: docs/decisions/019-email-receipts.md.
"""

from __future__ import annotations

import contextlib
import logging
import os
import smtplib
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from cashier.cashdesk import CashDesk, open_recorder
from cashier.config import TillProfile
from cashier.email_address import check_address, mask_address
from cashier.errors import ValidationError
from cashier.journal import leases
from cashier.journal.datastore import iso, utc_now
from cashier.journal.mail_rows import MailRow
from cashier.journal.recorder import JournalRecorder
from cashier.mail.message import build_message, message_id_for
from cashier.redact import redact

log = logging.getLogger("cashier.mail")
#: The first wait before a failed try is tried again, doubled each time up to ``RETRY_MAX_S``.
RETRY_S = 30.0
RETRY_MAX_S = 3600.0
#: The keyring service holding the SMTP login's password (the entry named by the username).
SMTP_KEYRING_SERVICE = "cashier-smtp"


class MailTrouble(Exception):
    """A try that failed; ``permanent``: the server refused the message (never tried again)."""

    def __init__(self, reason: str, *, permanent: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent


class Transport(Protocol):
    def send(self, message: bytes, sender: str, to: str) -> None:
        """Hand the message over; return once it was accepted, else raise ``MailTrouble``."""


def smtp_password(profile: TillProfile) -> str | None:
    """The SMTP login's password: ``CASHIER_SMTP_PASSWORD``, then the OS keyring; never a file."""
    env = os.environ.get("CASHIER_SMTP_PASSWORD")
    if env:
        return env
    if not profile.email.username:
        return None
    try:
        import keyring  # lazy, as config.access_token_for

        return keyring.get_password(SMTP_KEYRING_SERVICE, profile.email.username)
    except Exception:  # no usable keyring backend on this machine
        return None


def _said(code: int, text: bytes | str) -> str:
    said = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return f"{code} {' '.join(said.split())}"


class SmtpTransport:
    """A real SMTP server through ``smtplib`` (blocking: a worker thread or a command)."""

    def __init__(self, profile: TillProfile) -> None:
        self.settings = profile.email
        self.password = smtp_password(profile)

    def send(self, message: bytes, sender: str, to: str) -> None:
        s = self.settings
        if not s.host:
            raise MailTrouble("no [email] host in the till's profile")
        try:
            with smtplib.SMTP(s.host, s.port, timeout=s.timeout_s) as smtp:
                if s.starttls:
                    smtp.starttls(context=ssl.create_default_context())
                if s.username and self.password:
                    smtp.login(s.username, self.password)
                smtp.sendmail(sender, [to], message)
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()), (550, b"refused"))
            raise MailTrouble(f"recipient refused: {_said(code, text)}", permanent=code >= 500) from None
        except smtplib.SMTPSenderRefused as exc:
            raise MailTrouble(f"sender refused: {_said(exc.smtp_code, exc.smtp_error)}",
                              permanent=exc.smtp_code >= 500) from None
        except smtplib.SMTPDataError as exc:
            raise MailTrouble(f"message refused: {_said(exc.smtp_code, exc.smtp_error)}",
                              permanent=exc.smtp_code >= 500) from None
        except smtplib.SMTPAuthenticationError as exc:
            raise MailTrouble(f"login refused: {_said(exc.smtp_code, exc.smtp_error)}") from None
        except smtplib.SMTPNotSupportedError:
            raise MailTrouble("the mail server offers no STARTTLS") from None
        except smtplib.SMTPResponseException as exc:
            raise MailTrouble(f"mail server: {_said(exc.smtp_code, exc.smtp_error)}") from None
        except (TimeoutError, smtplib.SMTPException, OSError) as exc:
            raise MailTrouble(f"mail server unreachable ({type(exc).__name__}: {exc})") from None


@dataclass
class VirtualMailbox:
    """A training till's Mail window: keeps each message as the customer would get it."""

    keep: int = 50
    delivered: list[bytes] = field(default_factory=list)
    _listeners: list[Callable[[bytes], None]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def listen(self, callback: Callable[[bytes], None]) -> None:
        self._listeners.append(callback)

    def send(self, message: bytes, sender: str, to: str) -> None:
        with self._lock:
            self.delivered = [*self.delivered, message][-self.keep:]
        for callback in list(self._listeners):
            callback(message)


def _scrubbed(reason: str, address: str) -> str:
    """A reason to keep: the server's words, never the address it may echo."""
    return redact(reason.replace(address, mask_address(address)))[:300]


def row_view(row: MailRow) -> dict[str, Any]:
    """One outbox row as ``cashier receipt outbox`` lists it (the address masked always)."""
    return {"id": row.id, "receipt": row.receipt, "to": mask_address(row.address),
            "state": row.state, "attempts": row.attempts, "reason": row.reason,
            "queued_at": row.created_at, "sent_at": row.sent_at, "message_id": row.message_id}


class MailQueue:
    """Queues e-mailed receipts on the cash desk's journal."""

    def __init__(self, desk: CashDesk) -> None:
        self.desk = desk
        self.profile = desk.profile
        self.recorder = desk.recorder

    def sender_address(self) -> str:
        """The store's address the message comes from; a training till without one uses a
        name that never resolves."""
        settings = self.profile.email
        if settings.sender:
            return settings.sender
        if self.profile.is_training:
            return "receipts@training.invalid"
        raise ValidationError("email", "this till sends no e-mail: its profile has no [email] "
                                       "host and from")

    def queue(self, receipt: str, to: str, *, clerk: str, reprint: bool = False) -> str:
        """The receipt of a ticket number or invoice number, to ``to``; returns what it is the
        receipt of. Nothing is queued when the address or the receipt is refused."""
        address = check_address(to)
        sender = self.sender_address()
        label, job = self.desk.receipt_of(receipt, reprint=reprint)
        return self._queue(label, job.lines, address, sender, clerk)

    def queue_entry(self, entry_id: int, to: str, *, clerk: str, reprint: bool = True) -> str:
        """The receipt of a journal entry (the Journal screen, a payment's result)."""
        address = check_address(to)
        sender = self.sender_address()
        label, job = self.desk.entry_receipt_of(self.recorder.get(entry_id), reprint=reprint)
        return self._queue(label, job.lines, address, sender, clerk)

    def queue_ticket(self, ticket_id: int, to: str, *, clerk: str) -> str:
        """A paid ticket's receipt (the result after a whole ticket)."""
        return self.queue(str(ticket_id), to, clerk=clerk)

    def _queue(self, label: str, lines: list[str], address: str, sender: str, clerk: str) -> str:
        journal_id = self.recorder.outbox_state()[0]
        number = self.recorder.mail.mail_count(label) + 1
        message_id = message_id_for(journal_id, label, number, sender)
        message = build_message(lines=lines, store=self.profile.company_name,
                                store_address=self.profile.email.store_address, sender=sender,
                                to=address, message_id=message_id, receipt=label,
                                language=self.desk.language)
        self.recorder.mail.queue_mail(receipt=label, message_id=message_id, address=address,
                                      message=message, clerk=clerk)
        return label


@dataclass
class SendReport:
    sent: int = 0
    retried: int = 0
    failed: int = 0


class MailSender:
    """Sends what the outbox holds, each message once, on one journal connection (one thread)."""

    def __init__(self, profile: TillProfile, recorder: JournalRecorder, transport: Transport) -> None:
        self.profile = profile
        self.recorder = recorder
        self.transport = transport
        self.journal: Path = recorder.store.path

    @property
    def sender(self) -> str:
        return self.profile.email.sender or "receipts@training.invalid"

    def send_due(self, *, now: bool = False) -> SendReport:
        """Send every message whose time has come (``now``: every queued one, whatever its
        wait), and take over those a dead sender left half sent."""
        token = leases.lease_for(self.journal).hold()
        report = SendReport()
        due = None if now else iso(utc_now())
        tried: set[int] = set()  # each message once a round: a retry waits for the next round
        while rows := self.recorder.mail.claim_mail(
                token, lambda owner: leases.alive(self.journal, owner), due_by=due,
                skip=frozenset(tried)):
            for row in rows:
                tried.add(row.id)
                self._send(row, token, report)
        return report

    def _send(self, row: MailRow, token: str, report: SendReport) -> None:
        masked = mask_address(row.address)
        if row.message is None:  # cannot be: a row is done before its message is dropped
            self.recorder.mail.mail_done(row.id, token, sent=False, masked=masked,
                                         reason="the message is gone")
            report.failed += 1
            return
        try:
            self.transport.send(row.message, self.sender, row.address)
        except MailTrouble as trouble:
            reason = _scrubbed(trouble.reason, row.address)
            if trouble.permanent or row.attempts >= self.profile.email.attempts:
                self.recorder.mail.mail_done(row.id, token, sent=False, masked=masked, reason=reason)
                report.failed += 1
            else:
                wait = min(RETRY_S * 2 ** (row.attempts - 1), RETRY_MAX_S)
                next_at = iso(utc_now() + timedelta(seconds=wait))
                self.recorder.mail.mail_retry(row.id, token, next_at=next_at, reason=reason)
                report.retried += 1
            return
        self.recorder.mail.mail_done(row.id, token, sent=True, masked=masked)
        report.sent += 1

    def next_due(self) -> datetime | None:
        """When the next queued message is due (None: nothing waits)."""
        waiting = [row.next_at for row in self.recorder.mail.mail_rows()
                   if row.state in ("queued", "sending")]
        return datetime.fromisoformat(min(waiting)) if waiting else None


def failures(recorder: JournalRecorder, limit: int = 50) -> list[dict[str, Any]]:
    """The messages given up, for the manager: the receipt, the masked address, the reason."""
    return [row_view(row) for row in recorder.mail.mail_rows(limit * 4) if row.state == "failed"][:limit]


def transport_for(profile: TillProfile, mailbox: VirtualMailbox | None = None) -> Transport:
    """Training sends to the Mail window (never a real server); a real till to its SMTP server."""
    if profile.is_training:
        return mailbox if mailbox is not None else VirtualMailbox()
    return SmtpTransport(profile)


class MailWorker:
    """The window's sender: a thread of its own (its own journal connection) that sends what is
    due, woken when a message is queued, and at the next retry's time otherwise."""

    def __init__(self, profile: TillProfile, open_recorder: Callable[[], JournalRecorder],
                 transport: Transport, *, idle_s: float = 60.0) -> None:
        self.profile = profile
        self._open = open_recorder
        self.transport = transport
        self.idle_s = idle_s
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mail-sender", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        recorder = self._open()
        sender = MailSender(self.profile, recorder, self.transport)
        try:
            while not self._stop.is_set():
                try:
                    sender.send_due()
                except Exception:  # a busy or full journal: logged, the next round tries again
                    log.exception("e-mailed receipts: sending stopped for this round")
                wait = self.idle_s
                with contextlib.suppress(Exception):
                    due = sender.next_due()
                    if due is not None:
                        wait = max(0.5, min(wait, (due - utc_now()).total_seconds()))
                self._wake.wait(wait)
                self._wake.clear()
        finally:
            recorder.close()


class MailDesk:
    """The window's e-mailed receipts: the queue on the cash desk's journal and the worker that
    sends (a training till's to its Mail window, ``mailbox``)."""

    def __init__(self, desk: CashDesk) -> None:
        self.desk = desk
        self.profile = profile = desk.profile
        self.queue = MailQueue(desk)
        self.mailbox = VirtualMailbox() if profile.is_training else None
        self.worker = MailWorker(profile, lambda: open_recorder(profile),
                                 transport_for(profile, self.mailbox))

    @property
    def sends(self) -> bool:
        """Whether this till sends receipts by e-mail (training always: to its Mail window)."""
        return self.profile.is_training or bool(self.profile.email.host)

    def start(self) -> None:
        if self.sends:
            self.worker.start()

    def stop(self) -> None:
        self.worker.stop()

    def queue_entry(self, entry_id: int, to: str, *, clerk: str, reprint: bool = True) -> str:
        label = self.queue.queue_entry(entry_id, to, clerk=clerk, reprint=reprint)
        self.worker.wake()
        return label

    def queue_ticket(self, ticket_id: int, to: str, *, clerk: str) -> str:
        label = self.queue.queue_ticket(ticket_id, to, clerk=clerk)
        self.worker.wake()
        return label

    def failures(self) -> list[dict[str, Any]]:
        return failures(self.desk.recorder)
