"""Untrusted text (#21) as far as the store: a ticket whose item names carry printer commands and
bidi overrides is pushed clean, a card number in any dress never gets there, and the keyed card
comes on standard input (``--card -``). Real PostgreSQL, socket host (HD), real processes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.support.card_numbers import card_numbers_at_rest, card_numbers_in
from tests.support.sandbox_server import ServedSandbox
from tests.support.store import add_till, cashier

pytestmark = pytest.mark.socket


def test_hostile_text_reaches_the_store_clean_and_no_card_number_at_all(
        tmp_path: Path, serve_store: Any, store_dsn: str) -> None:
    host = ServedSandbox("HD", tmp_path)
    store = serve_store()
    try:
        journal = tmp_path / "till-9.sqlite"
        profile = tmp_path / "till.toml"
        profile.write_text("\n".join([
            "[till]", 'till_id = "till-9"', "till_number = 9", 'processing_option = "HD"',
            f'host_url = "{host.api}"', f'store_url = "{store.url}"', f'journal_path = "{journal}"',
            'terminal_id = "1742"']) + "\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env.update(CASHIER_PROFILE=str(profile), CASHIER_ACCESS_TOKEN="SOCKET-TOKEN",
                   CASHIER_STORE_TOKEN=add_till(store_dsn, "till-9"), XDG_DATA_HOME=str(tmp_path),
                   PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
        refused = cashier("ticket", "new", "--item", "Gift 4321.0000.0000.1119=1.00", "--pay", "card",
                          "--card", "-", "--exp", "1230", env=env, stdin="4321000000001119\n")
        assert refused.returncode == 2 and "--item" in refused.stderr, refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
        done = cashier("ticket", "new", "--item", "Tea\x1bp\x01\x19\x19=1.50",
                       "--item", "Bun\u202eelif\x1dV\x01=1.00", "--pay", "card", "--card", "-",
                       "--exp", "1230", env=env, stdin="4321000000001119\n")
        assert done.returncode == 0, done.stderr
        ticket = json.loads(done.stdout)
        assert [line["name"] for line in ticket["lines"]] == ["Teap", "BunelifV"]
        assert ticket["tenders"][0]["card"].endswith("1119")
        with psycopg.connect(store_dsn) as conn:
            rows = conn.execute("SELECT * FROM events WHERE till_id = 'till-9'").fetchall()
            names = [str(r[0]) for r in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")]
            every = [str(v) for name in names
                     for row in conn.execute(f'SELECT * FROM "{name}"').fetchall() for v in row]
        assert rows  # the ticket was pushed
        text = "\n".join(every)
        assert "Teap" in text and "BunelifV" in text
        assert not any(ord(c) < 0x20 and c != "\n" for c in text)
        assert "\u202e" not in text and "\x1b" not in text
        for escaped in ("\\x1b", "\\u001b", "\\x1d", "\\u001d", "\\u202e", "\\x19"):
            assert escaped not in text.lower()  # nor as JSON or a repr would write it
        assert card_numbers_in(text) == []
        assert card_numbers_at_rest(tmp_path) == []
    finally:
        host.stop()
