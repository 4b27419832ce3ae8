"""The store's five-tries lock against tries sent at once (issue #46): many HTTP clients, two
store processes on one PostgreSQL; the answers and the database must match some one-at-a-time
order of the tries."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from tests.support.pin_bursts import burst, observed, serial_outcomes
from tests.support.store import add_manager, add_till

pytestmark = pytest.mark.socket


def manager_state(dsn: str, manager: str) -> tuple[int, bool, int, int]:
    """(failures in a row, locked now, failed tries recorded, live sessions)."""
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT failures, locked_until > now() IS TRUE FROM managers WHERE "
                           "manager_id = %s", (manager,)).fetchone()
        tries = conn.execute("SELECT count(*) FROM manager_failures WHERE manager_id = %s",
                             (manager,)).fetchone()
        sessions = conn.execute("SELECT count(*) FROM manager_sessions WHERE manager_id = %s",
                                (manager,)).fetchone()
    assert row is not None and tries is not None and sessions is not None
    return int(row[0]), bool(row[1]), int(tries[0]), int(sessions[0])


@pytest.mark.slow
def test_a_burst_of_wrong_pins_locks_after_five_and_opens_nothing_after(
        serve_store: Any, store_dsn: str) -> None:
    stores = [serve_store(), serve_store()]  # two processes: the lock is the database's
    urls = [s.url for s in stores]
    token = add_till(store_dsn, "T21")
    add_manager(store_dsn, "5", "5555")
    wrong = [f"{n:04d}" for n in range(12)]
    answers = burst(urls, token, "5", wrong)
    failures, locked, tries, sessions = manager_state(store_dsn, "5")
    assert sorted(answers) == [403] * 5 + [429] * 7, answers
    assert (failures, locked, tries, sessions) == (5, True, 5, 0)
    # the right PIN among wrong ones, all after the fifth: none opens, none counts
    pins = ["5555", "0100", "5555", "0101", "5555", "0102"]
    assert burst(urls, token, "5", pins) == [429] * 6
    assert manager_state(store_dsn, "5") == (5, True, 5, 0)
    for store in stores:
        assert store.stop() == 0
        assert store.proc is not None and store.proc.stderr is not None
        assert "Traceback" not in store.proc.stderr.read()


def test_right_and_wrong_pins_at_once_agree_with_one_at_a_time(serve_store: Any,
                                                               store_dsn: str) -> None:
    stores = [serve_store(), serve_store()]
    urls = [s.url for s in stores]
    token = add_till(store_dsn, "T22")
    add_manager(store_dsn, "6", "6666")
    # three wrong in a row first, one by one: two more lock
    assert burst(urls, token, "6", ["0001"]) == [403]
    assert burst(urls, token, "6", ["0002", "0003"]) in ([403, 403],)
    pins = ["0004", "6666", "0005", "0006", "6666", "0007", "0008", "0009"]
    answers = burst(urls, token, "6", pins)
    failures, locked, tries, sessions = manager_state(store_dsn, "6")
    seen = observed(pins, "6666", answers, failures, locked)
    assert seen in serial_outcomes(wrong=6, right=2, failures=3), (answers, seen)
    assert tries == 3 + seen.wrong_refused and sessions == seen.right_opened
