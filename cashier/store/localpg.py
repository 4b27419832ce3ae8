"""A PostgreSQL cluster of our own, for trying the store by hand (``make store``), the tests and
the bench: Debian's server binaries, ``initdb`` into a folder, ``pg_ctl`` on a loopback port.

Started as root, the cluster runs as the ``postgres`` user (PostgreSQL refuses to run as root),
in a folder that user owns. Trust authentication on loopback only: it is a throw-away cluster,
never the store's real database (see IT's guide, docs/guides/it.md, "The store server").

``python -m cashier.store.localpg DIR [PORT]`` starts one (creating it when missing), prints its
URL and keeps running until SIGINT/SIGTERM, then stops it.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from cashier.store import StoreError


def bin_dir() -> Path:
    """The newest installed server's binaries (Debian keeps them out of PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise StoreError("PostgreSQL's server is not installed: run scripts/system-deps.sh test "
                     "(apt-get install postgresql)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LocalPostgres:
    """One throw-away cluster in ``data_dir``; ``start()`` returns its connection URL."""

    def __init__(self, data_dir: Path, port: int | None = None, *, fast: bool = False) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port or free_port()
        self.fast = fast  # tests: no fsync (a crash loses the throw-away cluster, nothing else)
        self.bin = bin_dir()
        self._as_postgres = os.geteuid() == 0

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self._as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise StoreError(f"{args[0]} failed: {(done.stderr or done.stdout).strip()[-500:]}")

    def start(self) -> str:
        if not (self.data_dir / "PG_VERSION").exists():
            self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            if self._as_postgres:
                shutil.chown(self.data_dir, "postgres", "postgres")
            self._run("initdb", "-D", str(self.data_dir), "-A", "trust", "-U", "postgres",
                      "-E", "UTF8", "--no-sync", "--locale=C")
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data_dir} -c max_connections=60"
        if self.fast:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data_dir), "-l", str(self.data_dir / "server.log"),
                  "-o", options, "-w", "-t", "60", "start")
        return self.dsn

    def stop(self) -> None:
        if (self.data_dir / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data_dir), "-m", "fast", "-w", "stop")


def main(argv: list[str]) -> int:
    """``DIR [PG_PORT] [--serve STORE_PORT]``: the cluster, and with ``--serve`` the store service
    on it (``make store``); both stop on SIGINT/SIGTERM."""
    serve_port: str | None = None
    if "--serve" in argv:
        at = argv.index("--serve")
        serve_port = argv[at + 1] if at + 1 < len(argv) else "8790"
        argv = argv[:at] + argv[at + 2:]
    if not argv:
        print("usage: python -m cashier.store.localpg DIR [PG_PORT] [--serve STORE_PORT]",
              file=sys.stderr)
        return 2
    cluster = LocalPostgres(Path(argv[0]), int(argv[1]) if len(argv) > 1 else 5433)
    print(f"postgres listening on {cluster.start()}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    service: subprocess.Popen[bytes] | None = None
    try:
        if serve_port is not None:
            service = subprocess.Popen([sys.executable, "-m", "cashier.cli", "store", "serve",
                                        "--database", cluster.dsn, "--port", serve_port,
                                        "--training-catalog"])
            print(f"add a till:  cashier store add-till TILL_ID --database {cluster.dsn}", flush=True)
        while not stop.is_set() and (service is None or service.poll() is None):
            stop.wait(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        if service is not None and service.poll() is None:
            service.terminate()
            service.wait(15)
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
