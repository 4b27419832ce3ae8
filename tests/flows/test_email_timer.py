"""Queued mail leaves without a person (issue #41, decision 019): on a till with no window, the
Debian package's systemd timer runs ``cashier receipt outbox --send-due`` as the till's user. The
tests run the service's own ExecStart line (as packaging/deb.py writes it) as real processes
against a real SMTP server (aiosmtpd on loopback): what nobody sent leaves at the timer's next
run, once; a retry waits its turn rather than being tried at every run."""

from __future__ import annotations

import configparser
import contextlib
import importlib.util
import json
import shlex
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_tills import CARD, CliTill
from tests.support.smtp_server import SmtpServer, free_port

pytestmark = pytest.mark.socket

ROOT = Path(__file__).resolve().parents[2]
ADDRESS = "jane.doe@example.com"


def _deb() -> Any:
    spec = importlib.util.spec_from_file_location("deb", ROOT / "packaging" / "deb.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _unit(text: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys keep their case
    unit.read_string(text)
    return unit


def _timer_command() -> list[str]:
    """The arguments the service runs, after ``/usr/bin/cashier``."""
    service = _unit(_deb().MAIL_UNITS["cashier-mail@.service"])
    program, *args = shlex.split(service["Service"]["ExecStart"])
    assert program == "/usr/bin/cashier"  # the package's link to the till's program
    return args


def test_the_package_timer_runs_the_send_every_few_minutes_as_the_tills_user() -> None:
    units = _deb().MAIL_UNITS
    service = _unit(units["cashier-mail@.service"])["Service"]
    assert service["User"] == "%i" and service["Group"] == "cashier"  # the instance: the till's user
    assert service["Type"] == "oneshot"
    assert service["EnvironmentFile"] == "-/etc/cashier/smtp.env"  # the password without a keyring
    timer = _unit(units["cashier-mail@.timer"])
    assert timer["Timer"]["OnUnitActiveSec"] == "5min" and timer["Timer"]["OnBootSec"] == "1min"
    assert timer["Install"]["WantedBy"] == "timers.target"


def _till(serve_sandbox: Any, tmp_path: Path, port: int) -> CliTill:
    return CliTill(serve_sandbox("LG"), tmp_path, "mail", extra=(
        'log_dir = "' + str(tmp_path / "logs") + '"', 'company_name = "Corner Shop"',
        "[email]", 'host = "127.0.0.1"', f"port = {port}", "starttls = false",
        'from = "receipts@corner.example"', "attempts = 3"))


def _timer_run(till: CliTill) -> dict[str, Any]:
    done = till.run(*_timer_command())
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_what_nobody_sent_leaves_at_the_timers_next_run_once(serve_sandbox: Any, tmp_path: Path) -> None:
    server = SmtpServer().start()
    try:
        till = _till(serve_sandbox, tmp_path, server.port)
        sold = till.run("sale", "--amount", "12.34", *CARD)
        assert sold.returncode == 0, sold.stderr
        invoice = str(json.loads(sold.stdout)["invoice"])
        queued = till.run("receipt", "email", invoice, "--to", ADDRESS, "--queue-only")
        assert queued.returncode == 0, queued.stderr
        assert server.messages == []  # queued; no window, nobody runs --send
        box = _timer_run(till)
        assert box["sent_now"] == 1 and box["sent"] == 1
        assert server.wait_messages(1)
        assert _timer_run(till)["sent_now"] == 0  # the next run: nothing goes out again
        time.sleep(0.2)
        assert len(server.messages) == 1 and server.messages[0]["To"] == ADDRESS
        assert invoice in server.messages[0]["Subject"]
        assert ADDRESS not in json.dumps(box)  # what the timer logs: masked
    finally:
        server.stop()


def test_a_retry_waits_its_turn_then_the_timer_sends_it(serve_sandbox: Any, tmp_path: Path) -> None:
    port = free_port()
    till = _till(serve_sandbox, tmp_path, port)
    sold = till.run("sale", "--amount", "5.00", *CARD)
    assert sold.returncode == 0, sold.stderr
    invoice = str(json.loads(sold.stdout)["invoice"])
    away = till.run("receipt", "email", invoice, "--to", ADDRESS)  # the server is away
    assert away.returncode == 0 and "not sent yet" in away.stderr
    server = SmtpServer(port).start()
    try:
        box = _timer_run(till)  # within the retry's wait: not tried again, not given up
        assert box["sent_now"] == 0
        (row,) = box["messages"]
        assert (row["state"], row["attempts"]) == ("queued", 1)
        assert server.messages == []
        # the wait over: the row's next try moved to the past rather than the test sleeping 30 s
        with contextlib.closing(sqlite3.connect(till.journal)) as db, db:
            db.execute("UPDATE mail_outbox SET next_at = '2000-01-01T00:00:00.000+00:00'")
        box = _timer_run(till)
        assert box["sent_now"] == 1 and server.wait_messages(1)
        assert _timer_run(till)["sent_now"] == 0
        assert len(server.messages) == 1
    finally:
        server.stop()
