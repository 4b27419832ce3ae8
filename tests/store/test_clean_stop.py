"""The store service's stop (issue #46): after a store's work, SIGTERM (alone, after a SIGINT,
or twice) ends it with exit 0 and one line, ``store stopped``, every time; a request still
running when the graceful wait ends is answered 503 with one line, never a traceback."""

from __future__ import annotations

import json
import secrets
import signal
import socket
import time
from typing import Any

import httpx
import pytest

from tests.support.store import ServedStore, add_till, put_manager

pytestmark = pytest.mark.socket

#: The signals each stop sends, one after the other (``make store``'s Ctrl-C reaches the service
#: and its parent, which then sends SIGTERM).
STOPS = ((signal.SIGTERM,), (signal.SIGINT, signal.SIGTERM), (signal.SIGTERM, signal.SIGTERM))


def store_work(url: str, token: str, rounds: int = 3) -> None:
    """A store's day in small: hello, pushes, a manager's session, totals (nothing of it is
    worth a line in the log)."""
    journal = secrets.token_hex(16)
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"},
                      timeout=30) as http:
        assert http.post("/v1/hello", json={"journal_id": journal}).status_code == 200
        for seq in range(1, rounds + 1):
            event = {"seq": seq, "entry_id": None, "at": "2026-11-23T10:00:00.000+00:00",
                     "actor": "7", "type": "note", "data": json.dumps({"n": seq})}
            assert http.post("/v1/events", json={"journal_id": journal, "events": [event]}
                             ).json()["high_water"] == seq
        signed = http.post("/v1/manager", json={"manager": "5", "pin": "5555"})
        assert signed.status_code == 200
        assert http.get("/v1/totals", headers={"X-Store-Manager": signed.json()["session"]}
                        ).json()["scope"] == "store"


def stop_with(store: ServedStore, signals: tuple[signal.Signals, ...]) -> tuple[int, str]:
    assert store.proc is not None
    for sig in signals:
        store.proc.send_signal(sig)
    code = store.proc.wait(30)
    return code, store.proc.stderr.read()


def test_a_clean_stop_is_one_line_every_time(serve_store: Any, store_dsn: str) -> None:
    token = add_till(store_dsn, "T31")
    put_manager(store_dsn, "5", "5555")
    stops = []
    for signals in STOPS:
        store = serve_store()
        store_work(store.url, token)
        stops.append(stop_with(store, signals))
    assert stops == [(0, "store stopped\n")] * len(STOPS), stops


@pytest.mark.slow
def test_a_request_still_running_at_the_stop_is_answered_503_in_one_line(
        serve_store: Any, store_dsn: str) -> None:
    """A till stalled in the middle of its body holds its request past the 5 s graceful wait."""
    token = add_till(store_dsn, "T32")
    store = serve_store()
    with socket.create_connection(("127.0.0.1", store.port), timeout=30) as stalled:
        stalled.sendall(f"POST /v1/hello HTTP/1.1\r\nHost: store\r\nAuthorization: Bearer {token}"
                        "\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n"
                        '{"journal_id": "'.encode())
        time.sleep(0.3)  # the request is read up to its body's start
        began = time.monotonic()
        code, log = stop_with(store, (signal.SIGTERM,))
        answer = stalled.recv(4096).decode()
    assert code == 0 and time.monotonic() - began < 15
    assert answer.startswith("HTTP/1.1 503") and '"error":"stopping"' in answer, answer
    lines = log.splitlines()
    assert len(lines) == 2 and "cut off" in lines[0] and lines[1] == "store stopped", log
    assert "Traceback" not in log and "CancelledError" not in log
