"""Shared test set-up: headless Qt, no real keyring, no stray profile from the environment."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from cashier.store.localpg import LocalPostgres

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# what the tests share (tests/support/) fails with the same detail as a test's own asserts
pytest.register_assert_rewrite("tests.support")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

#: The long scenarios ``make test`` leaves to ``make long`` (CI runs both), each with the sibling
#: that keeps its rule in the quick run. One list, so what the quick run skips is read in one place.
LONG = {
    "tests/ui/test_every_state_fits.py::test_no_state_of_make_screens_scrolls_sideways_at_1024x768_and_150":
        "the walk of `make screens`, each state at 1024x768 and 150 % in two languages (the screens "
        "at rest stay: test_geometry.py)",
    "tests/ui/test_window_manager.py::test_the_pad_steps_back_behind_the_till_under_openbox":
        "Xvfb, openbox and a window in a process of its own (~45 s); the step back's placement "
        "tests stay",
    "tests/store/test_done_when.py::test_three_tills_survive_kill_cut_and_replace_then_close_once":
        "three tills and the store killed, cut off and replaced (test_service keeps each rule)",
    "tests/store/test_cli.py::test_sale_pushes_as_it_ends_then_totals_and_one_close":
        "a store day through the command line (test_service keeps push, totals and close)",
    "tests/store/test_authority.py::test_a_close_that_half_happened_says_so_and_a_plain_retry_records_it_once":
        "a store close cut half-way (the store's authority tests keep the rules)",
    "tests/flows/test_books_cli.py::test_a_real_tills_day_closes_with_gift_cards_and_a_tab_carried_over":
        "a day of every kind through the command line (test_books keeps it in-process)",
    "tests/flows/test_one_owner.py::test_kill_9_then_recover_at_once_never_says_not_charged":
        "kill -9 then recover (test_ticket_cli's SIGKILL mid-ticket stays)",
    "tests/flows/test_one_owner.py::test_concurrent_pays_of_one_ticket_charge_once[4]":
        "four payers of one ticket (two stay)",
    "tests/flows/test_one_owner.py::test_concurrent_pays_of_one_ticket_charge_once[8]":
        "eight payers of one ticket (two stay)",
    "tests/flows/test_one_owner.py::test_a_sale_another_process_voided_at_the_host_is_corrected_and_reported":
        "another till's void and the close as processes (test_host_is_the_truth keeps it in-process)",
    "tests/ui/test_window_and_command_line.py::test_the_window_pays_while_command_lines_pay_cancel_and_recover_the_same_ticket":
        "the window paying while three command lines race it (the other way round stays)",
    "tests/store/test_service.py::test_a_correction_reaches_the_stores_totals_and_its_close":
        "a correction through a real store (the till's reports keep it in the quick run)",
    "tests/flows/test_chaos.py::test_chaos_concurrent_processes":
        "rounds of racing payers, kills and recover (the hostile slice races too)",
    "tests/ui/test_manager_store.py::test_store_part_shows_every_till_and_closes_once_for_the_store":
        "the window's store part with a real store and PostgreSQL",
    "tests/ui/test_geometry.py::test_every_screen_fits_each_till_screen[es]":
        "every screen at every size in Spanish (English stays)",
    "tests/ui/test_geometry.py::test_the_sale_screen_fits_each_till_screen[es]":
        "the Sale screen at every size in Spanish (English stays)",
    "tests/ui/test_sale_fits.py::test_the_sale_screen_fits_at_every_size[es-keypad]":
        "the Sale screen at every text size in Spanish with the keypad (English stays)",
    "tests/ui/test_sale_fits.py::test_the_sale_screen_fits_at_every_size[es-grid]":
        "the Sale screen at every text size in Spanish with the grid (English stays)",
    "tests/ui/test_training_pinpad.py::"
    "test_while_the_card_is_asked_the_pad_leaves_the_amount_and_its_keys_apart[es]":
        "the training PIN pad beside the till at every size in Spanish (English stays)",
    "tests/ui/test_sale_grid.py::test_the_grid_fits_the_tills_screens[es]":
        "the Sale screen's grid at every size in Spanish (English stays; the Sale screen's own "
        "words in Spanish stay in test_sale_fits's result beside the pad)",
    "tests/ui/test_contrast.py::test_every_label_and_field_is_readable[normal]":
        "every label's contrast in the normal look (high contrast stays)",
    "tests/ui/test_accessibility.py::"
    "test_every_control_of_every_screen_and_state_has_a_name_in_both_languages":
        "every state of make screens read as a screen reader would, in both languages (~15 s; "
        "every screen at rest stays)",
    "tests/flows/test_full_disk.py::test_full_disk_after_the_request_left":
        "a real full disk (tmpfs) under a real sale (the in-process failure journaling the answer "
        "stays)",
    **{f"tests/sandbox/test_fuzz.py::test_vendor_schema_fuzz[{part}]":
       "five sixths of the operations fuzzed (the first sixth stays)" for part in range(1, 6)},
}


def pytest_configure(config: pytest.Config) -> None:
    """The controller parses the vendor's OpenAPI file once, before the workers start: each of
    them then loads the parsed form instead of parsing it again (tests/support/vendor_file.py)."""
    from tests.support.vendor_file import VENDOR_FILE, vendor_openapi

    if not hasattr(config, "workerinput") and VENDOR_FILE.exists():
        vendor_openapi()


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    """On a fresh clone every test worker rewrites the asserts of every test module it imports
    (pytest keeps the result for the next run), all of them at once: about 10 s of CPU each,
    three times over. Each worker but the first imports its own share of the test modules first
    (pytest's import hook rewrites them as it imports them, as collection would), a share the
    first reaches only later, so the others find most of their modules done."""
    _rewrite_ahead(session.config)


def _rewrite_ahead(config: pytest.Config) -> None:
    import importlib
    import sys

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if not worker.startswith("gw") or worker == "gw0" or count < 2 or sys.dont_write_bytecode:
        return
    if config.getoption("assertmode") == "plain":  # nothing is rewritten
        return
    if config.getoption("importmode") != "prepend":  # the names below are prepend's (the default)
        return
    tests = Path(__file__).resolve().parent
    # the modules of packages, imported by the names collection gives them (tests/store has no
    # package: its few modules are rewritten as collection imports them)
    modules = sorted(p for p in tests.rglob("test_*.py") if (p.parent / "__init__.py").exists())
    index = int(worker.removeprefix("gw"))
    for path in modules[len(modules) * index // count:len(modules) * (index + 1) // count]:
        try:
            importlib.import_module(".".join(path.relative_to(tests.parent).with_suffix("").parts))
        except (Exception, pytest.skip.Exception):  # collection imports it again and says why
            continue


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    ids = {item.nodeid for item in items}
    files = {nodeid.split("::")[0] for nodeid in ids}
    stale = [n for n in LONG if n.split("::")[0] in files and n not in ids
             and not config.getoption("keyword") and not config.getoption("deselect")
             and not any("::" in arg for arg in config.args)]
    if stale:  # a renamed test would silently come back into the quick run
        raise pytest.UsageError(f"tests/conftest.py LONG names tests that do not exist: {stale}")
    for item in items:
        if item.nodeid in LONG:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in list(os.environ):
        if key.startswith("CASHIER_") and key not in {"CASHIER_FUZZ_EXAMPLES", "CASHIER_CHAOS_SALES"}:
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.exists():
        pytest.fail(f"../shared is missing (looked at {SHARED}); clone the project beside it")
    return SHARED


@pytest.fixture
def make_sandbox():  # type: ignore[no-untyped-def]
    """Factory: ``sandbox, client = make_sandbox("LG")``, in-process, closed after the test."""
    import httpx

    from cashier.host.client import HostClient, HostSettings
    from cashier.sandbox.app import HostSandbox
    from cashier.sandbox.core import SandboxConfig

    def make(option: str = "LG", access_token: str = "SANDBOX-TOKEN", **config: object):  # type: ignore[no-untyped-def]
        sandbox = HostSandbox(SandboxConfig(option=option, access_token=access_token, **config))  # type: ignore[arg-type]
        settings = HostSettings(base_url="http://sandbox/api/rest/v1", processing_option=option,  # type: ignore[arg-type]
                                terminal_id="1742" if option != "DCC" else None,
                                device_serial_number="1170301234" if option == "DCC" else None)
        client = HostClient(settings, access_token=access_token,
                            transport=httpx.ASGITransport(app=sandbox.asgi))
        return sandbox, client

    # in-process clients hold no sockets: nothing to close
    yield make


@pytest.fixture
def memory_keyring():  # type: ignore[no-untyped-def]
    """The OS keyring replaced by one in memory for the test (``.store`` holds what was kept)."""
    import keyring

    from tests.support.memory_keyring import MemoryKeyring

    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    yield ring
    keyring.set_keyring(previous)


# ---- a real PostgreSQL for the store (tests/store, the hostile till, the window's store part) ----
# One throw-away cluster per session (initdb under a temp folder, pg_ctl on a free loopback port,
# as the ``postgres`` user when we are root), a fresh database per test, and ``cashier store
# serve`` over a real socket that a test can kill (tests/support/store.py).


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[LocalPostgres]:
    import subprocess
    import tempfile

    from cashier.store.localpg import LocalPostgres

    base = Path(tempfile.mkdtemp(prefix="cashier-pg-"))
    base.chmod(0o755)  # the postgres user must reach its data folder inside
    cluster = LocalPostgres(base / "data", fast=True)
    cluster.start()
    yield cluster
    cluster.stop()
    subprocess.run(["rm", "-rf", str(base)], check=False)


@pytest.fixture
def store_dsn(pg_cluster: LocalPostgres) -> str:
    """A new, migrated database of its own for each test."""
    import secrets

    import psycopg

    from cashier.store.schema import migrate

    name = "store_" + secrets.token_hex(6)
    with psycopg.connect(pg_cluster.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    dsn = pg_cluster.dsn.rsplit("/", 1)[0] + "/" + name
    migrate(dsn)
    return dsn


@pytest.fixture
def serve_store(store_dsn: str) -> Iterator[Any]:
    """``start()``: the store service on ``store_dsn`` in a process of its own, stopped after."""
    from tests.support.store import ServedStore

    served: list[ServedStore] = []

    def start() -> ServedStore:
        store = ServedStore(store_dsn).start()
        served.append(store)
        return store

    yield start
    for store in served:
        if store.proc is not None and store.proc.poll() is None:
            store.stop()
