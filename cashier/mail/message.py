"""An e-mailed receipt: the paper receipt's lines (the one layout, ``cashier.printing.receipt``,
as the cash desk lays it out) as plain text and as HTML, the same lines as a PDF attached, under
the store's name and address, with a Message-ID derived from the receipt."""

from __future__ import annotations

import base64
import hashlib
import html
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate

from cashier.pdf import text_pdf

SUBJECTS = {"en": "Your receipt from {store}", "es": "Su recibo de {store}"}


def message_id_for(journal_id: str, receipt: str, number: int, sender: str) -> str:
    """The Message-ID of the ``number``-th message of one receipt of one journal: the same on
    every try of that message, so a mail server (and the customer's mailbox) can tell a repeat;
    base32, so no run of digits in it reads as a card number."""
    digest = hashlib.sha256(f"{journal_id} {receipt} {number}".encode()).digest()
    token = base64.b32encode(digest[:15]).decode("ascii").lower()
    domain = sender.rpartition("@")[2] or "cashier.invalid"
    return f"<receipt-{receipt}-{number}.{token}@{domain}>"


def receipt_html(store: str, address: str, lines: list[str]) -> str:
    """The HTML body: the store, then the receipt's lines as they are on paper."""
    body = "\n".join(html.escape(line) for line in lines)
    head = f"<h2>{html.escape(store)}</h2>" + (f"<p>{html.escape(address)}</p>" if address else "")
    return ("<!DOCTYPE html><html><body>" + head
            + f'<pre style="font-family: monospace; font-size: 14px">{body}</pre></body></html>')


def build_message(*, lines: list[str], store: str, store_address: str, sender: str, to: str,
                  message_id: str, receipt: str, language: str = "en") -> bytes:
    """The message as it is sent (RFC 5322 bytes, CRLF). The headers are built by the standard
    library's ``email`` package, which refuses a line break in any of them (the address was
    checked before: this is the second guard)."""
    message = EmailMessage(policy=SMTP)
    message["From"] = Address(display_name=store, addr_spec=sender)
    message["To"] = Address(addr_spec=to)
    message["Subject"] = SUBJECTS.get(language, SUBJECTS["en"]).format(store=store) + f" ({receipt})"
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = message_id
    top = [store, *([store_address] if store_address else []), ""]
    message.set_content("\n".join(top + lines) + "\n")
    message.add_alternative(receipt_html(store, store_address, lines), subtype="html")
    message.add_attachment(text_pdf(top + lines, title=f"Receipt {receipt}"), maintype="application",
                           subtype="pdf", filename=f"receipt-{receipt}.pdf")
    # the standard library's boundaries are 19 random digits: a card-number scan of the outbox
    # (ours, or an auditor's) would read one in ten as a card number; letters from the id instead
    token = hashlib.sha256(message_id.encode()).digest()
    for number, part in enumerate(p for p in message.walk() if p.is_multipart()):
        part.set_boundary(f"=_{base64.b32encode(token[:10]).decode('ascii')}_{'ABCDEFGH'[number % 8]}")
    return message.as_bytes()
