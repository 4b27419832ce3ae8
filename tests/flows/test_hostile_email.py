"""Hostile addresses for an e-mailed receipt (issue #41), seeded: a good address broken by what
breaks mail headers and envelopes (CR, LF, NUL, Unicode line and paragraph separators, NEL,
spaces, angle brackets, commas, a second ``@``, a full-width ``＠``, percent-encoded line breaks,
bidi marks, a 300-character local part), through the real command line to a real SMTP server
(aiosmtpd on loopback). Each is refused in one line naming ``to`` with nothing queued, or taken
as exactly one recipient: the server sees one envelope recipient, the address itself, one To and
no header the address brought.

Seeded and bounded: ``CASHIER_HOSTILE_SEED`` (default 20261123) and ``CASHIER_HOSTILE_EMAIL``
rounds (default 6; ``make hostile``: 200)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_tills import CARD, CliTill
from tests.support.smtp_server import SmtpServer

pytestmark = pytest.mark.socket
ROUNDS = int(os.environ.get("CASHIER_HOSTILE_EMAIL", "6"))
SEED = int(os.environ.get("CASHIER_HOSTILE_SEED", "20261123"))

BREAKERS = ["\r\n", "\n", "\r", "\x00", "\u2028", "\u2029", "\x85", " ", "\t", "<", ">", ",", ";",
            ":", '"', "\\", "(", ")", "[", "]", "@", "\uff20", "%0d%0a", "\u202e", "\u200b", "..",
            "\r\nBcc: victim@example.com", "\nX-Injected: 1", ">\r\nRCPT TO:<victim@example.com",
            "=?utf-8?q?a=0D=0A?=", "é", "a" * 300]
FINE = ["+", "-", "_", ".", "'", "!", "#", "$", "%", "&", "*", "/", "=", "?", "^", "`", "{", "|",
        "}", "~", "7"]


def hostile(rng: random.Random) -> str:
    local, domain = rng.choice([("jane", "example.com"), ("j.doe", "mail.example.org"), ("x", "ex.io")])
    for _ in range(rng.randint(1, 3)):
        piece = rng.choice(BREAKERS if rng.random() < 0.7 else FINE)
        if rng.random() < 0.5:
            at = rng.randint(0, len(local))
            local = local[:at] + piece + local[at:]
        else:
            at = rng.randint(0, len(domain))
            domain = domain[:at] + piece + domain[at:]
    return f"{local}@{domain}"


def test_hostile_addresses_are_refused_or_are_exactly_one_recipient(serve_sandbox: Any,
                                                                    tmp_path: Path) -> None:
    rng = random.Random(SEED)
    server = SmtpServer().start()
    try:
        till = CliTill(serve_sandbox("LG"), tmp_path, "hostile-mail", extra=(
            "[email]", 'host = "127.0.0.1"', f"port = {server.port}", "starttls = false",
            'from = "receipts@corner.example"'))
        sold = till.run("sale", "--amount", "3.21", *CARD)
        assert sold.returncode == 0, sold.stderr
        invoice = json.loads(sold.stdout)["invoice"]
        taken: list[str] = []
        for _ in range(ROUNDS):
            address = hostile(rng)
            # --to=ADDRESS: an address that starts with "-" is a value, not another option
            done = till.run("receipt", "email", invoice, f"--to={address}", "--queue-only")
            if done.returncode == 2:
                (line,) = done.stderr.strip().splitlines()
                assert line.startswith("cashier: to: must") and done.stdout == "", (address, done)
                continue
            assert done.returncode == 0 and json.loads(done.stdout)["queued"] is True, (address, done)
            taken.append(address.strip(" "))
        box = json.loads(till.run("receipt", "outbox", "--send").stdout)
        assert (box["queued"], box["sent"], len(box["messages"])) == (0, len(taken), len(taken))
        assert server.wait_messages(len(taken))
        # sent in the order queued: each the one recipient it was typed as, and nothing more
        for address, rcpts, message in zip(taken, server.handler.recipients, server.messages,
                                           strict=True):
            assert rcpts == [address]
            assert message.get_all("To") == [address]
            assert message.get_all("Bcc") is None and message.get_all("X-Injected") is None
    finally:
        server.stop()
