"""The ``cashier`` command run in a real process of its own, forked from a Python that imported
the command line once.

Most of a cold ``python -m cashier.cli`` is importing (pydantic models, httpx, the sandbox): about
0.6 s of CPU per run, paid hundreds of times by the suite on a 2-core machine. A fork server pays
it once per test worker; every run is still its own process (own pid, own SQLite connections and
locks, own exit code, its own environment, stdin and working folder), which is what the tests
check. Tests that signal, time or race processes start them cold with ``subprocess`` as before,
so the command's own start is still run by the suite.

The servers the tests talk to over a socket (``cashier sandbox serve``, ``cashier store serve``)
are forked the same way by ``start_cashier``: a real process listening on a real socket, whose
output the test reads through named pipes as it would through ``subprocess.PIPE``, and which it
signals by pid. Their cold start stays tested where it is the point (tests/sandbox/test_serve.py).

Run as ``python -m tests.support.forked_cli``: the server reads one JSON request per line on stdin and
answers one JSON line on stdout.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import pkgutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# what the command imports on its paths besides the core itself (all of ``cashier``): imported
# once in the server, before any fork
PRELOAD = ("uvicorn", "uvicorn.config", "uvicorn.server", "uvicorn.protocols.http.h11_impl",
           "uvicorn.lifespan.on", "email.policy", "getpass")


def _child(request: Mapping[str, Any], out: int, err: int, stdin: int,
           line_buffered: bool = False) -> None:
    """In the forked process: become the command, then exit with its code. A server's output is
    line-buffered, as ``PYTHONUNBUFFERED`` would have it: its test reads it line by line."""
    os.dup2(stdin, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    buffering = 1 if line_buffered else -1
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's stdin
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False, buffering=buffering)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False, buffering=buffering)  # noqa: SIM115
    source = request.get("code")
    sys.argv = ["-c", *request["args"]] if source else ["cashier", *request["args"]]
    code = 1
    try:
        if request.get("after_a_line"):  # started and imported, it runs once told to (a race)
            sys.stdin.readline()
        if source:  # ``python -c SOURCE ARGS``
            exec(compile(source, "<string>", "exec"), {"__name__": "__main__"})
            code = 0
        else:
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


def _run(request: dict[str, Any]) -> dict[str, Any]:
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
        status = _wait(pid, request["timeout"])
        timed_out = status is None
        if status is None:
            os.kill(pid, signal.SIGKILL)
            status = os.waitpid(pid, 0)[1]
        return {"returncode": os.waitstatus_to_exitcode(status),
                "stdout": Path(paths[1]).read_text(encoding="utf-8", errors="replace"),
                "stderr": Path(paths[2]).read_text(encoding="utf-8", errors="replace"),
                "timed_out": timed_out}


def _wait(pid: int, timeout: float) -> int | None:
    """The child's wait status, or None when it still runs after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.002)


#: started children still running: pid -> the read ends that keep their pipes open
_STARTED: dict[int, list[int]] = {}


def _start(request: dict[str, Any]) -> dict[str, Any]:
    """Fork a long-running command whose stdout and stderr (and stdin, when asked) are named
    pipes. The server holds a read end of stdout and stderr until the child is reaped, so the
    child's writes never fail for want of a reader while the test opens its own."""
    folder = tempfile.mkdtemp(prefix="forked-cli-")
    fifos = [os.path.join(folder, n) for n in ("out", "err", "in")]
    for fifo in fifos:
        os.mkfifo(fifo, 0o600)
    held = [os.open(fifo, os.O_RDONLY | os.O_NONBLOCK) for fifo in fifos[:2]]
    pid = os.fork()
    if pid == 0:
        writers = [os.open(fifo, os.O_WRONLY) for fifo in fifos[:2]]
        stdin = os.open(fifos[2] if request["stdin"] else os.devnull, os.O_RDONLY)
        _child(request, writers[0], writers[1], stdin, line_buffered=True)
    _STARTED[pid] = held
    return {"pid": pid, "stdout": fifos[0], "stderr": fifos[1],
            "stdin": fifos[2] if request["stdin"] else None}


def _reap(request: dict[str, Any]) -> dict[str, Any]:
    pid = request["pid"]
    status = _wait(pid, request["timeout"])
    if status is None:
        return {"returncode": None}
    for fd in _STARTED.pop(pid, []):
        os.close(fd)
    return {"returncode": os.waitstatus_to_exitcode(status)}


def _preload() -> None:
    """Import the whole core (and what its commands import on their paths), then freeze it.

    A forked child imported about 60 modules of its own otherwise (every command module to build
    the parser, the sandbox's families) and built the parser (a third of a sale's CPU: argparse
    asks gettext for every help text); and its first full garbage collection would walk, and so
    copy, every page of the server's heap. Frozen objects are never walked."""
    import cashier

    for info in pkgutil.walk_packages(cashier.__path__, "cashier."):
        importlib.import_module(info.name)
    for name in PRELOAD:
        importlib.import_module(name)
    from cashier import cli

    parser = cli.build_parser()  # what reads no environment: each child parses with its own copy
    cli.build_parser = lambda: parser
    gc.collect()
    gc.freeze()


def _serve() -> None:
    _preload()
    channel_in, channel_out = sys.stdin.buffer, sys.stdout.buffer
    handlers = {"run": _run, "start": _start, "wait": _reap}
    for line in channel_in:
        request = json.loads(line)
        answer = handlers[request.get("op", "run")](request)
        channel_out.write(json.dumps(answer).encode() + b"\n")
        channel_out.flush()


class _Server:
    """One fork server per test worker, started on first use."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.lock = threading.Lock()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                server_env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
                server_env["PYTHONPATH"] = os.pathsep.join(
                    p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
                self.proc = subprocess.Popen([sys.executable, "-m", "tests.support.forked_cli"], cwd=ROOT,
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             env=server_env)
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the cashier fork server died")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def run(self, args: list[str], env: Mapping[str, str], stdin: str | None, timeout: float,
            cwd: Path) -> subprocess.CompletedProcess[str]:
        answer = self.ask({"op": "run", "args": args, "env": dict(env), "input": stdin,
                           "timeout": timeout, "cwd": str(cwd)})
        if answer["timed_out"]:
            raise subprocess.TimeoutExpired(["cashier", *args], timeout, answer["stdout"],
                                            answer["stderr"])
        return subprocess.CompletedProcess(["cashier", *args], answer["returncode"],
                                           answer["stdout"], answer["stderr"])


class ForkedProcess:
    """A long-running ``cashier`` command forked by the server, with the parts of
    ``subprocess.Popen`` the tests use: ``pid``, ``stdin``/``stdout``/``stderr`` (text, used as
    pipes), ``poll``, ``wait``, ``communicate``, ``send_signal``, ``terminate``, ``kill`` and
    ``returncode``. ``after_a_line``: the command waits for a line on its stdin before it runs
    (processes made ready, then released together: the race is between the commands)."""

    def __init__(self, args: list[str], env: Mapping[str, str], cwd: Path,
                 after_a_line: bool = False, code: str | None = None) -> None:
        self.args = [sys.executable, "-c", code, *args] if code else ["cashier", *args]
        answer = _SERVER.ask({"op": "start", "args": args, "env": dict(env), "input": None,
                              "cwd": str(cwd), "stdin": after_a_line,
                              "after_a_line": after_a_line, "code": code})
        self.pid: int = answer["pid"]
        self.returncode: int | None = None
        # opened in the order the child opens them (each open waits for the child's)
        self.stdout = open(answer["stdout"], encoding="utf-8", errors="replace")  # noqa: SIM115
        self.stderr = open(answer["stderr"], encoding="utf-8", errors="replace")  # noqa: SIM115
        self.stdin = (open(answer["stdin"], "w", encoding="utf-8")  # noqa: SIM115
                      if answer["stdin"] else None)
        self._folder = Path(answer["stdout"]).parent

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        if self.stdin is not None and not self.stdin.closed:
            self.stdin.close()
        out, err = self.stdout.read(), self.stderr.read()
        self.wait(timeout)
        return out, err

    def poll(self) -> int | None:
        if self.returncode is None:
            self._reaped(_SERVER.ask({"op": "wait", "pid": self.pid, "timeout": 0}))
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            limit = 3600.0 if timeout is None else timeout
            self._reaped(_SERVER.ask({"op": "wait", "pid": self.pid, "timeout": limit}))
            if self.returncode is None:
                raise subprocess.TimeoutExpired(self.args, limit)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _reaped(self, answer: dict[str, Any]) -> None:
        if answer["returncode"] is not None:
            self.returncode = int(answer["returncode"])
            for fifo in ("out", "err", "in"):
                (self._folder / fifo).unlink(missing_ok=True)
            self._folder.rmdir()


_SERVER = _Server()


def run_cashier(*args: str, env: Mapping[str, str] | None = None, stdin: str | None = None,
                timeout: float = 60, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``cashier ARGS`` in a process of its own, as a script or a cashier would run it (forked
    from the worker's pre-imported server; same results as ``python -m cashier.cli ARGS``)."""
    return _SERVER.run(list(args), os.environ if env is None else env, stdin, timeout,
                       Path.cwd() if cwd is None else cwd)


def start_cashier(*args: str, env: Mapping[str, str] | None = None, cwd: Path | None = None,
                  after_a_line: bool = False) -> ForkedProcess:
    """``cashier ARGS`` started in a process of its own and left running (a server a test talks
    to over a socket, or one of several racing commands), forked from the worker's pre-imported
    server."""
    return ForkedProcess(list(args), os.environ if env is None else env,
                         Path.cwd() if cwd is None else cwd, after_a_line)


def start_python(code: str, *args: str, env: Mapping[str, str] | None = None,
                 cwd: Path | None = None) -> ForkedProcess:
    """``python -c CODE ARGS`` started in a process of its own and left running (a second till,
    a writer to kill), forked from the worker's pre-imported server: the code's imports of the
    core are already done."""
    return ForkedProcess(list(args), os.environ if env is None else env,
                         Path.cwd() if cwd is None else cwd, code=code)


if __name__ == "__main__":
    _serve()
