"""The ``cashier`` command run in a real process of its own, forked from a Python that imported
the command line once.

Most of a cold ``python -m cashier.cli`` is importing (pydantic models, httpx, the sandbox): about
0.6 s of CPU per run, paid hundreds of times by the suite on a 2-core machine. A fork server pays
it once per test worker; every run is still its own process (own pid, own SQLite connections and
locks, own exit code, its own environment, stdin and working folder), which is what the tests
check. Tests that signal, time or race processes start them cold with ``subprocess`` as before,
so the command's own start is still run by the suite.

Run as ``python -m tests.forked_cli``: the server reads one JSON request per line on stdin and
answers one JSON line on stdout.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# what the command imports on its paths: imported once in the server, before any fork
PRELOAD = ("cashier.cli", "cashier.flows.payments", "cashier.runtime", "cashier.sandbox.app",
           "cashier.flows.ticket", "cashier.host.client", "cashier.journal.aio")


def _child(request: Mapping[str, Any], out: int, err: int, stdin: int) -> None:
    """In the forked process: become the command, then exit with its code."""
    os.dup2(stdin, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's stdin
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.argv = ["cashier", *request["args"]]
    code = 1
    try:
        from cashier.cli import main

        code = main(request["args"])
    except SystemExit as exc:  # argparse's own exits
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _serve() -> None:
    for name in PRELOAD:
        __import__(name)
    channel_in, channel_out = sys.stdin.buffer, sys.stdout.buffer
    for line in channel_in:
        request = json.loads(line)
        with tempfile.TemporaryDirectory() as folder:
            paths = [os.path.join(folder, n) for n in ("in", "out", "err")]
            Path(paths[0]).write_text(request["input"] or "", encoding="utf-8")
            fds = [os.open(paths[0], os.O_RDONLY),
                   os.open(paths[1], os.O_WRONLY | os.O_CREAT, 0o600),
                   os.open(paths[2], os.O_WRONLY | os.O_CREAT, 0o600)]
            pid = os.fork()
            if pid == 0:
                _child(request, fds[1], fds[2], fds[0])
            for fd in fds:
                os.close(fd)
            deadline = time.monotonic() + request["timeout"]
            status: int | None = None
            while status is None:
                done, raw = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = raw
                elif time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    status = os.waitpid(pid, 0)[1]
                    request["timed_out"] = True
                else:
                    time.sleep(0.002)
            answer = {"returncode": os.waitstatus_to_exitcode(status),
                      "stdout": Path(paths[1]).read_text(encoding="utf-8", errors="replace"),
                      "stderr": Path(paths[2]).read_text(encoding="utf-8", errors="replace"),
                      "timed_out": bool(request.get("timed_out"))}
        channel_out.write(json.dumps(answer).encode() + b"\n")
        channel_out.flush()


class _Server:
    """One fork server per test worker, started on first use."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.lock = threading.Lock()

    def run(self, args: list[str], env: Mapping[str, str], stdin: str | None, timeout: float,
            cwd: Path) -> subprocess.CompletedProcess[str]:
        request = {"args": args, "env": dict(env), "input": stdin, "timeout": timeout,
                   "cwd": str(cwd)}
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                server_env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
                server_env["PYTHONPATH"] = os.pathsep.join(
                    p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
                self.proc = subprocess.Popen([sys.executable, "-m", "tests.forked_cli"], cwd=ROOT,
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             env=server_env)
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the cashier fork server died")
        answer = json.loads(line)
        if answer["timed_out"]:
            raise subprocess.TimeoutExpired(["cashier", *args], timeout, answer["stdout"],
                                            answer["stderr"])
        return subprocess.CompletedProcess(["cashier", *args], answer["returncode"],
                                           answer["stdout"], answer["stderr"])


_SERVER = _Server()


def run_cashier(*args: str, env: Mapping[str, str] | None = None, stdin: str | None = None,
                timeout: float = 60, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``cashier ARGS`` in a process of its own, as a script or a cashier would run it (forked
    from the worker's pre-imported server; same results as ``python -m cashier.cli ARGS``)."""
    return _SERVER.run(list(args), os.environ if env is None else env, stdin, timeout,
                       Path.cwd() if cwd is None else cwd)


if __name__ == "__main__":
    _serve()
