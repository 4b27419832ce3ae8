"""A command loads its till profile once (``cashier.config.command_profile``): its log file, its
amount's currency and its runtime read the same load. Loading validates every field against the
environment (about 2 ms of CPU); a sale loaded it three times, paid by every command a till runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cashier.config
from cashier.cli import main


def test_a_sale_loads_its_profile_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    loaded: list[Any] = []
    load = cashier.config.load_profile

    def counted(*args: Any, **kwargs: Any) -> Any:
        loaded.append(args)
        return load(*args, **kwargs)

    monkeypatch.setattr(cashier.config, "load_profile", counted)
    monkeypatch.setattr("cashier.cli.load_profile", counted)
    profile = tmp_path / "till.toml"
    profile.write_text(f'training = true\njournal_path = "{tmp_path / "journal.sqlite"}"\n'
                       f'log_dir = "{tmp_path / "logs"}"\n', encoding="utf-8")
    code = main(["--profile", str(profile), "sale", "--amount", "12.34"])
    assert code == 0, capsys.readouterr()
    assert loaded == [(str(profile),)]  # the log file's, the amount's and the runtime's


def test_a_profile_that_does_not_load_is_refused_by_the_command(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Not kept when it fails: the log goes nowhere, and the command says why in one line."""
    profile = tmp_path / "till.toml"
    profile.write_text('training = "maybe"\n', encoding="utf-8")
    assert main(["--profile", str(profile), "sale", "--amount", "12.34"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "training" in err[0], err
