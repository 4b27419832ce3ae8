"""The import contracts in pyproject.toml (run by ``make test`` through lint-imports) are kept
today, and they do catch what they are for: a cycle inside a floor, an arrow up the core's
floors, a cycle in the window, the window reaching for SQLite or an API client, anything but the
composition root reaching the sandbox (or reaching past its interface), the sandbox leaning on
the till."""

from __future__ import annotations

import os
from copy import deepcopy
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.application.use_cases import (
    _build_report,
    _register_contract_types,
    read_user_options,
)
from importlinter.configuration import configure

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def linter() -> tuple[Any, grimp.ImportGraph]:
    configure()
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        options = read_user_options(str(ROOT / "pyproject.toml"))
    finally:
        os.chdir(here)
    _register_contract_types(options)
    graph = grimp.build_graph("cashier", "ui", include_external_packages=True, cache_dir=None)
    return options, graph


def broken(linter: tuple[Any, grimp.ImportGraph], *extra: tuple[str, str]) -> set[str]:
    """The contracts broken once ``extra`` (importer, imported) imports are added."""
    options, graph = linter
    graph = deepcopy(graph)
    for importer, imported in extra:
        graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="import")
    report = _build_report(graph, 0, options, (), False, False)
    return {contract.name for contract, check in report.get_contracts_and_checks() if not check.kept}


def test_every_contract_is_kept_today(linter: tuple[Any, grimp.ImportGraph]) -> None:
    assert broken(linter) == set()


@pytest.mark.parametrize(("extra", "caught_by"), [
    # the cycle of the last round: the journal's rows importing the journal's store back
    ((("cashier.journal.tickets", "cashier.journal.recorder"),), "No import cycle between siblings"),
    # an arrow up: the ticket read model reaching into the flows again
    ((("cashier.journal.ticket_model", "cashier.flows.ticket"),), "The core's floors"),
    # the receipt layout reaching up into the cash desk
    ((("cashier.printing.layout", "cashier.cashdesk"),), "The core's floors"),
    # the window's pages naming the application again
    ((("ui.pages.base", "ui.app"),), "The window's floors"),
    ((("ui.pages.sale", "cashier.host.client"),),
     "The window never touches SQLite, the journal's SQL or the API clients"),
    ((("ui.pages.journal", "sqlite3"),),
     "The window never touches SQLite, the journal's SQL or the API clients"),
    # a screen checking a manager PIN with the guard's SQL itself, not through cashier.approvals
    ((("ui.pages.drawer", "cashier.journal.pin_guard"),),
     "The window never touches SQLite, the journal's SQL or the API clients"),
    # a production flow driving the simulator again (the QR flow's training customer of old)
    ((("cashier.flows.qr", "cashier.sandbox"),), "Only the composition root reaches the sandbox"),
    ((("cashier.credentials", "cashier.sandbox.app"),),
     "Only the composition root reaches the sandbox"),
    # the training PIN pad reaching past the sandbox's interface into its modules
    ((("ui.pinpad", "cashier.sandbox.triggers"),),
     "The sandbox is reached through its public interface"),
    ((("cashier.runtime", "cashier.sandbox.host_giftcards"),),
     "The sandbox is reached through its public interface"),
    # the simulator leaning on the till it simulates a host for
    ((("cashier.sandbox.host_qr", "cashier.flows.qr"),), "The sandbox uses none of the till's floors"),
])
def test_a_cycle_or_an_upward_arrow_breaks_a_contract(linter: tuple[Any, grimp.ImportGraph],
                                                      extra: tuple[tuple[str, str], ...],
                                                      caught_by: str) -> None:
    assert caught_by in broken(linter, *extra)
