"""``make hostile``, the store (issue #46, round 4): seeded rounds against the served store on a
real PostgreSQL (``CASHIER_HOSTILE_STORE`` rounds of each kind, ``CASHIER_HOSTILE_SEED``):

- PIN bursts: a store manager's right and wrong PINs sent at once from many clients to two
  store processes; the answers and the database must match some one-at-a-time order (at most
  five wrong count before the lock, no right PIN behind the fifth opens a session);
- forks: a till pushes, its journal is copied, it goes on and pushes, the copy is restored and
  writes on; the store must hold one journal's history only, never one on top of the other
  (a fork is refused with "restored from an older copy"; a copy the store had not gone past
  continues);
- stops: each store process ends, after its work, on SIGTERM (alone, after SIGINT, or twice)
  with exit 0 and the one line ``store stopped``.

Printed: bursts, tries, forks refused and continued, stops, discrepancies found (goal 0).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest

from cashier.journal.model import Kind, NewEntry, State
from tests.support.pin_bursts import burst, observed, serial_outcomes
from tests.support.store import add_manager, add_till

pytestmark = pytest.mark.socket
ROUNDS = int(os.environ.get("CASHIER_HOSTILE_STORE", "1"))
SEED = int(os.environ.get("CASHIER_HOSTILE_SEED", "20261123"))
STOPS = ((signal.SIGTERM,), (signal.SIGINT, signal.SIGTERM), (signal.SIGTERM, signal.SIGTERM))


def _write(journal: Any, rng: random.Random, count: int) -> None:
    """``count`` journal writes: sales approved or left sent, and notes."""
    for _ in range(count):
        if rng.random() < 0.5:
            amount = Decimal(rng.randint(100, 9999)) / 100
            entry = journal.create(NewEntry(Kind.SALE, amount, actor="7", sent=True))
            if rng.random() < 0.8:
                journal.transition(entry.id, State.APPROVED, actor="7", approved=amount,
                                   card_type="VISA")
        else:
            journal.note(None, "drawer_open", actor="7", n=rng.randint(0, 10 ** 6))


def _history(journal: Any) -> list[tuple[Any, ...]]:
    return [(e["seq"], e["at"], e["type"], e["data"]) for e in journal.read_events(0, 10 ** 6)]


def _fork_round(rng: random.Random, url: str, dsn: str, token: str, tmp: Path,
                n: int) -> tuple[str, list[str]]:
    """One fork: how it ended ("continued", "refused by the store" or "refused by the till")
    and any discrepancy."""
    from cashier.config import load_profile
    from cashier.store import StoreError
    from cashier.store.outbox import Outbox

    path = tmp / f"fork-{n}.sqlite"
    profile = load_profile(None, training=False, till_id="HS1", till_number=51,
                           host_url="https://host.example/api", terminal_id="1742",
                           store_url=url, journal_path=path)
    problems: list[str] = []
    outbox = Outbox(profile, token=token)
    try:
        _write(outbox.journal, rng, rng.randint(1, 6))
        outbox.sync(10.0)
        _write(outbox.journal, rng, rng.randint(0, 3))  # the copy may hold unpushed events
        with sqlite3.connect(path) as src, sqlite3.connect(tmp / f"copy-{n}.sqlite") as dst:
            src.backup(dst)
        copied = outbox.last_event()
        for _ in range(n % 3):  # the lost journal goes on and pushes (or not: no fork)
            _write(outbox.journal, rng, rng.randint(1, 4))
            outbox.sync(10.0)
        journal_id = outbox.state()[0]
        lost = _history(outbox.journal)
    finally:
        outbox.close()
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT high_water FROM journals WHERE journal_id = %s",
                           (journal_id,)).fetchone()
    mark = int(row[0]) if row else 0
    for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        part.unlink(missing_ok=True)
    path.write_bytes((tmp / f"copy-{n}.sqlite").read_bytes())
    restored = Outbox(profile, token=token)
    try:
        target = rng.randint(copied + 1, max(copied, mark) + 6)  # short of the mark, or past it
        while restored.last_event() < target:
            _write(restored.journal, rng, 1)
        kept = _history(restored.journal)
        forked = kept[:mark] != lost[:mark]
        try:
            restored.sync(10.0)
            kept = _history(restored.journal)  # the sync may write too (the store's invoice floor)
            if forked and len(kept) == mark:  # nothing to push yet: its next write is refused
                _write(restored.journal, rng, 1)
                kept = _history(restored.journal)
                restored.sync(10.0)
            ended = "continued"
        except StoreError as exc:  # past the mark the store refuses it, short of it the till
            ended = "refused by the store" if len(kept) > mark else "refused by the till"
            if "restored from an older copy" not in str(exc):
                problems.append(f"fork {n}: refused otherwise: {exc}")
    finally:
        restored.close()
    with psycopg.connect(dsn) as conn:
        held = [(int(r[0]), r[1], r[2], r[3]) for r in conn.execute(
            "SELECT seq, at, type, data::text FROM events WHERE journal_id = %s ORDER BY seq",
            (journal_id,))]

    def same(ours: list[tuple[Any, ...]]) -> bool:
        return [(s, a, t) for s, a, t, _ in held] == [(s, a, t) for s, a, t, _ in ours[:len(held)]]

    if forked and not ended.startswith("refused"):
        problems.append(f"fork {n}: a copy behind the store's mark {mark} was not refused")
    if not forked and ended != "continued":
        problems.append(f"fork {n}: a copy the store had not gone past was refused")
    expected = lost[:mark] if forked else kept
    if len(held) != len(expected) or not same(expected):
        problems.append(f"fork {n}: the store holds {len(held)} events, not the {len(expected)} "
                        f"of one journal ({'forked' if forked else 'continued'} at {mark})")
    return ended, problems


def test_hostile_store(serve_store: Any, store_dsn: str, tmp_path: Path) -> None:
    rng = random.Random(SEED + 46)
    discrepancies: list[str] = []
    stores = [serve_store(), serve_store()]
    urls = [s.url for s in stores]
    token = add_till(store_dsn, "HS1")
    tries = bursts = 0
    for n in range(ROUNDS):  # ---- PIN bursts -------------------------------------------------
        manager, right = f"{700 + n}", f"{rng.randint(1000, 9999)}"
        add_manager(store_dsn, manager, right)
        before = rng.randint(0, 4)
        for i in range(before):  # wrong ones first, one by one (a wrong PIN is below 1000)
            if burst(urls, token, manager, [f"{i:04d}"]) != [403]:
                discrepancies.append(f"burst {n}: wrong PIN {i + 1} alone not answered 403")
        wrong, good = rng.randint(3, 10), rng.randint(0, 3)
        pins = [f"{rng.randint(0, 999):04d}" for _ in range(wrong)] + [right] * good
        rng.shuffle(pins)
        answers = burst(urls, token, manager, pins)
        with psycopg.connect(store_dsn) as conn:
            row = conn.execute("SELECT failures, locked_until > now() IS TRUE FROM managers "
                               "WHERE manager_id = %s", (manager,)).fetchone()
            counted = conn.execute("SELECT count(*) FROM manager_failures WHERE manager_id = %s",
                                   (manager,)).fetchone()
            sessions = conn.execute("SELECT count(*) FROM manager_sessions WHERE manager_id = %s",
                                    (manager,)).fetchone()
        assert row is not None and counted is not None and sessions is not None
        seen = observed(pins, right, answers, int(row[0]), bool(row[1]))
        if seen not in serial_outcomes(wrong, good, before):
            discrepancies.append(f"burst {n} ({before} before, {wrong} wrong, {good} right): "
                                 f"{answers} ended {seen}: no one-at-a-time order gives it")
        if int(counted[0]) != before + seen.wrong_refused or int(sessions[0]) != seen.right_opened:
            discrepancies.append(f"burst {n}: {counted[0]} tries recorded, {sessions[0]} sessions "
                                 f"for {seen}")
        tries += before + len(pins)
        bursts += 1
    ended: dict[str, int] = {}
    for n in range(ROUNDS * 3):  # ---- forks -------------------------------------------------
        how, problems = _fork_round(rng, urls[n % 2], store_dsn, token, tmp_path, n)
        ended[how] = ended.get(how, 0) + 1
        discrepancies.extend(problems)
    stopped = 0
    for n, store in enumerate(stores):  # ---- stops ------------------------------------------
        assert store.proc is not None
        for sig in STOPS[rng.randrange(len(STOPS)) if n else 0]:
            store.proc.send_signal(sig)
        code, log = store.proc.wait(30), store.proc.stderr.read()
        lines = [line for line in log.splitlines() if "store refused till HS1" not in line]
        if code != 0 or lines != ["store stopped"]:  # refusals of this run are one line each
            discrepancies.append(f"store {n} stopped with {code}: {log[-600:]!r}")
        stopped += 1
    forks = ", ".join(f"{how} {count}" for how, count in sorted(ended.items()))
    print(f"\nhostile store: PIN bursts {bursts} ({tries} tries), forks: {forks}; stops {stopped}, "
          f"discrepancies found {len(discrepancies)} (seed {SEED})")
    assert not discrepancies, "\n".join(discrepancies[:20])
