"""Issue #46 (round 4): a refusal is one line. With the host stopped, an HD card sale printed a
WARNING log line per invoice number it could not ask (up to eight) before its one refusal. A
one-shot command's standard error now carries its own lines only; the warnings go to the log file
(``--verbose`` shows them on standard error too), while a server still logs on standard error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.profiles import write_profile
from tests.support.tills import cashier

pytestmark = pytest.mark.socket

CARD = ("--card", "4321000000001119", "--exp", "1230")


def test_an_hd_sale_with_the_host_stopped_is_refused_in_one_line_the_detail_in_the_log(
        serve_sandbox: Any, env: dict[str, str], tmp_path: Path) -> None:
    host = serve_sandbox("HD")
    env["CASHIER_PROFILE"] = str(write_profile(tmp_path / "till.toml", host_url=host.api,
                                               option="HD", journal=tmp_path / "j.sqlite"))
    env["CASHIER_ACCESS_TOKEN"] = "T" * 32
    env["XDG_STATE_HOME"] = str(tmp_path / "state")  # the profile's log folder
    sold = cashier("sale", "--amount", "1.00", *CARD, env=env)
    assert sold.returncode == 0, sold.stderr
    host.stop()
    done = cashier("sale", "--amount", "2.00", *CARD, env=env)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and not done.stdout, (done.stdout, done.stderr)
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("cashier: invoice: the host could not be asked")
    assert "(it cannot be reached)" in lines[0]
    log = (tmp_path / "state" / "cashier" / "log" / "cashier.log").read_text()
    assert "WARNING cashier.flows.invoices: invoice 01" in log and "could not be asked" in log
    loud = cashier("--verbose", "sale", "--amount", "2.00", *CARD, env=env)
    assert "could not be asked" in loud.stderr and loud.returncode == 2


@pytest.mark.parametrize(("console", "file", "on_stderr"), [
    (False, True, False),  # a one-shot command with its log file: stderr is its own
    (True, True, True),    # the window, a server: their log on stderr too
    (False, False, True),  # no log file to hold them: stderr rather than nowhere
])
def test_where_log_records_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, console: bool,
                              file: bool, on_stderr: bool) -> None:
    import logging
    import sys

    from cashier.logs import setup_logging

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])  # restored afterwards, with the level and the flag
    monkeypatch.setattr(root, "level", root.level)
    monkeypatch.setattr(root, "_cashier_configured", False, raising=False)
    setup_logging(log_file=tmp_path / "cashier.log" if file else None, console=console)
    added = list(root.handlers)
    try:
        streams = [h for h in added if type(h) is logging.StreamHandler]
        assert bool(streams) is on_stderr
        assert all(h.stream is sys.stderr and h.level == logging.WARNING for h in streams)
    finally:
        for handler in added:
            handler.close()


def test_the_servers_are_the_commands_that_log_on_standard_error() -> None:
    from cashier.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["sandbox", "serve"]).serves
    assert parser.parse_args(["store", "serve"]).serves
    assert not getattr(parser.parse_args(["sale", "--amount", "1.00"]), "serves", False)
