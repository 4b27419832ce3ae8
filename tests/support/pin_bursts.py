"""Tries sent at once: store manager PINs from many HTTP clients (threads, each its own
connection) against one or more served stores on one database, and the serial model their
answers must agree with (issue #46: the five-tries lock holds against a burst)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import httpx

from cashier.store.database import PIN_TRIES


@dataclass(frozen=True)
class BurstOutcome:
    """What a burst ended as: the answers by kind of try, and the manager's state after it."""

    wrong_refused: int  # 403: a wrong PIN, counted
    wrong_locked: int  # 429
    right_opened: int  # 200: a session
    right_locked: int  # 429
    failures: int
    locked: bool


def burst(urls: Sequence[str], token: str, manager: str, pins: Sequence[str],
          timeout_s: float = 30.0) -> list[int]:
    """Send every PIN of ``pins`` at once, each from its own client (spread over ``urls``: the
    store processes); the status answered to each, in the order of ``pins``."""
    clients = [httpx.Client(base_url=urls[i % len(urls)], timeout=timeout_s,
                            headers={"Authorization": f"Bearer {token}"})
               for i in range(len(pins))]
    answers: list[int] = [0] * len(pins)
    gate = threading.Barrier(len(pins))

    def one(i: int) -> None:
        clients[i].get("/v1/health")  # the connection is open before the gate
        gate.wait()
        answers[i] = clients[i].post("/v1/manager", json={"manager": manager, "pin": pins[i]}
                                     ).status_code

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(pins))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout_s + 5)
    finally:
        for c in clients:
            c.close()
    return answers


def observed(pins: Sequence[str], right: str, answers: Sequence[int], failures: int,
             locked: bool) -> BurstOutcome:
    wrong = [a for p, a in zip(pins, answers, strict=True) if p != right]
    good = [a for p, a in zip(pins, answers, strict=True) if p == right]
    return BurstOutcome(wrong.count(403), wrong.count(429), good.count(200), good.count(429),
                        failures, locked)


def serial_outcomes(wrong: int, right: int, failures: int = 0) -> set[BurstOutcome]:
    """Every outcome some one-at-a-time order of the tries gives, from an unlocked manager with
    ``failures`` wrong PINs in a row: a wrong PIN counts, the fifth in a row locks (for longer
    than the burst), a try while locked is refused, the right PIN opens and starts afresh."""
    outcomes: set[BurstOutcome] = set()
    for rights in combinations(range(wrong + right), right):  # each distinct order once
        order = ["r" if i in rights else "w" for i in range(wrong + right)]
        count, locked = failures, False
        tally = {"w403": 0, "w429": 0, "r200": 0, "r429": 0}
        for kind in order:
            if locked:
                tally[f"{kind}429"] += 1
            elif kind == "w":
                count += 1
                locked = count >= PIN_TRIES
                tally["w403"] += 1
            else:
                count = 0
                tally["r200"] += 1
        outcomes.add(BurstOutcome(tally["w403"], tally["w429"], tally["r200"], tally["r429"],
                                  count, locked))
    return outcomes
