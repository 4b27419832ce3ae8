"""Printers for tests: a loopback TCP listener that records every byte, and a port that refuses."""

from __future__ import annotations

import socket
import threading
import time

#: DLE EOT 4 and the answers of a real roll paper sensor: fixed bits 1 and 4, near-end bits
#: 2-3, paper-end bits 5-6.
PAPER_QUERY = b"\x10\x04\x04"
PAPER_ANSWERS = {"plenty": b"\x12", "low": b"\x1e", "out": b"\x72"}
#: ESC p on pin 2 then pin 5 (25 ms pulses as python-escpos sends them): the drawer kick alone
KICK_BYTES = b"\x1bp\x00\x32\x32\x1bp\x01\x32\x32"


class LoopbackPrinter:
    """A raw-TCP (port 9100 style) printer on 127.0.0.1 that keeps what each connection sent.

    It answers DLE EOT 4 like a real printer with ``paper`` ("plenty", "low", "out"; change it
    to load a roll); ``paper=None`` is a printer that never answers (most network printers).
    ``jobs`` keeps what each connection sent apart from those queries (a connection that only
    asked is counted in ``queries``, not kept). ``read=False`` makes a printer that accepts and
    never reads (a jammed printer)."""

    def __init__(self, *, read: bool = True, paper: str | None = "plenty") -> None:
        self.read = read
        self.paper = paper
        self.queries = 0
        self.jobs: list[bytes] = []
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(8)
        self.port = int(self._server.getsockname()[1])
        self._held: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"tcp://127.0.0.1:{self.port}"

    @property
    def data(self) -> bytes:
        return b"".join(self.jobs)

    def _serve(self) -> None:
        self._server.settimeout(0.1)
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except OSError:
                continue
            if not self.read:
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
                self._held.append(conn)
                continue
            chunks = []
            with conn:
                conn.settimeout(5)
                while True:
                    try:
                        chunk = conn.recv(65536)
                    except OSError:
                        break
                    if not chunk:
                        break
                    if self.paper is not None and chunk.endswith(PAPER_QUERY):
                        conn.sendall(PAPER_ANSWERS[self.paper])  # the client waits for it
                    chunks.append(chunk)
            data = b"".join(chunks)
            self.queries += data.count(PAPER_QUERY)
            data = data.replace(PAPER_QUERY, b"")
            if data:
                self.jobs.append(data)

    def wait_jobs(self, count: int, timeout_s: float = 15.0) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if len(self.jobs) >= count:
                return True
            time.sleep(0.01)
        return False

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        for conn in self._held:
            conn.close()
        self._server.close()


def refusing_url() -> str:
    """A loopback port nobody listens on: connections are refused at once."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.bind(("127.0.0.1", 0))
    port = int(probe.getsockname()[1])
    probe.close()
    return f"tcp://127.0.0.1:{port}"
